#include "ks/array/indexing.hpp"

#include "ks/array/map.hpp"
#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"

namespace ks::array {

namespace {

// What take and put launch: the geometry, the indices broadcast to the result's shape, and the
// scalars after the value (length, inner, count * inner).
struct Picks {
    TakeAxis axis;
    DeviceArray indices;
    std::int64_t countInner = 0;
};

Picks picks(std::string_view function, const DeviceArray& a, const DeviceArray& indices, std::optional<int> axis)
{
    if (indices.runtimePtr() != a.runtimePtr())
        throwUsage(function, "the indices belong to another runtime than the " + a.describe());
    Picks p;
    p.axis = takeAxis(a.shape(), indices.shape(), axis);
    // The indices' axes sit where the result has them: ones before and after, broadcast.
    Dims placed;
    for (int d = 0; d < p.axis.axis; ++d)
        placed.push_back(1);
    for (std::int64_t e : indices.shape())
        placed.push_back(e);
    while (placed.size() < p.axis.shape.size())
        placed.push_back(1);
    p.indices = indices.reshape(placed).broadcastTo(p.axis.shape);
    p.countInner = indices.size() * p.axis.inner;
    if (p.axis.shape.product() > 0 && p.axis.length == 0)
        throwUsage(function, "cannot pick elements along an empty axis of the " + a.describe());
    return p;
}

void putValue(const DeviceArray& a, const DeviceArray& indices, const MapArg& value, std::optional<int> axis,
              IndexMode mode)
{
    a.requireWritable("ks::array::put");
    const DeviceArray* values = std::get_if<DeviceArray>(&value);
    const MapOperand operand = values ? MapOperand{values->dtype(), false} : MapOperand{a.dtype(), true};
    const MapSpec spec = putSpec(a.dtype(), indices.dtype(), operand, mode); // refuses indices of no integer dtype
    const Picks p = picks("put", a, indices, axis);
    MapArg in = value;
    if (values) {
        if (values->runtimePtr() != a.runtimePtr())
            throwUsage("put", "the values belong to another runtime than the " + a.describe());
        // Throws when the values do not broadcast to the picked shape.
        in = values->mayShareMemory(a) ? values->copy() : *values;
        std::get<DeviceArray>(in) = std::get<DeviceArray>(in).broadcastTo(p.axis.shape);
    }
    if (p.axis.shape.product() == 0)
        return;
    const DeviceArray picked = p.indices.mayShareMemory(a) ? p.indices.copy() : p.indices;
    // The scatter addresses a C-ordered destination; another layout is written through a copy.
    const DeviceArray target = a.isCContiguous() ? a : a.copy(Order::C);
    const MapArg inputs[] = {picked,
                             in,
                             Scalar(std::uint64_t(target.data())),
                             Scalar(p.axis.length),
                             Scalar(p.axis.inner),
                             Scalar(p.countInner)};
    runMap(spec, {}, inputs);
    if (target.data() != a.data())
        DeviceArray(a).assign(target);
}

// Struct elements are taken and put as the words of each element (elementWords), along the same
// axis; with no axis, over the C-ordered elements.
int structAxis(std::string_view function, const DeviceArray& a, std::optional<int> axis)
{
    if (!axis)
        return 0;
    const int k = *axis < 0 ? *axis + a.ndim() : *axis;
    if (k < 0 || k >= a.ndim())
        throwUsage(function, "axis " + std::to_string(*axis) + " is out of bounds for the " + a.describe());
    return k;
}

// The elements in C order as one axis of elements by one of words: a view when `a` is C-contiguous.
DeviceArray flatElements(const DeviceArray& a)
{
    const DeviceArray words = (a.isCContiguous() ? a : a.copy(Order::C)).elementWords();
    return words.reshapeView(Dims{a.size(), words.shape(-1)});
}

DeviceArray asElements(const DeviceArray& words, const DeviceArray& like)
{
    Dims shape;
    for (int d = 0; d + 1 < words.ndim(); ++d)
        shape.push_back(words.shape(d));
    DeviceArray out = DeviceArray::empty(words.runtime(), shape, like.structType());
    out.elementWords().assign(words);
    return out;
}

} // namespace

DeviceArray take(const DeviceArray& a, const DeviceArray& indices, std::optional<int> axis, IndexMode mode)
{
    if (a.structType()) {
        const int k = structAxis("take", a, axis);
        const DeviceArray words = axis ? a.elementWords() : flatElements(a);
        return asElements(take(words, indices, k, mode), a);
    }
    const MapSpec spec = takeSpec(a.dtype(), indices.dtype(), mode); // refuses indices of no integer dtype
    const Picks p = picks("take", a, indices, axis);
    DeviceArray out = DeviceArray::empty(a.runtime(), p.axis.shape, a.dtype());
    if (out.size() == 0)
        return out;
    // The gather addresses a C-ordered source; another layout is read through a copy.
    const DeviceArray source = a.isCContiguous() ? a : a.copy(Order::C);
    const DeviceArray outputs[] = {out};
    const MapArg inputs[] = {p.indices, Scalar(std::uint64_t(source.data())), Scalar(p.axis.length),
                             Scalar(p.axis.inner), Scalar(p.countInner)};
    runMap(spec, outputs, inputs);
    return out;
}

void put(const DeviceArray& a, const DeviceArray& indices, const DeviceArray& values, std::optional<int> axis,
         IndexMode mode)
{
    if (a.structType() || values.structType()) {
        if (!a.structType() || !values.structType() || !a.structType()->sameAs(*values.structType()))
            throwUsage("put", "cannot put the " + values.describe() + " into the " + a.describe() +
                                  ": struct elements go only into arrays of the same type");
        a.requireWritable("ks::array::put");
        const int k = structAxis("put", a, axis);
        if (axis) {
            put(a.elementWords(), indices, values.elementWords(), k, mode);
            return;
        }
        // Flat positions address the C-ordered elements: another layout is written through a copy.
        DeviceArray target = a.isCContiguous() ? a : a.copy(Order::C);
        put(flatElements(target), indices, values.elementWords(), 0, mode);
        if (target.data() != a.data())
            DeviceArray(a).assign(target);
        return;
    }
    putValue(a, indices, values, axis, mode);
}

void put(const DeviceArray& a, const DeviceArray& indices, const Scalar& value, std::optional<int> axis, IndexMode mode)
{
    if (a.structType())
        throwUsage("put", "the " + a.describe() + " takes struct elements (an array of them), not the number " +
                              value.toString());
    putValue(a, indices, value, axis, mode);
}

} // namespace ks::array
