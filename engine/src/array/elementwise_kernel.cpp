#include "ks/array/elementwise_kernel.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace ks::array {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool isIdentifier(std::string_view s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

KernelArgument parseOne(std::string_view text, const std::string* structPreamble)
{
    KernelArgument arg;
    std::string t(trim(text));
    // The name is the trailing identifier.
    std::size_t end = t.size();
    std::size_t begin = end;
    while (begin > 0 && (std::isalnum(static_cast<unsigned char>(t[begin - 1])) || t[begin - 1] == '_'))
        --begin;
    arg.name = t.substr(begin, end - begin);
    if (!isIdentifier(arg.name))
        throwUsage("ElementwiseKernel", "cannot read argument '" + std::string(text) + "': no name");
    std::string type = t.substr(0, begin);
    for (std::size_t p; (p = type.find('*')) != std::string::npos;) {
        if (arg.pointer)
            throwUsage("ElementwiseKernel", "argument '" + std::string(text) + "': pointers to pointers are not supported");
        arg.pointer = true;
        type.erase(p, 1);
    }
    for (const char* qualifier : {"__restrict__", "const", "volatile"}) {
        for (std::size_t p; (p = type.find(qualifier)) != std::string::npos;) {
            if (std::string_view(qualifier) == "const")
                arg.isConst = true;
            type.erase(p, std::string_view(qualifier).size());
        }
    }
    // Normalise whitespace ("unsigned   int" -> "unsigned int").
    std::string normalised;
    std::istringstream words(type);
    for (std::string w; words >> w;)
        normalised += (normalised.empty() ? "" : " ") + w;
    arg.typeText = normalised;
    const auto dtype = parseDType(normalised);
    if (!dtype && structPreamble) {
        std::string why;
        try {
            arg.structType = StructType::vector(normalised);
        } catch (const Error&) {
            try {
                arg.structType = StructType::record(normalised, *structPreamble);
            } catch (const Error& e) {
                why = std::string(": ") + e.what();
            }
        }
        if (!arg.structType)
            throwUsage("ElementwiseKernel", "argument '" + std::string(text) + "': unknown type '" + normalised +
                                                "' (no dtype, no CUDA vector type, no struct of the preamble" + why + ")");
        if (!arg.pointer)
            throwUsage("ElementwiseKernel", "argument '" + std::string(text) + "': a " + normalised +
                                                " is passed in an array (" + normalised + " *" + arg.name +
                                                "), not by value");
        arg.dtype = DType::Struct;
        return arg;
    }
    if (!dtype)
        throwUsage("ElementwiseKernel", "argument '" + std::string(text) + "': unknown type '" + normalised + "'");
    arg.dtype = *dtype;
    return arg;
}

std::string parameterList(const std::vector<KernelArgument>& args)
{
    std::string s;
    for (const KernelArgument& a : args)
        s += std::string(a.isConst ? "const " : "") + argumentTypeName(a) + (a.pointer ? " *" : " ") + a.name + ", ";
    return s;
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Positions of `name` as a whole identifier in `text`.
std::vector<std::size_t> identifierPositions(std::string_view text, std::string_view name)
{
    std::vector<std::size_t> at;
    for (std::size_t p = text.find(name); p != std::string_view::npos; p = text.find(name, p + 1)) {
        const bool before = p > 0 && isIdentChar(text[p - 1]);
        const bool after = p + name.size() < text.size() && isIdentChar(text[p + name.size()]);
        if (!before && !after)
            at.push_back(p);
    }
    return at;
}

std::size_t skipBlanks(std::string_view s, std::size_t p)
{
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t'))
        ++p;
    return p;
}

} // namespace

ElementwiseVectorPlan planElementwiseVector(const std::vector<KernelArgument>& args, std::string_view operation,
                                            std::string_view preamble, bool hasLoopPrepOrAfterLoop)
{
    ElementwiseVectorPlan plan;
    plan.load.assign(args.size(), false);
    plan.store.assign(args.size(), false);
    if (hasLoopPrepOrAfterLoop)
        return plan;
    for (const char* word : {"return", "break", "continue", "goto", "asm", "__syncthreads", "__shfl_sync",
                             "atomicAdd", "atomicCAS", "atomicExch", "atomicMin", "atomicMax", "atomicSub",
                             "atomicAnd", "atomicOr", "atomicXor", "atomicInc", "atomicDec"})
        if (!identifierPositions(operation, word).empty())
            return plan;
    // Without branches every written array is assigned on every element, so its old values need no
    // load; with them (if, ?:, loops, &&, ||) a written array is loaded too, keeping unwritten elements.
    bool branches = operation.find('?') != std::string_view::npos || operation.find("&&") != std::string_view::npos ||
                    operation.find("||") != std::string_view::npos;
    for (const char* word : {"if", "for", "while", "do", "switch"})
        branches = branches || !identifierPositions(operation, word).empty();

    struct Hit {
        std::size_t begin, end;
        std::size_t arg;
    };
    std::vector<Hit> hits;
    std::size_t widest = 0;
    for (std::size_t k = 0; k < args.size(); ++k) {
        const KernelArgument& a = args[k];
        if (!a.pointer)
            continue;
        if (!identifierPositions(preamble, a.name).empty() || a.dtype == DType::Struct)
            return plan;
        const auto at = identifierPositions(operation, a.name);
        if (at.empty())
            continue; // untouched: neither loaded nor stored, needs no alignment
        widest = std::max(widest, itemSize(a.dtype));
        bool read = false, written = false;
        for (const std::size_t p : at) {
            // Exactly name [ i ] with blanks only.
            std::size_t q = skipBlanks(operation, p + a.name.size());
            if (q >= operation.size() || operation[q] != '[')
                return plan;
            q = skipBlanks(operation, q + 1);
            if (q >= operation.size() || operation[q] != 'i' || (q + 1 < operation.size() && isIdentChar(operation[q + 1])))
                return plan;
            q = skipBlanks(operation, q + 1);
            if (q >= operation.size() || operation[q] != ']')
                return plan;
            const std::size_t end = q + 1;
            // Before: '&' (address taken) or '++'/'--' (read-modify-write); '.'/'->' would be a member.
            std::size_t b = p;
            while (b > 0 && (operation[b - 1] == ' ' || operation[b - 1] == '\t'))
                --b;
            const std::string_view prev = operation.substr(b >= 2 ? b - 2 : 0, b >= 2 ? 2 : b);
            if (!prev.empty() && (prev.back() == '.' || prev == "->"))
                return plan;
            if (!prev.empty() && prev.back() == '&' && prev != "&&")
                return plan;
            const bool preIncrement = prev == "++" || prev == "--";
            // After: '=' alone is a plain store; compound assignment or ++/-- read and write.
            const std::size_t n = skipBlanks(operation, end);
            const std::string_view next = operation.substr(n, 3);
            const bool plainStore = !next.empty() && next[0] == '=' && (next.size() < 2 || next[1] != '=');
            bool compound = next.starts_with("++") || next.starts_with("--") || preIncrement;
            for (const char* op : {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})
                compound = compound || next.starts_with(op);
            if (plainStore) {
                written = true;
            } else if (compound) {
                read = written = true;
            } else {
                read = true;
            }
            hits.push_back({p, end, k});
        }
        if (written && a.isConst)
            return plan; // the scalar kernel reports the error
        plan.store[k] = written;
        plan.load[k] = read || (written && branches);
    }
    if (widest == 0 || widest > 8)
        return plan;
    std::sort(hits.begin(), hits.end(), [](const Hit& x, const Hit& y) { return x.begin < y.begin; });
    std::string rewritten;
    std::size_t from = 0;
    for (const Hit& h : hits) {
        rewritten += operation.substr(from, h.begin - from);
        rewritten += "ks_v_" + args[h.arg].name + ".v[ks_e]";
        from = h.end;
    }
    rewritten += operation.substr(from);
    plan.operation = std::move(rewritten);
    plan.width = int(16 / widest);
    return plan;
}

std::string argumentTypeName(const KernelArgument& a)
{
    return a.structType ? a.structType->name : std::string(cudaTypeName(a.dtype));
}

std::vector<KernelArgument> parseKernelArguments(std::string_view arguments, const std::string* structPreamble)
{
    std::vector<KernelArgument> out;
    // Commas inside template arguments ("pycuda::complex<float>") have no comma, so a plain split works.
    std::size_t start = 0;
    while (start <= arguments.size()) {
        std::size_t comma = arguments.find(',', start);
        if (comma == std::string_view::npos)
            comma = arguments.size();
        const std::string_view piece = trim(arguments.substr(start, comma - start));
        if (!piece.empty())
            out.push_back(parseOne(piece, structPreamble));
        else if (comma != arguments.size() || !out.empty())
            throwUsage("ElementwiseKernel", "empty argument in '" + std::string(arguments) + "'");
        start = comma + 1;
    }
    return out;
}

ElementwiseKernel::ElementwiseKernel(std::string arguments, std::string operation, std::string name,
                                     std::string preamble, std::string loopPrep, std::string afterLoop)
    : m_arguments(parseKernelArguments(arguments, &preamble)), m_name(std::move(name))
{
    if (!isIdentifier(m_name))
        throwUsage("ElementwiseKernel", "kernel name '" + m_name + "' is not an identifier");
    bool anyArray = false;
    for (const KernelArgument& a : m_arguments)
        anyArray = anyArray || a.pointer;
    if (!anyArray)
        throwUsage("ElementwiseKernel", "'" + arguments + "' has no array (pointer) argument to take the size from");
    const std::string params = parameterList(m_arguments);
    std::ostringstream src;
    if (!preamble.empty())
        src << "#line 1 \"preamble\"\n" << preamble << "\n";
    auto body = [&](const char* loop) {
        src << "{\n    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            << "    const long long total_threads = (long long)gridDim.x * blockDim.x;\n"
            << "    long long i;\n"
            << "    (void)total_threads;\n";
        if (!loopPrep.empty())
            src << "#line 1 \"loop_prep\"\n" << loopPrep << "\n";
        src << "    " << loop << " {\n#line 1 \"operation\"\n" << operation << ";\n    }\n";
        if (!afterLoop.empty())
            src << "#line 1 \"after_loop\"\n" << afterLoop << "\n";
        src << "}\n";
    };
    src << "extern \"C\" __global__ void " << m_name << "(" << params << "long long n)\n";
    body("for (i = tid; i < n; i += total_threads)");
    src << "extern \"C\" __global__ void " << m_name << "_range(" << params
        << "long long start, long long stop, long long step, long long n)\n";
    body("for (i = start + tid * step; step < 0 ? i > stop : i < stop; i += total_threads * step)");

    // Vector entry: each thread takes V consecutive elements per step, one Vec load/store per array.
    m_vector = planElementwiseVector(m_arguments, operation, preamble, !loopPrep.empty() || !afterLoop.empty());
    if (m_vector.width > 1) {
        src << "extern \"C\" __global__ void " << m_name << "_vec(" << params << "long long n)\n{\n"
            << "    const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
            << "    const long long total_threads = (long long)gridDim.x * blockDim.x;\n"
            << "    (void)total_threads;\n"
            << "    constexpr int KS_V = " << m_vector.width << ";\n"
            << "    const long long ks_nv = n / KS_V;\n"
            << "    for (long long ks_j = tid; ks_j < ks_nv; ks_j += total_threads) {\n";
        for (std::size_t k = 0; k < m_arguments.size(); ++k) {
            if (!m_vector.load[k] && !m_vector.store[k])
                continue;
            const KernelArgument& a = m_arguments[k];
            const std::string vec = "ks::Vec<" + std::string(cudaTypeName(a.dtype)) + ", KS_V>";
            src << "        " << vec << " ks_v_" << a.name;
            if (m_vector.load[k])
                src << " = ks_cast<const " << vec << ">(" << a.name << ")[ks_j]";
            src << ";\n";
        }
        src << "#pragma unroll\n        for (int ks_e = 0; ks_e < KS_V; ++ks_e) {\n"
            << "            long long i = ks_j * KS_V + ks_e;\n            (void)i;\n"
            << "#line 1 \"operation\"\n" << m_vector.operation << ";\n        }\n";
        for (std::size_t k = 0; k < m_arguments.size(); ++k)
            if (m_vector.store[k])
                src << "        ks_cast<ks::Vec<" << cudaTypeName(m_arguments[k].dtype) << ", KS_V>>("
                    << m_arguments[k].name << ")[ks_j] = ks_v_" << m_arguments[k].name << ";\n";
        src << "    }\n    for (long long i = ks_nv * KS_V + tid; i < n; i += total_threads) {\n"
            << "#line 1 \"operation\"\n" << operation << ";\n    }\n}\n";
    }
    m_source = preludeFor(src.str()) + "\n" + src.str();
}

std::shared_ptr<const rtc::CompileResult> ElementwiseKernel::compile(Runtime& rt) const
{
    return rt.compileCache().compile(m_source, m_name + ".cu", rt.compileOptions());
}

void ElementwiseKernel::operator()(Runtime& rt, std::span<const MapArg> args, const ElementwiseCall& call) const
{
    if (args.size() != m_arguments.size())
        throwUsage(m_name, "takes " + std::to_string(m_arguments.size()) + " arguments, " + std::to_string(args.size()) +
                               " given");
    std::vector<CUdeviceptr> pointers(args.size());
    struct alignas(16) Slot {
        unsigned char bytes[16];
    };
    std::vector<Slot> scalars(args.size());
    std::vector<void*> params;
    std::optional<std::int64_t> n;
    for (std::size_t k = 0; k < args.size(); ++k) {
        const KernelArgument& decl = m_arguments[k];
        if (decl.pointer) {
            const DeviceArray* a = std::get_if<DeviceArray>(&args[k]);
            if (!a)
                throwUsage(m_name, "argument " + std::to_string(k) + " ('" + decl.name + "') must be an array");
            const bool sameStruct = !decl.structType || (a->structType() && decl.structType->sameAs(*a->structType()));
            if (a->dtype() != decl.dtype || !sameStruct)
                throwUsage(m_name, "argument '" + decl.name + "' is declared " + decl.typeText + "*, got the " +
                                       a->describe());
            if (!a->isCContiguous())
                throwUsage(m_name, "argument '" + decl.name + "': elementwise kernels need C-contiguous arrays, the " +
                                       a->describe() + " is " + a->describeLayout() + "; copy(Order::C) it");
            if (a->runtimePtr() != &rt)
                throwUsage(m_name, "argument '" + decl.name + "' belongs to another runtime");
            if (!n)
                n = a->size();
            pointers[k] = a->data();
            params.push_back(&pointers[k]);
        } else {
            const Scalar* s = std::get_if<Scalar>(&args[k]);
            if (!s)
                throwUsage(m_name, "argument " + std::to_string(k) + " ('" + decl.name + "') must be a scalar");
            s->store(decl.dtype, scalars[k].bytes);
            params.push_back(scalars[k].bytes);
        }
    }
    long long count = *n;
    long long start = 0, stop = 0, step = 1;
    const bool ranged = call.range || call.slice;
    if (call.range && call.slice)
        throwUsage(m_name, "give range or slice, not both");
    if (call.range) {
        if (call.range->step == 0)
            throwUsage(m_name, "range step must not be zero");
        step = call.range->step;
        start = call.range->start.value_or(0);
        stop = call.range->stop.value_or(step > 0 ? count : -1);
    } else if (call.slice) {
        const SliceRange r = normalizeSlice(*call.slice, count);
        start = r.start;
        step = r.step;
        stop = r.start + r.count * r.step;
    }
    std::uint64_t work = std::uint64_t(count);
    if (ranged) {
        const long long span = step > 0 ? stop - start : start - stop;
        const long long absStep = step > 0 ? step : -step;
        work = span > 0 ? std::uint64_t((span + absStep - 1) / absStep) : 0;
        params.push_back(&start);
        params.push_back(&stop);
        params.push_back(&step);
    }
    params.push_back(&count);
    if (work == 0)
        return;
    // The vector entry needs every array it touches aligned to its Vec (16 bytes or narrower).
    bool vector = !ranged && m_vector.width > 1;
    for (std::size_t k = 0; k < args.size() && vector; ++k)
        if (m_vector.load[k] || m_vector.store[k])
            vector = pointers[k] % (std::uint64_t(m_vector.width) * itemSize(m_arguments[k].dtype)) == 0;
    // One array under two names, one of them written: element order matters (a store through one
    // name must be seen by a later read through the other), so keep the scalar loop.
    for (std::size_t k = 0; k < args.size() && vector; ++k)
        for (std::size_t l = k + 1; l < args.size() && vector; ++l)
            if (m_arguments[k].pointer && m_arguments[l].pointer && pointers[k] == pointers[l] &&
                (m_vector.store[k] || m_vector.store[l]))
                vector = false;
    const std::string entry = ranged ? m_name + "_range" : (vector ? m_name + "_vec" : m_name);
    if (vector)
        work = std::max<std::uint64_t>(work / std::uint64_t(m_vector.width), 1);
    const cuda::Function& f = rt.kernel(m_source, entry, [&] { return m_source; }, m_name + ".cu");
    rt.launch(f, rt.gridStrideConfig(work), params.data());
}

} // namespace ks::array
