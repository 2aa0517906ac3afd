#include "ks/array/algorithm_source.hpp"

#include "device/device_text.hpp"

#include "ks/array/kernel_source.hpp"
#include "ks/core/error.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <stdexcept>

namespace ks::array {
namespace {

// Device code shared by reductions and scans. Everything works for any trivially copyable T (user
// structs included): shuffles move T as 32-bit words, loads pick the widest aligned access.
const char* const kSupport = device_text::kAlgorithmSupport;

// Replaces every @KEY@ in `text` by its value, in one pass: inserted text (user expressions) is
// never scanned again. An unknown key is a bug in the generator.
std::string substitute(const std::string& text, const std::map<std::string, std::string>& values)
{
    std::string out;
    std::size_t pos = 0;
    while (true) {
        const std::size_t open = text.find('@', pos);
        if (open == std::string::npos)
            break;
        const std::size_t close = text.find('@', open + 1);
        const auto it = close == std::string::npos ? values.end() : values.find(text.substr(open + 1, close - open - 1));
        if (it == values.end())
            throw std::logic_error("generator template key missing at: " + text.substr(open, 40));
        out.append(text, pos, open - pos);
        out += it->second;
        pos = close + 1;
    }
    out.append(text, pos, std::string::npos);
    return out;
}

bool isIdentifier(const std::string& s)
{
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0])))
        return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
            return false;
    return true;
}

void requireIdentifier(const std::string& name, const char* function)
{
    if (!isIdentifier(name))
        throwUsage(function, "kernel name '" + name + "' is not a C identifier");
}

// The map reads pointer p only as p[i] and `i` nowhere else: each element's value depends only on
// the elements at the same index, so a vector of consecutive elements can stand in for p.
bool mapIsElementwise(const std::string& mapExpr, const std::vector<KernelArgument>& params)
{
    std::string rest = mapExpr;
    bool anyPointer = false;
    for (const auto& p : params) {
        if (!p.pointer)
            continue;
        anyPointer = true;
        const std::regex indexed("\\b" + p.name + "\\s*\\[\\s*i\\s*\\]");
        rest = std::regex_replace(rest, indexed, " ");
        if (std::regex_search(rest, std::regex("\\b" + p.name + "\\b")))
            return false;
    }
    return anyPointer && !std::regex_search(rest, std::regex("\\bi\\b"));
}

std::string blockDefine()
{
    return "\n#undef KS_BLOCK\n#define KS_BLOCK " + std::to_string(kAlgorithmBlockSize) + "\n";
}

std::string userBlock(const std::string& label, const std::string& code)
{
    if (code.empty())
        return {};
    return "#line 1 \"" + label + "\"\n" + code + "\n";
}

} // namespace

std::string declaration(const KernelArgument& a)
{
    return std::string(a.isConst ? "const " : "") + std::string(cudaTypeName(a.dtype)) + (a.pointer ? " *" : " ") + a.name;
}

const std::string& algorithmSupportSource()
{
    static const std::string source = kSupport;
    return source;
}

GeneratedReduction generateReduction(const ReductionSpec& spec)
{
    const char* fn = "ks::array::generateReduction";
    requireIdentifier(spec.name, fn);
    if (spec.outType.empty() || spec.neutral.empty() || spec.reduceExpr.empty())
        throwUsage(fn, "a reduction needs an output type, a neutral element and a reduce expression");
    GeneratedReduction g;
    g.params = parseKernelArguments(spec.arguments);
    std::string mapExpr = spec.mapExpr;
    if (mapExpr.empty()) {
        if (g.params.empty() || !g.params[0].pointer)
            throwUsage(fn, "without a map expression the first argument must be a pointer (the map is "
                           "\"<first>[i]\")");
        mapExpr = g.params[0].name + "[i]";
    }
    g.vectorizable = mapIsElementwise(mapExpr, g.params);
    g.kernel = spec.name + "_reduce";
    g.vectorKernel = g.vectorizable ? spec.name + "_reduce_vec" : "";
    g.sizeSymbol = spec.name + "_value_size";

    // ks_map takes each pointer as a type of its own (a template parameter): raw pointers and the
    // vector path's local arrays as before, and the checked variant's checked pointers, so that the
    // map's reads are checked too (ks_device/checked.cuh).
    std::string params, names, extraNames, mapParams, mapTemplate;
    for (const auto& p : g.params) {
        params += ", " + declaration(p);
        names += (names.empty() ? "" : ", ") + p.name;
        if (p.pointer) {
            const std::string type = "KS_P_" + p.name;
            mapTemplate += (mapTemplate.empty() ? "template <class " : ", class ") + type;
            mapParams += ", " + type + " " + p.name;
        } else {
            mapParams += ", " + declaration(p);
        }
    }
    if (!mapTemplate.empty())
        mapTemplate += ">\n";
    if (!spec.extraParameters.empty()) {
        params += ", " + spec.extraParameters;
        mapParams += ", " + spec.extraParameters;
        // Each extra declaration's last identifier is its name.
        static const std::regex lastName("([A-Za-z_][A-Za-z_0-9]*)\\s*(,|$)");
        for (std::sregex_iterator it(spec.extraParameters.begin(), spec.extraParameters.end(), lastName), end; it != end; ++it)
            extraNames += ", " + (*it)[1].str();
        names += names.empty() ? extraNames.substr(2) : extraNames;
    }

    std::map<std::string, std::string> values = {
        {"OUT_TYPE", spec.outType}, {"NEUTRAL_EXPR", spec.neutral}, {"REDUCE_EXPR", spec.reduceExpr},
        {"MAP_EXPR", mapExpr},      {"PARAMS", params},            {"NAMES", names.empty() ? "" : ", " + names},
        {"NAME", spec.name},        {"MAP_TEMPLATE", mapTemplate}, {"MAP_PARAMS", mapParams},
    };
    const std::string s = kSupport + userBlock("preamble", spec.preamble);
    std::string generated = blockDefine() + device_text::kReductionKernel;

    if (g.vectorizable) {
        // Local arrays stand in for the pointers: the map, inlined, reads registers.
        std::string elementTypes, decls, loads, loadsOne, vecNames;
        int pointerCount = 0;
        for (const auto& p : g.params) {
            if (!p.pointer) {
                vecNames += ", " + p.name;
                continue;
            }
            ++pointerCount;
            const std::string element(cudaTypeName(p.dtype));
            elementTypes += (elementTypes.empty() ? "" : ", ") + element;
            decls += "        " + element + " ks_l_" + p.name + "[KS_U][KS_V];\n";
            loads += "            ks_algo::loadVec<KS_V>(ks_l_" + p.name + "[u], " + p.name + " + (v + u * ks_stride) * KS_V);\n";
            loadsOne += "        ks_algo::loadVec<KS_V>(ks_l_" + p.name + "[0], " + p.name + " + v * KS_V);\n";
            vecNames += ", ks_l_" + p.name + "[u]";
        }
        const std::string k = device_text::kReductionVectorKernel;
        values["ELEMENT_TYPES"] = elementTypes;
        values["UNROLL"] = pointerCount == 1 ? "4" : "2";
        values["DECLS"] = decls;
        values["LOADS_ONE"] = loadsOne;
        values["LOADS"] = loads;
        values["VECNAMES"] = vecNames + extraNames;
        generated += k;
    }
    g.source = s + substitute(generated, values);
    g.source = preludeFor(g.source) + g.source;
    return g;
}

GeneratedScan generateScan(const ScanSpec& spec)
{
    const char* fn = "ks::array::generateScan";
    requireIdentifier(spec.name, fn);
    if (spec.type.empty() || spec.scanExpr.empty())
        throwUsage(fn, "a scan needs an element type and a scan expression");
    if (spec.exclusive && spec.neutral.empty())
        throwUsage(fn, "an exclusive scan needs a neutral element (the first output)");
    const ScanTuning& tuning = spec.tuning;
    if (tuning.vectorBlock < 32 || tuning.vectorBlock % 32 != 0 || tuning.vectorBlock > 1024 || tuning.vectorChunks < 1 ||
        tuning.vectorChunks * (tuning.vectorBlock / 32) > 32 || tuning.firstPauseNs < 0 || tuning.pauseNs < 0 ||
        tuning.firstPauseNs > 1000000 || tuning.pauseNs > 1000000)
        throwUsage(fn, "scan tuning out of range: the vector kernel needs a block of whole warps with chunks x warps "
                       "<= 32, and pauses of 0 to 1 ms");
    GeneratedScan g;
    g.kernel = spec.name;
    g.vectorKernel = spec.name + "_vec";
    g.tileSymbol = spec.name + "_tile";
    g.vectorTileSymbol = spec.name + "_vec_tile";
    g.sizeSymbol = spec.name + "_value_size";
    g.packedSymbol = spec.name + "_packed";

    const std::string s = kSupport + userBlock("preamble", spec.preamble);
    const std::string generated = blockDefine() + device_text::kScanKernels;
    const std::map<std::string, std::string> values = {
        {"NEUTRAL_FUNCTION", spec.neutral.empty() ? std::string()
                                                  : "__device__ __forceinline__ ks_t ks_neutral() { return ks_t(" +
                                                        spec.neutral + "); }"},
        {"KS_EXCLUSIVE", spec.exclusive ? "1" : "0"},
        {"VBLOCK", std::to_string(tuning.vectorBlock)},
        {"VCHUNKS", std::to_string(tuning.vectorChunks)},
        {"FIRST_PAUSE", std::to_string(tuning.firstPauseNs) + "u"},
        {"PAUSE", std::to_string(tuning.pauseNs) + "u"},
        {"VALUE_TYPE", spec.type},
        {"SCAN_EXPR", spec.scanExpr},
        {"NAME", spec.name},
    };
    g.source = s + substitute(generated, values);
    g.source = preludeFor(g.source) + g.source;
    return g;
}

int scanTileElements(std::size_t valueSize)
{
    const std::size_t items = std::min<std::size_t>(16, std::max<std::size_t>(1, 64 / std::max<std::size_t>(1, valueSize)));
    return int(kAlgorithmBlockSize * items);
}

int scanVectorTileElements(std::size_t valueSize, const ScanTuning& tuning)
{
    return tuning.vectorBlock * tuning.vectorChunks * int(16 / std::max<std::size_t>(valueSize, 1));
}

ScanScratch scanScratchSize(unsigned long long n, int tileElements, int valueSize, bool packed)
{
    ScanScratch s;
    s.tiles = (n + unsigned(tileElements) - 1) / unsigned(tileElements);
    s.zeroBytes = 16 + s.tiles * 8;
    s.bytes = s.zeroBytes;
    if (!packed)
        s.bytes = (s.zeroBytes + 15) / 16 * 16 + 2 * s.tiles * std::size_t(valueSize);
    return s;
}

} // namespace ks::array
