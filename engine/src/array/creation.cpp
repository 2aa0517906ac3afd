// Creation functions and the DeviceArray members that run map kernels (copy, assign, fill, astype).
#include "ks/array/device_array.hpp"
#include "ks/array/map.hpp"
#include "ks/array/op_specs.hpp"
#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

#include <cmath>
#include <cstring>

namespace ks::array {

void DeviceArray::assign(const DeviceArray& source)
{
    Runtime& rt = runtime();
    if (source.runtimePtr() != &rt)
        throwUsage("DeviceArray::assign", "source belongs to another runtime");
    requireWritable("DeviceArray::assign");
    if (m_struct || source.structType()) {
        if (!m_struct || !source.structType() || !m_struct->sameAs(*source.structType()))
            throwUsage("DeviceArray::assign", "cannot convert the " + source.describe() + " into the " + describe() +
                                                  ": struct elements are copied only into arrays of the same type");
        elementWords().assign(source.elementWords()); // broadcasting as for numbers
        return;
    }
    // Same dtype, shape and dense layout (both C, or both F, ...): a plain device copy.
    if (source.dtype() == m_dtype && source.shape() == m_shape && source.strides() == m_strides &&
        (isCContiguous() || isFContiguous()) && !(source.data() != data() && mayShareMemory(source))) {
        if (nbytes() > 0 && source.data() != data())
            KS_CU(cuMemcpyDtoDAsync, data(), source.data(), std::size_t(nbytes()), rt.stream());
        return;
    }
    const DeviceArray out[] = {*this};
    const MapArg in[] = {source};
    runMap(castSpec(source.dtype(), m_dtype), out, in);
}

void DeviceArray::fill(const Scalar& value)
{
    requireWritable("DeviceArray::fill");
    if (m_struct)
        throwUsage("DeviceArray::fill", "the " + describe() + " is filled with an element, not the number " +
                                            value.toString() + ": use fillElement");
    const DeviceArray out[] = {*this};
    const MapArg in[] = {value};
    runMap(castSpec(m_dtype, m_dtype, true), out, in);
}

void DeviceArray::fillElementBytes(const void* value, std::size_t size, std::size_t align)
{
    requireWritable("DeviceArray::fillElement");
    checkHostStruct(size, align, "DeviceArray::fillElement");
    const DeviceArray words = elementWords();
    const std::int64_t count = words.shape(-1);
    const std::size_t word = words.itemSize();
    for (std::int64_t k = 0; k < count; ++k) {
        std::uint64_t bits = 0; // little-endian: the low `word` bytes
        std::memcpy(&bits, static_cast<const unsigned char*>(value) + std::size_t(k) * word, word);
        words.index({IndexItem::ellipsis(), IndexItem(k)}).fill(Scalar::typed(words.dtype(), Scalar(bits)));
    }
}

DeviceArray DeviceArray::copy(Order order) const
{
    DeviceArray out = emptyLike(*this, std::nullopt, order);
    out.assign(*this);
    return out;
}

DeviceArray DeviceArray::astype(DType dtype) const
{
    DeviceArray out = DeviceArray::empty(runtime(), m_shape, dtype);
    out.assign(*this);
    return out;
}

namespace {

// All-zero bytes are 0 / 0.0 / false in every dtype; `a` is dense.
DeviceArray zeroed(DeviceArray a)
{
    if (a.nbytes() > 0)
        KS_CU(cuMemsetD8Async, a.data(), 0, std::size_t(a.nbytes()), a.runtime().stream());
    return a;
}

DeviceArray filled(DeviceArray a, const Scalar& value)
{
    a.fill(value);
    return a;
}

} // namespace

DeviceArray zeros(Runtime& rt, const Dims& shape, DType dtype, Order order)
{
    return zeroed(DeviceArray::empty(rt, shape, dtype, order));
}

DeviceArray zeros(Runtime& rt, const Dims& shape, std::shared_ptr<const StructType> type, Order order)
{
    return zeroed(DeviceArray::empty(rt, shape, std::move(type), order));
}

DeviceArray ones(Runtime& rt, const Dims& shape, DType dtype, Order order)
{
    return full(rt, shape, Scalar(1), dtype, order);
}

DeviceArray full(Runtime& rt, const Dims& shape, const Scalar& value, DType dtype, Order order)
{
    return filled(DeviceArray::empty(rt, shape, dtype, order), value);
}

DeviceArray zerosLike(const DeviceArray& a, std::optional<DType> dtype, Order order)
{
    return zeroed(emptyLike(a, dtype, order));
}

DeviceArray onesLike(const DeviceArray& a, std::optional<DType> dtype, Order order)
{
    return filled(emptyLike(a, dtype, order), Scalar(1));
}

DeviceArray arange(Runtime& rt, double start, double stop, double step, DType dtype)
{
    if (step == 0)
        throwUsage("arange", "step must not be zero");
    if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(step))
        throwUsage("arange", "start, stop and step must be finite");
    const double length = std::ceil((stop - start) / step);
    const std::int64_t n = length > 0 ? std::int64_t(length) : 0;
    DeviceArray a = DeviceArray::empty(rt, Dims{n}, dtype);
    // numpy fills start + i * delta with delta = (start + step) - start in the dtype.
    const Scalar s = Scalar::typed(dtype, Scalar(start));
    Scalar delta = Scalar::typed(dtype, Scalar(step));
    if (isInteger(dtype))
        delta = Scalar::typed(dtype, Scalar(Scalar::typed(dtype, Scalar(start + step)).asInt64() - s.asInt64()));
    const DeviceArray out[] = {a};
    const MapArg in[] = {s, delta};
    runMap(arangeSpec(dtype), out, in);
    return a;
}

DeviceArray linspace(Runtime& rt, double start, double stop, std::int64_t num, bool endpoint, DType dtype)
{
    if (num < 0)
        throwUsage("linspace", "number of samples, " + std::to_string(num) + ", must be non-negative");
    DeviceArray a = DeviceArray::empty(rt, Dims{num}, dtype);
    const std::int64_t div = endpoint ? num - 1 : num;
    const double step = div > 0 ? (stop - start) / double(div) : std::nan("");
    const DeviceArray out[] = {a};
    const MapArg in[] = {Scalar(start), Scalar(div > 0 ? step : 0.0), Scalar(stop), Scalar(endpoint && num > 1)};
    runMap(linspaceSpec(dtype), out, in);
    return a;
}

namespace {

DType commonType(std::span<const DeviceArray> arrays)
{
    DType t = arrays[0].dtype();
    for (const DeviceArray& a : arrays)
        t = promoteTypes(t, a.dtype());
    return t;
}

} // namespace

DeviceArray concatenate(std::span<const DeviceArray> arrays, int axis)
{
    std::vector<Dims> shapes;
    for (const DeviceArray& a : arrays)
        shapes.push_back(a.shape());
    const Dims shape = concatenateShape(shapes, axis);
    const DeviceArray& first = arrays[0];
    if (axis < 0)
        axis += first.ndim();
    DeviceArray out = DeviceArray::empty(first.runtime(), shape, commonType(arrays));
    std::int64_t at = 0;
    for (const DeviceArray& a : arrays) {
        const std::int64_t len = a.shape()[axis];
        out.slice(axis, Slice::range(at, at + len)).assign(a);
        at += len;
    }
    return out;
}

DeviceArray concatenate(std::initializer_list<DeviceArray> arrays, int axis)
{
    return concatenate(std::span<const DeviceArray>(arrays.begin(), arrays.size()), axis);
}

DeviceArray stack(std::span<const DeviceArray> arrays, int axis)
{
    std::vector<Dims> shapes;
    for (const DeviceArray& a : arrays)
        shapes.push_back(a.shape());
    const Dims outShape = stackShape(shapes, axis);
    if (axis < 0)
        axis += outShape.size();
    DeviceArray out = DeviceArray::empty(arrays[0].runtime(), outShape, commonType(arrays));
    for (std::size_t k = 0; k < arrays.size(); ++k) {
        std::vector<IndexItem> index(static_cast<std::size_t>(axis), IndexItem(Slice::all()));
        index.emplace_back(std::int64_t(k));
        out.index(std::span<const IndexItem>(index)).assign(arrays[k]);
    }
    return out;
}

DeviceArray stack(std::initializer_list<DeviceArray> arrays, int axis)
{
    return stack(std::span<const DeviceArray>(arrays.begin(), arrays.size()), axis);
}

} // namespace ks::array
