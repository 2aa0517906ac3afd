#include "ks/array/dims.hpp"

#include "ks/core/error.hpp"

namespace ks::array {

namespace {

[[noreturn]] void tooManyDims(std::size_t n)
{
    throwUsage("Dims", std::to_string(n) + " dimensions requested; device arrays have at most " +
                           std::to_string(kMaxDims));
}

} // namespace

Dims::Dims(std::initializer_list<std::int64_t> values) : Dims(std::span<const std::int64_t>(values.begin(), values.size()))
{
}

Dims::Dims(std::span<const std::int64_t> values)
{
    if (values.size() > std::size_t(kMaxDims))
        tooManyDims(values.size());
    for (std::int64_t v : values)
        m_values[std::size_t(m_rank++)] = v;
}

Dims Dims::filled(int rank, std::int64_t value)
{
    if (rank < 0 || rank > kMaxDims)
        tooManyDims(std::size_t(rank < 0 ? 0 : rank));
    Dims d;
    for (int i = 0; i < rank; ++i)
        d.push_back(value);
    return d;
}

void Dims::push_back(std::int64_t v)
{
    if (m_rank == kMaxDims)
        tooManyDims(std::size_t(kMaxDims + 1));
    m_values[std::size_t(m_rank++)] = v;
}

void Dims::insert(int at, std::int64_t v)
{
    if (m_rank == kMaxDims)
        tooManyDims(std::size_t(kMaxDims + 1));
    for (int i = m_rank; i > at; --i)
        m_values[std::size_t(i)] = m_values[std::size_t(i - 1)];
    m_values[std::size_t(at)] = v;
    ++m_rank;
}

void Dims::erase(int at) noexcept
{
    for (int i = at; i + 1 < m_rank; ++i)
        m_values[std::size_t(i)] = m_values[std::size_t(i + 1)];
    --m_rank;
}

std::int64_t Dims::product() const noexcept
{
    std::int64_t p = 1;
    for (std::int64_t v : *this)
        p *= v;
    return p;
}

std::string Dims::toString() const
{
    std::string s = "(";
    for (int i = 0; i < m_rank; ++i) {
        if (i)
            s += ", ";
        s += std::to_string(m_values[std::size_t(i)]);
    }
    if (m_rank == 1)
        s += ",";
    return s + ")";
}

bool operator==(const Dims& a, const Dims& b) noexcept
{
    if (a.m_rank != b.m_rank)
        return false;
    for (int i = 0; i < a.m_rank; ++i)
        if (a[i] != b[i])
            return false;
    return true;
}

Dims hostValuesShape(std::size_t count, const std::optional<Dims>& shape)
{
    if (!shape)
        return Dims{std::int64_t(count)};
    if (shape->product() != std::int64_t(count))
        throwUsage("fromHost", "shape " + shape->toString() + " holds " + std::to_string(shape->product()) +
                                   " elements but " + std::to_string(count) + " values were given");
    return *shape;
}

int normalizeAxis(int axis, int ndim, const char* call)
{
    if (axis < -ndim || axis >= ndim)
        throwUsage(call, "axis " + std::to_string(axis) + " is out of bounds for an array of dimension " +
                             std::to_string(ndim));
    return axis < 0 ? axis + ndim : axis;
}

Dims stackShape(std::span<const Dims> shapes, int axis)
{
    if (shapes.empty())
        throwUsage("stack", "need at least one array to stack");
    const Dims& shape = shapes[0];
    axis = normalizeAxis(axis, shape.size() + 1, "stack");
    for (const Dims& d : shapes)
        if (!(d == shape))
            throwUsage("stack", "all input arrays must have the same shape: " + shape.toString() + " and " +
                                    d.toString());
    Dims out = shape;
    out.insert(axis, std::int64_t(shapes.size()));
    return out;
}

Dims concatenateShape(std::span<const Dims> shapes, int axis)
{
    if (shapes.empty())
        throwUsage("concatenate", "need at least one array to concatenate");
    const Dims& first = shapes[0];
    const int ndim = first.size();
    if (ndim == 0)
        throwUsage("concatenate", "zero-dimensional arrays cannot be concatenated");
    axis = normalizeAxis(axis, ndim, "concatenate");
    Dims out = first;
    out[axis] = 0;
    for (const Dims& d : shapes) {
        bool ok = d.size() == ndim;
        for (int k = 0; k < ndim && ok; ++k)
            ok = k == axis || d[k] == first[k];
        if (!ok)
            throwUsage("concatenate", "all the input array dimensions except for the concatenation axis must match "
                                      "exactly: " + first.toString() + " and " + d.toString());
        out[axis] += d[axis];
    }
    return out;
}

TakeAxis takeAxis(const Dims& shape, const Dims& indices, std::optional<int> axis)
{
    TakeAxis t;
    if (!axis) {
        t.length = shape.product();
        t.shape = indices;
        return t;
    }
    const int k = normalizeAxis(*axis, shape.size(), "take");
    t.axis = k;
    t.length = shape[k];
    for (int d = 0; d < k; ++d)
        t.shape.push_back(shape[d]);
    for (std::int64_t e : indices)
        t.shape.push_back(e);
    for (int d = k + 1; d < shape.size(); ++d) {
        t.shape.push_back(shape[d]);
        t.inner *= shape[d];
    }
    return t;
}

} // namespace ks::array
