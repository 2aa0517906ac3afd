#pragma once
// The map kernels behind every built-in array operation, as MapSpecs (see kernel_source.hpp), with
// numpy's result types. Host only; the operations in ops.hpp run them. Unsupported dtype
// combinations (numpy's TypeError: subtracting booleans, floor division of complex numbers, ceil of a
// complex) are ks::Error naming the operation and the dtypes.

#include "ks/array/kernel_source.hpp"

#include <optional>
#include <string_view>

namespace ks::array {

enum class BinaryOp {
    Add,
    Subtract,
    Multiply,
    TrueDivide,  // operator/ : integers divide in float64 as numpy's /
    FloorDivide, // numpy //   (integer division by zero gives 0)
    Remainder,   // numpy %    (sign of the divisor)
    Power,       // numpy **
    Fmod,        // C fmod / truncated integer remainder (sign of the dividend)
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    LogicalAnd,
    LogicalOr,
    Minimum, // NaN-propagating like numpy
    Maximum,
};
inline constexpr BinaryOp kAllBinaryOps[] = {
    BinaryOp::Add,      BinaryOp::Subtract,   BinaryOp::Multiply,  BinaryOp::TrueDivide, BinaryOp::FloorDivide,
    BinaryOp::Remainder, BinaryOp::Power,     BinaryOp::Fmod,      BinaryOp::Equal,      BinaryOp::NotEqual,
    BinaryOp::Less,     BinaryOp::LessEqual,  BinaryOp::Greater,   BinaryOp::GreaterEqual, BinaryOp::LogicalAnd,
    BinaryOp::LogicalOr, BinaryOp::Minimum,   BinaryOp::Maximum,
};

enum class UnaryOp {
    Negative,
    Absolute, // complex -> its real type
    LogicalNot,
    Real,
    Imag,
    Conj,
    // cumath: computed in inexactType(input)
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Log,
    Log10,
    Sqrt,
    Fabs,  // real only
    Ceil,  // real only
    Floor, // real only
};
inline constexpr UnaryOp kAllUnaryOps[] = {
    UnaryOp::Negative, UnaryOp::Absolute, UnaryOp::LogicalNot, UnaryOp::Real, UnaryOp::Imag, UnaryOp::Conj,
    UnaryOp::Sin,      UnaryOp::Cos,      UnaryOp::Tan,        UnaryOp::Asin, UnaryOp::Acos, UnaryOp::Atan,
    UnaryOp::Sinh,     UnaryOp::Cosh,     UnaryOp::Tanh,       UnaryOp::Exp,  UnaryOp::Log,  UnaryOp::Log10,
    UnaryOp::Sqrt,     UnaryOp::Fabs,     UnaryOp::Ceil,       UnaryOp::Floor,
};

std::string_view opName(BinaryOp op) noexcept; // numpy's ufunc name: "add", "true_divide", ...
std::string_view opName(UnaryOp op) noexcept;  // "negative", "sin", ...

// Whether numpy defines the operation for these dtypes (no throw).
bool supports(BinaryOp op, DType a, DType b) noexcept;
bool supports(UnaryOp op, DType a) noexcept;

// Result dtype for operand dtypes a and b (scalars already given their dtype, see scalarOperandType).
DType binaryResultType(BinaryOp op, DType a, DType b);
DType unaryResultType(UnaryOp op, DType a);

// The dtype a scalar operand is passed as when combined with an array of `arrayType` in `op`:
// a weak scalar becomes numpy 2's result type (float32_array * 0.1 passes float32(0.1)); a strong one
// keeps its dtype. Comparisons with a weak integer that does not fit the array's integer type pass it
// as int64/uint64 and compare exactly (numpy 2 does the same); elsewhere that is a ks::Error.
DType scalarOperandType(BinaryOp op, DType arrayType, const Scalar& scalar);

// `out`: the output's dtype when it differs from the result type (in-place and `out=` forms; the
// result is converted with ks::cast).
MapSpec binarySpec(BinaryOp op, MapOperand a, MapOperand b, std::optional<DType> out = std::nullopt);
MapSpec unarySpec(UnaryOp op, DType a, std::optional<DType> out = std::nullopt);
// numpy's casting='same_kind' for writing a result of `from` into an array of `to` (in-place
// operators): a safe cast or one that does not go down bool < uint < int < float < complex
// (float64 -> float32 yes, float -> int no, int16 -> uint8 no).
bool canCastSameKind(DType from, DType to) noexcept;
// out0 = in0 converted (copy, astype, fill from a scalar when `fromScalar`).
MapSpec castSpec(DType from, DType to, bool fromScalar = false);
// out0 = truth(cond) ? a : b in promote(a, b).
MapSpec whereSpec(MapOperand cond, MapOperand a, MapOperand b);
// out0 = in0 * x + in2 * y: in0/in2 scalars of the result type promote(x, y), in1/in3 arrays.
MapSpec mulAddSpec(DType x, DType y);
// cumath with two operands / two results.
MapSpec ldexpSpec(DType x, MapOperand exponent); // out0 = x * 2^int(e), in inexactType(x)
MapSpec modfSpec(DType x);                      // out0 = fractional part, out1 = integral part
MapSpec frexpSpec(DType x);                     // out0 = mantissa, out1 = exponent (int32, as numpy)
// How take and put treat an index j on an axis of n elements (numpy's mode=). Checking would need
// a synchronisation, so no mode raises; in every mode an index lands inside the axis, so nothing
// outside the array is read or written (PyCUDA's take reads wherever the index points).
enum class IndexMode {
    FromEnd, // numpy's default: -n <= j < 0 counts from the end; j outside [-n, n) goes to the
             // nearest end (element 0 or n-1) where numpy raises IndexError
    Wrap,    // numpy's mode='wrap': j mod n
    Clip,    // numpy's mode='clip': j clamped to [0, n-1], so negative indices give element 0
};
// take: out0 = the element index in0 (an integer dtype) picks from a C-contiguous source of `a`
// elements. Scalars: in1 the source's address (uint64), in2 the length of the axis picked along,
// in3 the product of the extents after it, in4 the number of indices times in3 (see takeAxis).
MapSpec takeSpec(DType a, DType index, IndexMode mode);
// put: no outputs (runMap runs it over in0's shape); writes in1 (`value`, converted to `a`) to the
// element index in0 picks in a C-contiguous destination of `a` elements at address in2; in3..in5 as
// take's in2..in4.
MapSpec putSpec(DType a, DType index, MapOperand value, IndexMode mode);
// out0 = in0 + i * in1 (scalars of `dtype`): arange.
MapSpec arangeSpec(DType dtype);
// out0 = (endpoint && i == n-1) ? stop : start + i * step, in float64 then converted: linspace.
// Inputs: start, step, stop (float64 scalars), endpoint (bool scalar).
MapSpec linspaceSpec(DType dtype);

} // namespace ks::array
