#pragma once
// Shapes and strides of device arrays: up to kMaxDims signed 64-bit extents, stored inline (no heap
// allocation, so building views every frame is cheap and layouts pass to kernels by value).

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>

namespace ks::array {

inline constexpr int kMaxDims = 8;

class Dims {
public:
    Dims() noexcept = default;
    // Throws ks::Error when given more than kMaxDims values.
    Dims(std::initializer_list<std::int64_t> values);
    explicit Dims(std::span<const std::int64_t> values);
    // `rank` copies of `value`.
    static Dims filled(int rank, std::int64_t value);

    int size() const noexcept { return m_rank; }
    bool empty() const noexcept { return m_rank == 0; }
    std::int64_t& operator[](int i) noexcept { return m_values[std::size_t(i)]; }
    std::int64_t operator[](int i) const noexcept { return m_values[std::size_t(i)]; }
    std::int64_t* begin() noexcept { return m_values.data(); }
    std::int64_t* end() noexcept { return m_values.data() + m_rank; }
    const std::int64_t* begin() const noexcept { return m_values.data(); }
    const std::int64_t* end() const noexcept { return m_values.data() + m_rank; }
    const std::int64_t* data() const noexcept { return m_values.data(); }
    std::int64_t back() const noexcept { return m_values[std::size_t(m_rank - 1)]; }

    void push_back(std::int64_t v); // throws ks::Error beyond kMaxDims
    void insert(int at, std::int64_t v);
    void erase(int at) noexcept;

    // Product of the values (1 for rank 0).
    std::int64_t product() const noexcept;
    // "(3, 4)", "()", "(5,)" as numpy prints shapes.
    std::string toString() const;

    friend bool operator==(const Dims& a, const Dims& b) noexcept;

private:
    std::array<std::int64_t, kMaxDims> m_values{};
    int m_rank = 0;
};

// The shape of `count` host values handed to fromHost: `shape` when given (its product must be
// `count`; Dims{} is 0-d and takes one value, like np.array(2)), else 1-D (count,).
// Throws ks::Error when the counts disagree.
Dims hostValuesShape(std::size_t count, const std::optional<Dims>& shape);
// numpy's normalize_axis_index: `axis` in [-ndim, ndim), negative counting from the end; throws
// ks::Error naming `call` otherwise (numpy's AxisError).
int normalizeAxis(int axis, int ndim, const char* call);
// numpy's result shapes: np.stack (a new axis of len(shapes), in [-ndim-1, ndim]) and
// np.concatenate (along an existing axis; 0-d inputs are an error). Throw ks::Error on mismatch.
Dims stackShape(std::span<const Dims> shapes, int axis);
Dims concatenateShape(std::span<const Dims> shapes, int axis);

// numpy.take(a, indices, axis)'s geometry for `shape` = a.shape: the result's shape
// (a.shape[:axis] + indices + a.shape[axis+1:]; with no axis, a is flattened and it is `indices`),
// the axis (normalized; 0 with none), the length of the axis the indices pick along, and the
// product of the extents after it. Throws ks::Error for an axis outside [-ndim, ndim) (AxisError).
struct TakeAxis {
    Dims shape;
    int axis = 0;
    std::int64_t length = 0;
    std::int64_t inner = 1;
};
TakeAxis takeAxis(const Dims& shape, const Dims& indices, std::optional<int> axis);

} // namespace ks::array
