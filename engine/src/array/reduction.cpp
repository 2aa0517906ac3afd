#include "ks/array/reduction.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/array/kernel_args.hpp"

#include <algorithm>
#include <limits>

namespace ks::array {
namespace {

// Layout of a strided view for the generated ks_at(): byte strides, C order. Must match kLayoutCode.
struct Layout {
    std::int32_t ndim = 0;
    std::int32_t pad = 0;
    std::int64_t shape[kMaxDims] = {};
    std::int64_t stride[kMaxDims] = {};
};
static_assert(sizeof(Layout) == 8 + 16 * kMaxDims);


Layout layoutOf(const DeviceArray& a)
{
    Layout l;
    l.ndim = a.ndim();
    for (int d = 0; d < a.ndim(); ++d) {
        l.shape[d] = a.shape()[d];
        l.stride[d] = a.strides()[d];
    }
    return l;
}

struct Functions {
    const cuda::Function* scalar = nullptr;
    const cuda::Function* vector = nullptr; // null when the map is not element-wise
};

Functions loadFunctions(Runtime& rt, const std::string& key, const std::string& name,
                        const std::function<std::string()>& generate)
{
    Functions f;
    f.scalar = &rt.kernel(key, name + "_reduce", generate, name + ".cu");
    f.vector = rt.findKernel(key, name + "_reduce_vec", generate, name + ".cu");
    return f;
}

bool aligned16(CUdeviceptr p)
{
    return p % 16 == 0;
}

// One launch over a grid fixed by the size and the device (see reduction.hpp). `userArgs` appends
// the kernel's own arguments after (out, mirror, partials, done, n).
void run(Runtime& rt, const Functions& f, bool vectorOk, CUdeviceptr out, CUdeviceptr mirror, std::int64_t n,
         std::size_t valueSize, const std::function<void(KernelArgs&)>& userArgs)
{
    const bool vector = vectorOk && f.vector;
    const cuda::Function& kernel = vector ? *f.vector : *f.scalar;
    // At least 16 items per thread before another block is worth it. At most one resident wave for
    // the grid-stride kernel; three for the tiled vector kernel, whose blocks take tiles in turn
    // (three waves edged ahead of CUB's sum of 256M floats where one only matched it; ks_bench_arrays).
    const std::int64_t perBlock = std::int64_t(kAlgorithmBlockSize) * 16;
    const std::int64_t wanted = std::max<std::int64_t>(1, (n + perBlock - 1) / perBlock);
    const std::int64_t waves = vector ? 3 : 1;
    const std::int64_t grid = std::min<std::int64_t>(
        wanted, std::int64_t(rt.smCount()) * rt.residentBlocks(kernel, kAlgorithmBlockSize) * waves);

    cuda::LaunchConfig config;
    config.block.x = kAlgorithmBlockSize;
    config.grid.x = unsigned(grid);
    Runtime::OnePassScratch scratch; // the stream's own: no allocation per call
    if (grid > 1)
        scratch = rt.onePassScratch(std::size_t(grid) * valueSize);
    KernelArgs args;
    args.add(out).add(mirror).add(scratch.partials).add(scratch.done).add(static_cast<long long>(n));
    userArgs(args);
    rt.launch(kernel, config, args.params());
}

DType defaultSumType(DType t)
{
    if (isBool(t) || isSigned(t))
        return DType::Int64;
    if (isUnsigned(t))
        return DType::UInt64;
    return t;
}

std::string builtinKey(const std::string& kind, DType in, DType in2, DType out, bool strided)
{
    return "red:" + kind + ":" + std::string(dtypeName(in)) + ":" + std::string(dtypeName(in2)) + ":" +
           std::string(dtypeName(out)) + (strided ? ":strided" : ":contiguous");
}

// Struct elements (float3, user structs) are no numbers: refused naming the type.
void refuseStructs(const std::string& kind, const DeviceArray& a, const DeviceArray* b)
{
    for (const DeviceArray* x : {&a, b})
        if (x && x->structType())
            throwUsage("ks::array::" + kind, "the " + x->describe() + " has no " + kind +
                                                 ": struct elements are no numbers (a ReductionKernel with the "
                                                 "struct as its type reduces them)");
}

// Runs built-in `kind` over the arrays into `out` (a device address holding one `outType`).
void runBuiltin(const std::string& kind, const DeviceArray& a, const DeviceArray* b, DType outType, CUdeviceptr out)
{
    Runtime& rt = a.runtime();
    refuseStructs(kind, a, b);
    if (arithmeticType(outType) != outType) {
        // A float16 result accumulates in float32 and is rounded once at the end, as numpy's float16
        // sum and dot do (for min and max that changes nothing).
        const DeviceArray accumulated = DeviceArray::empty(rt, Dims{}, arithmeticType(outType));
        runBuiltin(kind, a, b, accumulated.dtype(), accumulated.data());
        DeviceArray::view(rt, out, outType, Dims{}).assign(accumulated);
        return;
    }
    const bool subset = kind.rfind("subset_", 0) == 0;
    if (b && !subset && a.shape() != b->shape())
        throwUsage("ks::array::dot", "shapes differ: " + a.shape().toString() + " and " + b->shape().toString());
    if (subset && (!a.isCContiguous() || !b->isCContiguous())) {
        // The subset kernels index both arrays as contiguous: other views go through C-order copies.
        const DeviceArray values = b->isCContiguous() ? *b : b->copy(Order::C);
        runBuiltin(kind, a.isCContiguous() ? a : a.copy(Order::C), &values, outType, out);
        return;
    }
    if (!subset && !a.isCContiguous() && (!b || b->strides() == a.strides())) {
        // sum, dot, min and max do not depend on the order of the elements: a view that fills a
        // block of memory (transposed, reversed, F-ordered) is reduced as that block, read in
        // memory order as numpy's sum reads it, not element by element through its strides (which
        // for a transposed view reads one element per memory sector). With `b`, the same strides
        // pair the same elements.
        const std::optional<DeviceArray> blockA = a.denseBlockView();
        const std::optional<DeviceArray> blockB = b ? b->denseBlockView() : std::nullopt;
        if (blockA && (!b || blockB)) {
            runBuiltin(kind, *blockA, b ? &*blockB : nullptr, outType, out);
            return;
        }
    }
    const bool strided = !subset && (!a.isCContiguous() || (b && !b->isCContiguous()));
    if (subset && !isInteger(a.dtype()))
        throwUsage("ks::array::" + kind, "indices must be integers, got " + a.describe());
    // For subsets `a` is the index array and `b` the values: the spec takes (values, indices).
    const DType in = subset ? b->dtype() : a.dtype();
    const DType in2 = subset ? a.dtype() : (b ? b->dtype() : a.dtype());
    const std::string key = builtinKey(kind, in, in2, outType, strided);
    // The spec and its source are made only on the first use (a miss in the runtime's table).
    const Functions f = loadFunctions(rt, key, builtinReductionName(kind, in, in2, outType, strided), [&] {
        return generateReduction(builtinReductionSpec(kind, in, in2, outType, strided)).source;
    });

    const std::int64_t n = a.size();
    const Layout la = layoutOf(a);
    const Layout lb = b ? layoutOf(*b) : Layout{};
    const bool vectorOk = !strided && aligned16(a.data()) && (!b || aligned16(b->data()));
    run(rt, f, vectorOk, out, 0, n, itemSize(outType), [&](KernelArgs& args) {
        // The spec's arguments (x, then y or the values), then its extra parameters (layouts).
        args.add(a.data());
        if (b)
            args.add(b->data());
        if (strided) {
            args.add(la);
            if (b)
                args.add(lb);
        }
    });
}

DeviceArray scalarResult(const DeviceArray& like, DType dtype)
{
    return DeviceArray::empty(like.runtime(), Dims{}, dtype);
}

void requireSlot(const DeviceArray& out, const char* function)
{
    if (out.size() != 1)
        throwUsage(function, "the output must hold exactly one element, got a " + out.describe());
}

DeviceArray builtin(const std::string& kind, const DeviceArray& a, const DeviceArray* b, DType outType)
{
    refuseStructs(kind, a, b);
    DeviceArray result = scalarResult(a, outType);
    runBuiltin(kind, a, b, outType, result.data());
    return result;
}

// Appends the user's arguments: arrays for pointers (dtype must match), scalars converted to the
// declared type. Throws ks::Error (Usage) naming the argument.
void packArguments(const std::vector<KernelArgument>& params, std::span<const MapArg> values, KernelArgs& out)
{
    const char* fn = "ks::array::ReductionKernel";
    if (params.size() != values.size())
        throwUsage(fn, "takes " + std::to_string(params.size()) + " arguments, " + std::to_string(values.size()) +
                           " given");
    for (std::size_t k = 0; k < params.size(); ++k) {
        const KernelArgument& p = params[k];
        const std::string which = "argument " + std::to_string(k + 1) + " ('" + declaration(p) + "')";
        if (p.pointer) {
            const DeviceArray* a = std::get_if<DeviceArray>(&values[k]);
            if (!a)
                throwUsage(fn, which + " is a pointer: pass an array");
            if (a->dtype() != p.dtype)
                throwUsage(fn, which + " wants " + std::string(dtypeName(p.dtype)) + " elements, got a " + a->describe());
            out.add(a->data());
        } else {
            const Scalar* v = std::get_if<Scalar>(&values[k]);
            if (!v)
                throwUsage(fn, which + " is passed by value: pass a number, not an array");
            unsigned char bytes[16] = {};
            v->store(p.dtype, bytes);
            out.addBytes(bytes, itemSize(p.dtype), std::min<std::size_t>(itemSize(p.dtype), 8));
        }
    }
}

void requireNonEmpty(const DeviceArray& a, const char* function)
{
    if (a.size() == 0)
        throwUsage(function, "a 0-size array has no minimum or maximum (numpy raises too)");
}

} // namespace

// ----- ReductionKernel

ReductionKernel::ReductionKernel(Runtime& rt, ReductionSpec spec)
    : m_runtime(&rt), m_spec(std::move(spec)), m_generated(generateReduction(m_spec))
{
    m_key = "red:" + m_generated.source;
    const std::string& source = m_generated.source;
    const Functions f = loadFunctions(rt, m_key, m_spec.name, [&] { return source; });
    m_scalar = f.scalar; // kept: a launch then looks nothing up (the runtime owns the module)
    m_vector = f.vector;
    m_outDType = parseDType(m_spec.outType);
    if (m_outDType) {
        m_valueSize = itemSize(*m_outDType);
    } else {
        // A struct: ask the device what sizeof says (once per kernel object).
        const auto [address, bytes] = rt.module(m_key)->global(m_generated.sizeSymbol);
        int size = 0;
        if (bytes != sizeof(int))
            throwUsage("ks::array::ReductionKernel", "unexpected size symbol in the generated module");
        KS_CU(cuMemcpyDtoH, &size, address, sizeof(int));
        m_valueSize = std::size_t(size);
    }
}

std::int64_t ReductionKernel::sizeFromArguments(std::span<const MapArg> args) const
{
    for (const auto& a : args)
        if (const DeviceArray* array = std::get_if<DeviceArray>(&a))
            return array->size();
    throwUsage("ks::array::ReductionKernel", "no array argument to take the size from: use launch() with n");
}

void ReductionKernel::launch(CUdeviceptr out, std::int64_t n, std::span<const MapArg> given, CUdeviceptr mirror) const
{
    if (n < 0)
        throwUsage("ks::array::ReductionKernel::launch", "negative size " + std::to_string(n));
    KernelArgs packed; // argument errors surface before anything is queued
    packArguments(m_generated.params, given, packed);
    // The kernel indexes its arrays as contiguous: other views (strided, reversed, transposed,
    // broadcast) are read through a C-order copy, freed in stream order after the launch.
    std::vector<MapArg> copies;
    std::span<const MapArg> args = given;
    for (std::size_t k = 0; k < given.size(); ++k)
        if (const DeviceArray* array = std::get_if<DeviceArray>(&given[k]); array && !array->isCContiguous()) {
            if (copies.empty())
                copies.assign(given.begin(), given.end());
            copies[k] = array->copy(Order::C);
        }
    if (!copies.empty())
        args = copies;
    bool vectorOk = true;
    for (const auto& a : args)
        if (const DeviceArray* array = std::get_if<DeviceArray>(&a))
            vectorOk = vectorOk && aligned16(array->data()) && array->isCContiguous();
    run(*m_runtime, Functions{m_scalar, m_vector}, vectorOk, out, mirror, n, m_valueSize, [&](KernelArgs& kernelArgs) {
        packArguments(m_generated.params, args, kernelArgs);
    });
}

DeviceArray ReductionKernel::operator()(std::span<const MapArg> args) const
{
    if (!m_outDType)
        throwUsage("ks::array::ReductionKernel", "output type '" + m_spec.outType +
                                                     "' is not a dtype: use into(), toHost<T>() or launch()");
    DeviceArray result = DeviceArray::empty(*m_runtime, Dims{}, *m_outDType);
    launch(result.data(), sizeFromArguments(args), args);
    return result;
}

DeviceArray ReductionKernel::operator()(std::initializer_list<MapArg> args) const
{
    return (*this)(std::span<const MapArg>(args.begin(), args.size()));
}

void ReductionKernel::into(const DeviceArray& out, std::span<const MapArg> args) const
{
    requireSlot(out, "ks::array::ReductionKernel::into");
    if (out.itemSize() != m_valueSize || (m_outDType && out.dtype() != *m_outDType))
        throwUsage("ks::array::ReductionKernel::into", "the output " + out.describe() + " does not hold '" +
                                                           m_spec.outType + "'");
    launch(out.data(), sizeFromArguments(args), args);
}

void ReductionKernel::into(const DeviceArray& out, std::initializer_list<MapArg> args) const
{
    into(out, std::span<const MapArg>(args.begin(), args.size()));
}

void ReductionKernel::toHostBytes(std::span<const MapArg> args, void* host, std::size_t bytes) const
{
    if (bytes != m_valueSize)
        throwUsage("ks::array::ReductionKernel::toHost", "host type has " + std::to_string(bytes) +
                                                             " bytes, the device's '" + m_spec.outType + "' " +
                                                             std::to_string(m_valueSize));
    auto result = m_runtime->allocate(m_valueSize);
    launch(result->get(), sizeFromArguments(args), args);
    KS_CU(cuMemcpyDtoHAsync, host, result->get(), bytes, m_runtime->stream());
    m_runtime->synchronize();
}

// ----- built-ins

DeviceArray sum(const DeviceArray& a, std::optional<DType> dtype)
{
    return builtin("sum", a, nullptr, dtype.value_or(defaultSumType(a.dtype())));
}

void sum(const DeviceArray& a, const DeviceArray& out)
{
    requireSlot(out, "ks::array::sum");
    runBuiltin("sum", a, nullptr, out.dtype(), out.data());
}

DeviceArray dot(const DeviceArray& a, const DeviceArray& b, std::optional<DType> dtype)
{
    return builtin("dot", a, &b, dtype.value_or(promoteTypes(a.dtype(), b.dtype())));
}

void dot(const DeviceArray& a, const DeviceArray& b, const DeviceArray& out)
{
    requireSlot(out, "ks::array::dot");
    runBuiltin("dot", a, &b, out.dtype(), out.data());
}

DeviceArray min(const DeviceArray& a)
{
    requireNonEmpty(a, "ks::array::min");
    return builtin("min", a, nullptr, a.dtype());
}

DeviceArray max(const DeviceArray& a)
{
    requireNonEmpty(a, "ks::array::max");
    return builtin("max", a, nullptr, a.dtype());
}

void min(const DeviceArray& a, const DeviceArray& out)
{
    requireNonEmpty(a, "ks::array::min");
    requireSlot(out, "ks::array::min");
    runBuiltin("min", a, nullptr, out.dtype(), out.data());
}

void max(const DeviceArray& a, const DeviceArray& out)
{
    requireNonEmpty(a, "ks::array::max");
    requireSlot(out, "ks::array::max");
    runBuiltin("max", a, nullptr, out.dtype(), out.data());
}

DeviceArray any(const DeviceArray& a)
{
    return builtin("any", a, nullptr, DType::Bool);
}

DeviceArray all(const DeviceArray& a)
{
    return builtin("all", a, nullptr, DType::Bool);
}

DeviceArray subsetSum(const DeviceArray& indices, const DeviceArray& a, std::optional<DType> dtype)
{
    return builtin("subset_sum", indices, &a, dtype.value_or(defaultSumType(a.dtype())));
}

DeviceArray subsetMin(const DeviceArray& indices, const DeviceArray& a)
{
    requireNonEmpty(indices, "ks::array::subsetMin");
    return builtin("subset_min", indices, &a, a.dtype());
}

DeviceArray subsetMax(const DeviceArray& indices, const DeviceArray& a)
{
    requireNonEmpty(indices, "ks::array::subsetMax");
    return builtin("subset_max", indices, &a, a.dtype());
}

} // namespace ks::array
