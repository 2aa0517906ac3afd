// Shape and stride arithmetic of device arrays, host only: Python slice normalisation, numpy views
// (index, reshape with numpy's no-copy rule, transpose, broadcasting) and the map engine's
// dimension collapsing. Arrays here are detached views of a fake address: nothing touches a device.
#include "array_layouts.hpp"
#include "test_support.hpp"

#include "ks/array/device_array.hpp"
#include "ks/array/map.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
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

// A view whose elements fill a block of memory in some order is that block as a 1-D view from its
// lowest address; views with gaps or shared elements are not.
TEST(ArrayLayout, DenseBlockViewIsTheBlockAViewFills)
{
    const DeviceArray a = host({4, 6});
    const auto block = [](const DeviceArray& v) {
        const std::optional<DeviceArray> b = v.denseBlockView();
        return b ? std::optional<std::pair<std::int64_t, Dims>>({b->offset(), b->shape()}) : std::nullopt;
    };
    using Block = std::optional<std::pair<std::int64_t, Dims>>;
    EXPECT_EQ(block(a.transpose()), (Block{{0, Dims{24}}}));
    EXPECT_EQ(block(a.slice(Slice::reversed())), (Block{{0, Dims{24}}})) << "rows reversed: the same block";
    EXPECT_EQ(block(a.slice(1, Slice::reversed()).transpose()), (Block{{0, Dims{24}}}));
    EXPECT_EQ(block(a.slice(Slice::range(1, 3))), (Block{{24, Dims{12}}})) << "rows 1 and 2";
    EXPECT_EQ(block(host({2, 3, 4}).transpose({2, 0, 1}).slice(1, Slice::reversed())), (Block{{0, Dims{24}}}));
    EXPECT_EQ(block(host({1, 5, 1}).transpose()), (Block{{0, Dims{5}}})) << "axes of extent 1 say nothing";
    EXPECT_FALSE(block(a.slice(1, Slice::from(0, 2)))) << "every second column: gaps";
    EXPECT_FALSE(block(a.slice(1, Slice::range(0, 3)))) << "half of each row: gaps";
    EXPECT_FALSE(block(host({6}).broadcastTo({4, 6}))) << "a broadcast shares elements";
    EXPECT_FALSE(block(host({0, 3}))) << "0-size";
    EXPECT_EQ(block(host({})), (Block{{0, Dims{1}}})) << "0-d: one element";
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

TEST(ArrayLayout, OrderedStridesFollowNumpy)
{
    using ks::array::Order;
    using ks::array::orderedStrides;
    EXPECT_EQ(orderedStrides(Dims{2, 3, 4}, 4, Order::C), (Dims{48, 16, 4}));
    EXPECT_EQ(orderedStrides(Dims{2, 3, 4}, 4, Order::F), (Dims{4, 8, 24}));
    EXPECT_EQ(orderedStrides(Dims{2, 3, 4}, 4, Order::Keep), (Dims{48, 16, 4})); // nothing to follow: C
    EXPECT_EQ(ks::array::contiguousStrides(Dims{2, 3, 4}, 4), (Dims{48, 16, 4}));
    // np.empty_like(np.empty((2, 3, 4)).transpose(1, 0, 2)).strides == (32, 96, 8)
    EXPECT_EQ(orderedStrides(Dims{3, 2, 4}, 8, Order::Keep, Dims{32, 96, 8}), (Dims{32, 96, 8}));
    // An F-contiguous float32 array made like in float64 (np.zeros_like(f, dtype=np.float64)).
    EXPECT_EQ(orderedStrides(Dims{3, 4}, 8, Order::Keep, Dims{4, 12}), (Dims{8, 24}));
    // Reversed axes are laid out forwards; broadcast axes and axes of extent 1 keep their place.
    EXPECT_EQ(orderedStrides(Dims{3, 4}, 4, Order::Keep, Dims{-16, -4}), (Dims{16, 4}));
    EXPECT_EQ(orderedStrides(Dims{3, 4}, 4, Order::Keep, Dims{0, 4}), (Dims{16, 4}));
    EXPECT_EQ(orderedStrides(Dims{1, 4}, 4, Order::Keep, Dims{4, 4}), (Dims{16, 4}));
    EXPECT_EQ(orderedStrides(Dims{4, 1, 3}, 4, Order::Keep, Dims{4, 999, 16}), (Dims{4, 16, 16}));
    // 0-size and 0-d.
    EXPECT_EQ(orderedStrides(Dims{0, 4}, 4, Order::F), (Dims{4, 4}));
    EXPECT_EQ(orderedStrides(Dims{}, 4, Order::F), Dims{});
    const auto f = ks::array::DeviceArray::detached(0x1000, ks::array::DType::Float32, Dims{3, 4},
                                                    orderedStrides(Dims{3, 4}, 4, Order::F));
    EXPECT_TRUE(f.isFContiguous());
    EXPECT_FALSE(f.isCContiguous());
}

TEST(ArrayLayout, TakeAxisFollowsNumpy)
{
    using ks::array::takeAxis;
    // np.take(np.empty((2, 3, 4)), np.empty((5, 6), int), axis=1).shape == (2, 5, 6, 4)
    auto t = takeAxis(Dims{2, 3, 4}, Dims{5, 6}, 1);
    EXPECT_EQ(t.shape, (Dims{2, 5, 6, 4}));
    EXPECT_EQ(t.axis, 1);
    EXPECT_EQ(t.length, 3);
    EXPECT_EQ(t.inner, 4);
    t = takeAxis(Dims{2, 3, 4}, Dims{7}, -1);
    EXPECT_EQ(t.shape, (Dims{2, 3, 7}));
    EXPECT_EQ(t.axis, 2);
    EXPECT_EQ(t.length, 4);
    EXPECT_EQ(t.inner, 1);
    t = takeAxis(Dims{2, 3, 4}, Dims{}, 0); // a 0-d index drops the axis
    EXPECT_EQ(t.shape, (Dims{3, 4}));
    EXPECT_EQ(t.inner, 12);
    t = takeAxis(Dims{2, 3, 4}, Dims{5, 6}, std::nullopt); // flattened
    EXPECT_EQ(t.shape, (Dims{5, 6}));
    EXPECT_EQ(t.length, 24);
    EXPECT_EQ(t.inner, 1);
    t = takeAxis(Dims{}, Dims{3}, std::nullopt); // a 0-d array has one element
    EXPECT_EQ(t.shape, (Dims{3}));
    EXPECT_EQ(t.length, 1);
    EXPECT_THROW(takeAxis(Dims{2, 3}, Dims{1}, 2), ks::Error); // numpy: AxisError
    EXPECT_THROW(takeAxis(Dims{2, 3}, Dims{1}, -3), ks::Error);
    EXPECT_THROW(takeAxis(Dims{}, Dims{1}, 0), ks::Error);
}

// ----- The layout matrix's list against the public headers: every function that takes a DeviceArray (and
// every member of DeviceArray) has a row in arrayEntryPoints() or a reason in notEntryPoints(), and
// every name there is still declared. The rows themselves run on the GPU
// (tests/cuda/test_array_device_array.cpp).
namespace ks::test {
namespace {

std::string withoutComments(const std::string& text)
{
    static const std::regex line("//[^\n]*"), block("/\\*[\\s\\S]*?\\*/");
    return std::regex_replace(std::regex_replace(text, block, " "), line, " ");
}

// The index of the ')' that closes the '(' at `open`.
std::size_t closing(const std::string& s, std::size_t open)
{
    int depth = 0;
    for (std::size_t k = open; k < s.size(); ++k) {
        depth += s[k] == '(' ? 1 : s[k] == ')' ? -1 : 0;
        if (depth == 0)
            return k;
    }
    return std::string::npos;
}

// Function declarations outside function bodies: "name" at namespace scope, "Class::name" in a class.
// Kept: those whose parameters mention DeviceArray or MapArg, and every member of DeviceArray.
std::set<std::string> entryPointsDeclared(const std::string& header)
{
    const std::string text = withoutComments(header);
    static const std::regex scopeWord("\\b(class|struct|union|namespace|enum)\\b\\s*([A-Za-z_]\\w*)?");
    static const std::regex nameBefore("(operator\\s*[^\\s\\w(]+|operator\\s*\\(\\s*\\)|~?[A-Za-z_]\\w*)\\s*$");
    std::vector<std::pair<bool, std::string>> scopes; // (is a body, class name or "")
    std::set<std::string> out;
    std::string statement;
    int parens = 0;
    auto inBody = [&] {
        for (const auto& [body, name] : scopes)
            if (body)
                return true;
        return false;
    };
    auto className = [&]() -> std::string {
        for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
            if (!it->first)
                return it->second;
        return {};
    };
    auto consider = [&](const std::string& s) {
        if (inBody())
            return;
        std::size_t open = s.find('(');
        if (open == std::string::npos)
            return;
        // "operator()(" : the name takes the first pair, the parameters the second.
        std::smatch m;
        std::string before = s.substr(0, open);
        if (std::regex_search(before, m, std::regex("operator\\s*$"))) {
            open = s.find('(', closing(s, open) + 1);
            before = s.substr(0, open);
        }
        if (open == std::string::npos || !std::regex_search(before, m, nameBefore))
            return;
        std::string name = std::regex_replace(m[1].str(), std::regex("\\s+"), "");
        static const std::set<std::string> notNames = {"requires", "decltype", "static_assert", "alignas",
                                                      "noexcept", "sizeof"};
        if (notNames.count(name))
            return;
        const std::string cls = className();
        if (name == cls || name == "~" + cls)
            return; // constructors and destructors
        const std::size_t close = closing(s, open);
        const std::string params = s.substr(open, close == std::string::npos ? std::string::npos : close - open);
        const bool takesArray = params.find("DeviceArray") != std::string::npos ||
                                params.find("MapArg") != std::string::npos;
        if (takesArray || cls == "DeviceArray")
            out.insert(cls.empty() ? name : cls + "::" + name);
    };
    for (char c : text) {
        if (c == '(')
            ++parens;
        if (c == ')')
            --parens;
        if (parens > 0 || (c != ';' && c != '{' && c != '}')) {
            statement += c;
            continue;
        }
        if (c == '{') {
            std::smatch m;
            const bool scope = statement.find('(') == std::string::npos && statement.find('=') == std::string::npos &&
                               std::regex_search(statement, m, scopeWord);
            consider(statement);
            scopes.emplace_back(!scope, scope && m[1] != "namespace" ? m[2].str() : std::string());
        } else if (c == '}') {
            if (!scopes.empty())
                scopes.pop_back();
        } else {
            consider(statement);
        }
        statement.clear();
    }
    return out;
}

std::string baseName(const std::string& rowName)
{
    const std::size_t space = rowName.find(" (");
    return space == std::string::npos ? rowName : rowName.substr(0, space);
}

TEST(ArrayLayouts, EveryEntryPointIsInTheMatrix)
{
    std::set<std::string> declared;
    for (const std::string& header : entryPointHeaders()) {
        std::ifstream in(sourceDir() / header);
        ASSERT_TRUE(in) << header;
        std::stringstream text;
        text << in.rdbuf();
        const std::set<std::string> found = entryPointsDeclared(text.str());
        declared.insert(found.begin(), found.end());
    }
    // The scan itself finds what it should (so that an empty scan cannot pass).
    for (const char* name : {"sum", "operator+", "DeviceArray::fill", "ReductionKernel::operator()",
                             "ElementwiseKernel::operator()", "fillUniform", "concatenate", "runMap"})
        EXPECT_TRUE(declared.count(name)) << name << " is not found in the headers";

    std::set<std::string> listed;
    for (const EntryPoint& e : arrayEntryPoints()) {
        listed.insert(baseName(e.name));
    }
    for (const NotAnEntryPoint& n : notEntryPoints()) {
        EXPECT_FALSE(listed.count(n.name)) << n.name << " has a row and a reason not to";
        EXPECT_FALSE(n.reason.empty()) << n.name;
        listed.insert(n.name);
    }
    for (const std::string& name : declared)
        EXPECT_TRUE(listed.count(name)) << name
                                        << " takes a DeviceArray but has no row in arrayEntryPoints() "
                                           "(tests/support/array_layouts.cpp), nor a reason in notEntryPoints()";
    for (const std::string& name : listed)
        EXPECT_TRUE(declared.count(name)) << name << " is listed but no header declares it";
}

TEST(ArrayLayouts, RowNamesAreUniqueAndEveryRowRuns)
{
    std::set<std::string> names;
    for (const EntryPoint& e : arrayEntryPoints()) {
        EXPECT_TRUE(names.insert(e.name).second) << e.name << " has two rows";
        EXPECT_TRUE(bool(e.run)) << e.name;
    }
    EXPECT_EQ(layoutNames().size(), 8u);
}

} // namespace
} // namespace ks::test
