#include "ks/array/device_array.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <numeric>

namespace ks::array {

// ----- layout helpers

SliceRange normalizeSlice(const Slice& s, std::int64_t length)
{
    if (s.step == 0)
        throwUsage("Slice", "slice step cannot be zero");
    SliceRange r;
    r.step = s.step;
    auto clampIndex = [&](std::int64_t v, std::int64_t lower, std::int64_t upper) {
        if (v < 0) {
            v += length;
            if (v < 0)
                v = lower;
        } else if (v >= length) {
            v = upper;
        }
        return v;
    };
    std::int64_t start, stop;
    if (s.step > 0) {
        start = s.start ? clampIndex(*s.start, 0, length) : 0;
        stop = s.stop ? clampIndex(*s.stop, 0, length) : length;
        r.count = stop > start ? (stop - start + s.step - 1) / s.step : 0;
    } else {
        start = s.start ? clampIndex(*s.start, -1, length - 1) : length - 1;
        stop = s.stop ? clampIndex(*s.stop, -1, length - 1) : -1;
        r.count = start > stop ? (start - stop + (-s.step) - 1) / (-s.step) : 0;
    }
    r.start = r.count > 0 ? start : 0;
    return r;
}

Dims contiguousStrides(const Dims& shape, std::size_t itemSize)
{
    return orderedStrides(shape, itemSize, Order::C);
}

Dims orderedStrides(const Dims& shape, std::size_t itemSize, Order order, const Dims& like)
{
    // The axes from the slowest-varying to the fastest.
    std::vector<int> axes(static_cast<std::size_t>(shape.size()));
    std::iota(axes.begin(), axes.end(), 0);
    if (order == Order::F) {
        std::reverse(axes.begin(), axes.end());
    } else if (order == Order::Keep && like.size() == shape.size()) {
        auto telling = [&](int d) { return shape[d] > 1 && like[d] != 0; };
        std::vector<int> sorted;
        std::copy_if(axes.begin(), axes.end(), std::back_inserter(sorted), telling);
        std::stable_sort(sorted.begin(), sorted.end(),
                         [&](int a, int b) { return std::abs(like[a]) > std::abs(like[b]); });
        auto next = sorted.begin();
        for (int& d : axes)
            if (telling(d))
                d = *next++;
    }
    Dims strides = Dims::filled(shape.size(), 0);
    std::int64_t stride = std::int64_t(itemSize);
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
        strides[*it] = stride;
        stride *= std::max<std::int64_t>(shape[*it], 1);
    }
    return strides;
}

Dims broadcastShapes(const Dims& a, const Dims& b)
{
    const int rank = std::max(a.size(), b.size());
    Dims out = Dims::filled(rank, 1);
    for (int i = 0; i < rank; ++i) {
        const int ia = i - (rank - a.size()), ib = i - (rank - b.size());
        const std::int64_t da = ia >= 0 ? a[ia] : 1, db = ib >= 0 ? b[ib] : 1;
        if (da != db && da != 1 && db != 1)
            throwUsage("broadcast", "operands could not be broadcast together with shapes " + a.toString() + " " +
                                        b.toString());
        out[i] = da == 1 ? db : da;
    }
    return out;
}

// ----- construction

DeviceArray DeviceArray::empty(Runtime& rt, const Dims& shape, DType dtype, Order order, const Dims& like)
{
    if (dtype == DType::Struct)
        throwUsage("DeviceArray::empty", "DType::Struct needs its element type: empty(rt, shape, StructType)");
    for (std::int64_t d : shape)
        if (d < 0)
            throwUsage("DeviceArray::empty", "negative dimensions are not allowed: shape " + shape.toString());
    const std::int64_t n = shape.product();
    const std::size_t item = array::itemSize(dtype);
    if (n > 0 && std::uint64_t(n) > std::uint64_t(INT64_MAX) / item)
        throwUsage("DeviceArray::empty", "shape " + shape.toString() + " of " + std::string(dtypeName(dtype)) +
                                             " is too large to address");
    auto memory = rt.allocate(std::size_t(n) * item);
    DeviceArray a;
    a.m_runtime = &rt;
    a.m_dtype = dtype;
    a.m_shape = shape;
    a.m_strides = orderedStrides(shape, item, order, like);
    a.m_base = memory->get();
    a.m_memory = std::move(memory);
    return a;
}

DeviceArray DeviceArray::empty(Runtime& rt, const Dims& shape, std::shared_ptr<const StructType> type, Order order,
                               const Dims& like)
{
    if (!type || type->size == 0)
        throwUsage("DeviceArray::empty", "a struct element type of some size is needed");
    if (shape.size() >= kMaxDims)
        throwUsage("DeviceArray::empty", "struct arrays have at most " + std::to_string(kMaxDims - 1) + " axes");
    // Allocated as bytes with one more axis of the element's size, then typed: one allocation path.
    Dims byteShape = shape;
    byteShape.push_back(std::int64_t(type->size));
    for (std::int64_t d : shape)
        if (d < 0)
            throwUsage("DeviceArray::empty", "negative dimensions are not allowed: shape " + shape.toString());
    DeviceArray bytes = empty(rt, byteShape, DType::UInt8, Order::C);
    DeviceArray a = bytes;
    a.m_dtype = DType::Struct;
    a.m_struct = std::move(type);
    a.m_shape = shape;
    a.m_strides = orderedStrides(shape, a.m_struct->size, order, like);
    return a;
}

DeviceArray DeviceArray::view(Runtime& rt, CUdeviceptr pointer, DType dtype, const Dims& shape, Dims strides,
                              std::int64_t offsetBytes)
{
    DeviceArray a = detached(pointer, dtype, shape, std::move(strides), offsetBytes);
    a.m_runtime = &rt;
    return a;
}

DeviceArray DeviceArray::detached(CUdeviceptr pointer, DType dtype, const Dims& shape, Dims strides,
                                  std::int64_t offsetBytes)
{
    if (dtype == DType::Struct)
        throwUsage("DeviceArray::view", "a view of struct elements is made from a struct array (elementWords, "
                                        "index, ...), not from DType::Struct");
    if (strides.empty() && !shape.empty())
        strides = contiguousStrides(shape, array::itemSize(dtype));
    if (strides.size() != shape.size())
        throwUsage("DeviceArray::view", "strides " + strides.toString() + " do not match shape " + shape.toString());
    for (std::int64_t d : shape)
        if (d < 0)
            throwUsage("DeviceArray::view", "negative dimensions are not allowed: shape " + shape.toString());
    if (pointer == 0 && shape.product() != 0)
        throwUsage("DeviceArray::view", "null device pointer for a non-empty view");
    DeviceArray a;
    a.m_dtype = dtype;
    a.m_shape = shape;
    a.m_strides = strides;
    a.m_base = pointer;
    a.m_offset = offsetBytes;
    return a;
}

DeviceArray DeviceArray::view(Runtime& rt, std::shared_ptr<cuda::DeviceMemory> memory, DType dtype, const Dims& shape,
                              Dims strides, std::int64_t offsetBytes)
{
    if (!memory)
        throwUsage("DeviceArray::view", "null storage");
    DeviceArray a = view(rt, memory->get() ? memory->get() : 0, dtype, shape, strides, offsetBytes);
    // Every element must lie within the allocation.
    std::int64_t lo = offsetBytes, hi = offsetBytes;
    if (a.size() > 0) {
        for (int i = 0; i < shape.size(); ++i) {
            const std::int64_t span = (shape[i] - 1) * a.m_strides[i];
            (span < 0 ? lo : hi) += span;
        }
        if (lo < 0 || hi + std::int64_t(a.itemSize()) > std::int64_t(memory->size()))
            throwUsage("DeviceArray::view", "view of shape " + shape.toString() + " and strides " +
                                                a.m_strides.toString() + " at offset " + std::to_string(offsetBytes) +
                                                " exceeds the allocation of " + std::to_string(memory->size()) +
                                                " bytes");
    }
    a.m_memory = std::move(memory);
    return a;
}

Runtime& DeviceArray::runtime() const
{
    if (!m_runtime)
        throwUsage("DeviceArray", "operation on an empty DeviceArray (default-constructed or moved-from)");
    return *m_runtime;
}

std::int64_t DeviceArray::shape(int axis) const
{
    return m_shape[normalizeAxis(axis, ndim(), "DeviceArray::shape")];
}

namespace {

// Whether the axes, visited from the fastest-varying (`axisAt(k)` is the k-th), have the packed strides.
template <class AxisAt> bool packed(const Dims& shape, const Dims& strides, std::int64_t itemSize, AxisAt axisAt)
{
    std::int64_t expected = itemSize;
    for (int k = 0; k < shape.size(); ++k) {
        const int i = axisAt(k);
        if (shape[i] == 0)
            return true;
        if (shape[i] != 1 && strides[i] != expected)
            return false;
        expected *= shape[i];
    }
    return true;
}

} // namespace

bool DeviceArray::isCContiguous() const noexcept
{
    return packed(m_shape, m_strides, std::int64_t(itemSize()), [n = ndim()](int k) { return n - 1 - k; });
}

bool DeviceArray::isFContiguous() const noexcept
{
    return packed(m_shape, m_strides, std::int64_t(itemSize()), [](int k) { return k; });
}

namespace {

// [first byte, last byte + 1) touched by the array's elements.
std::pair<std::uint64_t, std::uint64_t> byteExtent(const DeviceArray& a)
{
    std::int64_t lo = 0, hi = 0;
    for (int i = 0; i < a.ndim(); ++i) {
        const std::int64_t span = (a.shape()[i] - 1) * a.strides()[i];
        (span < 0 ? lo : hi) += span;
    }
    return {std::uint64_t(std::int64_t(a.data()) + lo), std::uint64_t(std::int64_t(a.data()) + hi) + a.itemSize()};
}

} // namespace

bool DeviceArray::mayShareMemory(const DeviceArray& other) const noexcept
{
    if (size() == 0 || other.size() == 0)
        return false;
    const auto [a0, a1] = byteExtent(*this);
    const auto [b0, b1] = byteExtent(other);
    return a0 < b1 && b0 < a1;
}

std::string DeviceArray::describe() const
{
    return (m_struct ? m_struct->name : std::string(dtypeName(m_dtype))) + " array of shape " + m_shape.toString();
}

namespace {

// The first axis longer than 1 with a stride of 0, if any.
std::optional<int> broadcastAxis(const Dims& shape, const Dims& strides) noexcept
{
    for (int k = 0; k < shape.size(); ++k)
        if (shape[k] > 1 && strides[k] == 0)
            return k;
    return std::nullopt;
}

} // namespace

bool DeviceArray::isBroadcast() const noexcept
{
    return broadcastAxis(m_shape, m_strides).has_value();
}

std::string DeviceArray::describeLayout() const
{
    if (ndim() == 0)
        return "0-d";
    if (size() == 0)
        return "0-size";
    if (const std::optional<int> axis = broadcastAxis(m_shape, m_strides))
        return "broadcast (stride 0 on axis " + std::to_string(*axis) + ")";
    if (isCContiguous())
        return "C-contiguous";
    return "strided (byte strides " + m_strides.toString() + ")";
}

void DeviceArray::requireWritable(std::string_view function) const
{
    if (isBroadcast())
        throwUsage(function, "cannot write into the " + describe() + ", a " + describeLayout() +
                                 " view: its elements share memory. Write into a copy() instead");
}

void DeviceArray::checkHostType(DType hostType, const char* call) const
{
    if (hostType != m_dtype)
        throwUsage(call, "host type " + std::string(dtypeName(hostType)) + " does not match the " + describe() +
                             " (use astype first)");
}

void DeviceArray::checkHostStruct(std::size_t size, std::size_t align, const char* call) const
{
    if (!m_struct)
        throwUsage(call, "the " + describe() + " holds numbers: use its host type (" +
                             std::string(cudaTypeName(m_dtype)) + ")");
    if (size != m_struct->size || align != m_struct->align)
        throwUsage(call, "a host element of " + std::to_string(size) + " bytes aligned to " + std::to_string(align) +
                             " does not match the " + describe() + " (" + std::to_string(m_struct->size) +
                             " bytes aligned to " + std::to_string(m_struct->align) + ")");
}

DeviceArray DeviceArray::withLayout(const Dims& shape, const Dims& strides, std::int64_t offset) const
{
    DeviceArray a = *this;
    a.m_shape = shape;
    a.m_strides = strides;
    a.m_offset = offset;
    return a;
}

// ----- views

std::optional<DeviceArray> DeviceArray::denseBlockView() const
{
    if (size() == 0)
        return std::nullopt;
    // The axes that step (extent > 1) by |stride|, smallest first, must tile the block: each
    // stride the product of the item size and the extents below it.
    std::vector<std::pair<std::int64_t, std::int64_t>> axes; // |stride|, extent
    std::int64_t lowest = m_offset;                          // the block's first byte
    for (int k = 0; k < m_shape.size(); ++k) {
        if (m_shape[k] == 1)
            continue;
        axes.emplace_back(std::abs(m_strides[k]), m_shape[k]);
        if (m_strides[k] < 0)
            lowest += (m_shape[k] - 1) * m_strides[k];
    }
    std::sort(axes.begin(), axes.end());
    std::int64_t expected = std::int64_t(itemSize());
    for (const auto& [stride, extent] : axes) {
        if (stride != expected)
            return std::nullopt;
        expected *= extent;
    }
    return withLayout(Dims{size()}, Dims{std::int64_t(itemSize())}, lowest);
}

DeviceArray DeviceArray::index(std::initializer_list<IndexItem> items) const
{
    return index(std::span<const IndexItem>(items.begin(), items.size()));
}

DeviceArray DeviceArray::index(std::span<const IndexItem> items) const
{
    int consumed = 0, ellipses = 0;
    for (const IndexItem& it : items) {
        if (it.kind == IndexItem::Kind::Integer || it.kind == IndexItem::Kind::Slice)
            ++consumed;
        if (it.kind == IndexItem::Kind::Ellipsis)
            ++ellipses;
    }
    if (ellipses > 1)
        throwUsage("DeviceArray::index", "an index can only have a single ellipsis");
    if (consumed > ndim())
        throwUsage("DeviceArray::index", "too many indices for array: array is " + std::to_string(ndim()) +
                                             "-dimensional, but " + std::to_string(consumed) + " were indexed");
    Dims shape, strides;
    std::int64_t offset = m_offset;
    int axis = 0;
    auto takeWhole = [&](int count) {
        for (int k = 0; k < count; ++k, ++axis) {
            shape.push_back(m_shape[axis]);
            strides.push_back(m_strides[axis]);
        }
    };
    for (const IndexItem& it : items) {
        switch (it.kind) {
        case IndexItem::Kind::Integer: {
            std::int64_t i = it.index;
            const std::int64_t len = m_shape[axis];
            if (i < -len || i >= len)
                throwUsage("DeviceArray::index", "index " + std::to_string(it.index) + " is out of bounds for axis " +
                                                     std::to_string(axis) + " with size " + std::to_string(len));
            if (i < 0)
                i += len;
            offset += i * m_strides[axis];
            ++axis;
            break;
        }
        case IndexItem::Kind::Slice: {
            const SliceRange r = normalizeSlice(it.slice, m_shape[axis]);
            offset += r.start * m_strides[axis];
            shape.push_back(r.count);
            strides.push_back(r.step * m_strides[axis]);
            ++axis;
            break;
        }
        case IndexItem::Kind::NewAxis:
            shape.push_back(1);
            strides.push_back(0);
            break;
        case IndexItem::Kind::Ellipsis: takeWhole(ndim() - consumed); break;
        }
    }
    takeWhole(ndim() - axis);
    return withLayout(shape, strides, offset);
}

DeviceArray DeviceArray::slice(int axis, const Slice& s) const
{
    axis = normalizeAxis(axis, ndim(), "DeviceArray::slice");
    const SliceRange r = normalizeSlice(s, m_shape[axis]);
    Dims shape = m_shape, strides = m_strides;
    shape[axis] = r.count;
    strides[axis] = r.step * m_strides[axis];
    return withLayout(shape, strides, m_offset + r.start * m_strides[axis]);
}

DeviceArray DeviceArray::operator[](std::int64_t i) const
{
    return index({IndexItem(i)});
}

namespace {

Dims inferShape(const Dims& requested, std::int64_t size, const Dims& from)
{
    Dims shape = requested;
    int unknown = -1;
    std::int64_t known = 1;
    for (int i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1) {
            if (unknown >= 0)
                throwUsage("DeviceArray::reshape", "can only specify one unknown dimension");
            unknown = i;
        } else if (shape[i] < 0) {
            throwUsage("DeviceArray::reshape", "negative dimension in shape " + requested.toString());
        } else {
            known *= shape[i];
        }
    }
    if (unknown >= 0) {
        if (known == 0 || size % known != 0)
            throwUsage("DeviceArray::reshape", "cannot reshape array of size " + std::to_string(size) +
                                                   " into shape " + requested.toString());
        shape[unknown] = size / known;
    }
    if (shape.product() != size)
        throwUsage("DeviceArray::reshape", "cannot reshape array of shape " + from.toString() + " (size " +
                                               std::to_string(size) + ") into shape " + requested.toString());
    return shape;
}

// numpy's _attempt_nocopy_reshape (C order): new strides when the reshape can be a view.
std::optional<Dims> noCopyStrides(const Dims& oldShapeIn, const Dims& oldStridesIn, const Dims& newShape,
                                  std::int64_t itemSize)
{
    Dims oldShape, oldStrides;
    for (int i = 0; i < oldShapeIn.size(); ++i)
        if (oldShapeIn[i] != 1) {
            oldShape.push_back(oldShapeIn[i]);
            oldStrides.push_back(oldStridesIn[i]);
        }
    Dims newStrides = Dims::filled(newShape.size(), 0);
    const int oldN = oldShape.size(), newN = newShape.size();
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newN && oi < oldN) {
        std::int64_t np = newShape[ni], op = oldShape[oi];
        while (np != op) {
            if (np < op)
                np *= newShape[nj++];
            else
                op *= oldShape[oj++];
        }
        for (int ok = oi; ok < oj - 1; ++ok)
            if (oldStrides[ok] != oldShape[ok + 1] * oldStrides[ok + 1])
                return std::nullopt;
        newStrides[nj - 1] = oldStrides[oj - 1];
        for (int nk = nj - 1; nk > ni; --nk)
            newStrides[nk - 1] = newStrides[nk] * newShape[nk];
        ni = nj++;
        oi = oj++;
    }
    // Trailing ones in the new shape.
    const std::int64_t last = ni >= 1 ? newStrides[ni - 1] : itemSize;
    for (int nk = ni; nk < newN; ++nk)
        newStrides[nk] = last;
    return newStrides;
}

} // namespace

DeviceArray DeviceArray::reshapeView(const Dims& requested) const
{
    const Dims shape = inferShape(requested, size(), m_shape);
    if (size() == 0)
        return withLayout(shape, contiguousStrides(shape, itemSize()), m_offset);
    if (auto strides = noCopyStrides(m_shape, m_strides, shape, std::int64_t(itemSize())))
        return withLayout(shape, *strides, m_offset);
    throwUsage("DeviceArray::reshapeView", "cannot reshape the " + describe() + " with strides " +
                                               m_strides.toString() + " into shape " + shape.toString() +
                                               " without copying");
}

DeviceArray DeviceArray::reshape(const Dims& requested) const
{
    const Dims shape = inferShape(requested, size(), m_shape);
    if (size() == 0)
        return withLayout(shape, contiguousStrides(shape, itemSize()), m_offset);
    if (auto strides = noCopyStrides(m_shape, m_strides, shape, std::int64_t(itemSize())))
        return withLayout(shape, *strides, m_offset);
    return copy(Order::C).reshapeView(shape);
}

DeviceArray DeviceArray::transpose() const
{
    Dims axes;
    for (int i = ndim() - 1; i >= 0; --i)
        axes.push_back(i);
    return transpose(axes);
}

DeviceArray DeviceArray::transpose(const Dims& axesIn) const
{
    if (axesIn.size() != ndim())
        throwUsage("DeviceArray::transpose", "axes " + axesIn.toString() + " don't match an array of dimension " +
                                                 std::to_string(ndim()));
    Dims shape, strides;
    bool seen[kMaxDims] = {};
    for (std::int64_t a : axesIn) {
        const int axis = normalizeAxis(int(a), ndim(), "DeviceArray::transpose");
        if (seen[axis])
            throwUsage("DeviceArray::transpose", "repeated axis in transpose: " + axesIn.toString());
        seen[axis] = true;
        shape.push_back(m_shape[axis]);
        strides.push_back(m_strides[axis]);
    }
    return withLayout(shape, strides, m_offset);
}

DeviceArray DeviceArray::swapAxes(int a, int b) const
{
    a = normalizeAxis(a, ndim(), "DeviceArray::swapAxes");
    b = normalizeAxis(b, ndim(), "DeviceArray::swapAxes");
    Dims shape = m_shape, strides = m_strides;
    std::swap(shape[a], shape[b]);
    std::swap(strides[a], strides[b]);
    return withLayout(shape, strides, m_offset);
}

DeviceArray DeviceArray::ravel() const
{
    return isCContiguous() ? withLayout(Dims{size()}, Dims{std::int64_t(itemSize())}, m_offset) : flatten();
}

DeviceArray DeviceArray::flatten() const
{
    return copy(Order::C).reshapeView(Dims{size()});
}

DeviceArray DeviceArray::squeeze() const
{
    Dims shape, strides;
    for (int i = 0; i < ndim(); ++i)
        if (m_shape[i] != 1) {
            shape.push_back(m_shape[i]);
            strides.push_back(m_strides[i]);
        }
    return withLayout(shape, strides, m_offset);
}

DeviceArray DeviceArray::expandDims(int axis) const
{
    axis = normalizeAxis(axis, ndim() + 1, "DeviceArray::expandDims");
    Dims shape = m_shape, strides = m_strides;
    shape.insert(axis, 1);
    strides.insert(axis, 0);
    return withLayout(shape, strides, m_offset);
}

DeviceArray DeviceArray::broadcastTo(const Dims& target) const
{
    if (target.size() < ndim())
        throwUsage("DeviceArray::broadcastTo", "cannot broadcast shape " + m_shape.toString() + " to " +
                                                   target.toString());
    Dims strides = Dims::filled(target.size(), 0);
    const int lead = target.size() - ndim();
    for (int i = 0; i < ndim(); ++i) {
        if (m_shape[i] == target[lead + i])
            strides[lead + i] = m_strides[i];
        else if (m_shape[i] != 1)
            throwUsage("DeviceArray::broadcastTo", "cannot broadcast shape " + m_shape.toString() + " to " +
                                                       target.toString());
    }
    return withLayout(target, strides, m_offset);
}

DeviceArray DeviceArray::viewAs(DType dtype) const
{
    if (dtype == DType::Struct)
        throwUsage("DeviceArray::viewAs", "DType::Struct needs its element type; make a struct array with empty");
    const std::int64_t oldSize = std::int64_t(itemSize()), newSize = std::int64_t(array::itemSize(dtype));
    DeviceArray a = *this;
    a.m_dtype = dtype;
    a.m_struct.reset();
    if (oldSize == newSize)
        return a;
    if (ndim() == 0)
        throwUsage("DeviceArray::viewAs", "cannot change the item size of a 0-d array");
    const int last = ndim() - 1;
    if (m_shape[last] != 1 && m_strides[last] != oldSize)
        throwUsage("DeviceArray::viewAs", "to change to a dtype of a different size, the last axis must be "
                                          "contiguous (" + describe() + ", strides " + m_strides.toString() + ")");
    const std::int64_t bytes = m_shape[last] * oldSize;
    if (bytes % newSize != 0)
        throwUsage("DeviceArray::viewAs", "when changing to a dtype of a different size, the last axis (" +
                                              std::to_string(bytes) + " bytes) must be a multiple of " +
                                              std::to_string(newSize) + " bytes");
    a.m_shape[last] = bytes / newSize;
    a.m_strides[last] = newSize;
    return a;
}

DeviceArray DeviceArray::elementWords() const
{
    if (!m_struct)
        throwUsage("DeviceArray::elementWords", "the " + describe() + " holds numbers, not struct elements");
    const std::size_t word = std::min<std::size_t>(m_struct->align, 8);
    const DType wordType = word == 1 ? DType::UInt8 : word == 2 ? DType::UInt16 : word == 4 ? DType::UInt32 : DType::UInt64;
    if (ndim() >= kMaxDims)
        throwUsage("DeviceArray::elementWords", "the " + describe() + " has no room for another axis");
    Dims shape = m_shape, strides = m_strides;
    shape.push_back(std::int64_t(m_struct->size / word));
    strides.push_back(std::int64_t(word));
    DeviceArray a = withLayout(shape, strides, m_offset);
    a.m_dtype = wordType;
    a.m_struct.reset();
    return a;
}

// ----- transfers

void DeviceArray::copyFromHost(const void* host, std::size_t bytes)
{
    copyFromHostAsync(host, bytes);
    runtime().synchronize();
}

void DeviceArray::copyFromHostAsync(const void* host, std::size_t bytes)
{
    Runtime& rt = runtime();
    if (std::int64_t(bytes) != nbytes())
        throwUsage("DeviceArray::copyFromHost", std::to_string(bytes) + " host bytes for the " + describe() + " (" +
                                                    std::to_string(nbytes()) + " bytes)");
    requireWritable("DeviceArray::copyFromHost");
    if (bytes == 0)
        return;
    if (isCContiguous()) {
        KS_CU(cuMemcpyHtoDAsync, data(), host, bytes, rt.stream());
        return;
    }
    DeviceArray staging = DeviceArray::empty(rt, m_shape, m_dtype);
    KS_CU(cuMemcpyHtoDAsync, staging.data(), host, bytes, rt.stream());
    assign(staging);
}

void DeviceArray::copyToHost(void* host, std::size_t bytes) const
{
    copyToHostAsync(host, bytes);
    runtime().synchronize();
}

void DeviceArray::copyToHostAsync(void* host, std::size_t bytes) const
{
    Runtime& rt = runtime();
    if (std::int64_t(bytes) != nbytes())
        throwUsage("DeviceArray::copyToHost", std::to_string(bytes) + " host bytes for the " + describe() + " (" +
                                                  std::to_string(nbytes()) + " bytes)");
    if (bytes == 0)
        return;
    if (isCContiguous()) {
        KS_CU(cuMemcpyDtoHAsync, host, data(), bytes, rt.stream());
        return;
    }
    // The staging copy is freed (in stream order) when this returns; the caller's host memory is
    // written by the queued download, so this variant synchronises like copyToHost.
    DeviceArray staging = copy(Order::C);
    KS_CU(cuMemcpyDtoHAsync, host, staging.data(), bytes, rt.stream());
    rt.synchronize();
}

DeviceArray fromHost(Runtime& rt, const void* host, DType dtype, const Dims& shape)
{
    DeviceArray a = DeviceArray::empty(rt, shape, dtype);
    a.copyFromHost(host, std::size_t(a.nbytes()));
    return a;
}

DeviceArray empty(Runtime& rt, const Dims& shape, DType dtype, Order order)
{
    return DeviceArray::empty(rt, shape, dtype, order);
}

DeviceArray empty(Runtime& rt, const Dims& shape, std::shared_ptr<const StructType> type, Order order)
{
    return DeviceArray::empty(rt, shape, std::move(type), order);
}

DeviceArray emptyLike(const DeviceArray& a, std::optional<DType> dtype, Order order)
{
    if (a.structType() && (!dtype || *dtype == DType::Struct))
        return DeviceArray::empty(a.runtime(), a.shape(), a.structType(), order, a.strides());
    return DeviceArray::empty(a.runtime(), a.shape(), dtype.value_or(a.dtype()), order, a.strides());
}

} // namespace ks::array
