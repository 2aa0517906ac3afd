#include "ks/array/elementwise_kernel.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

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

KernelArgument parseOne(std::string_view text)
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
    if (!dtype)
        throwUsage("ElementwiseKernel", "argument '" + std::string(text) + "': unknown type '" + normalised + "'");
    arg.dtype = *dtype;
    return arg;
}

std::string parameterList(const std::vector<KernelArgument>& args)
{
    std::string s;
    for (const KernelArgument& a : args) {
        s += std::string(a.isConst ? "const " : "") + std::string(cudaTypeName(a.dtype)) + (a.pointer ? " *" : " ") +
             a.name + ", ";
    }
    return s;
}

} // namespace

std::vector<KernelArgument> parseKernelArguments(std::string_view arguments)
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
            out.push_back(parseOne(piece));
        else if (comma != arguments.size() || !out.empty())
            throwUsage("ElementwiseKernel", "empty argument in '" + std::string(arguments) + "'");
        start = comma + 1;
    }
    return out;
}

ElementwiseKernel::ElementwiseKernel(std::string arguments, std::string operation, std::string name,
                                     std::string preamble, std::string loopPrep, std::string afterLoop)
    : m_arguments(parseKernelArguments(arguments)), m_name(std::move(name))
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
    src << devicePrelude() << "\n";
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
    m_source = src.str();
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
            if (a->dtype() != decl.dtype)
                throwUsage(m_name, "argument '" + decl.name + "' is declared " + decl.typeText + "*, got the " +
                                       a->describe());
            if (!a->isCContiguous())
                throwUsage(m_name, "argument '" + decl.name + "': elementwise kernels need C-contiguous arrays (the " +
                                       a->describe() + " has strides " + a->strides().toString() + "); copy() it");
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
    const std::string entry = ranged ? m_name + "_range" : m_name;
    const cuda::Function& f = rt.kernel(m_source, entry, [&] { return m_source; }, m_name + ".cu");
    rt.launch(f, rt.gridStrideConfig(work), params.data());
}

} // namespace ks::array
