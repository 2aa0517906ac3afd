#include "ks/array/ops.hpp"

#include "ks/array/map.hpp"
#include "ks/core/error.hpp"

namespace ks::array {

namespace {

Runtime& sameRuntime(const DeviceArray& a, const DeviceArray& b, std::string_view op)
{
    Runtime& rt = a.runtime();
    if (b.runtimePtr() != &rt)
        throwUsage(op, "operands belong to different runtimes");
    return rt;
}

// Struct elements (float3, user structs) have no arithmetic: refused naming the type.
void requireNumbers(std::string_view op, const DeviceArray& a)
{
    if (a.structType())
        throwUsage(op, "ufunc '" + std::string(op) + "' is not defined for the " + a.describe() +
                           ": struct elements support fills, copies, take/put and ElementwiseKernel");
}

void checkOutput(std::string_view op, DType result, const DeviceArray& out)
{
    if (!canCastSameKind(result, out.dtype()))
        throwUsage(op, "Cannot cast ufunc '" + std::string(op) + "' output from " + std::string(dtypeName(result)) +
                           " to " + std::string(dtypeName(out.dtype())) + " with casting rule 'same_kind'");
}

void run1(const MapSpec& spec, const DeviceArray& out, std::initializer_list<MapArg> inputs)
{
    const DeviceArray outs[] = {out};
    runMap(spec, outs, std::span<const MapArg>(inputs.begin(), inputs.size()));
}

} // namespace

void binaryInto(BinaryOp op, const DeviceArray& a, const DeviceArray& b, const DeviceArray& out)
{
    requireNumbers(opName(op), a);
    requireNumbers(opName(op), b);
    requireNumbers(opName(op), out);
    sameRuntime(a, b, opName(op));
    const DType r = binaryResultType(op, a.dtype(), b.dtype());
    checkOutput(opName(op), r, out);
    run1(binarySpec(op, {a.dtype(), false}, {b.dtype(), false}, out.dtype()), out, {a, b});
}

void binaryInto(BinaryOp op, const DeviceArray& a, const Scalar& b, const DeviceArray& out)
{
    requireNumbers(opName(op), a);
    requireNumbers(opName(op), out);
    const DType bt = scalarOperandType(op, a.dtype(), b);
    checkOutput(opName(op), binaryResultType(op, a.dtype(), bt), out);
    run1(binarySpec(op, {a.dtype(), false}, {bt, true}, out.dtype()), out, {a, b});
}

void binaryInto(BinaryOp op, const Scalar& a, const DeviceArray& b, const DeviceArray& out)
{
    requireNumbers(opName(op), b);
    requireNumbers(opName(op), out);
    const DType at = scalarOperandType(op, b.dtype(), a);
    checkOutput(opName(op), binaryResultType(op, at, b.dtype()), out);
    run1(binarySpec(op, {at, true}, {b.dtype(), false}, out.dtype()), out, {a, b});
}

DeviceArray binary(BinaryOp op, const DeviceArray& a, const DeviceArray& b)
{
    requireNumbers(opName(op), a);
    requireNumbers(opName(op), b);
    Runtime& rt = sameRuntime(a, b, opName(op));
    DeviceArray out = DeviceArray::empty(rt, broadcastShapes(a.shape(), b.shape()),
                                         binaryResultType(op, a.dtype(), b.dtype()));
    binaryInto(op, a, b, out);
    return out;
}

DeviceArray binary(BinaryOp op, const DeviceArray& a, const Scalar& b)
{
    requireNumbers(opName(op), a);
    const DType r = binaryResultType(op, a.dtype(), scalarOperandType(op, a.dtype(), b));
    DeviceArray out = DeviceArray::empty(a.runtime(), a.shape(), r);
    binaryInto(op, a, b, out);
    return out;
}

DeviceArray binary(BinaryOp op, const Scalar& a, const DeviceArray& b)
{
    requireNumbers(opName(op), b);
    const DType r = binaryResultType(op, scalarOperandType(op, b.dtype(), a), b.dtype());
    DeviceArray out = DeviceArray::empty(b.runtime(), b.shape(), r);
    binaryInto(op, a, b, out);
    return out;
}

void unaryInto(UnaryOp op, const DeviceArray& a, const DeviceArray& out)
{
    requireNumbers(opName(op), a);
    requireNumbers(opName(op), out);
    checkOutput(opName(op), unaryResultType(op, a.dtype()), out);
    run1(unarySpec(op, a.dtype(), out.dtype()), out, {a});
}

DeviceArray unary(UnaryOp op, const DeviceArray& a)
{
    requireNumbers(opName(op), a);
    DeviceArray out = DeviceArray::empty(a.runtime(), a.shape(), unaryResultType(op, a.dtype()));
    unaryInto(op, a, out);
    return out;
}

#define KS_BINARY_OPERATORS(sym, op)                                                                       \
    DeviceArray operator sym(const DeviceArray& a, const DeviceArray& b) { return binary(op, a, b); }      \
    DeviceArray operator sym(const DeviceArray& a, const Scalar& b) { return binary(op, a, b); }
#define KS_SCALAR_FIRST_OPERATOR(sym, op)                                                                  \
    DeviceArray operator sym(const Scalar& a, const DeviceArray& b) { return binary(op, a, b); }
KS_BINARY_OPERATORS(+, BinaryOp::Add)
KS_BINARY_OPERATORS(-, BinaryOp::Subtract)
KS_BINARY_OPERATORS(*, BinaryOp::Multiply)
KS_BINARY_OPERATORS(/, BinaryOp::TrueDivide)
KS_BINARY_OPERATORS(%, BinaryOp::Remainder)
KS_BINARY_OPERATORS(==, BinaryOp::Equal)
KS_BINARY_OPERATORS(!=, BinaryOp::NotEqual)
KS_BINARY_OPERATORS(<, BinaryOp::Less)
KS_BINARY_OPERATORS(<=, BinaryOp::LessEqual)
KS_BINARY_OPERATORS(>, BinaryOp::Greater)
KS_BINARY_OPERATORS(>=, BinaryOp::GreaterEqual)
KS_SCALAR_FIRST_OPERATOR(+, BinaryOp::Add)
KS_SCALAR_FIRST_OPERATOR(-, BinaryOp::Subtract)
KS_SCALAR_FIRST_OPERATOR(*, BinaryOp::Multiply)
KS_SCALAR_FIRST_OPERATOR(/, BinaryOp::TrueDivide)
KS_SCALAR_FIRST_OPERATOR(%, BinaryOp::Remainder)
#undef KS_BINARY_OPERATORS
#undef KS_SCALAR_FIRST_OPERATOR

DeviceArray operator-(const DeviceArray& a)
{
    return unary(UnaryOp::Negative, a);
}

#define KS_INPLACE(sym, op)                                                                                \
    DeviceArray& DeviceArray::operator sym(const DeviceArray& other)                                       \
    {                                                                                                      \
        binaryInto(op, *this, other, *this);                                                               \
        return *this;                                                                                      \
    }                                                                                                      \
    DeviceArray& DeviceArray::operator sym(const Scalar& other)                                            \
    {                                                                                                      \
        binaryInto(op, *this, other, *this);                                                               \
        return *this;                                                                                      \
    }
KS_INPLACE(+=, BinaryOp::Add)
KS_INPLACE(-=, BinaryOp::Subtract)
KS_INPLACE(*=, BinaryOp::Multiply)
KS_INPLACE(/=, BinaryOp::TrueDivide)
#undef KS_INPLACE

DeviceArray where(const DeviceArray& cond, const DeviceArray& a, const DeviceArray& b)
{
    sameRuntime(cond, a, "where");
    sameRuntime(cond, b, "where");
    const Dims shape = broadcastShapes(cond.shape(), broadcastShapes(a.shape(), b.shape()));
    const MapSpec spec = whereSpec({cond.dtype(), false}, {a.dtype(), false}, {b.dtype(), false});
    DeviceArray out = DeviceArray::empty(cond.runtime(), shape, spec.outputs[0]);
    run1(spec, out, {cond, a, b});
    return out;
}

DeviceArray where(const DeviceArray& cond, const DeviceArray& a, const Scalar& b)
{
    sameRuntime(cond, a, "where");
    const DType bt = resultType(a.dtype(), b);
    const MapSpec spec = whereSpec({cond.dtype(), false}, {a.dtype(), false}, {bt, true});
    DeviceArray out = DeviceArray::empty(cond.runtime(), broadcastShapes(cond.shape(), a.shape()), spec.outputs[0]);
    run1(spec, out, {cond, a, b});
    return out;
}

DeviceArray where(const DeviceArray& cond, const Scalar& a, const DeviceArray& b)
{
    sameRuntime(cond, b, "where");
    const DType at = resultType(b.dtype(), a);
    const MapSpec spec = whereSpec({cond.dtype(), false}, {at, true}, {b.dtype(), false});
    DeviceArray out = DeviceArray::empty(cond.runtime(), broadcastShapes(cond.shape(), b.shape()), spec.outputs[0]);
    run1(spec, out, {cond, a, b});
    return out;
}

void mulAddInto(const Scalar& a, const DeviceArray& x, const Scalar& b, const DeviceArray& y, const DeviceArray& out)
{
    sameRuntime(x, y, "mul_add");
    const MapSpec spec = mulAddSpec(x.dtype(), y.dtype());
    const DType c = spec.outputs[0];
    // The factors are weak scalars of the result type (float32 arrays with 2.0 stay float32).
    (void)resultType(c, a);
    (void)resultType(c, b);
    if (out.dtype() != c)
        throwUsage("mul_add", "output must be " + std::string(dtypeName(c)) + ", got the " + out.describe());
    run1(spec, out, {a, x, b, y});
}

DeviceArray mulAdd(const Scalar& a, const DeviceArray& x, const Scalar& b, const DeviceArray& y)
{
    DeviceArray out =
        DeviceArray::empty(x.runtime(), broadcastShapes(x.shape(), y.shape()), promoteTypes(x.dtype(), y.dtype()));
    mulAddInto(a, x, b, y, out);
    return out;
}

DeviceArray ldexp(const DeviceArray& x, const DeviceArray& e)
{
    sameRuntime(x, e, "ldexp");
    const MapSpec spec = ldexpSpec(x.dtype(), {e.dtype(), false});
    DeviceArray out = DeviceArray::empty(x.runtime(), broadcastShapes(x.shape(), e.shape()), spec.outputs[0]);
    run1(spec, out, {x, e});
    return out;
}

namespace {

std::pair<DeviceArray, DeviceArray> runTwoResults(const MapSpec& spec, const DeviceArray& x)
{
    const DeviceArray outs[] = {DeviceArray::empty(x.runtime(), x.shape(), spec.outputs[0]),
                                DeviceArray::empty(x.runtime(), x.shape(), spec.outputs[1])};
    const MapArg in[] = {x};
    runMap(spec, outs, in);
    return {outs[0], outs[1]};
}

} // namespace

std::pair<DeviceArray, DeviceArray> modf(const DeviceArray& x)
{
    return runTwoResults(modfSpec(x.dtype()), x);
}

std::pair<DeviceArray, DeviceArray> frexp(const DeviceArray& x)
{
    return runTwoResults(frexpSpec(x.dtype()), x);
}

} // namespace ks::array
