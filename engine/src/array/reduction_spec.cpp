#include "ks/array/reduction.hpp"

#include "ks/core/error.hpp"

#include "device/device_text.hpp"

// The built-in reductions' specs, apart from reduction.cpp so that tools compiling them (unit
// tests without a device) do not pull in the array runtime.

namespace ks::array {
namespace {

static_assert(kMaxDims == 8, "device/strided_layout.cuh spells the dimension limit");

std::string typeName(DType t)
{
    return std::string(cudaTypeName(t));
}

// Literal of the largest / smallest value of `t` (min/max neutrals).
std::string extremeLiteral(DType t, bool largest)
{
    switch (t) {
    case DType::Bool: return largest ? "true" : "false";
    case DType::Float32: return largest ? "__int_as_float(0x7f800000)" : "__int_as_float(0xff800000)";
    case DType::Float64:
        return largest ? "__longlong_as_double(0x7ff0000000000000LL)" : "__longlong_as_double((long long)0xfff0000000000000ULL)";
    case DType::Int8: return largest ? "127" : "-128";
    case DType::Int16: return largest ? "32767" : "-32768";
    case DType::Int32: return largest ? "2147483647" : "(-2147483647 - 1)";
    case DType::Int64: return largest ? "9223372036854775807LL" : "(-9223372036854775807LL - 1)";
    case DType::UInt8: return largest ? "255" : "0";
    case DType::UInt16: return largest ? "65535" : "0";
    case DType::UInt32: return largest ? "4294967295U" : "0U";
    case DType::UInt64: return largest ? "18446744073709551615ULL" : "0ULL";
    default:
        throwUsage("ks::array reductions", "no minimum or maximum of " + std::string(dtypeName(t)) + " values");
    }
}

} // namespace

std::string builtinReductionName(const std::string& kind, DType in, DType in2, DType out, bool strided)
{
    return "ks_" + kind + "_" + std::string(dtypeName(in)) + "_" + std::string(dtypeName(in2)) + "_" +
           std::string(dtypeName(out)) + (strided ? "_s" : "_c");
}

ReductionSpec builtinReductionSpec(const std::string& kind, DType in, DType in2, DType out, bool strided)
{
    const std::string I = typeName(in), J = typeName(in2), O = typeName(out);
    const std::string cast = "ks::cast<" + O + ">(";
    auto at = [&](const char* p, const char* layout) {
        return strided ? std::string("ks_at(") + p + ", i, " + layout + ")" : std::string(p) + "[i]";
    };
    ReductionSpec s;
    s.outType = O;
    s.name = builtinReductionName(kind, in, in2, out, strided);
    s.preamble = strided ? device_text::kStridedLayout : "";
    const std::string x = "const " + I + " *x";
    const std::string y = "const " + J + " *y";
    if (strided)
        s.extraParameters = kind == "dot" ? "ks_layout lx, ks_layout ly" : "ks_layout lx";
    const std::string minExpr = isFloat(out) ? "ks_algo::minNaN(a, b)" : "(a < b) ? a : b";
    const std::string maxExpr = isFloat(out) ? "ks_algo::maxNaN(a, b)" : "(a > b) ? a : b";
    if (kind == "sum" || kind == "dot") {
        s.neutral = "ks::cast<" + O + ">(0)";
        s.reduceExpr = "a + b";
        s.arguments = kind == "sum" ? x : x + ", " + y;
        // ks::cast (the device prelude's C++ conversion) also converts to and between complex types.
        s.mapExpr = cast + at("x", "lx") + ")" + (kind == "dot" ? " * " + cast + at("y", "ly") + ")" : "");
    } else if (kind == "min" || kind == "max") {
        s.neutral = extremeLiteral(out, kind == "min");
        s.reduceExpr = kind == "min" ? minExpr : maxExpr;
        s.arguments = x;
        s.mapExpr = cast + at("x", "lx") + ")";
    } else if (kind == "any" || kind == "all") {
        s.neutral = kind == "any" ? "false" : "true";
        s.reduceExpr = kind == "any" ? "a || b" : "a && b";
        s.arguments = x;
        s.mapExpr = at("x", "lx") + " != ks::cast<" + I + ">(0)";
    } else if (kind == "subset_sum" || kind == "subset_min" || kind == "subset_max") {
        s.preamble.clear();
        s.arguments = "const " + J + " *idx, const " + I + " *x";
        s.mapExpr = cast + "x[idx[i]])";
        s.neutral = kind == "subset_sum" ? "ks::cast<" + O + ">(0)" : extremeLiteral(out, kind == "subset_min");
        s.reduceExpr = kind == "subset_sum" ? "a + b" : kind == "subset_min" ? minExpr : maxExpr;
    } else {
        throwUsage("ks::array::builtinReductionSpec", "unknown reduction '" + kind + "'");
    }
    return s;
}

} // namespace ks::array
