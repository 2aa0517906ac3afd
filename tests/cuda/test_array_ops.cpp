// PyCUDA's test_cumath.py ported: the unary-function table with its ranges and thresholds (real and
// complex), the out= form, fmod/ldexp/modf/frexp with exact checks, and out= and stream= on exp;
// and test_gpuarray.py's test_mul_add.
#include "array_test_support.hpp"

#include <algorithm>

using ks::array::DeviceArray;
using ks::array::DType;
using ks::array::UnaryOp;
using ks::test::ArrayTest;

namespace {

const std::size_t kSizes[] = {10, 128, 1024, 1 << 10, 1 << 13};

struct UnaryCase {
    const char* name;
    UnaryOp op;
    double a, b, threshold;
    bool complex;
};

constexpr double kPi = 3.14159265358979323846;

// The table of test_cumath.py (PyCUDA's test_floor tests ceil by mistake; both are tested here).
const UnaryCase kCases[] = {
    {"ceil", UnaryOp::Ceil, -10, 10, 0, false},
    {"floor", UnaryOp::Floor, -10, 10, 0, false},
    {"fabs", UnaryOp::Fabs, -10, 10, 0, false},
    {"exp", UnaryOp::Exp, -3, 3, 1e-5, false},
    {"exp_c", UnaryOp::Exp, -3, 3, 1e-5, true},
    {"log", UnaryOp::Log, 1e-5, 1, 5e-7, false},
    {"log10", UnaryOp::Log10, 1e-5, 1, 3e-7, false},
    {"sqrt", UnaryOp::Sqrt, 1e-5, 1, 2e-7, false},
    {"sin", UnaryOp::Sin, -10, 10, 1e-7, false},
    {"sin_c", UnaryOp::Sin, -3, 3, 2.1e-6, true},
    {"cos", UnaryOp::Cos, -10, 10, 1e-7, false},
    {"cos_c", UnaryOp::Cos, -3, 3, 2.1e-6, true},
    {"asin", UnaryOp::Asin, -0.9, 0.9, 5e-7, false},
    {"acos", UnaryOp::Acos, -0.9, 0.9, 5e-7, false},
    {"tan", UnaryOp::Tan, -kPi / 2 + 0.1, kPi / 2 - 0.1, 1e-5, false},
    {"tan_c", UnaryOp::Tan, -kPi / 2 + 0.1, kPi / 2 - 0.1, 3e-5, true},
    {"atan", UnaryOp::Atan, -10, 10, 2e-7, false},
    {"sinh", UnaryOp::Sinh, -3, 3, 2e-6, false},
    {"sinh_c", UnaryOp::Sinh, -3, 3, 3e-6, true},
    {"cosh", UnaryOp::Cosh, -3, 3, 2e-6, false},
    {"cosh_c", UnaryOp::Cosh, -3, 3, 3e-6, true},
    {"tanh", UnaryOp::Tanh, -3, 3, 2e-6, false},
    {"tanh_c", UnaryOp::Tanh, -kPi / 2 + 0.1, kPi / 2 - 0.1, 3e-5, true},
};

template <class T>
T hostFunction(UnaryOp op, T x)
{
    switch (op) {
    case UnaryOp::Ceil: return std::ceil(x);
    case UnaryOp::Floor: return std::floor(x);
    case UnaryOp::Fabs: return std::fabs(x);
    case UnaryOp::Exp: return std::exp(x);
    case UnaryOp::Log: return std::log(x);
    case UnaryOp::Log10: return std::log10(x);
    case UnaryOp::Sqrt: return std::sqrt(x);
    case UnaryOp::Sin: return std::sin(x);
    case UnaryOp::Cos: return std::cos(x);
    case UnaryOp::Tan: return std::tan(x);
    case UnaryOp::Asin: return std::asin(x);
    case UnaryOp::Acos: return std::acos(x);
    case UnaryOp::Atan: return std::atan(x);
    case UnaryOp::Sinh: return std::sinh(x);
    case UnaryOp::Cosh: return std::cosh(x);
    case UnaryOp::Tanh: return std::tanh(x);
    default: return x;
    }
}

template <class T>
std::complex<T> hostFunction(UnaryOp op, std::complex<T> z)
{
    switch (op) {
    case UnaryOp::Exp: return std::exp(z);
    case UnaryOp::Log: return std::log(z);
    case UnaryOp::Log10: return std::log10(z);
    case UnaryOp::Sqrt: return std::sqrt(z);
    case UnaryOp::Sin: return std::sin(z);
    case UnaryOp::Cos: return std::cos(z);
    case UnaryOp::Tan: return std::tan(z);
    case UnaryOp::Sinh: return std::sinh(z);
    case UnaryOp::Cosh: return std::cosh(z);
    case UnaryOp::Tanh: return std::tanh(z);
    case UnaryOp::Asin: return std::asin(z);
    case UnaryOp::Acos: return std::acos(z);
    case UnaryOp::Atan: return std::atan(z);
    default: return z;
    }
}

// max |cpu - gpu| over the array, for the function and values of element type T (real or complex).
template <class T>
double maxError(ks::array::Runtime& rt, UnaryOp op, const std::vector<T>& a, bool outForm)
{
    const DeviceArray g = ks::array::fromHost(rt, a);
    DeviceArray r;
    if (outForm) {
        r = ks::array::emptyLike(g);
        r.fill(std::nan(""));
        ks::array::unaryInto(op, g, r);
    } else {
        r = ks::array::unary(op, g);
    }
    EXPECT_EQ(r.dtype(), g.dtype());
    const auto out = r.toHost<T>();
    double err = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double e = std::abs(hostFunction(op, a[i]) - out[i]);
        err = std::max(err, e != e ? INFINITY : e);
    }
    return err;
}

template <class R>
void runCase(ks::array::Runtime& rt, const UnaryCase& c)
{
    for (std::size_t s : kSizes) {
        for (bool outForm : {false, true}) {
            const auto re = ks::test::uniform<R>(s, c.a, c.b, 1);
            double err;
            if (c.complex) {
                const auto im = ks::test::uniform<R>(s, c.a, c.b, 2);
                std::vector<std::complex<R>> z(s);
                for (std::size_t i = 0; i < s; ++i)
                    z[i] = {re[i], im[i]};
                err = maxError(rt, c.op, z, outForm);
            } else {
                err = maxError(rt, c.op, re, outForm);
            }
            EXPECT_LE(err, c.threshold) << c.name << " size " << s << (sizeof(R) == 4 ? " 32-bit" : " 64-bit")
                                        << (outForm ? " (out=)" : "");
        }
    }
}

} // namespace

TEST_F(ArrayTest, PyCudaCumathUnaryFunctionTable)
{
    for (const UnaryCase& c : kCases) {
        runCase<float>(rt(), c);
        runCase<double>(rt(), c);
    }
}

TEST_F(ArrayTest, CumathIeeeSpecialValues)
{
    const float inf = INFINITY, nan = NAN;
    const DeviceArray x = fromHost(rt(), std::vector<float>{-1.f, 0.f, -0.f, inf, -inf, nan});
    const auto s = ks::array::sqrt(x).toHost<float>();
    EXPECT_TRUE(std::isnan(s[0]));
    EXPECT_EQ(s[1], 0.f);
    EXPECT_TRUE(std::signbit(s[2]));
    EXPECT_EQ(s[3], inf);
    EXPECT_TRUE(std::isnan(s[4]));
    EXPECT_TRUE(std::isnan(s[5]));
    const auto l = ks::array::log(x).toHost<float>();
    EXPECT_TRUE(std::isnan(l[0]));
    EXPECT_EQ(l[1], -inf);
    EXPECT_EQ(l[3], inf);
    const auto e = ks::array::exp(x).toHost<float>();
    EXPECT_EQ(e[3], inf);
    EXPECT_EQ(e[4], 0.f);
    const auto d = (x / 0.f).toHost<float>();
    EXPECT_EQ(d[0], -inf);
    EXPECT_TRUE(std::isnan(d[1]));
    // Integer inputs compute in float64 (32-bit) / float32 (16-bit) as numpy does.
    EXPECT_EQ(ks::array::sqrt(fromHost(rt(), std::vector<int>{4})).dtype(), DType::Float64);
    EXPECT_EQ(ks::array::sqrt(fromHost(rt(), std::vector<short>{4})).dtype(), DType::Float32);
}

TEST_F(ArrayTest, PyCudaCumathFmodLdexpModfFrexp)
{
    for (std::size_t s : kSizes) {
        const DeviceArray a = ks::array::arange(rt(), 0, double(s), 1, DType::Float32) / 10;
        const DeviceArray a2 = ks::array::arange(rt(), 0, double(s), 1, DType::Float32) / 45.2 + 0.1;
        const DeviceArray b = ks::array::fmod(a, a2);
        const auto ha = a.toHost<float>(), ha2 = a2.toHost<float>(), hb = b.toHost<float>();
        for (std::size_t i = 0; i < s; ++i)
            ASSERT_EQ(std::fmod(double(ha[i]), double(ha2[i])), double(hb[i])) << i;

        const DeviceArray x = ks::array::arange(rt(), 0, double(s), 1, DType::Float32);
        const DeviceArray e = x * 1e-3;
        const auto hx = x.toHost<float>(), he = e.toHost<float>();
        const auto hl = ks::array::ldexp(x, e).toHost<float>();
        for (std::size_t i = 0; i < s; ++i)
            ASSERT_EQ(std::ldexp(double(hx[i]), int(he[i])), double(hl[i])) << i;

        const auto [frac, integral] = ks::array::modf(a);
        const auto hf = frac.toHost<float>(), hi = integral.toHost<float>();
        for (std::size_t i = 0; i < s; ++i) {
            double ip = 0;
            const double fp = std::modf(double(ha[i]), &ip);
            ASSERT_EQ(ip, double(hi[i])) << i;
            ASSERT_LT(std::abs(fp - hf[i]), 1e-4) << i;
        }

        const auto [mantissa, exponent] = ks::array::frexp(a);
        EXPECT_EQ(exponent.dtype(), DType::Int32);
        const auto hm = mantissa.toHost<float>();
        const auto hexp = exponent.toHost<int>();
        for (std::size_t i = 0; i < s; ++i) {
            int ex = 0;
            const double m = std::frexp(double(ha[i]), &ex);
            ASSERT_EQ(m, double(hm[i])) << i;
            ASSERT_EQ(ex, hexp[i]) << i;
        }
    }
}

// test_gpuarray.py's test_mul_add: a.mul_add(2, b, 3) returned, into out=, and on a stream
// (stream=: a StreamScope around the call).
TEST_F(ArrayTest, PyCudaMulAdd)
{
    const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const std::vector<float> b = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
    std::vector<float> expected; // 2 * a + 3 * b in float32, exact for these values
    for (std::size_t i = 0; i < a.size(); ++i)
        expected.push_back(2 * a[i] + 3 * b[i]);

    const DeviceArray aGpu = toGpu(a), bGpu = toGpu(b);
    const DeviceArray cGpu = ks::array::emptyLike(aGpu);

    EXPECT_EQ(ks::array::mulAdd(2, aGpu, 3, bGpu).toHost<float>(), expected);

    ks::array::mulAddInto(2, aGpu, 3, bGpu, cGpu);
    EXPECT_EQ(cGpu.toHost<float>(), expected);

    const ks::cuda::Stream stream(ks::cuda::Stream::Create{}); // outlives what is allocated on it
    rt().synchronize(); // switching streams: what the runtime's stream queued is done first
    {
        ks::array::StreamScope on(rt(), stream.get());
        EXPECT_EQ(rt().stream(), stream.get());
        EXPECT_EQ(ks::array::mulAdd(2, aGpu, 3, bGpu).toHost<float>(), expected); // toHost synchronises `stream`
    }
}

namespace {

// One pass of test_unary_func_kwargs for an element type: max |np.exp(A) - gpu| over the array.
template <class T>
double expError(const std::vector<T>& a, const DeviceArray& result)
{
    EXPECT_EQ(result.dtype(), ks::array::dtypeOf<T>());
    const auto out = result.toHost<T>();
    double err = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double e = std::abs(double(std::exp(a[i])) - double(out[i]));
        err = std::max(err, e != e ? INFINITY : e);
    }
    return err;
}

template <class T>
void unaryFuncKwargs(ks::array::Runtime& rt, std::size_t s)
{
    // name, a, b, threshold = ("exp", -3, 3, 1e-5); A = np.random.random(s) * (b - a) + a (seed 1).
    // (PyCUDA's first A also adds an imaginary part under `if complex:`, which tests the builtin
    // `complex`, always true; that A is replaced by the next line's before it is used.)
    const double threshold = 1e-5;
    const std::vector<T> a = ks::test::uniform<T>(s, -3, 3, 1);
    const char* type = sizeof(T) == 4 ? "float32" : "float64";

    // 'out' keyword, then 'out' position: one form in C++.
    for (const char* pass : {"out keyword", "out position"}) {
        const DeviceArray args = ks::array::fromHost(rt, a);
        const DeviceArray gpuResults = ks::array::emptyLike(args);
        ks::array::unaryInto(UnaryOp::Exp, args, gpuResults);
        EXPECT_LE(expError(a, gpuResults), threshold) << pass << ", size " << s << ", " << type;
    }

    // 'stream' keyword, then 'stream' position: a StreamScope on a new stream (PyCUDA also
    // allocates an out array here that it does not pass).
    for (const char* pass : {"stream keyword", "stream position"}) {
        const ks::cuda::Stream mystream(ks::cuda::Stream::Create{});
        const DeviceArray args = ks::array::fromHost(rt, a); // synchronises the runtime's stream
        ks::array::StreamScope on(rt, mystream.get());
        EXPECT_LE(expError(a, ks::array::exp(args)), threshold) << pass << ", size " << s << ", " << type;
    }

    // 'out' and 'stream' keywords.
    {
        const ks::cuda::Stream mystream(ks::cuda::Stream::Create{});
        const DeviceArray args = ks::array::fromHost(rt, a);
        const DeviceArray gpuResults = ks::array::emptyLike(args);
        rt.synchronize(); // switching streams: gpuResults' allocation is done first
        ks::array::StreamScope on(rt, mystream.get());
        ks::array::unaryInto(UnaryOp::Exp, args, gpuResults);
        EXPECT_LE(expError(a, gpuResults), threshold) << "out and stream keywords, size " << s << ", " << type;
    }
}

} // namespace

// test_cumath.py's test_unary_func_kwargs: exp on [-3, 3) at 1e-5 for every size and real dtype, with
// out=, with stream= (a StreamScope) and with both.
TEST_F(ArrayTest, PyCudaUnaryFuncKwargs)
{
    for (std::size_t s : kSizes) {
        unaryFuncKwargs<float>(rt(), s);
        unaryFuncKwargs<double>(rt(), s);
    }
}
