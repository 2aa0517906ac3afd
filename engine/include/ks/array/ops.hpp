#pragma once
// Element-wise arithmetic, comparisons, logic and the cumath functions on device arrays, with
// numpy's semantics and result types (see dtype.hpp for promotion, op_specs.hpp for each op).
// Everything is asynchronous on the arrays' runtime stream and broadcasts numpy-style.
//
// Deliberate differences from numpy (documented, not accidents):
// - Integer division and remainder by zero give 0 without a warning; integer power with a negative
//   exponent gives the truncated result (1, +-1 for base -1, else 0) where numpy raises.
// - Float -> integer conversions of out-of-range values saturate and NaN gives 0 (the GPU's cvt);
//   numpy's result there is platform-defined.
// - math of bool/int8/uint8 inputs computes in float32 (numpy: float16; float32 keeps more digits).
// - `operator/` is numpy's true division; floor division is floorDivide(); C++ has no `//`.
// - Comparisons return Bool arrays; C++'s && || ! are not overloaded (use logicalAnd/Or/Not).

#include "ks/array/device_array.hpp"
#include "ks/array/op_specs.hpp"

#include <utility>

namespace ks::array {

// ----- generic entry points (everything below is a one-liner over these)
DeviceArray binary(BinaryOp op, const DeviceArray& a, const DeviceArray& b);
DeviceArray binary(BinaryOp op, const DeviceArray& a, const Scalar& b);
DeviceArray binary(BinaryOp op, const Scalar& a, const DeviceArray& b);
// Writes into `out` (any layout; may be a or b: the in-place forms). The result converts to out's dtype
// when numpy's same_kind casting allows it, else ks::Error ("Cannot cast ufunc 'add' output from
// float64 to int32").
void binaryInto(BinaryOp op, const DeviceArray& a, const DeviceArray& b, const DeviceArray& out);
void binaryInto(BinaryOp op, const DeviceArray& a, const Scalar& b, const DeviceArray& out);
void binaryInto(BinaryOp op, const Scalar& a, const DeviceArray& b, const DeviceArray& out);
DeviceArray unary(UnaryOp op, const DeviceArray& a);
void unaryInto(UnaryOp op, const DeviceArray& a, const DeviceArray& out);

// ----- operators
DeviceArray operator+(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator-(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator*(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator/(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator%(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator+(const DeviceArray& a, const Scalar& b);
DeviceArray operator-(const DeviceArray& a, const Scalar& b);
DeviceArray operator*(const DeviceArray& a, const Scalar& b);
DeviceArray operator/(const DeviceArray& a, const Scalar& b);
DeviceArray operator%(const DeviceArray& a, const Scalar& b);
DeviceArray operator+(const Scalar& a, const DeviceArray& b);
DeviceArray operator-(const Scalar& a, const DeviceArray& b);
DeviceArray operator*(const Scalar& a, const DeviceArray& b);
DeviceArray operator/(const Scalar& a, const DeviceArray& b);
DeviceArray operator%(const Scalar& a, const DeviceArray& b);
DeviceArray operator-(const DeviceArray& a);
DeviceArray operator==(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator!=(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator<(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator<=(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator>(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator>=(const DeviceArray& a, const DeviceArray& b);
DeviceArray operator==(const DeviceArray& a, const Scalar& b);
DeviceArray operator!=(const DeviceArray& a, const Scalar& b);
DeviceArray operator<(const DeviceArray& a, const Scalar& b);
DeviceArray operator<=(const DeviceArray& a, const Scalar& b);
DeviceArray operator>(const DeviceArray& a, const Scalar& b);
DeviceArray operator>=(const DeviceArray& a, const Scalar& b);

// ----- numpy-named functions
inline DeviceArray add(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Add, a, b); }
inline DeviceArray subtract(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Subtract, a, b); }
inline DeviceArray multiply(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Multiply, a, b); }
inline DeviceArray divide(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::TrueDivide, a, b); }
inline DeviceArray floorDivide(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::FloorDivide, a, b); }
inline DeviceArray remainder(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Remainder, a, b); }
inline DeviceArray power(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Power, a, b); }
inline DeviceArray power(const DeviceArray& a, const Scalar& b) { return binary(BinaryOp::Power, a, b); }
inline DeviceArray power(const Scalar& a, const DeviceArray& b) { return binary(BinaryOp::Power, a, b); }
inline DeviceArray fmod(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Fmod, a, b); }
inline DeviceArray minimum(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Minimum, a, b); }
inline DeviceArray maximum(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::Maximum, a, b); }
inline DeviceArray minimum(const DeviceArray& a, const Scalar& b) { return binary(BinaryOp::Minimum, a, b); }
inline DeviceArray maximum(const DeviceArray& a, const Scalar& b) { return binary(BinaryOp::Maximum, a, b); }
inline DeviceArray logicalAnd(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::LogicalAnd, a, b); }
inline DeviceArray logicalOr(const DeviceArray& a, const DeviceArray& b) { return binary(BinaryOp::LogicalOr, a, b); }
inline DeviceArray logicalAnd(const DeviceArray& a, const Scalar& b) { return binary(BinaryOp::LogicalAnd, a, b); }
inline DeviceArray logicalOr(const DeviceArray& a, const Scalar& b) { return binary(BinaryOp::LogicalOr, a, b); }
inline DeviceArray logicalNot(const DeviceArray& a) { return unary(UnaryOp::LogicalNot, a); }
inline DeviceArray negative(const DeviceArray& a) { return unary(UnaryOp::Negative, a); }
inline DeviceArray abs(const DeviceArray& a) { return unary(UnaryOp::Absolute, a); }
inline DeviceArray real(const DeviceArray& a) { return unary(UnaryOp::Real, a); }
inline DeviceArray imag(const DeviceArray& a) { return unary(UnaryOp::Imag, a); }
inline DeviceArray conj(const DeviceArray& a) { return unary(UnaryOp::Conj, a); }

// where(cond, a, b): cond of any dtype (nonzero is true); result promote(a, b). Broadcasts.
DeviceArray where(const DeviceArray& cond, const DeviceArray& a, const DeviceArray& b);
DeviceArray where(const DeviceArray& cond, const DeviceArray& a, const Scalar& b);
DeviceArray where(const DeviceArray& cond, const Scalar& a, const DeviceArray& b);

// PyCUDA's mul_add: a*x + b*y in one pass, in promote(x, y) (the factors convert to it, weak).
DeviceArray mulAdd(const Scalar& a, const DeviceArray& x, const Scalar& b, const DeviceArray& y);
void mulAddInto(const Scalar& a, const DeviceArray& x, const Scalar& b, const DeviceArray& y, const DeviceArray& out);

// ----- cumath (float results in inexactType(a); complex variants for all but fabs/ceil/floor/fmod/
// ldexp/modf/frexp). The Into forms write a given array (PyCUDA's out=).
inline DeviceArray sin(const DeviceArray& a) { return unary(UnaryOp::Sin, a); }
inline DeviceArray cos(const DeviceArray& a) { return unary(UnaryOp::Cos, a); }
inline DeviceArray tan(const DeviceArray& a) { return unary(UnaryOp::Tan, a); }
inline DeviceArray asin(const DeviceArray& a) { return unary(UnaryOp::Asin, a); }
inline DeviceArray acos(const DeviceArray& a) { return unary(UnaryOp::Acos, a); }
inline DeviceArray atan(const DeviceArray& a) { return unary(UnaryOp::Atan, a); }
inline DeviceArray sinh(const DeviceArray& a) { return unary(UnaryOp::Sinh, a); }
inline DeviceArray cosh(const DeviceArray& a) { return unary(UnaryOp::Cosh, a); }
inline DeviceArray tanh(const DeviceArray& a) { return unary(UnaryOp::Tanh, a); }
inline DeviceArray exp(const DeviceArray& a) { return unary(UnaryOp::Exp, a); }
inline DeviceArray log(const DeviceArray& a) { return unary(UnaryOp::Log, a); }
inline DeviceArray log10(const DeviceArray& a) { return unary(UnaryOp::Log10, a); }
inline DeviceArray sqrt(const DeviceArray& a) { return unary(UnaryOp::Sqrt, a); }
inline DeviceArray fabs(const DeviceArray& a) { return unary(UnaryOp::Fabs, a); }
inline DeviceArray ceil(const DeviceArray& a) { return unary(UnaryOp::Ceil, a); }
inline DeviceArray floor(const DeviceArray& a) { return unary(UnaryOp::Floor, a); }
// x * 2^int(e) (e converted to int, as PyCUDA's ldexp does with float exponents).
DeviceArray ldexp(const DeviceArray& x, const DeviceArray& e);
// (fractional part, integral part), both in inexactType(x).
std::pair<DeviceArray, DeviceArray> modf(const DeviceArray& x);
// (mantissa in inexactType(x), exponent as int32 like numpy; PyCUDA returns it as x's dtype).
std::pair<DeviceArray, DeviceArray> frexp(const DeviceArray& x);

} // namespace ks::array
