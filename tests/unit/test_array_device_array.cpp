// Shape and stride arithmetic of device arrays, host only: Python slice normalisation, numpy views
// (index, reshape with numpy's no-copy rule, transpose, broadcasting) and the map engine's
// dimension collapsing. Arrays here are detached views of a fake address: nothing touches a device.
#include "test_support.hpp"

#include "ks/array/device_array.hpp"
#include "ks/array/map.hpp"
#include "ks/core/error.hpp"

#include <gtest/gtest.h>

#include <vector>

using ks::array::DeviceArray;
using ks::array::Dims;
using ks::array::DType;
using ks::array::IndexItem;
using ks::array::Slice;

namespace {

constexpr CUdeviceptr kBase = 0x100000;

DeviceArray host(const Dims& shape, DType t = DType::Float32)
{
    return DeviceArray::detached(kBase, t, shape);
}

// Python's list(range(n))[slice] for reference.
std::vector<std::int64_t> pySlice(std::int64_t n, const Slice& s)
{
    std::vector<std::int64_t> out;
    const ks::array::SliceRange r = ks::array::normalizeSlice(s, n);
    for (std::int64_t k = 0; k < r.count; ++k)
        out.push_back(r.start + k * r.step);
    return out;
}

} // namespace

TEST(ArrayLayout, SliceNormalisationMatchesPython)
{
    using V = std::vector<std::int64_t>;
    EXPECT_EQ(pySlice(10, Slice::all()), (V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    EXPECT_EQ(pySlice(10, Slice::range(2, 8, 3)), (V{2, 5}));
    EXPECT_EQ(pySlice(10, Slice::reversed()), (V{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(pySlice(10, Slice{-3, std::nullopt, 1}), (V{7, 8, 9}));
    EXPECT_EQ(pySlice(10, Slice{std::nullopt, -7, 1}), (V{0, 1, 2}));
    EXPECT_EQ(pySlice(10, Slice{8, 2, -2}), (V{8, 6, 4}));
    EXPECT_EQ(pySlice(10, Slice{100, std::nullopt, -3}), (V{9, 6, 3, 0}));
    EXPECT_EQ(pySlice(10, Slice{-100, 100, 4}), (V{0, 4, 8}));
    EXPECT_EQ(pySlice(10, Slice{5, 5, 1}), V{});
    EXPECT_EQ(pySlice(10, Slice{2, 8, -1}), V{});
    EXPECT_EQ(pySlice(0, Slice::reversed()), V{});
    EXPECT_EQ(pySlice(10, Slice{std::nullopt, -100, -1}), (V{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
    EXPECT_THROW(ks::array::normalizeSlice(Slice{std::nullopt, std::nullopt, 0}, 10), ks::Error);
}

TEST(ArrayLayout, IndexMakesNumpyViews)
{
    const DeviceArray a = host({4, 5, 6}); // strides 120, 24, 4
    EXPECT_EQ(a.strides(), (Dims{120, 24, 4}));
    EXPECT_TRUE(a.isCContiguous());

    const DeviceArray b = a.index({1, Slice::range(1, 5, 2), Slice::reversed()});
    EXPECT_EQ(b.shape(), (Dims{2, 6}));
    EXPECT_EQ(b.strides(), (Dims{48, -4}));
    EXPECT_EQ(b.offset(), 120 + 24 + 5 * 4);
    EXPECT_FALSE(b.isCContiguous());

    const DeviceArray c = a.index({IndexItem::ellipsis(), -1});
    EXPECT_EQ(c.shape(), (Dims{4, 5}));
    EXPECT_EQ(c.offset(), 5 * 4);
    const DeviceArray d = a.index({IndexItem::newAxis(), 2});
    EXPECT_EQ(d.shape(), (Dims{1, 5, 6}));
    EXPECT_EQ(d.offset(), 240);
    EXPECT_EQ(a[3].shape(), (Dims{5, 6}));
    EXPECT_EQ(a.slice(2, Slice::from(1, 2)).shape(), (Dims{4, 5, 3}));
    EXPECT_EQ(a.slice(2, Slice::from(1, 2)).strides(), (Dims{120, 24, 8}));
    EXPECT_THROW(a.index({4}), ks::Error);
    EXPECT_THROW(a.index({0, 0, 0, 0}), ks::Error);
    EXPECT_THROW(a.slice(3, Slice::all()), ks::Error);
    EXPECT_THROW(DeviceArray().runtime(), ks::Error);
}

TEST(ArrayLayout, ReshapeViewsWhereNumpyCan)
{
    const DeviceArray a = host({4, 6});
    EXPECT_EQ(a.reshapeView({2, -1, 3}).shape(), (Dims{2, 4, 3}));
    EXPECT_EQ(a.reshapeView({2, -1, 3}).strides(), (Dims{48, 12, 4}));
    EXPECT_EQ(a.reshapeView({24}).strides(), (Dims{4}));
    EXPECT_THROW(a.reshapeView({5, 5}), ks::Error);
    EXPECT_THROW(a.reshapeView({-1, -1}), ks::Error);
    // A column slice keeps rows apart: splitting the rows axis is a view, merging is not.
    const DeviceArray cols = a.slice(1, Slice::range(0, 4)); // (4, 4) strides (24, 4)
    EXPECT_EQ(cols.reshapeView({2, 2, 4}).strides(), (Dims{48, 24, 4}));
    EXPECT_EQ(cols.reshapeView({4, 2, 2}).strides(), (Dims{24, 8, 4}));
    EXPECT_THROW(cols.reshapeView({16}), ks::Error);
    // Transposed: (6, 4) strides (4, 24); reshape to (3, 2, 4) is a view, to (24,) is not.
    const DeviceArray t = a.transpose();
    EXPECT_EQ(t.strides(), (Dims{4, 24}));
    EXPECT_TRUE(t.isFContiguous());
    EXPECT_EQ(t.reshapeView({3, 2, 4}).strides(), (Dims{8, 4, 24}));
    EXPECT_THROW(t.reshapeView({24}), ks::Error);
    // Length-1 axes and reversed views.
    EXPECT_EQ(a.reshapeView({1, 4, 1, 6, 1}).shape(), (Dims{1, 4, 1, 6, 1}));
    const DeviceArray r = host({10}).slice(Slice::reversed());
    EXPECT_EQ(r.reshapeView({2, 5}).strides(), (Dims{-20, -4}));
}

TEST(ArrayLayout, TransposeSqueezeExpandBroadcastViewAs)
{
    const DeviceArray a = host({2, 3, 4});
    const DeviceArray p = a.transpose({2, 0, 1});
    EXPECT_EQ(p.shape(), (Dims{4, 2, 3}));
    EXPECT_EQ(p.strides(), (Dims{4, 48, 16}));
    EXPECT_THROW(a.transpose({0, 0, 1}), ks::Error);
    EXPECT_THROW(a.transpose({0, 1}), ks::Error);
    EXPECT_EQ(a.swapAxes(0, -1).shape(), (Dims{4, 3, 2}));
    EXPECT_EQ(host({1, 3, 1}).squeeze().shape(), (Dims{3}));
    EXPECT_EQ(host({3}).expandDims(0).shape(), (Dims{1, 3}));
    EXPECT_EQ(host({3}).expandDims(-1).shape(), (Dims{3, 1}));
    const DeviceArray b = host({3, 1}).broadcastTo({2, 3, 5});
    EXPECT_EQ(b.strides(), (Dims{0, 4, 0}));
    EXPECT_FALSE(b.isCContiguous());
    EXPECT_THROW(host({3}).broadcastTo({4}), ks::Error);
    EXPECT_EQ(ks::array::broadcastShapes({8, 1, 6, 1}, {7, 1, 5}), (Dims{8, 7, 6, 5}));
    EXPECT_THROW(ks::array::broadcastShapes({3}, {4}), ks::Error);
    const DeviceArray v = host({3, 4}).viewAs(DType::UInt8);
    EXPECT_EQ(v.shape(), (Dims{3, 16}));
    EXPECT_EQ(host({3, 4}, DType::Float32).viewAs(DType::Complex64).shape(), (Dims{3, 2}));
    EXPECT_THROW(host({3, 3}).viewAs(DType::Float64), ks::Error);
    EXPECT_THROW(host({4, 4}).transpose().viewAs(DType::Float64), ks::Error);
}

TEST(ArrayLayout, OverlapDetection)
{
    const DeviceArray a = host({100});
    EXPECT_TRUE(a.slice(Slice::range(0, 50)).mayShareMemory(a.slice(Slice::range(49, 60))));
    EXPECT_FALSE(a.slice(Slice::range(0, 50)).mayShareMemory(a.slice(Slice::range(50, 60))));
    EXPECT_TRUE(a.slice(Slice::reversed()).mayShareMemory(a));
    EXPECT_FALSE(a.slice(Slice::range(3, 3)).mayShareMemory(a));
}

TEST(ArrayLayout, CollapseMergesContiguousAxes)
{
    // Contiguous 3-D for both arrays: one axis.
    std::vector<Dims> strides = {{96, 24, 4}, {96, 24, 4}};
    EXPECT_EQ(ks::array::collapseDims({2, 4, 6}, strides), (Dims{48}));
    EXPECT_EQ(strides[0], (Dims{4}));
    // A broadcast operand (stride 0 on axis 0) keeps two axes.
    strides = {{96, 24, 4}, {0, 24, 4}};
    EXPECT_EQ(ks::array::collapseDims({2, 4, 6}, strides), (Dims{2, 24}));
    EXPECT_EQ(strides[1], (Dims{0, 4}));
    // Column slice: rows cannot merge; extent-1 axes vanish.
    strides = {{24, 100, 4}, {16, 0, 4}};
    EXPECT_EQ(ks::array::collapseDims({4, 1, 4}, strides), (Dims{4, 4}));
    EXPECT_EQ(strides[0], (Dims{24, 4}));
    // All ones: rank 1 of extent 1.
    strides = {{4, 4}};
    EXPECT_EQ(ks::array::collapseDims({1, 1}, strides), (Dims{1}));
    // Reversed 2-D view merges with negative strides.
    strides = {{-20, -4}};
    EXPECT_EQ(ks::array::collapseDims({2, 5}, strides), (Dims{10}));
    EXPECT_EQ(strides[0], (Dims{-4}));
}

TEST(ArrayLayout, DimsLimits)
{
    Dims d{1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_THROW(d.push_back(9), ks::Error);
    EXPECT_THROW((Dims{1, 2, 3, 4, 5, 6, 7, 8, 9}), ks::Error);
    EXPECT_EQ(Dims{}.product(), 1);
    EXPECT_EQ((Dims{5}).toString(), "(5,)");
    EXPECT_EQ((Dims{3, 4}).toString(), "(3, 4)");
    // 64-bit extents: more than 2^32 elements.
    const DeviceArray big = host({std::int64_t(1) << 20, std::int64_t(1) << 14}, DType::UInt8);
    EXPECT_EQ(big.size(), std::int64_t(1) << 34);
    EXPECT_EQ(big.index({(std::int64_t(1) << 20) - 1}).offset(), ((std::int64_t(1) << 20) - 1) << 14);
}

// fromHost's shape rule: no shape means 1-D, Dims{} means 0-d (np.array(2)); the H200 run found
// 0-d arrays built from one value coming back 1-D, which turned np.stack of 0-d inputs into (2, 1).
TEST(ArrayLayout, HostValuesShapeKeepsZeroDim)
{
    EXPECT_EQ(ks::array::hostValuesShape(1, Dims{}), Dims{});
    EXPECT_EQ(ks::array::hostValuesShape(1, Dims{}).size(), 0);
    EXPECT_EQ(ks::array::hostValuesShape(7, std::nullopt), (Dims{7}));
    EXPECT_EQ(ks::array::hostValuesShape(1, std::nullopt), (Dims{1}));
    EXPECT_EQ(ks::array::hostValuesShape(12, Dims{3, 4}), (Dims{3, 4}));
    EXPECT_THROW(ks::array::hostValuesShape(2, Dims{}), ks::Error);
    EXPECT_THROW(ks::array::hostValuesShape(11, Dims{3, 4}), ks::Error);
    // 0-d (+) 0-d broadcasts to 0-d, 0-d (+) (10,) to (10,), as in numpy.
    EXPECT_EQ(ks::array::broadcastShapes(Dims{}, Dims{}), Dims{});
    EXPECT_EQ(ks::array::broadcastShapes(Dims{}, Dims{10}), (Dims{10}));
}

TEST(ArrayLayout, StackAndConcatenateShapesFollowNumpy)
{
    using ks::array::concatenateShape;
    using ks::array::stackShape;
    const std::vector<Dims> scalars{Dims{}, Dims{}};
    EXPECT_EQ(stackShape(scalars, 0), (Dims{2}));   // np.stack([np.array(1), np.array(2)]).shape == (2,)
    EXPECT_EQ(stackShape(scalars, -1), (Dims{2}));
    EXPECT_THROW(stackShape(scalars, 1), ks::Error);
    const std::vector<Dims> vectors{Dims{3}, Dims{3}};
    EXPECT_EQ(stackShape(vectors, 0), (Dims{2, 3}));
    EXPECT_EQ(stackShape(vectors, -1), (Dims{3, 2}));
    EXPECT_EQ(stackShape(vectors, 1), (Dims{3, 2}));
    EXPECT_EQ(stackShape(std::vector<Dims>{Dims{2, 2}, Dims{2, 2}, Dims{2, 2}}, -1), (Dims{2, 2, 3}));
    EXPECT_THROW(stackShape(std::vector<Dims>{Dims{3}, Dims{4}}, 0), ks::Error);
    EXPECT_THROW(stackShape(std::vector<Dims>{}, 0), ks::Error);

    EXPECT_EQ(concatenateShape(std::vector<Dims>{Dims{5, 15}, Dims{4, 15}, Dims{3, 15}}, 0), (Dims{12, 15}));
    EXPECT_EQ(concatenateShape(std::vector<Dims>{Dims{2, 3}, Dims{2, 4}}, -1), (Dims{2, 7}));
    EXPECT_EQ(concatenateShape(std::vector<Dims>{Dims{3}, Dims{1}}, 0), (Dims{4}));
    EXPECT_THROW(concatenateShape(scalars, 0), ks::Error); // numpy: zero-dimensional arrays cannot be concatenated
    EXPECT_THROW(concatenateShape(std::vector<Dims>{Dims{2, 3}, Dims{3, 3}}, 1), ks::Error);
    EXPECT_THROW(concatenateShape(std::vector<Dims>{Dims{3}, Dims{3, 1}}, 0), ks::Error);
    EXPECT_THROW(concatenateShape(vectors, 1), ks::Error);
}

