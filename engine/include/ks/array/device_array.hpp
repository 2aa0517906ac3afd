#pragma once
// ks::array::DeviceArray: a typed N-D view of device memory, PyCUDA's GPUArray in C++.
//
// Layout: `shape` and `strides` (kMaxDims at most), strides in BYTES and signed (numpy's
// convention: negative for reversed views, 0 for broadcast axes), and the byte address of element
// (0, ..., 0) = base + offset. 64-bit extents and indices everywhere.
//
// Ownership: a DeviceArray is a handle, like a numpy array object. Copying it copies the handle and
// shares the storage (the copy is a view); `copy()` makes new storage. Storage is either owned
// (a shared cuda::DeviceMemory, freed with the last array that uses it) or foreign (a raw device
// pointer: a GL buffer mapped for this frame, memory from another library), whose lifetime the caller
// guarantees while any view of it is used.
//
// Every operation runs on its runtime's stream (ks/array/runtime.hpp) and is asynchronous unless it
// returns host data; toHost() synchronises the stream. An array keeps a plain pointer to its runtime,
// which must outlive it. An empty (default-constructed) DeviceArray has no runtime, dtype Float32,
// rank 0 and size 0; operations on it other than the queries throw ks::Error.

#include "ks/array/dims.hpp"
#include "ks/array/dtype.hpp"
#include "ks/array/struct_type.hpp"
#include "ks/cuda/driver.hpp"

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ks::cuda {
class DeviceMemory;
class PinnedHostMemory;
} // namespace ks::cuda

namespace ks::array {

class Runtime;

// A Python slice: start/stop optional (nullopt = from the end that fits the step's sign), negative
// values count from the end, step nonzero (negative steps walk backwards).
struct Slice {
    std::optional<std::int64_t> start;
    std::optional<std::int64_t> stop;
    std::int64_t step = 1;

    static Slice all() { return {}; }                                              // a[:]
    static Slice range(std::int64_t start, std::int64_t stop, std::int64_t step = 1) { return {start, stop, step}; }
    static Slice from(std::int64_t start, std::int64_t step = 1) { return {start, std::nullopt, step}; } // a[s:]
    static Slice to(std::int64_t stop) { return {std::nullopt, stop, 1}; }           // a[:e]
    static Slice reversed() { return {std::nullopt, std::nullopt, -1}; }             // a[::-1]
};

// Python's slice.indices(length): the first index, the step and the element count. Throws ks::Error
// for step 0.
struct SliceRange {
    std::int64_t start = 0;
    std::int64_t step = 1;
    std::int64_t count = 0;
};
SliceRange normalizeSlice(const Slice& s, std::int64_t length);

// One item of a multi-axis index: an integer (selects and drops the axis; negative counts from the
// end), a Slice, NewAxis (inserts an axis of length 1) or Ellipsis (as many ':' as needed).
struct IndexItem {
    enum class Kind { Integer, Slice, NewAxis, Ellipsis };
    Kind kind = Kind::Slice;
    std::int64_t index = 0;
    Slice slice;

    IndexItem(std::int64_t i) : kind(Kind::Integer), index(i) {}
    IndexItem(int i) : kind(Kind::Integer), index(i) {}
    IndexItem(Slice s) : kind(Kind::Slice), slice(s) {}
    static IndexItem newAxis() { return IndexItem(Kind::NewAxis); }
    static IndexItem ellipsis() { return IndexItem(Kind::Ellipsis); }

private:
    explicit IndexItem(Kind k) : kind(k) {}
};

// The memory order of a new array (numpy's order=): C (the last axis varies fastest), F (Fortran:
// the first axis fastest) or Keep (numpy's 'K', for an array made like another: the other's order of
// axes, dense, so C for a C-contiguous array and F for an F-contiguous one; C with no other array).
enum class Order { C, F, Keep };

// C-contiguous byte strides for `shape` and item size.
Dims contiguousStrides(const Dims& shape, std::size_t itemSize);
// Dense byte strides for `shape` in `order`. Keep follows `like` (the strides of an array of that
// shape): the axes are laid out by |stride|, largest slowest; an axis of extent 1 or stride 0 says
// nothing about the order and keeps its place.
Dims orderedStrides(const Dims& shape, std::size_t itemSize, Order order, const Dims& like = {});
// numpy's broadcast of two / several shapes; throws ks::Error naming both shapes when they do not
// broadcast ("operands could not be broadcast together with shapes (3,) (4,)").
Dims broadcastShapes(const Dims& a, const Dims& b);

class DeviceArray {
public:
    DeviceArray() noexcept = default;

    // New owned, dense storage (uninitialised) in `order` (orderedStrides; `like`: the strides Keep
    // follows). Throws ks::Error for negative extents and when the device lacks the memory (the
    // message says how much was asked and is free).
    static DeviceArray empty(Runtime& rt, const Dims& shape, DType dtype = DType::Float32, Order order = Order::C,
                             const Dims& like = {});
    // The same with elements of a struct type (DType::Struct): CUDA's float3, a user struct.
    static DeviceArray empty(Runtime& rt, const Dims& shape, std::shared_ptr<const StructType> type,
                             Order order = Order::C, const Dims& like = {});
    // A view of memory the array does not own: `pointer` is the device address of the allocation
    // (or mapped buffer), `offsetBytes` where element 0 lies, `strides` in bytes (empty: C-contiguous).
    // The caller keeps the memory alive and valid while the view is used.
    static DeviceArray view(Runtime& rt, CUdeviceptr pointer, DType dtype, const Dims& shape, Dims strides = {},
                            std::int64_t offsetBytes = 0);
    // A view into shared owned storage (what slicing makes). `memory` must cover every element.
    static DeviceArray view(Runtime& rt, std::shared_ptr<cuda::DeviceMemory> memory, DType dtype, const Dims& shape,
                            Dims strides = {}, std::int64_t offsetBytes = 0);

    // A view with no runtime: layout queries and view operations (index, reshapeView, transpose, ...)
    // work; anything that touches the device throws. For host-side layout computations and tests.
    static DeviceArray detached(CUdeviceptr pointer, DType dtype, const Dims& shape, Dims strides = {},
                                std::int64_t offsetBytes = 0);

    // ----- queries
    bool valid() const noexcept { return m_runtime != nullptr; }
    Runtime& runtime() const; // throws for an empty array
    Runtime* runtimePtr() const noexcept { return m_runtime; }
    DType dtype() const noexcept { return m_dtype; }
    // The element type of a DType::Struct array; null for numbers.
    const std::shared_ptr<const StructType>& structType() const noexcept { return m_struct; }
    std::size_t itemSize() const noexcept { return m_struct ? m_struct->size : array::itemSize(m_dtype); }
    int ndim() const noexcept { return m_shape.size(); }
    const Dims& shape() const noexcept { return m_shape; }
    const Dims& strides() const noexcept { return m_strides; } // bytes
    std::int64_t shape(int axis) const;                         // negative axis counts from the end
    std::int64_t size() const noexcept { return m_shape.product(); }
    std::int64_t nbytes() const noexcept { return size() * std::int64_t(itemSize()); }
    // Device address of element (0, ..., 0).
    CUdeviceptr data() const noexcept { return m_base + CUdeviceptr(m_offset); }
    template <class T>
    T* ptr() const noexcept { return reinterpret_cast<T*>(data()); }
    CUdeviceptr base() const noexcept { return m_base; }
    std::int64_t offset() const noexcept { return m_offset; } // bytes from base() to element 0
    bool ownsStorage() const noexcept { return m_memory != nullptr; }
    const std::shared_ptr<cuda::DeviceMemory>& storage() const noexcept { return m_memory; }
    bool isCContiguous() const noexcept;
    bool isFContiguous() const noexcept;
    bool isContiguous() const noexcept { return isCContiguous(); }
    // Whether the two arrays' byte ranges may overlap (same storage and intersecting extents).
    bool mayShareMemory(const DeviceArray& other) const noexcept;
    // "float32 array of shape (3, 4)" for messages.
    std::string describe() const;
    // A stride of 0 on an axis longer than 1 (what broadcastTo makes): several indices name one
    // element, so the view is read-only, as in numpy.
    bool isBroadcast() const noexcept;
    // How the elements lie, for messages: "0-d", "0-size", "C-contiguous", "broadcast (stride 0 on
    // axis 0)" or "strided (byte strides (32, 8))".
    std::string describeLayout() const;
    // Throws ks::Error (Usage, naming `function`) when the array cannot be written element by element:
    // a broadcast view, whose elements share memory.
    void requireWritable(std::string_view function) const;

    // ----- views (no copy; share the storage)
    DeviceArray index(std::initializer_list<IndexItem> items) const;
    DeviceArray index(std::span<const IndexItem> items) const;
    DeviceArray slice(const Slice& s) const { return slice(0, s); } // along axis 0
    DeviceArray slice(int axis, const Slice& s) const;
    DeviceArray operator[](std::int64_t i) const; // a[i]: drops axis 0
    // numpy reshape: a view when the strides allow it (any layout, numpy's rule), else a C-order copy.
    // One extent may be -1 (inferred). Throws when the sizes differ.
    DeviceArray reshape(const Dims& shape) const;
    // Like reshape but never copies: throws ks::Error when no view is possible.
    DeviceArray reshapeView(const Dims& shape) const;
    DeviceArray transpose() const;                 // reversed axes
    DeviceArray transpose(const Dims& axes) const; // a permutation of 0..ndim-1 (negative allowed)
    DeviceArray swapAxes(int a, int b) const;
    DeviceArray ravel() const;   // 1-D: a view when C-contiguous, else a copy
    DeviceArray flatten() const; // 1-D copy, always
    DeviceArray squeeze() const; // drops every axis of length 1
    DeviceArray expandDims(int axis) const;
    DeviceArray broadcastTo(const Dims& shape) const; // stride-0 view; throws if incompatible
    // The same elements as one C-contiguous 1-D view, in memory order, when this view's elements
    // fill a block of memory exactly in some order: a transposed, reversed or F-ordered view of
    // dense memory. What an operation indifferent to element order (a sum, a min) reads at full
    // speed. nullopt for views with gaps or shared elements (steps, broadcasts) and 0-size arrays.
    std::optional<DeviceArray> denseBlockView() const;
    // Reinterprets the bytes as `dtype` (numpy's a.view(dtype)): the last axis must be contiguous
    // when the item sizes differ; its extent scales by the size ratio.
    DeviceArray viewAs(DType dtype) const;
    // The bytes of a struct array as unsigned integers of min(alignment, 8) bytes with one more,
    // last, axis: the words of each element (a float3 array of shape (n,) is a uint32 view of shape
    // (n, 3)). What copies, fills, take and put of struct elements run on. Throws for numbers and
    // for an array that already has kMaxDims axes.
    DeviceArray elementWords() const;

    // ----- transfers and copies (on the runtime's stream)
    // Host -> this array's elements (any layout). `bytes` must equal nbytes(). Pageable host memory:
    // returns once the copy is done; async with pinned memory (the caller keeps it alive until the
    // stream reaches this point).
    void copyFromHost(const void* host, std::size_t bytes);
    void copyFromHostAsync(const void* host, std::size_t bytes);
    // This array's elements in C order -> host. toHost synchronises; toHostAsync does not (use
    // pinned memory and synchronise the stream before reading).
    void copyToHost(void* host, std::size_t bytes) const;
    void copyToHostAsync(void* host, std::size_t bytes) const;
    template <class T>
    std::vector<T> toHost() const
    {
        checkHost<T>("toHost");
        if constexpr (std::is_same_v<T, bool>) { // std::vector<bool> has no data()
            std::vector<unsigned char> bytes(static_cast<std::size_t>(size()));
            copyToHost(bytes.data(), bytes.size());
            return std::vector<bool>(bytes.begin(), bytes.end());
        } else {
            std::vector<T> out(static_cast<std::size_t>(size()));
            copyToHost(out.data(), out.size() * sizeof(T));
            return out;
        }
    }
    template <class T>
    void setFromHost(std::span<const T> values)
    {
        checkHost<T>("setFromHost");
        copyFromHost(values.data(), values.size_bytes());
    }
    // Copies `source` (broadcast to this shape, converted to this dtype) into this array's elements.
    void assign(const DeviceArray& source);
    // Every element = value (converted to dtype with C++ casts, numpy's unsafe casting). A struct
    // array refuses numbers: see fillElement.
    void fill(const Scalar& value);
    // Every element of a struct array = the bytes of `value`, a host object of the element's size
    // and alignment (struct Float3 { float x, y, z; } for float3). One fill kernel per word of an
    // element (elementWords). Throws for numeric arrays and for a size or alignment that differs.
    template <class T>
        requires std::is_trivially_copyable_v<T>
    void fillElement(const T& value)
    {
        fillElementBytes(&value, sizeof(T), alignof(T));
    }
    void fillElementBytes(const void* value, std::size_t size, std::size_t align);
    // New storage with the same values, in `order`. The default keeps the layout as PyCUDA's copy
    // does (an F-contiguous array gives an F-contiguous copy; see Order::Keep); numpy's
    // ndarray.copy() is copy(Order::C), what a function that needs C order asks for.
    DeviceArray copy(Order order = Order::Keep) const;
    // New C-contiguous array with the values converted (C++ conversions; complex -> real takes the
    // real part; -> bool is != 0).
    DeviceArray astype(DType dtype) const;

    // ----- element-wise operators (declared in ks/array/ops.hpp), in place
    DeviceArray& operator+=(const DeviceArray& other);
    DeviceArray& operator-=(const DeviceArray& other);
    DeviceArray& operator*=(const DeviceArray& other);
    DeviceArray& operator/=(const DeviceArray& other);
    DeviceArray& operator+=(const Scalar& other);
    DeviceArray& operator-=(const Scalar& other);
    DeviceArray& operator*=(const Scalar& other);
    DeviceArray& operator/=(const Scalar& other);

private:
    void checkHostType(DType hostType, const char* call) const;
    // A host element type for a struct array: any trivially copyable T of its size and alignment.
    void checkHostStruct(std::size_t size, std::size_t align, const char* call) const;
    template <class T>
    void checkHost(const char* call) const
    {
        if constexpr (hasDType<T>())
            checkHostType(dtypeOf<T>(), call);
        else {
            static_assert(std::is_trivially_copyable_v<T>, "host elements are copied as bytes");
            checkHostStruct(sizeof(T), alignof(T), call);
        }
    }
    DeviceArray withLayout(const Dims& shape, const Dims& strides, std::int64_t offset) const;

    Runtime* m_runtime = nullptr;
    DType m_dtype = DType::Float32;
    std::shared_ptr<const StructType> m_struct; // set exactly when m_dtype is Struct
    Dims m_shape;
    Dims m_strides;
    std::shared_ptr<cuda::DeviceMemory> m_memory; // null for foreign memory
    CUdeviceptr m_base = 0;
    std::int64_t m_offset = 0;
};

// ----- creation (numpy names)
DeviceArray empty(Runtime& rt, const Dims& shape, DType dtype = DType::Float32, Order order = Order::C);
DeviceArray zeros(Runtime& rt, const Dims& shape, DType dtype = DType::Float32, Order order = Order::C);
// Struct elements (all bytes zero for zeros).
DeviceArray empty(Runtime& rt, const Dims& shape, std::shared_ptr<const StructType> type, Order order = Order::C);
DeviceArray zeros(Runtime& rt, const Dims& shape, std::shared_ptr<const StructType> type, Order order = Order::C);
DeviceArray ones(Runtime& rt, const Dims& shape, DType dtype = DType::Float32, Order order = Order::C);
DeviceArray full(Runtime& rt, const Dims& shape, const Scalar& value, DType dtype, Order order = Order::C);
// numpy's empty_like, zeros_like and ones_like: a's shape, `dtype` (a's when none) and `order` (the
// default, Keep, follows a's layout: C-contiguous gives C, F-contiguous gives F, a transposed view
// its axis order). Never a broadcast or strided layout: the result is always dense.
DeviceArray emptyLike(const DeviceArray& a, std::optional<DType> dtype = std::nullopt, Order order = Order::Keep);
DeviceArray zerosLike(const DeviceArray& a, std::optional<DType> dtype = std::nullopt, Order order = Order::Keep);
DeviceArray onesLike(const DeviceArray& a, std::optional<DType> dtype = std::nullopt, Order order = Order::Keep);
// numpy's arange: ceil((stop - start) / step) elements start + i*step, computed in dtype.
DeviceArray arange(Runtime& rt, double start, double stop, double step = 1, DType dtype = DType::Float32);
// numpy's linspace: `num` values from start to stop (stop included when `endpoint`).
DeviceArray linspace(Runtime& rt, double start, double stop, std::int64_t num, bool endpoint = true,
                     DType dtype = DType::Float64);
// A new array with the host values (`host` holds shape.product() of them).
DeviceArray fromHost(Runtime& rt, const void* host, DType dtype, const Dims& shape);
// Shape: 1-D of the values' length when no shape is given; Dims{} is 0-d (one value), as
// np.array(2). A shape whose size differs from the values' count is an error.
template <class T>
DeviceArray fromHost(Runtime& rt, std::span<const T> values, const Dims& shape)
{
    return fromHost(rt, values.data(), dtypeOf<T>(), hostValuesShape(values.size(), shape));
}
template <class T>
DeviceArray fromHost(Runtime& rt, std::span<const T> values)
{
    return fromHost(rt, values.data(), dtypeOf<T>(), hostValuesShape(values.size(), std::nullopt));
}
template <class T>
DeviceArray fromHost(Runtime& rt, const std::vector<T>& values, const Dims& shape)
{
    return fromHost(rt, std::span<const T>(values), shape);
}
template <class T>
DeviceArray fromHost(Runtime& rt, const std::vector<T>& values)
{
    return fromHost(rt, std::span<const T>(values));
}
// numpy's concatenate along an existing axis / stack along a new axis; dtypes promote.
DeviceArray concatenate(std::span<const DeviceArray> arrays, int axis = 0);
DeviceArray concatenate(std::initializer_list<DeviceArray> arrays, int axis = 0);
DeviceArray stack(std::span<const DeviceArray> arrays, int axis = 0);
DeviceArray stack(std::initializer_list<DeviceArray> arrays, int axis = 0);

} // namespace ks::array
