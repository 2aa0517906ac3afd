// DType facts and numpy's promotion rules (np.promote_types and numpy 2 / NEP 50 scalars), host only.
#include "ks/array/dtype.hpp"
#include "ks/core/error.hpp"
#include "ks/core/numbers.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <limits>
#include <string>

using ks::array::DType;
using ks::array::Scalar;

namespace {

// numpy's type characters in kAllDTypes order.
constexpr char kChars[] = "?bhilBHILefdFD";

DType fromChar(char c)
{
    const char* p = std::strchr(kChars, c);
    EXPECT_NE(p, nullptr) << c;
    return ks::array::kAllDTypes[p - kChars];
}

} // namespace

TEST(ArrayDType, SizesNamesAndCudaTypes)
{
    const std::size_t sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8, 8, 16};
    for (int i = 0; i < ks::array::kDTypeCount; ++i) {
        const DType t = ks::array::kAllDTypes[i];
        EXPECT_EQ(ks::array::itemSize(t), sizes[i]) << ks::array::dtypeName(t);
        EXPECT_EQ(ks::array::parseDType(ks::array::dtypeName(t)), t);
        EXPECT_EQ(ks::array::parseDType(ks::array::cudaTypeName(t)), t) << ks::array::cudaTypeName(t);
    }
    EXPECT_EQ(ks::array::parseDType("unsigned long long"), DType::UInt64);
    EXPECT_EQ(ks::array::parseDType("pycuda::complex<float>"), DType::Complex64);
    EXPECT_EQ(ks::array::parseDType("float"), DType::Float32); // C's float, not numpy's
    EXPECT_EQ(ks::array::parseDType("float16"), DType::Float16);
    EXPECT_EQ(ks::array::parseDType("half"), DType::Float16);
    EXPECT_EQ(ks::array::parseDType("f2"), DType::Float16);
    EXPECT_EQ(ks::array::cudaTypeName(DType::Float16), "__half");
    EXPECT_FALSE(ks::array::parseDType("float8").has_value());
    EXPECT_EQ(ks::array::dtypeOf<ks::Half>(), DType::Float16);
    EXPECT_EQ(ks::array::dtypeOf<int>(), DType::Int32);
    EXPECT_EQ(ks::array::dtypeOf<unsigned char>(), DType::UInt8);
    EXPECT_EQ(ks::array::dtypeOf<std::complex<double>>(), DType::Complex128);
    EXPECT_EQ(ks::array::realType(DType::Complex64), DType::Float32);
    EXPECT_EQ(ks::array::complexType(DType::Float32), DType::Complex64);
    EXPECT_EQ(ks::array::inexactType(DType::Int16), DType::Float32);
    EXPECT_EQ(ks::array::inexactType(DType::Int32), DType::Float64);
    EXPECT_EQ(ks::array::inexactType(DType::UInt8), DType::Float32); // numpy: float16 (see dtype.hpp)
    EXPECT_EQ(ks::array::inexactType(DType::Bool), DType::Float32);
    EXPECT_EQ(ks::array::inexactType(DType::Float16), DType::Float16);
    EXPECT_EQ(ks::array::complexType(DType::Float16), DType::Complex64);
    EXPECT_EQ(ks::array::arithmeticType(DType::Float16), DType::Float32);
    EXPECT_EQ(ks::array::arithmeticType(DType::Int8), DType::Int8);
    EXPECT_EQ(ks::array::arithmeticType(DType::Float64), DType::Float64);
    EXPECT_EQ(ks::array::inexactType(DType::Complex64), DType::Complex64);
}

TEST(ArrayDType, PromoteTypesMatchesNumpyForEveryPair)
{
    // np.promote_types(row, column); rows and columns in "?bhilBHILefdFD" order (e: float16).
    const char* table[] = {
        "?bhilBHILefdFD", // ?
        "bbhilhildefdFD", // b
        "hhhilhildffdFD", // h
        "iiiiliilddddDD", // i
        "llllllllddddDD", // l
        "BhhilBHILefdFD", // B
        "HiiilHHILffdFD", // H
        "IllllIIILdddDD", // I
        "LddddLLLLdddDD", // L
        "eefddefddefdFD", // e
        "fffddffddffdFD", // f
        "ddddddddddddDD", // d
        "FFFDDFFDDFFDFD", // F
        "DDDDDDDDDDDDDD", // D
    };
    static_assert(ks::array::kDTypeCount == 14);
    for (int r = 0; r < ks::array::kDTypeCount; ++r) {
        ASSERT_EQ(std::strlen(table[r]), 14u) << r;
        for (int c = 0; c < ks::array::kDTypeCount; ++c) {
            const DType a = ks::array::kAllDTypes[r], b = ks::array::kAllDTypes[c];
            EXPECT_EQ(ks::array::promoteTypes(a, b), fromChar(table[r][c]))
                << ks::array::dtypeName(a) << " + " << ks::array::dtypeName(b);
            EXPECT_EQ(ks::array::promoteTypes(a, b), ks::array::promoteTypes(b, a));
        }
    }
    // The example.
    EXPECT_EQ(ks::array::resultType(DType::Int32, DType::Float32), DType::Float64);
}

TEST(ArrayDType, WeakScalarsFollowNep50)
{
    using ks::array::resultType;
    // Python float with a float array keeps the array's precision; with an integer array gives float64.
    EXPECT_EQ(resultType(DType::Float32, Scalar(2.0)), DType::Float32);
    EXPECT_EQ(resultType(DType::Float32, Scalar(2.f)), DType::Float32);
    EXPECT_EQ(resultType(DType::Int32, Scalar(2.5)), DType::Float64);
    EXPECT_EQ(resultType(DType::UInt8, Scalar(2.5f)), DType::Float64);
    EXPECT_EQ(resultType(DType::Bool, Scalar(2.5)), DType::Float64);
    // Python int keeps any numeric array's type; with bool gives int64.
    EXPECT_EQ(resultType(DType::Int8, Scalar(1)), DType::Int8);
    EXPECT_EQ(resultType(DType::UInt16, Scalar(7ll)), DType::UInt16);
    EXPECT_EQ(resultType(DType::Float32, Scalar(3)), DType::Float32);
    EXPECT_EQ(resultType(DType::Complex64, Scalar(3)), DType::Complex64);
    EXPECT_EQ(resultType(DType::Bool, Scalar(3)), DType::Int64);
    // Python complex.
    EXPECT_EQ(resultType(DType::Float32, Scalar(std::complex<double>(1, 2))), DType::Complex64);
    EXPECT_EQ(resultType(DType::Float64, Scalar(std::complex<float>(1, 2))), DType::Complex128);
    EXPECT_EQ(resultType(DType::Int16, Scalar(std::complex<double>(1, 2))), DType::Complex128);
    // float16 arrays keep float16 with a Python int or float, and give complex64 with a complex.
    EXPECT_EQ(resultType(DType::Float16, Scalar(3)), DType::Float16);
    EXPECT_EQ(resultType(DType::Float16, Scalar(2.5)), DType::Float16);
    EXPECT_EQ(resultType(DType::Float16, Scalar(std::complex<double>(1, 2))), DType::Complex64);
    EXPECT_EQ(resultType(DType::Int8, Scalar::typed(DType::Float16, 2.0)), DType::Float16);
    EXPECT_EQ(resultType(DType::Int16, Scalar::typed(DType::Float16, 2.0)), DType::Float32);
    // Python bool never changes the type.
    EXPECT_EQ(resultType(DType::Int8, Scalar(true)), DType::Int8);
    EXPECT_EQ(resultType(DType::Bool, Scalar(true)), DType::Bool);
    // Out-of-range Python ints are errors (numpy 2: OverflowError).
    EXPECT_THROW(resultType(DType::UInt8, Scalar(300)), ks::Error);
    EXPECT_THROW(resultType(DType::UInt8, Scalar(-1)), ks::Error);
    EXPECT_THROW(resultType(DType::Int8, Scalar(128)), ks::Error);
    EXPECT_NO_THROW(resultType(DType::Int8, Scalar(-128)));
    EXPECT_NO_THROW(resultType(DType::UInt64, Scalar(~0ull)));
    EXPECT_THROW(resultType(DType::Int64, Scalar(~0ull)), ks::Error);
    // Strong scalars promote like arrays.
    EXPECT_EQ(resultType(DType::Float32, Scalar::typed(DType::Float64, 2.0)), DType::Float64);
    EXPECT_EQ(resultType(DType::Int32, Scalar::typed(DType::Float32, 2.0)), DType::Float64);
    EXPECT_EQ(resultType(DType::UInt8, Scalar::typed(DType::Int8, 1)), DType::Int16);
}

TEST(ArrayDType, ScalarConversionsAndStorage)
{
    const Scalar s = Scalar::typed(DType::Int8, 300); // wraps like a C++ conversion
    EXPECT_EQ(s.asInt64(), 44);
    EXPECT_FALSE(s.weak());
    EXPECT_EQ(s.dtype(), DType::Int8);
    EXPECT_EQ(Scalar(2.5).dtype(), DType::Float64);
    EXPECT_EQ(Scalar(~0ull).dtype(), DType::UInt64);
    EXPECT_EQ(Scalar(5u).dtype(), DType::Int64);
    EXPECT_TRUE(Scalar(0.5).asBool());

    unsigned char bytes[16];
    Scalar(2.5).store(DType::Float32, bytes);
    float f = 0;
    std::memcpy(&f, bytes, 4);
    EXPECT_EQ(f, 2.5f);
    Scalar(-3.7).store(DType::Int16, bytes);
    short h = 0;
    std::memcpy(&h, bytes, 2);
    EXPECT_EQ(h, -3);
    Scalar(std::complex<double>(1.5, -2)).store(DType::Complex64, bytes);
    float c[2];
    std::memcpy(c, bytes, 8);
    EXPECT_EQ(c[0], 1.5f);
    EXPECT_EQ(c[1], -2.f);
    Scalar(7).store(DType::Complex64, bytes); // an integer into complex64: onesLike(a, Complex64) gave 0 before
    std::memcpy(c, bytes, 8);
    EXPECT_EQ(c[0], 7.f);
    EXPECT_EQ(c[1], 0.f);
    Scalar(true).store(DType::Complex64, bytes);
    std::memcpy(c, bytes, 8);
    EXPECT_EQ(c[0], 1.f);
    Scalar(7).store(DType::Complex128, bytes);
    double d[2];
    std::memcpy(d, bytes, 16);
    EXPECT_EQ(d[0], 7.0);
    EXPECT_EQ(d[1], 0.0);
    Scalar(2.5).store(DType::Float16, bytes);
    std::uint16_t half = 0;
    std::memcpy(&half, bytes, 2);
    EXPECT_EQ(half, 0x4100); // 2.5 = 1.25 * 2^1
    Scalar(-70000).store(DType::Float16, bytes);
    std::memcpy(&half, bytes, 2);
    EXPECT_EQ(half, 0xFC00); // -inf
    Scalar(0.1).store(DType::Float16, bytes); // straight from the double: 0x2E66 (0.0999755859375)
    std::memcpy(&half, bytes, 2);
    EXPECT_EQ(half, 0x2E66);
    Scalar(2.0).store(DType::Bool, bytes);
    EXPECT_EQ(bytes[0], 1);
    EXPECT_EQ(Scalar(-1).toString(), "-1");
    EXPECT_EQ(Scalar::typed(DType::Float32, 2.5).toString(), "float32(2.5)");
}

// A strong float32 or complex64 scalar holds its value rounded to float. (GCC 12.2's SLP vectorizer
// at -O2 drops the rounding of a pair: std::complex<double>(float(re), float(im)) came out as
// (re, im) in the asan build's tests; ks::roundToFloat is the barrier.)
TEST(ArrayDType, TypedScalarsAreRoundedToTheirType)
{
    const double x = 0.78971716585086682, y = 0.1;
    const double fx = double(float(x)), fy = double(float(y));
    ASSERT_NE(fx, x);
    const Scalar c = Scalar::typed(DType::Complex64, std::complex<double>(x, y));
    EXPECT_EQ(c.asComplex(), std::complex<double>(fx, fy));
    EXPECT_EQ(Scalar::typed(DType::Float32, x).asDouble(), fx);
    EXPECT_EQ(Scalar::typed(DType::Complex128, std::complex<double>(x, y)).asComplex(), std::complex<double>(x, y));
    EXPECT_EQ(Scalar::typed(DType::Float16, x).asDouble(), 0.78955078125); // 0x3A51
    EXPECT_EQ(Scalar::typed(DType::Float16, 1e6).asDouble(), std::numeric_limits<double>::infinity());
    // The barrier itself, in the shape the vectorizer got wrong.
    const std::complex<double> pair(ks::roundToFloat(x), ks::roundToFloat(y));
    EXPECT_EQ(pair.real(), fx);
    EXPECT_EQ(pair.imag(), fy);
}
