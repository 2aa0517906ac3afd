#include "ks/array/op_specs.hpp"

#include "ks/core/error.hpp"

namespace ks::array {

namespace {

std::string type(DType t)
{
    return std::string(cudaTypeName(t));
}

std::string castTo(DType t, const char* value)
{
    return "ks::cast<" + type(t) + ">(" + value + ")";
}

bool isComparison(BinaryOp op)
{
    switch (op) {
    case BinaryOp::Equal:
    case BinaryOp::NotEqual:
    case BinaryOp::Less:
    case BinaryOp::LessEqual:
    case BinaryOp::Greater:
    case BinaryOp::GreaterEqual: return true;
    default: return false;
    }
}

[[noreturn]] void unsupported(std::string_view op, DType a, const DType* b = nullptr)
{
    std::string types = std::string(dtypeName(a));
    if (b)
        types += ", " + std::string(dtypeName(*b));
    throwUsage(std::string(op), "ufunc '" + std::string(op) + "' not supported for the input types (" + types + ")");
}

// The type an arithmetic op computes in: promote(a, b), with bool widened to int8 where numpy has
// no bool loop (floor_divide, remainder, power, fmod).
DType computeType(BinaryOp op, DType a, DType b)
{
    DType c = promoteTypes(a, b);
    switch (op) {
    case BinaryOp::TrueDivide: return isInexact(c) ? c : DType::Float64;
    case BinaryOp::FloorDivide:
    case BinaryOp::Remainder:
    case BinaryOp::Power:
    case BinaryOp::Fmod: return c == DType::Bool ? DType::Int8 : c;
    default: return c;
    }
}

// "out0 = (R)(expr);" or, writing into another dtype, "out0 = ks::cast<OUT>((R)(expr));".
std::string assignResult(DType r, std::optional<DType> out, const std::string& expr)
{
    const std::string value = "(" + type(r) + ")(" + expr + ")";
    if (!out || *out == r)
        return "out0 = " + value + ";";
    return "out0 = " + castTo(*out, value.c_str()) + ";";
}

MapSpec makeSpec(std::string name, std::vector<MapOperand> inputs, std::vector<DType> outputs, std::string body)
{
    MapSpec s;
    s.name = std::move(name);
    s.inputs = std::move(inputs);
    s.outputs = std::move(outputs);
    s.body = std::move(body);
    return s;
}

// The position index in0 picks, under `mode`, from scalars (length, inner, countInner) at `first`.
std::string pickedPosition(std::string_view function, DType index, IndexMode mode, int first)
{
    if (!isInteger(index))
        throwUsage(function,
                   std::string("arrays used as indices must be of integer type, not ") + std::string(dtypeName(index)));
    const char* normalize = mode == IndexMode::Wrap   ? "ks::index_wrap"
                            : mode == IndexMode::Clip ? "ks::index_clip"
                                                      : "ks::index_from_end";
    const std::string length = "in" + std::to_string(first), inner = "in" + std::to_string(first + 1),
                      countInner = "in" + std::to_string(first + 2);
    return "ks::take_position(i, " + std::string(normalize) + "(in0, " + length + "), " + length + ", " + inner + ", " +
           countInner + ")";
}

} // namespace

std::string_view opName(BinaryOp op) noexcept
{
    switch (op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Subtract: return "subtract";
    case BinaryOp::Multiply: return "multiply";
    case BinaryOp::TrueDivide: return "true_divide";
    case BinaryOp::FloorDivide: return "floor_divide";
    case BinaryOp::Remainder: return "remainder";
    case BinaryOp::Power: return "power";
    case BinaryOp::Fmod: return "fmod";
    case BinaryOp::Equal: return "equal";
    case BinaryOp::NotEqual: return "not_equal";
    case BinaryOp::Less: return "less";
    case BinaryOp::LessEqual: return "less_equal";
    case BinaryOp::Greater: return "greater";
    case BinaryOp::GreaterEqual: return "greater_equal";
    case BinaryOp::LogicalAnd: return "logical_and";
    case BinaryOp::LogicalOr: return "logical_or";
    case BinaryOp::Minimum: return "minimum";
    case BinaryOp::Maximum: return "maximum";
    }
    return "?";
}

std::string_view opName(UnaryOp op) noexcept
{
    switch (op) {
    case UnaryOp::Negative: return "negative";
    case UnaryOp::Absolute: return "absolute";
    case UnaryOp::LogicalNot: return "logical_not";
    case UnaryOp::Real: return "real";
    case UnaryOp::Imag: return "imag";
    case UnaryOp::Conj: return "conjugate";
    case UnaryOp::Sin: return "sin";
    case UnaryOp::Cos: return "cos";
    case UnaryOp::Tan: return "tan";
    case UnaryOp::Asin: return "asin";
    case UnaryOp::Acos: return "acos";
    case UnaryOp::Atan: return "atan";
    case UnaryOp::Sinh: return "sinh";
    case UnaryOp::Cosh: return "cosh";
    case UnaryOp::Tanh: return "tanh";
    case UnaryOp::Exp: return "exp";
    case UnaryOp::Log: return "log";
    case UnaryOp::Log10: return "log10";
    case UnaryOp::Sqrt: return "sqrt";
    case UnaryOp::Fabs: return "fabs";
    case UnaryOp::Ceil: return "ceil";
    case UnaryOp::Floor: return "floor";
    }
    return "?";
}

bool supports(BinaryOp op, DType a, DType b) noexcept
{
    if (a == DType::Struct || b == DType::Struct)
        return false;
    const DType c = promoteTypes(a, b);
    switch (op) {
    case BinaryOp::Subtract: return c != DType::Bool;
    case BinaryOp::FloorDivide:
    case BinaryOp::Remainder:
    case BinaryOp::Fmod: return !isComplex(c);
    default: return true;
    }
}

bool supports(UnaryOp op, DType a) noexcept
{
    if (a == DType::Struct)
        return false;
    switch (op) {
    case UnaryOp::Negative: return a != DType::Bool;
    case UnaryOp::Fabs:
    case UnaryOp::Ceil:
    case UnaryOp::Floor: return !isComplex(a);
    default: return true;
    }
}

DType binaryResultType(BinaryOp op, DType a, DType b)
{
    if (!supports(op, a, b))
        unsupported(opName(op), a, &b);
    if (isComparison(op) || op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr)
        return DType::Bool;
    return computeType(op, a, b);
}

DType unaryResultType(UnaryOp op, DType a)
{
    if (!supports(op, a))
        unsupported(opName(op), a);
    switch (op) {
    case UnaryOp::Negative:
    case UnaryOp::Conj: return a;
    case UnaryOp::Absolute:
    case UnaryOp::Real:
    case UnaryOp::Imag: return realType(a);
    case UnaryOp::LogicalNot: return DType::Bool;
    default: return inexactType(a);
    }
}

DType scalarOperandType(BinaryOp op, DType arrayType, const Scalar& scalar)
{
    if (!scalar.weak())
        return scalar.dtype();
    if (isComparison(op) && scalar.kind() == Scalar::Kind::Int && isInteger(arrayType) && !scalar.fitsIn(arrayType))
        return scalar.fitsIn(DType::Int64) ? DType::Int64 : DType::UInt64;
    if (op == BinaryOp::LogicalAnd || op == BinaryOp::LogicalOr)
        return scalar.kind() == Scalar::Kind::Bool ? DType::Bool : scalar.dtype();
    return resultType(arrayType, scalar);
}

bool canCastSameKind(DType from, DType to) noexcept
{
    // numpy orders kinds b < u < i < f < c; same_kind allows any safe cast and any cast that does not
    // go down that order (float64 -> float32, int -> float, uint64 -> int8; not float -> int, int -> uint).
    auto order = [](DType t) {
        switch (kindOf(t)) {
        case DTypeKind::Bool: return 0;
        case DTypeKind::UnsignedInt: return 1;
        case DTypeKind::SignedInt: return 2;
        case DTypeKind::Float: return 3;
        case DTypeKind::Complex: return 4;
        case DTypeKind::Struct: return 5;
        }
        return 0;
    };
    return promoteTypes(from, to) == to || order(from) <= order(to);
}

MapSpec binarySpec(BinaryOp op, MapOperand a, MapOperand b, std::optional<DType> out)
{
    const DType r = binaryResultType(op, a.dtype, b.dtype);
    const DType c = arithmeticType(computeType(op, a.dtype, b.dtype));
    const std::string x = castTo(c, "in0"), y = castTo(c, "in1");
    const bool exactIntegers = isInteger(a.dtype) && isInteger(b.dtype);
    std::string e;
    switch (op) {
    case BinaryOp::Add: e = c == DType::Bool ? "in0 || in1" : x + " + " + y; break;
    case BinaryOp::Subtract: e = x + " - " + y; break;
    case BinaryOp::Multiply: e = c == DType::Bool ? "in0 && in1" : x + " * " + y; break;
    case BinaryOp::TrueDivide: e = x + " / " + y; break;
    case BinaryOp::FloorDivide: e = "ks::floordiv(" + x + ", " + y + ")"; break;
    case BinaryOp::Remainder: e = "ks::mod(" + x + ", " + y + ")"; break;
    case BinaryOp::Power: e = "ks::pow(" + x + ", " + y + ")"; break;
    case BinaryOp::Fmod: e = "ks::cfmod(" + x + ", " + y + ")"; break;
    case BinaryOp::Equal: e = exactIntegers ? "ks::cmp_eq(in0, in1)" : x + " == " + y; break;
    case BinaryOp::NotEqual: e = exactIntegers ? "!ks::cmp_eq(in0, in1)" : x + " != " + y; break;
    case BinaryOp::Less: e = exactIntegers ? "ks::cmp_lt(in0, in1)" : x + " < " + y; break;
    case BinaryOp::LessEqual: e = exactIntegers ? "!ks::cmp_lt(in1, in0)" : x + " <= " + y; break;
    case BinaryOp::Greater: e = exactIntegers ? "ks::cmp_lt(in1, in0)" : x + " > " + y; break;
    case BinaryOp::GreaterEqual: e = exactIntegers ? "!ks::cmp_lt(in0, in1)" : x + " >= " + y; break;
    case BinaryOp::LogicalAnd: e = "ks::truth(in0) && ks::truth(in1)"; break;
    case BinaryOp::LogicalOr: e = "ks::truth(in0) || ks::truth(in1)"; break;
    case BinaryOp::Minimum: e = "ks::minimum(" + x + ", " + y + ")"; break;
    case BinaryOp::Maximum: e = "ks::maximum(" + x + ", " + y + ")"; break;
    }
    return makeSpec(std::string(opName(op)), {a, b}, {out.value_or(r)}, assignResult(r, out, e));
}

MapSpec unarySpec(UnaryOp op, DType a, std::optional<DType> out)
{
    const DType r = unaryResultType(op, a);
    // float16 goes through float (arithmeticType); the result is rounded once, by assignResult.
    const std::string x = arithmeticType(a) == a ? "in0" : castTo(arithmeticType(a), "in0");
    std::string e;
    switch (op) {
    case UnaryOp::Negative: e = isInteger(a) ? "0 - in0" : "-" + x; break;
    case UnaryOp::Absolute: e = "ks::absolute(" + x + ")"; break;
    case UnaryOp::LogicalNot: e = "!ks::truth(in0)"; break;
    case UnaryOp::Real: e = castTo(r, "in0"); break;
    case UnaryOp::Imag: e = isComplex(a) ? "in0.im" : "0"; break;
    case UnaryOp::Conj: e = isComplex(a) ? "ks::conj(in0)" : "in0"; break;
    default: e = "ks::" + std::string(opName(op)) + "(" + castTo(arithmeticType(r), "in0") + ")"; break;
    }
    return makeSpec(std::string(opName(op)), {{a, false}}, {out.value_or(r)}, assignResult(r, out, e));
}

MapSpec castSpec(DType from, DType to, bool fromScalar)
{
    return makeSpec(fromScalar ? "fill" : "cast", {{from, fromScalar}}, {to}, "out0 = " + castTo(to, "in0") + ";");
}

MapSpec whereSpec(MapOperand cond, MapOperand a, MapOperand b)
{
    const DType c = promoteTypes(a.dtype, b.dtype);
    return makeSpec("where", {cond, a, b}, {c},
                    "out0 = ks::truth(in0) ? " + castTo(c, "in1") + " : " + castTo(c, "in2") + ";");
}

MapSpec mulAddSpec(DType x, DType y)
{
    const DType c = promoteTypes(x, y), t = arithmeticType(c);
    return makeSpec("mul_add", {{c, true}, {x, false}, {c, true}, {y, false}}, {c},
                    "out0 = (" + type(c) + ")(" + castTo(t, "in0") + " * " + castTo(t, "in1") + " + " +
                        castTo(t, "in2") + " * " + castTo(t, "in3") + ");");
}

MapSpec ldexpSpec(DType x, MapOperand exponent)
{
    if (isComplex(x) || isComplex(exponent.dtype))
        unsupported("ldexp", x, &exponent.dtype);
    const DType r = inexactType(x);
    return makeSpec("ldexp", {{x, false}, exponent}, {r},
                    "out0 = (" + type(r) + ")(ks::ldexp(" + castTo(arithmeticType(r), "in0") + ", ks::cast<int>(in1)));");
}

MapSpec modfSpec(DType x)
{
    if (isComplex(x))
        unsupported("modf", x);
    const DType r = inexactType(x), t = arithmeticType(r);
    return makeSpec("modf", {{x, false}}, {r, r},
                    type(t) + " integral;\nout0 = (" + type(r) + ")(ks::modf(" + castTo(t, "in0") +
                        ", &integral));\nout1 = (" + type(r) + ")(integral);");
}

MapSpec frexpSpec(DType x)
{
    if (isComplex(x))
        unsupported("frexp", x);
    const DType r = inexactType(x);
    return makeSpec("frexp", {{x, false}}, {r, DType::Int32},
                    "int e = 0;\nout0 = (" + type(r) + ")(ks::frexp(" + castTo(arithmeticType(r), "in0") +
                        ", &e));\nout1 = e;");
}

MapSpec arangeSpec(DType dtype)
{
    if (isComplex(dtype) || dtype == DType::Bool)
        unsupported("arange", dtype);
    const DType t = arithmeticType(dtype);
    return makeSpec("arange", {{dtype, true}, {dtype, true}}, {dtype},
                    "out0 = (" + type(dtype) + ")(" + castTo(t, "in0") + " + (" + type(t) + ")i * " + castTo(t, "in1") +
                        ");");
}

MapSpec linspaceSpec(DType dtype)
{
    return makeSpec("linspace", {{DType::Float64, true}, {DType::Float64, true}, {DType::Float64, true}, {DType::Bool, true}},
                    {dtype}, "out0 = " + castTo(dtype, "(in3 && i == n - 1) ? in2 : (double)i * in1 + in0") + ";");
}

MapSpec takeSpec(DType a, DType index, IndexMode mode)
{
    const std::string position = pickedPosition("take", index, mode, 2);
    return makeSpec(
        "take",
        {{index, false}, {DType::UInt64, true}, {DType::Int64, true}, {DType::Int64, true}, {DType::Int64, true}}, {a},
        "out0 = ks_cast<const " + type(a) + ">((const char*)in1)[" + position + "];");
}

MapSpec putSpec(DType a, DType index, MapOperand value, IndexMode mode)
{
    const std::string position = pickedPosition("put", index, mode, 3);
    return makeSpec("put",
                    {{index, false},
                     value,
                     {DType::UInt64, true},
                     {DType::Int64, true},
                     {DType::Int64, true},
                     {DType::Int64, true}},
                    {}, "ks_at(ks_cast<" + type(a) + ">((char*)in2), " + position + ") = " + castTo(a, "in1") + ";");
}

} // namespace ks::array
