#include "ks/rtc/kernel_facts.hpp"

#include "ks/core/numbers.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/symbols.hpp"
#include "ks/syntax/type_layout.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace ks::rtc {

namespace {

int intAfter(const std::string& line, const std::regex& re)
{
    std::smatch m;
    return std::regex_search(line, m, re) ? leadingInt(std::string(m[1])) : 0;
}

std::size_t ptxTypeBytes(const std::string& t)
{
    // .u8 .s16 .b32 .f64 .pred ...
    const std::size_t digits = t.find_first_of("0123456789");
    if (digits == std::string::npos)
        return t == ".pred" ? 1 : 0;
    return std::size_t(leadingInt(std::string_view(t).substr(digits))) / 8;
}

// The parameter types of a demangled "name(type, type<a, b>, ...)".
std::vector<syntax::KernelParam> parametersOfDemangled(const std::string& demangled)
{
    std::vector<syntax::KernelParam> params;
    const std::size_t close = demangled.rfind(')');
    if (close == std::string::npos)
        return params;
    int depth = 0;
    std::size_t open = std::string::npos;
    for (std::size_t i = close + 1; i-- > 0;) {
        if (demangled[i] == ')')
            ++depth;
        else if (demangled[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string::npos)
        return params;
    std::string current;
    depth = 0;
    for (std::size_t i = open + 1; i <= close; ++i) {
        const char c = demangled[i];
        if (c == '<' || c == '(' || c == '[')
            ++depth;
        else if (c == '>' || (c == ')' && i != close) || c == ']')
            --depth;
        if ((c == ',' && depth == 0) || i == close) {
            const std::size_t a = current.find_first_not_of(' ');
            if (a != std::string::npos && current != "void")
                params.push_back({.type = current.substr(a)});
            current.clear();
        } else {
            current += c;
        }
    }
    return params;
}

// "void ns::tk<float>(float*, int)" -> "ns::tk<float>"
std::string nameOfDemangled(const std::string& demangled)
{
    std::string s = demangled;
    if (s.rfind("void ", 0) == 0)
        s = s.substr(5);
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<')
            ++depth;
        else if (s[i] == '>')
            --depth;
        else if (s[i] == '(' && depth == 0)
            return s.substr(0, i);
    }
    return s;
}

void crossCheck(KernelFacts& k)
{
    if (k.ptxParams.empty() && k.params.empty())
        return;
    if (k.params.size() != k.ptxParams.size()) {
        k.problems.push_back("the source declares " + std::to_string(k.params.size()) +
                             " parameters, the PTX has " + std::to_string(k.ptxParams.size()));
        return;
    }
    for (std::size_t i = 0; i < k.params.size(); ++i) {
        const auto layout = syntax::knownTypeLayout(k.params[i].type);
        if (!layout)
            continue;
        const PtxParameter& p = k.ptxParams[i];
        const std::string which = "parameter " + std::to_string(i + 1) +
                                  (k.params[i].name.empty() ? "" : " '" + k.params[i].name + "'") + " (" +
                                  k.params[i].type + ")";
        if (layout->size != p.size)
            k.problems.push_back(which + ": " + std::to_string(layout->size) + " bytes on the host, " +
                                 std::to_string(p.size) + " in the PTX");
        else if (layout->align != p.align)
            k.problems.push_back(which + ": aligned to " + std::to_string(layout->align) + " bytes on the host, " +
                                 std::to_string(p.align) + " in the PTX");
    }
}

} // namespace

PtxasReport parsePtxasReport(std::string_view log)
{
    static const std::regex compiling(R"(Compiling entry function '([^']+)')");
    static const std::regex properties(R"(Function properties for (\S+))");
    static const std::regex stack(R"((\d+) bytes stack frame)");
    static const std::regex spillStores(R"((\d+) bytes spill stores)");
    static const std::regex spillLoads(R"((\d+) bytes spill loads)");
    static const std::regex registers(R"(Used (\d+) registers)");
    static const std::regex barriers(R"(used (\d+) barriers)");
    static const std::regex smem(R"((\d+) bytes smem)");
    static const std::regex cmem(R"((\d+) bytes cmem\[0\])");
    static const std::regex cumulative(R"((\d+) bytes cumulative stack size)");
    static const std::regex gmem(R"(^ptxas info\s*: (\d+) bytes gmem)");
    static const std::regex time(R"(Compile time = ([0-9.]+) ms)");
    PtxasReport report;
    PtxasKernelReport* current = nullptr;
    std::string propertiesOf;
    std::istringstream in{std::string(log)};
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("ptxas", 0) != 0)
            continue;
        std::smatch m;
        if (std::regex_search(line, m, compiling)) {
            report.kernels.push_back({});
            current = &report.kernels.back();
            current->symbol = m[1];
        } else if (std::regex_search(line, m, properties)) {
            propertiesOf = m[1];
        } else if (std::regex_search(line, m, stack)) {
            if (current && propertiesOf == current->symbol) {
                current->stackFrameBytes = leadingInt(std::string(m[1]));
                current->spillStoreBytes = intAfter(line, spillStores);
                current->spillLoadBytes = intAfter(line, spillLoads);
            }
        } else if (std::regex_search(line, m, registers)) {
            if (current) {
                current->registers = leadingInt(std::string(m[1]));
                current->barriers = intAfter(line, barriers);
                current->sharedBytes = intAfter(line, smem);
                current->constBytes = intAfter(line, cmem);
                current->cumulativeStackBytes = intAfter(line, cumulative);
            }
        } else if (std::regex_search(line, m, time)) {
            if (current)
                current->ptxasMs = std::strtod(std::string(m[1]).c_str(), nullptr);
        } else if (std::regex_search(line, m, gmem)) {
            report.globalBytes = leadingInt(std::string(m[1]));
        }
    }
    return report;
}

std::vector<PtxEntry> parsePtxEntries(std::string_view ptx)
{
    static const std::regex param(R"(\.param\s+(.*?)\s*([A-Za-z_$][\w$]*)(?:\[(\d+)\])?\s*,?\s*$)");
    static const std::regex align(R"(\.align\s+(\d+))");
    static const std::regex type(R"((\.(?:[usbf](?:8|16|32|64)|pred)))");
    static const std::regex ntid(R"(\.(?:maxntid|reqntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?)");
    std::vector<PtxEntry> out;
    std::size_t pos = 0;
    while ((pos = ptx.find(".entry ", pos)) != std::string_view::npos) {
        PtxEntry e;
        const std::size_t nameStart = pos + 7;
        const std::size_t paren = ptx.find('(', nameStart);
        const std::size_t body = ptx.find('{', nameStart);
        if (paren == std::string_view::npos || body == std::string_view::npos)
            break;
        const bool hasParams = paren < body;
        std::string name(ptx.substr(nameStart, (hasParams ? paren : body) - nameStart));
        name.erase(std::remove_if(name.begin(), name.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }),
                   name.end());
        e.symbol = name;
        std::size_t close = hasParams ? ptx.find(')', paren) : paren;
        if (hasParams) {
            std::istringstream params{std::string(ptx.substr(paren + 1, close - paren - 1))};
            std::string line;
            while (std::getline(params, line)) {
                std::smatch m;
                if (!std::regex_search(line, m, param))
                    continue;
                const std::string attrs = m[1];
                PtxParameter p;
                std::smatch t;
                std::regex_search(attrs, t, type);
                p.ptxType = t.empty() ? "" : std::string(t[1]);
                const std::size_t elem = ptxTypeBytes(p.ptxType);
                const std::size_t count = m[3].matched ? std::size_t(leadingNumber(std::string(m[3]))) : 1;
                p.size = elem * count;
                if (m[3].matched)
                    p.ptxType += "[" + std::string(m[3]) + "]";
                // After .ptr, .align is the pointee's alignment, not the parameter's.
                p.pointer = attrs.find(".ptr") != std::string::npos;
                std::smatch a;
                p.align = !p.pointer && std::regex_search(attrs, a, align) ? std::size_t(leadingNumber(std::string(a[1]))) : elem;
                e.params.push_back(p);
            }
        }
        const std::string between(ptx.substr(close + 1, body - close - 1));
        std::smatch n;
        if (std::regex_search(between, n, ntid)) {
            // .maxntid x, y, z: their product, saturated (a hostile PTX could overflow an int)
            std::int64_t threads = leadingNumber(std::string(n[1]), 1 << 20);
            threads *= n[2].matched ? leadingNumber(std::string(n[2]), 1 << 20) : 1;
            threads = std::min<std::int64_t>(threads, 1 << 30);
            threads *= n[3].matched ? leadingNumber(std::string(n[3]), 1 << 20) : 1;
            e.maxThreads = int(std::min<std::int64_t>(threads, std::numeric_limits<int>::max()));
        }
        out.push_back(std::move(e));
        pos = body;
    }
    return out;
}

cuda::Occupancy KernelFacts::occupancy(const cuda::OccupancyLimits& limits, int blockSize, int dynamicSharedBytes) const
{
    cuda::OccupancyInput in;
    in.registersPerThread = resources.registers;
    in.staticSharedBytes = resources.sharedBytes;
    in.dynamicSharedBytes = dynamicSharedBytes;
    in.blockSize = blockSize;
    in.kernelMaxThreads = maxThreadsPerBlock;
    return cuda::theoreticalOccupancy(limits, in);
}

std::vector<std::string> nameExpressionsFor(const std::vector<syntax::KernelSignature>& kernels)
{
    std::vector<std::string> names;
    for (const syntax::KernelSignature& k : kernels)
        if (const std::string name = k.qualifiedName();
            !k.externC && !k.isTemplate() && std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
    return names;
}

ModuleFacts collectFacts(const std::vector<syntax::KernelSignature>& kernels, const std::vector<std::string>& nameExpressions,
                         const CompileResult& result, const std::string& arch)
{
    ModuleFacts facts;
    facts.arch = arch;
    const cuda::OccupancyLimits limits = cuda::OccupancyLimits::forArch(arch, &facts.archKnown);
    facts.cubinBytes = result.cubin.size();
    facts.ptxBytes = result.ptx.size();
    facts.compileMs = result.compileMs;
    const std::vector<PtxEntry> entries = parsePtxEntries(result.ptx);
    const PtxasReport report = parsePtxasReport(result.log);
    facts.globalBytes = report.globalBytes;
    std::vector<bool> used(entries.size(), false);

    auto complete = [&](KernelFacts& k) {
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (entries[i].symbol != k.symbol)
                continue;
            used[i] = true;
            k.ptxParams = entries[i].params;
            for (const PtxasKernelReport& r : report.kernels)
                if (r.symbol == k.symbol) {
                    k.resources = r;
                    k.resourcesKnown = true;
                }
            k.maxThreadsPerBlock = cuda::maxThreadsPerBlockFor(limits, k.resources.registers, entries[i].maxThreads);
            crossCheck(k);
            return true;
        }
        return false;
    };

    for (const syntax::KernelSignature& sig : kernels) {
        const std::string sigName = sig.qualifiedName();
        if (sig.isTemplate()) {
            // One entry per instantiation NVRTC emitted.
            bool any = false;
            for (std::size_t i = 0; i < entries.size(); ++i) {
                const std::string demangled = demangle(entries[i].symbol);
                const std::string name = nameOfDemangled(demangled);
                if (name.rfind(sigName + "<", 0) != 0)
                    continue;
                KernelFacts k;
                k.name = name;
                k.symbol = entries[i].symbol;
                k.signature = sig;
                k.params = parametersOfDemangled(demangled);
                complete(k);
                facts.kernels.push_back(std::move(k));
                any = true;
            }
            if (!any) {
                KernelFacts k;
                k.name = sigName;
                k.signature = sig;
                k.params = sig.params;
                k.problems.push_back("a template kernel with no instantiation in this file: nothing to launch "
                                     "(instantiate it, e.g. `template __global__ void " +
                                     sigName + "<float>(...);`)");
                facts.kernels.push_back(std::move(k));
            }
            continue;
        }
        KernelFacts k;
        k.name = sigName;
        k.signature = sig;
        k.params = sig.params;
        if (sig.externC) {
            k.symbol = sig.name;
        } else {
            k.symbol = cuda::loweredNameOf(sigName, nameExpressions, result.loweredNames).value_or("");
        }
        if (k.symbol.empty())
            k.problems.push_back("NVRTC has no lowered name for '" + sigName +
                                 "': it is not in the compiled module (inside #if 0, or not a name expression)");
        else if (!complete(k))
            k.problems.push_back("no entry '" + k.symbol + "' in the PTX (is it compiled out by #if?)");
        // A C++ kernel's lowered name must demangle to the parameters the source shows.
        if (!sig.externC && !k.symbol.empty()) {
            const auto lowered = parametersOfDemangled(demangle(k.symbol));
            if (lowered.size() != sig.params.size())
                k.problems.push_back("the lowered name '" + k.symbol + "' has " + std::to_string(lowered.size()) +
                                     " parameters, the source " + std::to_string(sig.params.size()));
        }
        facts.kernels.push_back(std::move(k));
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (used[i] || std::any_of(facts.kernels.begin(), facts.kernels.end(),
                                   [&](const KernelFacts& k) { return k.symbol == entries[i].symbol; }))
            continue;
        KernelFacts k;
        const std::string demangled = demangle(entries[i].symbol);
        k.name = demangled == entries[i].symbol ? demangled : nameOfDemangled(demangled);
        k.symbol = entries[i].symbol;
        if (demangled != entries[i].symbol)
            k.params = parametersOfDemangled(demangled);
        complete(k);
        k.problems.push_back("not found in the source by the signature scanner (made by a macro?)");
        facts.kernels.push_back(std::move(k));
    }
    return facts;
}

} // namespace ks::rtc
