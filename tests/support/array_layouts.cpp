#include "array_layouts.hpp"

#include "ks/array/elementwise_kernel.hpp"
#include "ks/array/indexing.hpp"
#include "ks/array/ops.hpp"
#include "ks/array/reduction.hpp"
#include "ks/array/scan.hpp"
#include "ks/rng/fill.hpp"
#include "ks/rng/generator.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ks::test {

using array::Dims;
using array::DType;
using array::DeviceArray;
using array::Runtime;
using array::Scalar;
using array::Slice;

std::vector<double> LayoutView::values() const
{
    std::vector<double> out;
    for (std::int64_t k : baseIndex)
        out.push_back(baseValues[std::size_t(k)]);
    return out;
}

const std::vector<std::string>& layoutNames()
{
    static const std::vector<std::string> names = {"contiguous", "offset", "step 2", "negative step",
                                                   "transposed", "broadcast",  "0-size", "0-d"};
    return names;
}

namespace {

std::vector<double> hostOf(const DeviceArray& a)
{
    return a.astype(DType::Float64).toHost<double>();
}

} // namespace

LayoutView makeLayout(Runtime& rt, const std::string& layout, DType dtype,
                      const std::function<double(std::int64_t)>& value)
{
    // Base length, and where view element k (C order over shape (3, 4)) lies in the base.
    std::int64_t n = 12;
    std::function<std::int64_t(std::int64_t)> at = [](std::int64_t k) { return k; };
    if (layout == "offset")
        n = 14, at = [](std::int64_t k) { return k + 2; };
    else if (layout == "step 2")
        n = 24, at = [](std::int64_t k) { return 2 * k; };
    else if (layout == "negative step")
        at = [](std::int64_t k) { return 11 - k; };
    else if (layout == "transposed")
        at = [](std::int64_t k) { return (k % 4) * 3 + k / 4; };
    else if (layout == "broadcast")
        n = 4, at = [](std::int64_t k) { return k % 4; };
    else if (layout == "0-size")
        n = 0;
    else if (layout == "0-d")
        n = 1;
    else if (layout != "contiguous")
        throw std::invalid_argument("no layout '" + layout + "'");

    std::vector<double> host(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k)
        host[std::size_t(k)] = value(k);
    LayoutView lv;
    lv.layout = layout;
    lv.base = array::fromHost(rt, host, Dims{n}).astype(dtype);
    lv.baseValues = hostOf(lv.base);

    const DeviceArray& b = lv.base;
    if (layout == "contiguous")
        lv.view = b.reshapeView(Dims{3, 4});
    else if (layout == "offset")
        lv.view = b.slice(Slice::from(2)).reshapeView(Dims{3, 4});
    else if (layout == "step 2")
        lv.view = b.slice(Slice::range(0, 24, 2)).reshapeView(Dims{3, 4});
    else if (layout == "negative step")
        lv.view = b.slice(Slice::reversed()).reshapeView(Dims{3, 4});
    else if (layout == "transposed")
        lv.view = b.reshapeView(Dims{4, 3}).transpose();
    else if (layout == "broadcast")
        lv.view = b.broadcastTo(Dims{3, 4});
    else if (layout == "0-size")
        lv.view = b.reshapeView(Dims{0, 4});
    else
        lv.view = b.reshapeView(Dims{});
    for (std::int64_t k = 0; k < lv.view.size(); ++k)
        lv.baseIndex.push_back(at(k));
    return lv;
}

namespace {

// ----- checks

bool close(double actual, double expected, double tolerance)
{
    if (std::isnan(expected))
        return std::isnan(actual);
    if (std::isinf(expected))
        return actual == expected;
    return std::abs(actual - expected) <= tolerance * std::max(1.0, std::abs(expected));
}

// float32 math: a few ulp of the result (the device's transcendental functions are within 2 ulp).
constexpr double kTolerance = 4e-6;

void expectValues(const std::vector<double>& actual, const std::vector<double>& expected, const std::string& what,
                  double tolerance = kTolerance)
{
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (std::size_t k = 0; k < actual.size(); ++k)
        EXPECT_TRUE(close(actual[k], expected[k], tolerance))
            << what << ": element " << k << " is " << actual[k] << ", numpy gives " << expected[k];
}

void expectArray(const DeviceArray& result, const Dims& shape, const std::vector<double>& expected,
                 const std::string& what, double tolerance = kTolerance)
{
    EXPECT_EQ(result.shape(), shape) << what << ": shape " << result.shape().toString();
    expectValues(hostOf(result), expected, what, tolerance);
}

// After a write into lv.view: its elements hold `written` (C order), every other base element is as
// it was.
void expectWritten(const LayoutView& lv, const std::vector<double>& written, const std::string& what,
                   double tolerance = kTolerance)
{
    std::vector<double> expected = lv.baseValues;
    for (std::size_t k = 0; k < lv.baseIndex.size(); ++k)
        expected[std::size_t(lv.baseIndex[k])] = written[k];
    expectValues(hostOf(lv.base), expected, what + " (the base after the write)", tolerance);
}

template <class F>
std::vector<double> mapped(const std::vector<double>& x, F f)
{
    std::vector<double> out;
    for (double v : x)
        out.push_back(f(v));
    return out;
}

template <class F>
std::vector<double> zipped(const std::vector<double>& x, const std::vector<double>& y, F f)
{
    std::vector<double> out;
    for (std::size_t k = 0; k < x.size(); ++k)
        out.push_back(f(x[k], y[k]));
    return out;
}

// Values of the layouts' base: distinct, positive, below 2 (inside every cumath domain but asin's).
double baseValue(std::int64_t k)
{
    return 0.1 + 0.07 * double(k);
}

} // namespace

LayoutView makeLayout(Runtime& rt, const std::string& layout)
{
    return makeLayout(rt, layout, DType::Float32, baseValue);
}

namespace {

// A contiguous float32 partner of `lv.view`'s shape, and its host values.
struct Partner {
    DeviceArray array;
    std::vector<double> values;
};
Partner partnerOf(Runtime& rt, const LayoutView& lv, double start = 0.5, double step = 0.03)
{
    std::vector<double> v(static_cast<std::size_t>(lv.view.size()));
    for (std::size_t k = 0; k < v.size(); ++k)
        v[k] = start + step * double(k);
    DeviceArray a = array::fromHost(rt, v, Dims{std::int64_t(v.size())}).astype(DType::Float32).reshape(lv.view.shape());
    return {a, hostOf(a)};
}

std::vector<double> asFloat32(const std::vector<double>& v)
{
    return mapped(v, [](double x) { return double(float(x)); });
}

// numpy's float floor division (npy_divmod), in float32: through fmod, so 0.5 // 0.1 is 4, not
// floor(0.5 / 0.1) = 5.
double floorDivide32(double a64, double b64)
{
    const float a = float(a64), b = float(b64);
    const float mod = std::fmod(a, b);
    float div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
        div -= 1.0f;
    float floordiv = std::floor(div);
    if (div - floordiv > 0.5f)
        floordiv += 1.0f;
    return floordiv;
}

// ----- row makers

using Unary = std::function<DeviceArray(const DeviceArray&)>;
using Binary = std::function<DeviceArray(const DeviceArray&, const DeviceArray&)>;
using BinaryScalar = std::function<DeviceArray(const DeviceArray&, const Scalar&)>;
using ScalarBinary = std::function<DeviceArray(const Scalar&, const DeviceArray&)>;
using Ref1 = double (*)(double);
using Ref2 = double (*)(double, double);

EntryPoint unaryRow(std::string name, Unary f, Ref1 ref)
{
    EntryPoint e;
    e.name = std::move(name);
    e.run = [f, ref](Runtime&, const LayoutView& lv) {
        expectArray(f(lv.view), lv.view.shape(), asFloat32(mapped(lv.values(), ref)), "f(view)");
    };
    return e;
}

// Runs every overload a row has: (view, partner), (partner, view), (view, 1.5), (1.5, view).
EntryPoint binaryRow(std::string name, Binary f, BinaryScalar fs, ScalarBinary sf, Ref2 ref)
{
    EntryPoint e;
    e.name = std::move(name);
    e.run = [f, fs, sf, ref](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        const std::vector<double> x = lv.values();
        const Dims& shape = lv.view.shape();
        auto ref32 = [ref](double a, double b) { return double(float(ref(a, b))); };
        if (f) {
            expectArray(f(lv.view, p.array), shape, zipped(x, p.values, ref32), "f(view, array)");
            expectArray(f(p.array, lv.view), shape, zipped(p.values, x, ref32), "f(array, view)");
        }
        if (fs)
            expectArray(fs(lv.view, Scalar(1.5)), shape, mapped(x, [&](double a) { return ref32(a, 1.5); }),
                        "f(view, 1.5)");
        if (sf)
            expectArray(sf(Scalar(1.5), lv.view), shape, mapped(x, [&](double a) { return ref32(1.5, a); }),
                        "f(1.5, view)");
    };
    return e;
}

EntryPoint readsRow(std::string name, std::function<void(Runtime&, const LayoutView&)> run)
{
    EntryPoint e;
    e.name = std::move(name);
    e.run = std::move(run);
    return e;
}

EntryPoint writesRow(std::string name, std::function<void(Runtime&, const LayoutView&)> run)
{
    EntryPoint e = readsRow(std::move(name), std::move(run));
    e.role = Role::Writes;
    return e;
}

double prefixSum(const std::vector<double>& x, std::size_t end)
{
    double s = 0;
    for (std::size_t k = 0; k < end; ++k)
        s = double(float(s + x[k]));
    return s;
}

std::vector<double> inclusiveScan(const std::vector<double>& x)
{
    std::vector<double> out;
    for (std::size_t k = 0; k < x.size(); ++k)
        out.push_back(prefixSum(x, k + 1));
    return out;
}

double total(const std::vector<double>& x)
{
    double s = 0;
    for (double v : x)
        s += v;
    return s;
}

// A float32 sum's rounding (tree order on the device, sequential here) over a dozen values.
constexpr double kSumTolerance = 1e-5;

bool refusesEmpty(const std::string& layout)
{
    return layout == "0-size";
}

bool refusesZeroD(const std::string& layout)
{
    return layout == "0-d";
}

std::vector<EntryPoint> makeEntryPoints()
{
    using namespace ks::array;
    std::vector<EntryPoint> rows;

    // ----- element-wise: cumath and the unary operators
    const std::pair<const char*, std::pair<Unary, Ref1>> unaries[] = {
        {"sin", {[](const DeviceArray& a) { return sin(a); }, [](double x) { return std::sin(x); }}},
        {"cos", {[](const DeviceArray& a) { return cos(a); }, [](double x) { return std::cos(x); }}},
        {"tan", {[](const DeviceArray& a) { return tan(a); }, [](double x) { return std::tan(x); }}},
        {"asin", {[](const DeviceArray& a) { return asin(a); }, [](double x) { return std::asin(x); }}},
        {"acos", {[](const DeviceArray& a) { return acos(a); }, [](double x) { return std::acos(x); }}},
        {"atan", {[](const DeviceArray& a) { return atan(a); }, [](double x) { return std::atan(x); }}},
        {"sinh", {[](const DeviceArray& a) { return sinh(a); }, [](double x) { return std::sinh(x); }}},
        {"cosh", {[](const DeviceArray& a) { return cosh(a); }, [](double x) { return std::cosh(x); }}},
        {"tanh", {[](const DeviceArray& a) { return tanh(a); }, [](double x) { return std::tanh(x); }}},
        {"exp", {[](const DeviceArray& a) { return exp(a); }, [](double x) { return std::exp(x); }}},
        {"log", {[](const DeviceArray& a) { return log(a); }, [](double x) { return std::log(x); }}},
        {"log10", {[](const DeviceArray& a) { return log10(a); }, [](double x) { return std::log10(x); }}},
        {"sqrt", {[](const DeviceArray& a) { return sqrt(a); }, [](double x) { return std::sqrt(x); }}},
        {"fabs", {[](const DeviceArray& a) { return fabs(a); }, [](double x) { return std::fabs(x); }}},
        {"ceil", {[](const DeviceArray& a) { return ceil(a); }, [](double x) { return std::ceil(x); }}},
        {"floor", {[](const DeviceArray& a) { return floor(a); }, [](double x) { return std::floor(x); }}},
        {"abs", {[](const DeviceArray& a) { return abs(a); }, [](double x) { return std::fabs(x); }}},
        {"negative", {[](const DeviceArray& a) { return negative(a); }, [](double x) { return -x; }}},
        {"logicalNot",
         {[](const DeviceArray& a) { return logicalNot(a); }, [](double x) { return x == 0 ? 1.0 : 0.0; }}},
        {"real", {[](const DeviceArray& a) { return real(a); }, [](double x) { return x; }}},
        {"imag", {[](const DeviceArray& a) { return imag(a); }, [](double) { return 0.0; }}},
        {"conj", {[](const DeviceArray& a) { return conj(a); }, [](double x) { return x; }}},
        {"unary", {[](const DeviceArray& a) { return unary(UnaryOp::Exp, a); }, [](double x) { return std::exp(x); }}},
    };
    for (const auto& [name, fr] : unaries)
        rows.push_back(unaryRow(name, fr.first, fr.second));

    // ----- element-wise: binary operators and functions, every overload a name has
    auto ref_add = [](double a, double b) { return a + b; };
    auto ref_sub = [](double a, double b) { return a - b; };
    auto ref_mul = [](double a, double b) { return a * b; };
    auto ref_div = [](double a, double b) { return double(float(a) / float(b)); };
    auto ref_mod = [](double a, double b) {
        const double r = std::fmod(float(a), float(b));
        return r != 0 && (r < 0) != (b < 0) ? r + b : r;
    };
    using A = const DeviceArray&;
    using S = const Scalar&;
    rows.push_back(binaryRow("operator+", [](A a, A b) { return a + b; }, [](A a, S b) { return a + b; },
                             [](S a, A b) { return a + b; }, ref_add));
    rows.push_back(binaryRow("operator*", [](A a, A b) { return a * b; }, [](A a, S b) { return a * b; },
                             [](S a, A b) { return a * b; }, ref_mul));
    rows.push_back(binaryRow("operator/", [](A a, A b) { return a / b; }, [](A a, S b) { return a / b; },
                             [](S a, A b) { return a / b; }, ref_div));
    rows.push_back(binaryRow("operator%", [](A a, A b) { return a % b; }, [](A a, S b) { return a % b; },
                             [](S a, A b) { return a % b; }, ref_mod));
    {
        EntryPoint minus = binaryRow("operator-", [](A a, A b) { return a - b; }, [](A a, S b) { return a - b; },
                                     [](S a, A b) { return a - b; }, ref_sub);
        minus.run = [binary = minus.run](Runtime& rt, const LayoutView& lv) {
            binary(rt, lv);
            expectArray(-lv.view, lv.view.shape(), mapped(lv.values(), [](double x) { return -x; }), "-view");
        };
        rows.push_back(minus);
    }
    const std::pair<const char*, std::tuple<Binary, BinaryScalar, Ref2>> comparisons[] = {
        {"operator==", {[](A a, A b) { return a == b; }, [](A a, S b) { return a == b; },
                        [](double a, double b) { return double(a == b); }}},
        {"operator!=", {[](A a, A b) { return a != b; }, [](A a, S b) { return a != b; },
                        [](double a, double b) { return double(a != b); }}},
        {"operator<", {[](A a, A b) { return a < b; }, [](A a, S b) { return a < b; },
                       [](double a, double b) { return double(a < b); }}},
        {"operator<=", {[](A a, A b) { return a <= b; }, [](A a, S b) { return a <= b; },
                        [](double a, double b) { return double(a <= b); }}},
        {"operator>", {[](A a, A b) { return a > b; }, [](A a, S b) { return a > b; },
                       [](double a, double b) { return double(a > b); }}},
        {"operator>=", {[](A a, A b) { return a >= b; }, [](A a, S b) { return a >= b; },
                        [](double a, double b) { return double(a >= b); }}},
    };
    for (const auto& [name, fr] : comparisons)
        rows.push_back(binaryRow(name, std::get<0>(fr), std::get<1>(fr), nullptr, std::get<2>(fr)));
    rows.push_back(binaryRow("add", [](A a, A b) { return add(a, b); }, nullptr, nullptr, ref_add));
    rows.push_back(binaryRow("subtract", [](A a, A b) { return subtract(a, b); }, nullptr, nullptr, ref_sub));
    rows.push_back(binaryRow("multiply", [](A a, A b) { return multiply(a, b); }, nullptr, nullptr, ref_mul));
    rows.push_back(binaryRow("divide", [](A a, A b) { return divide(a, b); }, nullptr, nullptr, ref_div));
    rows.push_back(binaryRow("floorDivide", [](A a, A b) { return floorDivide(a, b); }, nullptr, nullptr, floorDivide32));
    rows.push_back(binaryRow("remainder", [](A a, A b) { return remainder(a, b); }, nullptr, nullptr, ref_mod));
    rows.push_back(binaryRow("fmod", [](A a, A b) { return fmod(a, b); }, nullptr, nullptr,
                             [](double a, double b) { return double(std::fmod(float(a), float(b))); }));
    rows.push_back(binaryRow("power", [](A a, A b) { return power(a, b); }, [](A a, S b) { return power(a, b); },
                             [](S a, A b) { return power(a, b); },
                             [](double a, double b) { return double(std::pow(float(a), float(b))); }));
    rows.push_back(binaryRow("minimum", [](A a, A b) { return minimum(a, b); },
                             [](A a, S b) { return minimum(a, b); }, nullptr,
                             [](double a, double b) { return std::min(a, b); }));
    rows.push_back(binaryRow("maximum", [](A a, A b) { return maximum(a, b); },
                             [](A a, S b) { return maximum(a, b); }, nullptr,
                             [](double a, double b) { return std::max(a, b); }));
    rows.push_back(binaryRow("logicalAnd", [](A a, A b) { return logicalAnd(a, b); },
                             [](A a, S b) { return logicalAnd(a, b); }, nullptr,
                             [](double a, double b) { return double(a != 0 && b != 0); }));
    rows.push_back(binaryRow("logicalOr", [](A a, A b) { return logicalOr(a, b); },
                             [](A a, S b) { return logicalOr(a, b); }, nullptr,
                             [](double a, double b) { return double(a != 0 || b != 0); }));
    rows.push_back(binaryRow("binary", [](A a, A b) { return binary(BinaryOp::Add, a, b); },
                             [](A a, S b) { return binary(BinaryOp::Add, a, b); },
                             [](S a, A b) { return binary(BinaryOp::Add, a, b); }, ref_add));

    rows.push_back(readsRow("where", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        const DeviceArray cond = lv.view > Scalar(1.0);
        const std::vector<double> x = lv.values();
        auto pick = [](bool c, double a, double b) { return c ? a : b; };
        std::vector<double> e1, e2, e3;
        for (std::size_t k = 0; k < x.size(); ++k) {
            e1.push_back(pick(x[k] > 1.0, x[k], p.values[k]));
            e2.push_back(pick(x[k] > 1.0, x[k], 2.5));
            e3.push_back(pick(x[k] > 1.0, -1.0, x[k]));
        }
        const Dims& shape = lv.view.shape();
        expectArray(where(cond, lv.view, p.array), shape, e1, "where(view > 1, view, array)");
        expectArray(where(lv.view > Scalar(1.0), lv.view, Scalar(2.5)), shape, e2, "where(view > 1, view, 2.5)");
        expectArray(where(lv.view > Scalar(1.0), Scalar(-1.0), lv.view), shape, e3, "where(view > 1, -1, view)");
    }));
    rows.push_back(readsRow("mulAdd", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        const std::vector<double> x = lv.values();
        expectArray(mulAdd(Scalar(2.0), lv.view, Scalar(3.0), p.array), lv.view.shape(),
                    zipped(x, p.values, [](double a, double b) { return 2 * a + 3 * b; }), "mulAdd(2, view, 3, array)");
        expectArray(mulAdd(Scalar(2.0), p.array, Scalar(3.0), lv.view), lv.view.shape(),
                    zipped(p.values, x, [](double a, double b) { return 2 * a + 3 * b; }), "mulAdd(2, array, 3, view)");
    }));
    rows.push_back(readsRow("ldexp", [](Runtime& rt, const LayoutView& lv) {
        const Partner e = partnerOf(rt, lv, 0.0, 0.4); // exponents 0, 0.4, ... -> int 0..4
        const std::vector<double> x = lv.values();
        auto ref = [](double a, double b) { return std::ldexp(a, int(b)); };
        expectArray(ldexp(lv.view, e.array), lv.view.shape(), zipped(x, e.values, ref), "ldexp(view, array)");
        expectArray(ldexp(e.array, lv.view), lv.view.shape(), zipped(e.values, x, ref), "ldexp(array, view)");
    }));
    rows.push_back(readsRow("modf", [](Runtime&, const LayoutView& lv) {
        const auto [frac, whole] = modf(lv.view);
        const std::vector<double> x = lv.values();
        expectArray(frac, lv.view.shape(), asFloat32(mapped(x, [](double v) { return v - std::trunc(v); })),
                    "modf(view).first");
        expectArray(whole, lv.view.shape(), mapped(x, [](double v) { return std::trunc(v); }), "modf(view).second");
    }));
    rows.push_back(readsRow("frexp", [](Runtime&, const LayoutView& lv) {
        const auto [mantissa, exponent] = frexp(lv.view);
        const std::vector<double> x = lv.values();
        expectArray(mantissa, lv.view.shape(), mapped(x, [](double v) { int e; return std::frexp(v, &e); }),
                    "frexp(view).first");
        expectArray(exponent, lv.view.shape(), mapped(x, [](double v) { int e; std::frexp(v, &e); return double(e); }),
                    "frexp(view).second");
    }));

    // ----- element-wise into a given output: the view is the destination
    rows.push_back(writesRow("binaryInto", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        binaryInto(BinaryOp::Multiply, p.array, Scalar(2.0), lv.view);
        expectWritten(lv, mapped(p.values, [](double v) { return 2 * v; }), "binaryInto(array * 2 -> view)");
    }));
    rows.push_back(writesRow("unaryInto", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        unaryInto(UnaryOp::Sqrt, p.array, lv.view);
        expectWritten(lv, asFloat32(mapped(p.values, [](double v) { return std::sqrt(v); })),
                      "unaryInto(sqrt(array) -> view)");
    }));
    rows.push_back(writesRow("mulAddInto", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        const std::vector<double> x = lv.values();
        mulAddInto(Scalar(2.0), lv.view, Scalar(3.0), p.array, lv.view); // in place, the view read and written
        expectWritten(lv, asFloat32(zipped(x, p.values, [](double a, double b) { return 2 * a + 3 * b; })),
                      "mulAddInto(2, view, 3, array -> view)");
    }));
    // Each compound assignment: view op= array, then view op= 2 (the Scalar overload).
    struct InPlace {
        const char* name;
        std::function<void(DeviceArray&, const DeviceArray&)> withArray;
        std::function<void(DeviceArray&, const Scalar&)> withScalar;
        Ref2 ref;
    };
    const InPlace inPlace[] = {
        {"DeviceArray::operator+=", [](DeviceArray& a, const DeviceArray& b) { a += b; },
         [](DeviceArray& a, const Scalar& b) { a += b; }, [](double a, double b) { return a + b; }},
        {"DeviceArray::operator-=", [](DeviceArray& a, const DeviceArray& b) { a -= b; },
         [](DeviceArray& a, const Scalar& b) { a -= b; }, [](double a, double b) { return a - b; }},
        {"DeviceArray::operator*=", [](DeviceArray& a, const DeviceArray& b) { a *= b; },
         [](DeviceArray& a, const Scalar& b) { a *= b; }, [](double a, double b) { return a * b; }},
        {"DeviceArray::operator/=", [](DeviceArray& a, const DeviceArray& b) { a /= b; },
         [](DeviceArray& a, const Scalar& b) { a /= b; }, [](double a, double b) { return double(float(a) / float(b)); }},
    };
    for (const InPlace& op : inPlace)
        rows.push_back(writesRow(op.name, [op](Runtime& rt, const LayoutView& lv) {
            const Partner p = partnerOf(rt, lv);
            DeviceArray a = lv.view;
            op.withArray(a, p.array);
            op.withScalar(a, Scalar(2.0));
            const std::vector<double> once = asFloat32(zipped(lv.values(), p.values, op.ref));
            expectWritten(lv, asFloat32(mapped(once, [&](double v) { return op.ref(v, 2.0); })),
                          "view op= array, then view op= 2");
        }));

    // ----- reductions
    rows.push_back(readsRow("sum", [](Runtime& rt, const LayoutView& lv) {
        expectArray(sum(lv.view), Dims{}, {total(lv.values())}, "sum(view)", kSumTolerance);
        DeviceArray out = array::zeros(rt, Dims{}, DType::Float64);
        sum(lv.view, out);
        expectArray(out, Dims{}, {total(lv.values())}, "sum(view, out)", kSumTolerance);
    }));
    rows.push_back(readsRow("dot", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        const double expected = total(zipped(lv.values(), p.values, [](double a, double b) { return a * b; }));
        expectArray(dot(lv.view, p.array), Dims{}, {expected}, "dot(view, array)", kSumTolerance);
        DeviceArray out = array::zeros(rt, Dims{}, DType::Float64);
        dot(p.array, lv.view, out);
        expectArray(out, Dims{}, {expected}, "dot(array, view, out)", kSumTolerance);
    }));
    for (const char* which : {"min", "max"}) {
        EntryPoint e = readsRow(which, [which](Runtime& rt, const LayoutView& lv) {
            const bool isMin = std::string(which) == "min";
            const DeviceArray result = isMin ? min(lv.view) : max(lv.view); // refuses a 0-size view
            const std::vector<double> x = lv.values();
            const double expected = isMin ? *std::min_element(x.begin(), x.end()) : *std::max_element(x.begin(), x.end());
            expectArray(result, Dims{}, {expected}, std::string(which) + "(view)");
            DeviceArray out = array::zeros(rt, Dims{}, DType::Float32);
            isMin ? min(lv.view, out) : max(lv.view, out);
            expectArray(out, Dims{}, {expected}, std::string(which) + "(view, out)");
        });
        e.alsoRefuses = refusesEmpty; // numpy: "zero-size array to reduction operation minimum"
        rows.push_back(e);
    }
    rows.push_back(readsRow("any", [](Runtime&, const LayoutView& lv) {
        const std::vector<double> x = lv.values();
        expectArray(any(lv.view > Scalar(1.0)), Dims{},
                    {double(std::any_of(x.begin(), x.end(), [](double v) { return v > 1.0; }))}, "any(view > 1)");
        expectArray(any(lv.view), Dims{}, {double(!x.empty())}, "any(view)");
    }));
    rows.push_back(readsRow("all", [](Runtime&, const LayoutView& lv) {
        const std::vector<double> x = lv.values();
        expectArray(all(lv.view > Scalar(1.0)), Dims{},
                    {double(std::all_of(x.begin(), x.end(), [](double v) { return v > 1.0; }))}, "all(view > 1)");
        expectArray(all(lv.view), Dims{}, {1.0}, "all(view)");
    }));
    // Subsets: the values in the layout (indices reversed, contiguous), and the indices in it.
    for (const char* which : {"subsetSum", "subsetMin", "subsetMax"}) {
        EntryPoint e = readsRow(which, [which](Runtime& rt, const LayoutView& lv) {
            const std::string name = which;
            auto run = [&](const DeviceArray& idx, const DeviceArray& a) {
                return name == "subsetSum" ? subsetSum(idx, a) : name == "subsetMin" ? subsetMin(idx, a) : subsetMax(idx, a);
            };
            auto reference = [&](const std::vector<std::int64_t>& idx, const std::vector<double>& a) {
                std::vector<double> picked;
                for (std::int64_t i : idx)
                    picked.push_back(a[std::size_t(i)]);
                if (name == "subsetSum")
                    return total(picked);
                if (picked.empty())
                    throw std::logic_error(name + " of no elements ran: it should have been refused");
                return name == "subsetMin" ? *std::min_element(picked.begin(), picked.end())
                                           : *std::max_element(picked.begin(), picked.end());
            };
            const std::vector<double> x = lv.values();
            std::vector<std::int64_t> reversed;
            for (std::int64_t k = std::int64_t(x.size()) - 1; k >= 0; --k)
                reversed.push_back(k);
            const DeviceArray idx = array::fromHost(rt, reversed, Dims{std::int64_t(reversed.size())});
            const DeviceArray fromView = run(idx, lv.view); // subsetMin/Max refuse no indices
            expectArray(fromView, Dims{}, {reference(reversed, x)}, name + "(indices, view)", kSumTolerance);
            // The indices in the layout: int32 views of the same shape into a 24-element array.
            const LayoutView li = makeLayout(rt, lv.layout, DType::Int32, [](std::int64_t k) { return double((5 * k) % 24); });
            std::vector<std::int64_t> picks;
            for (double v : li.values())
                picks.push_back(std::int64_t(v));
            const DeviceArray a24 = array::arange(rt, 0, 24, 1, DType::Float32) * Scalar(0.25);
            const std::vector<double> all24 = hostOf(a24);
            if (!picks.empty()) {
                const DeviceArray fromIndices = run(li.view, a24);
                expectArray(fromIndices, Dims{}, {reference(picks, all24)}, name + "(view of indices, array)",
                            kSumTolerance);
            }
        });
        if (std::string(which) != "subsetSum")
            e.alsoRefuses = refusesEmpty;
        rows.push_back(e);
    }
    {
        const auto kernel = [](Runtime& rt) {
            ReductionSpec spec;
            spec.outType = "float";
            spec.neutral = "0";
            spec.reduceExpr = "a+b";
            spec.mapExpr = "2*x[i] + y[i]";
            spec.arguments = "const float *x, const float *y";
            spec.name = "layout_matrix_reduction";
            return ReductionKernel(rt, spec);
        };
        auto expected = [](const std::vector<double>& x, const std::vector<double>& y) {
            return total(zipped(x, y, [](double a, double b) { return 2 * a + b; }));
        };
        rows.push_back(readsRow("ReductionKernel::operator()", [kernel, expected](Runtime& rt, const LayoutView& lv) {
            const Partner p = partnerOf(rt, lv);
            const ReductionKernel red = kernel(rt);
            expectArray(red({lv.view, p.array}), Dims{}, {expected(lv.values(), p.values)}, "red(view, array)",
                        kSumTolerance);
            expectArray(red({p.array, lv.view}), Dims{}, {expected(p.values, lv.values())}, "red(array, view)",
                        kSumTolerance);
        }));
        rows.push_back(readsRow("ReductionKernel::into", [kernel, expected](Runtime& rt, const LayoutView& lv) {
            const Partner p = partnerOf(rt, lv);
            DeviceArray out = array::zeros(rt, Dims{}, DType::Float32);
            kernel(rt).into(out, {lv.view, p.array});
            expectArray(out, Dims{}, {expected(lv.values(), p.values)}, "red.into(out, view, array)", kSumTolerance);
        }));
        rows.push_back(readsRow("ReductionKernel::toHost", [kernel, expected](Runtime& rt, const LayoutView& lv) {
            const Partner p = partnerOf(rt, lv);
            const float value = kernel(rt).toHost<float>({lv.view, p.array});
            expectValues({double(value)}, {expected(lv.values(), p.values)}, "red.toHost(view, array)", kSumTolerance);
        }));
        rows.push_back(readsRow("ReductionKernel::launch", [kernel, expected](Runtime& rt, const LayoutView& lv) {
            const Partner p = partnerOf(rt, lv);
            DeviceArray out = array::zeros(rt, Dims{}, DType::Float32);
            const MapArg args[] = {lv.view, p.array};
            kernel(rt).launch(out.data(), lv.view.size(), args);
            expectArray(out, Dims{}, {expected(lv.values(), p.values)}, "red.launch(out, n, view, array)",
                        kSumTolerance);
        }));
    }

    // ----- integer-array indexing
    rows.push_back(readsRow("take", [](Runtime& rt, const LayoutView& lv) {
        const std::vector<double> x = lv.values();
        const std::int64_t n = std::int64_t(x.size());
        // Flat: indices inside the axis, from the end, and beyond it on both sides.
        std::vector<std::int64_t> picks;
        if (n > 0)
            picks = {n - 1, 0, -1, -n, n / 2, n + 3, -n - 2};
        const DeviceArray idx = array::fromHost(rt, picks, Dims{std::int64_t(picks.size())});
        for (IndexMode mode : {IndexMode::FromEnd, IndexMode::Wrap, IndexMode::Clip}) {
            std::vector<double> expected;
            for (std::int64_t j : picks)
                expected.push_back(x[std::size_t(landing(j, n, mode))]);
            expectArray(take(lv.view, idx, std::nullopt, mode), idx.shape(), expected, "take(view, indices)", 0);
        }
        // Along the columns of the 2-D views: view[:, [3, -4, 1]].
        if (lv.view.ndim() == 2) {
            const std::vector<std::int64_t> cols = {3, -4, 1};
            std::vector<double> expected;
            for (std::int64_t r = 0; r < lv.view.shape(0); ++r)
                for (std::int64_t c : cols)
                    expected.push_back(x[std::size_t(r * 4 + landing(c, 4, IndexMode::FromEnd))]);
            expectArray(take(lv.view, array::fromHost(rt, cols), 1), Dims{lv.view.shape(0), 3}, expected,
                        "take(view, columns, axis 1)", 0);
        }
        // The indices in the layout (int32, some negative) into a contiguous array of 24.
        const LayoutView li =
            makeLayout(rt, lv.layout, DType::Int32, [](std::int64_t k) { return double((5 * k) % 24 - 12); });
        const DeviceArray a24 = array::arange(rt, 0, 24, 1, DType::Float32) * Scalar(0.25);
        const std::vector<double> all24 = hostOf(a24);
        std::vector<double> expected;
        for (double j : li.values())
            expected.push_back(all24[std::size_t(landing(std::int64_t(j), 24, IndexMode::FromEnd))]);
        expectArray(take(a24, li.view), li.view.shape(), expected, "take(array, view of indices)", 0);
    }));
    rows.push_back(writesRow("put", [](Runtime& rt, const LayoutView& lv) {
        std::vector<double> written = lv.values();
        const std::int64_t n = std::int64_t(written.size());
        // Distinct landings (which of repeated indices lands is unspecified).
        std::vector<std::int64_t> picks;
        if (n >= 4)
            picks = {n - 1, 0, -2, n / 2 - 1};
        else if (n > 0)
            picks = {-1};
        std::vector<float> values;
        for (std::size_t k = 0; k < picks.size(); ++k)
            values.push_back(0.5f + 0.25f * float(k));
        put(lv.view, array::fromHost(rt, picks, Dims{std::int64_t(picks.size())}),
            array::fromHost(rt, values, Dims{std::int64_t(values.size())}));
        for (std::size_t k = 0; k < picks.size(); ++k)
            written[std::size_t(landing(picks[k], n, IndexMode::FromEnd))] = values[k];
        // Along the columns of the 2-D views: view[:, [2, -1]] = 7.5.
        if (lv.view.ndim() == 2) {
            put(lv.view, array::fromHost(rt, std::vector<std::int64_t>{2, -1}), Scalar(7.5), 1);
            for (std::int64_t r = 0; r < lv.view.shape(0); ++r)
                written[std::size_t(r * 4 + 2)] = written[std::size_t(r * 4 + 3)] = 7.5;
        }
        expectWritten(lv, written, "put(view, indices, values), then put(view, columns, 7.5, axis 1)", 0);
    }));

    // ----- scans
    rows.push_back(readsRow("cumsum", [](Runtime&, const LayoutView& lv) {
        expectArray(cumsum(lv.view), lv.view.shape(), inclusiveScan(lv.values()), "cumsum(view)", kSumTolerance);
    }));
    rows.push_back(readsRow("ScanKernel::operator() (from the view)", [](Runtime& rt, const LayoutView& lv) {
        const InclusiveScanKernel inclusive(rt, "float", "a+b");
        const ExclusiveScanKernel exclusive(rt, "float", "a+b", "0");
        const std::vector<double> x = lv.values();
        DeviceArray out = array::empty(rt, lv.view.shape(), DType::Float32);
        inclusive(lv.view, out);
        expectArray(out, lv.view.shape(), inclusiveScan(x), "inclusive(view -> array)", kSumTolerance);
        exclusive(lv.view, out);
        std::vector<double> ex;
        for (std::size_t k = 0; k < x.size(); ++k)
            ex.push_back(prefixSum(x, k));
        expectArray(out, lv.view.shape(), ex, "exclusive(view -> array)", kSumTolerance);
    }));
    rows.push_back(writesRow("ScanKernel::operator() (into the view)", [](Runtime& rt, const LayoutView& lv) {
        const InclusiveScanKernel inclusive(rt, "float", "a+b");
        const std::vector<double> x = lv.values();
        inclusive(lv.view); // in place
        expectWritten(lv, inclusiveScan(x), "inclusive(view) in place", kSumTolerance);
    }));

    // ----- user element-wise kernels: C-contiguous arrays only, as PyCUDA
    {
        EntryPoint e = readsRow("ElementwiseKernel::operator()", [](Runtime& rt, const LayoutView& lv) {
            const ElementwiseKernel twice("float *y, const float *x", "y[i] = 2*x[i]", "layout_matrix_twice");
            const Partner p = partnerOf(rt, lv);
            DeviceArray y = array::empty(rt, lv.view.shape(), DType::Float32);
            twice(rt, {y, lv.view});
            expectArray(y, lv.view.shape(), mapped(lv.values(), [](double v) { return 2 * v; }), "twice(array, view)");
            twice(rt, {lv.view, p.array});
            expectWritten(lv, mapped(p.values, [](double v) { return 2 * v; }), "twice(view, array)");
        });
        e.role = Role::ReadsContiguous;
        rows.push_back(e);
    }

    // ----- copies and transfers
    rows.push_back(readsRow("DeviceArray::copy", [](Runtime&, const LayoutView& lv) {
        const DeviceArray c = lv.view.copy(); // keeps the order: the transposed view is F-contiguous
        EXPECT_TRUE(lv.layout == "transposed" ? c.isFContiguous() && !c.isCContiguous() : c.isCContiguous());
        expectArray(c, lv.view.shape(), lv.values(), "view.copy()");
        const DeviceArray inC = lv.view.copy(Order::C);
        EXPECT_TRUE(inC.isCContiguous());
        expectArray(inC, lv.view.shape(), lv.values(), "view.copy(Order::C)");
        const DeviceArray inF = lv.view.copy(Order::F);
        EXPECT_TRUE(inF.isFContiguous());
        expectArray(inF, lv.view.shape(), lv.values(), "view.copy(Order::F)");
    }));
    rows.push_back(readsRow("DeviceArray::astype", [](Runtime&, const LayoutView& lv) {
        expectArray(lv.view.astype(DType::Int32), lv.view.shape(), mapped(lv.values(), [](double v) { return std::trunc(v); }),
                    "view.astype(int32)");
        const std::vector<double> x = lv.view.astype(DType::Float64).toHost<double>();
        expectValues(x, lv.values(), "view.astype(float64)", 0);
    }));
    rows.push_back(readsRow("DeviceArray::toHost", [](Runtime&, const LayoutView& lv) {
        const std::vector<float> x = lv.view.toHost<float>();
        expectValues(std::vector<double>(x.begin(), x.end()), lv.values(), "view.toHost<float>()", 0);
    }));
    rows.push_back(readsRow("DeviceArray::copyToHost", [](Runtime&, const LayoutView& lv) {
        std::vector<float> x(static_cast<std::size_t>(lv.view.size()));
        lv.view.copyToHost(x.data(), x.size() * sizeof(float));
        expectValues(std::vector<double>(x.begin(), x.end()), lv.values(), "view.copyToHost", 0);
    }));
    rows.push_back(readsRow("DeviceArray::copyToHostAsync", [](Runtime& rt, const LayoutView& lv) {
        std::vector<float> x(static_cast<std::size_t>(lv.view.size()));
        lv.view.copyToHostAsync(x.data(), x.size() * sizeof(float));
        rt.synchronize();
        expectValues(std::vector<double>(x.begin(), x.end()), lv.values(), "view.copyToHostAsync", 0);
    }));
    rows.push_back(readsRow("DeviceArray::reshape", [](Runtime&, const LayoutView& lv) {
        const Dims flat{lv.view.size()};
        expectArray(lv.view.reshape(flat), flat, lv.values(), "view.reshape((n,))", 0);
    }));
    rows.push_back(readsRow("DeviceArray::ravel", [](Runtime&, const LayoutView& lv) {
        expectArray(lv.view.ravel(), Dims{lv.view.size()}, lv.values(), "view.ravel()", 0);
    }));
    rows.push_back(readsRow("DeviceArray::flatten", [](Runtime&, const LayoutView& lv) {
        expectArray(lv.view.flatten(), Dims{lv.view.size()}, lv.values(), "view.flatten()", 0);
    }));
    // *Like: dense, in the view's order by default (the transposed view is F-contiguous, every
    // other layout here orders its axes as C does), or in the order and dtype asked for.
    const auto likeRow = [](const char* name,
                            std::function<DeviceArray(const DeviceArray&, std::optional<DType>, Order)> like,
                            std::optional<double> value) {
        return readsRow(name, [like, value](Runtime&, const LayoutView& lv) {
            const std::string what = std::string(lv.layout) + " view";
            const DeviceArray kept = like(lv.view, std::nullopt, Order::Keep);
            EXPECT_EQ(kept.shape(), lv.view.shape()) << what;
            EXPECT_EQ(kept.dtype(), lv.view.dtype()) << what;
            EXPECT_TRUE(lv.layout == "transposed" ? kept.isFContiguous() && !kept.isCContiguous()
                                                  : kept.isCContiguous())
                << what << ": strides " << kept.strides().toString();
            const DeviceArray inF = like(lv.view, DType::Float64, Order::F);
            EXPECT_EQ(inF.dtype(), DType::Float64);
            EXPECT_TRUE(inF.isFContiguous()) << what;
            const DeviceArray inC = like(lv.view, DType::Int16, Order::C);
            EXPECT_EQ(inC.dtype(), DType::Int16);
            EXPECT_TRUE(inC.isCContiguous()) << what;
            if (value) {
                const std::vector<double> expected(lv.baseIndex.size(), *value);
                expectArray(kept, lv.view.shape(), expected, "like(view)", 0);
                expectArray(inF, lv.view.shape(), expected, "like(view, float64, F)", 0);
                expectArray(inC, lv.view.shape(), expected, "like(view, int16, C)", 0);
            }
        });
    };
    rows.push_back(likeRow(
        "emptyLike", [](const DeviceArray& a, std::optional<DType> t, Order o) { return emptyLike(a, t, o); },
        std::nullopt));
    rows.push_back(likeRow(
        "zerosLike", [](const DeviceArray& a, std::optional<DType> t, Order o) { return zerosLike(a, t, o); }, 0.0));
    rows.push_back(likeRow(
        "onesLike", [](const DeviceArray& a, std::optional<DType> t, Order o) { return onesLike(a, t, o); }, 1.0));
    {
        EntryPoint e = readsRow("concatenate", [](Runtime& rt, const LayoutView& lv) {
            const Partner p = partnerOf(rt, lv);
            std::vector<double> expected = lv.values();
            expected.insert(expected.end(), p.values.begin(), p.values.end());
            Dims shape = lv.view.shape();
            shape[0] = shape[0] * 2;
            expectArray(concatenate({lv.view, p.array}), shape, expected, "concatenate(view, array)", 0);
        });
        e.alsoRefuses = refusesZeroD; // numpy: "zero-dimensional arrays cannot be concatenated"
        rows.push_back(e);
    }
    rows.push_back(readsRow("stack", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        std::vector<double> expected = p.values;
        const std::vector<double> x = lv.values();
        expected.insert(expected.end(), x.begin(), x.end());
        Dims shape = lv.view.shape();
        shape.insert(0, 2);
        expectArray(stack({p.array, lv.view}), shape, expected, "stack(array, view)", 0);
    }));
    rows.push_back(writesRow("DeviceArray::assign", [](Runtime& rt, const LayoutView& lv) {
        const Partner p = partnerOf(rt, lv);
        DeviceArray v = lv.view;
        v.assign(p.array);
        expectWritten(lv, p.values, "view.assign(array)", 0);
    }));
    rows.push_back(writesRow("DeviceArray::fill", [](Runtime&, const LayoutView& lv) {
        DeviceArray v = lv.view;
        v.fill(Scalar(7.25));
        expectWritten(lv, std::vector<double>(lv.baseIndex.size(), 7.25), "view.fill(7.25)", 0);
    }));
    rows.push_back(writesRow("DeviceArray::copyFromHost", [](Runtime&, const LayoutView& lv) {
        std::vector<float> x;
        for (std::size_t k = 0; k < lv.baseIndex.size(); ++k)
            x.push_back(float(k) + 0.5f);
        DeviceArray v = lv.view;
        v.copyFromHost(x.data(), x.size() * sizeof(float));
        expectWritten(lv, std::vector<double>(x.begin(), x.end()), "view.copyFromHost", 0);
    }));
    rows.push_back(writesRow("DeviceArray::copyFromHostAsync", [](Runtime& rt, const LayoutView& lv) {
        std::vector<float> x;
        for (std::size_t k = 0; k < lv.baseIndex.size(); ++k)
            x.push_back(float(k) - 3.5f);
        DeviceArray v = lv.view;
        v.copyFromHostAsync(x.data(), x.size() * sizeof(float));
        rt.synchronize();
        expectWritten(lv, std::vector<double>(x.begin(), x.end()), "view.copyFromHostAsync", 0);
    }));
    rows.push_back(writesRow("DeviceArray::setFromHost", [](Runtime&, const LayoutView& lv) {
        std::vector<float> x;
        for (std::size_t k = 0; k < lv.baseIndex.size(); ++k)
            x.push_back(float(k) * 2.0f);
        DeviceArray v = lv.view;
        v.setFromHost(std::span<const float>(x));
        expectWritten(lv, std::vector<double>(x.begin(), x.end()), "view.setFromHost", 0);
    }));

    // ----- random fills: the view gets what a contiguous array of its shape gets from the same seed
    const std::pair<const char*, std::function<void(rng::Generator&, const DeviceArray&)>> fills[] = {
        {"fillUniform", [](rng::Generator& g, const DeviceArray& a) { rng::fillUniform(g, a); }},
        {"fillNormal", [](rng::Generator& g, const DeviceArray& a) { rng::fillNormal(g, a, 1.0, 2.0); }},
        {"fillLogNormal", [](rng::Generator& g, const DeviceArray& a) { rng::fillLogNormal(g, a, 0.0, 0.5); }},
        {"fillPoisson", [](rng::Generator& g, const DeviceArray& a) { rng::fillPoisson(g, a, 4.0); }},
    };
    for (const auto& [name, fill] : fills) {
        const bool counts = std::string(name) == "fillPoisson";
        rows.push_back(writesRow(name, [fill, counts](Runtime& rt, const LayoutView& floats) {
            // Poisson counts are uint32: the same layout over uint32 elements.
            const LayoutView lv = counts ? makeLayout(rt, floats.layout, DType::UInt32, [](std::int64_t k) { return double(100 + k); })
                                         : floats;
            rng::Generator reference(rng::GeneratorType::Philox4x32_10, 1234);
            const DeviceArray contiguous = array::empty(rt, lv.view.shape(), lv.view.dtype());
            fill(reference, contiguous);
            rng::Generator generator(rng::GeneratorType::Philox4x32_10, 1234);
            fill(generator, lv.view);
            expectWritten(lv, hostOf(contiguous), "fill(view) against fill(contiguous)", 0);
        }));
    }
    return rows;
}

} // namespace

std::int64_t landing(std::int64_t j, std::int64_t n, array::IndexMode mode)
{
    if (mode == array::IndexMode::Wrap)
        return (j % n + n) % n;
    if (mode == array::IndexMode::FromEnd && j < 0)
        j += n;
    return std::clamp<std::int64_t>(j, 0, n - 1);
}

const std::vector<EntryPoint>& arrayEntryPoints()
{
    static const std::vector<EntryPoint> rows = makeEntryPoints();
    return rows;
}

const std::vector<NotAnEntryPoint>& notEntryPoints()
{
    static const std::vector<NotAnEntryPoint> names = [] {
        std::vector<NotAnEntryPoint> out;
        auto add = [&](std::initializer_list<const char*> list, const char* reason) {
            for (const char* n : list)
                out.push_back({n, reason});
        };
        add({"DeviceArray::index", "DeviceArray::slice", "DeviceArray::operator[]", "DeviceArray::reshapeView",
             "DeviceArray::transpose", "DeviceArray::swapAxes", "DeviceArray::squeeze", "DeviceArray::expandDims",
             "DeviceArray::broadcastTo", "DeviceArray::viewAs", "DeviceArray::view", "DeviceArray::detached",
             "DeviceArray::withLayout", "DeviceArray::elementWords"},
            "makes a view: computes a layout, reads and writes no element (the matrix builds its layouts with them)");
        add({"DeviceArray::denseBlockView"},
            "makes a view (tests/unit: DenseBlockViewIsTheBlockAViewFills); the sum, dot, min and max rows run "
            "through it on the transposed and reversed layouts");
        add({"DeviceArray::mayShareMemory", "DeviceArray::describe", "DeviceArray::describeLayout",
             "DeviceArray::isBroadcast", "DeviceArray::requireWritable", "DeviceArray::checkHostType",
             "DeviceArray::shape", "DeviceArray::runtime", "DeviceArray::ptr", "DeviceArray::valid",
             "DeviceArray::runtimePtr", "DeviceArray::dtype", "DeviceArray::itemSize", "DeviceArray::ndim",
             "DeviceArray::strides", "DeviceArray::size", "DeviceArray::nbytes", "DeviceArray::data",
             "DeviceArray::base", "DeviceArray::offset", "DeviceArray::ownsStorage", "DeviceArray::storage",
             "DeviceArray::isCContiguous", "DeviceArray::isFContiguous", "DeviceArray::isContiguous",
             "DeviceArray::structType", "DeviceArray::checkHostStruct", "DeviceArray::checkHost"},
            "a query of the layout or the dtype: touches no element");
        add({"DeviceArray::empty"}, "allocates new C-contiguous storage: takes no array");
        add({"DeviceArray::fillElement", "DeviceArray::fillElementBytes"},
            "struct arrays only, and the matrix's layouts hold float32 (which these refuse); "
            "ArrayTest.Float3FillsEveryElementOfTheViewOnly fills contiguous, strided, reversed and transposed "
            "float3 views");
        add({"runMap"}, "the generic element-wise engine under every operator, cumath function and copy above");
        add({"ScanKernel::checkArray"}, "private: the dtype check of ScanKernel::operator()");
        add({"ReductionKernel::toHostBytes", "ReductionKernel::sizeFromArguments"},
            "private: the parts of ReductionKernel::toHost and operator()");
        return out;
    }();
    return names;
}

const std::vector<std::string>& entryPointHeaders()
{
    static const std::vector<std::string> headers = {
        "engine/include/ks/array/device_array.hpp",
        "engine/include/ks/array/ops.hpp",
        "engine/include/ks/array/reduction.hpp",
        "engine/include/ks/array/scan.hpp",
        "engine/include/ks/array/elementwise_kernel.hpp",
        "engine/include/ks/array/map.hpp",
        "engine/include/ks/rng/fill.hpp",
        "engine/include/ks/array/indexing.hpp",
    };
    return headers;
}

} // namespace ks::test
