// The device prelude of generated array kernels (ks/array/kernel_source.hpp): compiled with every
// generated kernel. Compiled into the engine as text (cmake/KsEmbed.cmake); a unit test compiles it
// with NVRTC for sm_90, bare and with float16 support. (The build drops this first paragraph.)

// float16 support (KS_FLOAT16 defined before this text, which devicePrelude(true) does): cuda_fp16.h's
// __half from the toolkit's headers, ks::cast to and from it, and ks:: math overloads for __half. It is
// left out of kernels without float16 because cuda_fp16.h adds about 20 ms to every NVRTC compile.
#ifdef KS_FLOAT16
#include <cuda_fp16.h>
#endif

// ---- Kernelscope array prelude
// Accesses written once for raw and checked pointers: reinterpret_cast<U*>(p) is ks_cast<U>(p),
// an element passed by reference is ks_at(p, i), and ks_span(p, count, access) says whether count
// elements from p may be accessed through a raw pointer (always, here). The checked variant of a
// kernel (ks_device/checked.cuh, "find the fault") overloads them for its checked pointers.
template <class U, class T>
__device__ __forceinline__ U* ks_cast(T* p) { return reinterpret_cast<U*>(p); }
template <class T>
__device__ __forceinline__ T& ks_at(T* p, long long i) { return p[i]; }
template <class T>
__device__ __forceinline__ constexpr bool ks_span(T*, long long, unsigned) { return true; }
constexpr unsigned ks_read = 1, ks_write = 2, ks_update = 3; // ks::teach::CheckedAccess
#ifdef KS_TEACH_CHECKED
static_assert(ks_read == ks::teach::kCheckedRead && ks_write == ks::teach::kCheckedWrite &&
              ks_update == ks::teach::kCheckedUpdate, "access kinds as in ks_device/records.cuh");
#endif

namespace ks {

template <class T> struct is_complex { static constexpr bool value = false; };
template <class T> struct is_integer { static constexpr bool value = false; };
template <class T> struct is_signed_int { static constexpr bool value = false; };
#define KS_INT(T, S) \
    template <> struct is_integer<T> { static constexpr bool value = true; }; \
    template <> struct is_signed_int<T> { static constexpr bool value = S; };
KS_INT(signed char, true) KS_INT(short, true) KS_INT(int, true) KS_INT(long long, true)
KS_INT(unsigned char, false) KS_INT(unsigned short, false) KS_INT(unsigned int, false)
KS_INT(unsigned long long, false)
#undef KS_INT

// Layout of std::complex<T>: {real, imag}, aligned to its size.
template <class T>
struct alignas(2 * sizeof(T)) complex {
    T re;
    T im;
};
using complex64 = complex<float>;
using complex128 = complex<double>;
template <class T> struct is_complex<complex<T>> { static constexpr bool value = true; };

template <class T, int V>
struct alignas(sizeof(T) * V) Vec {
    T v[V];
};

// ---- real math, overloaded by precision
#define KS_UNARY(name, f32, f64) \
    __device__ __forceinline__ float name(float x) { return ::f32(x); } \
    __device__ __forceinline__ double name(double x) { return ::f64(x); }
KS_UNARY(sin, sinf, sin) KS_UNARY(cos, cosf, cos) KS_UNARY(tan, tanf, tan)
KS_UNARY(asin, asinf, asin) KS_UNARY(acos, acosf, acos) KS_UNARY(atan, atanf, atan)
KS_UNARY(sinh, sinhf, sinh) KS_UNARY(cosh, coshf, cosh) KS_UNARY(tanh, tanhf, tanh)
KS_UNARY(exp, expf, exp) KS_UNARY(log, logf, log) KS_UNARY(log10, log10f, log10)
KS_UNARY(sqrt, sqrtf, sqrt) KS_UNARY(fabs, fabsf, fabs) KS_UNARY(ceil, ceilf, ceil)
KS_UNARY(floor, floorf, floor)
#undef KS_UNARY
#define KS_BINARY(name, f32, f64) \
    __device__ __forceinline__ float name(float x, float y) { return ::f32(x, y); } \
    __device__ __forceinline__ double name(double x, double y) { return ::f64(x, y); }
KS_BINARY(fmod, fmodf, fmod) KS_BINARY(atan2, atan2f, atan2) KS_BINARY(hypot, hypotf, hypot)
KS_BINARY(copysign, copysignf, copysign) KS_BINARY(powr, powf, pow)
#undef KS_BINARY
__device__ __forceinline__ float ldexp(float x, int e) { return ::ldexpf(x, e); }
__device__ __forceinline__ double ldexp(double x, int e) { return ::ldexp(x, e); }
__device__ __forceinline__ float modf(float x, float* ip) { return ::modff(x, ip); }
__device__ __forceinline__ double modf(double x, double* ip) { return ::modf(x, ip); }
__device__ __forceinline__ float frexp(float x, int* e) { return ::frexpf(x, e); }
__device__ __forceinline__ double frexp(double x, int* e) { return ::frexp(x, e); }
__device__ __forceinline__ void sincos(float x, float* s, float* c) { ::sincosf(x, s, c); }
__device__ __forceinline__ void sincos(double x, double* s, double* c) { ::sincos(x, s, c); }
template <class T> __device__ __forceinline__ bool isnan(T x) { return x != x; }

// ---- complex arithmetic
template <class T> __device__ __forceinline__ complex<T> make_complex(T re, T im) { complex<T> c; c.re = re; c.im = im; return c; }
template <class T> __device__ __forceinline__ complex<T> operator+(complex<T> a, complex<T> b) { return make_complex(a.re + b.re, a.im + b.im); }
template <class T> __device__ __forceinline__ complex<T> operator-(complex<T> a, complex<T> b) { return make_complex(a.re - b.re, a.im - b.im); }
template <class T> __device__ __forceinline__ complex<T> operator-(complex<T> a) { return make_complex(-a.re, -a.im); }
template <class T> __device__ __forceinline__ complex<T> operator*(complex<T> a, complex<T> b)
{
    return make_complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);
}
// Smith's algorithm, as numpy divides complex numbers.
template <class T> __device__ __forceinline__ complex<T> operator/(complex<T> a, complex<T> b)
{
    const T abr = fabs(b.re), abi = fabs(b.im);
    if (abr >= abi) {
        if (abr == T(0) && abi == T(0))
            return make_complex(a.re / abr, a.im / abi);
        const T r = b.im / b.re, d = b.re + b.im * r;
        return make_complex((a.re + a.im * r) / d, (a.im - a.re * r) / d);
    }
    const T r = b.re / b.im, d = b.re * r + b.im;
    return make_complex((a.re * r + a.im) / d, (a.im * r - a.re) / d);
}
template <class T> __device__ __forceinline__ complex<T> operator*(T a, complex<T> b) { return make_complex(a * b.re, a * b.im); }
template <class T> __device__ __forceinline__ complex<T> operator*(complex<T> a, T b) { return make_complex(a.re * b, a.im * b); }
template <class T> __device__ __forceinline__ complex<T> operator/(complex<T> a, T b) { return make_complex(a.re / b, a.im / b); }
template <class T> __device__ __forceinline__ complex<T> operator+(complex<T> a, T b) { return make_complex(a.re + b, a.im); }
template <class T> __device__ __forceinline__ complex<T> operator-(T a, complex<T> b) { return make_complex(a - b.re, -b.im); }
template <class T> __device__ __forceinline__ complex<T>& operator+=(complex<T>& a, complex<T> b) { a = a + b; return a; }
template <class T> __device__ __forceinline__ complex<T>& operator-=(complex<T>& a, complex<T> b) { a = a - b; return a; }
template <class T> __device__ __forceinline__ complex<T>& operator*=(complex<T>& a, complex<T> b) { a = a * b; return a; }
template <class T> __device__ __forceinline__ complex<T>& operator/=(complex<T>& a, complex<T> b) { a = a / b; return a; }
template <class T> __device__ __forceinline__ bool operator==(complex<T> a, complex<T> b) { return a.re == b.re && a.im == b.im; }
template <class T> __device__ __forceinline__ bool operator!=(complex<T> a, complex<T> b) { return !(a == b); }
// numpy orders complex numbers lexicographically (real part first).
template <class T> __device__ __forceinline__ bool operator<(complex<T> a, complex<T> b)
{
    return a.re < b.re || (a.re == b.re && a.im < b.im);
}
template <class T> __device__ __forceinline__ bool operator>(complex<T> a, complex<T> b) { return b < a; }
template <class T> __device__ __forceinline__ bool operator<=(complex<T> a, complex<T> b)
{
    return a.re < b.re || (a.re == b.re && a.im <= b.im);
}
template <class T> __device__ __forceinline__ bool operator>=(complex<T> a, complex<T> b) { return b <= a; }

template <class T> __device__ __forceinline__ T real(complex<T> z) { return z.re; }
template <class T> __device__ __forceinline__ T imag(complex<T> z) { return z.im; }
template <class T> __device__ __forceinline__ complex<T> conj(complex<T> z) { return make_complex(z.re, -z.im); }
template <class T> __device__ __forceinline__ T abs(complex<T> z) { return hypot(z.re, z.im); }
template <class T> __device__ __forceinline__ T arg(complex<T> z) { return atan2(z.im, z.re); }
template <class T> __device__ __forceinline__ complex<T> exp(complex<T> z)
{
    T s, c;
    sincos(z.im, &s, &c);
    const T e = exp(z.re);
    return make_complex(e * c, e * s);
}
template <class T> __device__ __forceinline__ complex<T> log(complex<T> z) { return make_complex(log(abs(z)), arg(z)); }
template <class T> __device__ __forceinline__ complex<T> log10(complex<T> z)
{
    return log(z) * T(0.43429448190325182765112891891660508);
}
template <class T> __device__ __forceinline__ complex<T> sqrt(complex<T> z)
{
    if (z.re == T(0) && z.im == T(0))
        return make_complex(T(0), z.im);
    const T t = sqrt((fabs(z.re) + abs(z)) * T(0.5));
    if (z.re >= T(0))
        return make_complex(t, z.im / (T(2) * t));
    return make_complex(fabs(z.im) / (T(2) * t), copysign(t, z.im));
}
template <class T> __device__ __forceinline__ complex<T> sin(complex<T> z)
{
    T s, c;
    sincos(z.re, &s, &c);
    return make_complex(s * cosh(z.im), c * sinh(z.im));
}
template <class T> __device__ __forceinline__ complex<T> cos(complex<T> z)
{
    T s, c;
    sincos(z.re, &s, &c);
    return make_complex(c * cosh(z.im), -s * sinh(z.im));
}
template <class T> __device__ __forceinline__ complex<T> sinh(complex<T> z)
{
    T s, c;
    sincos(z.im, &s, &c);
    return make_complex(sinh(z.re) * c, cosh(z.re) * s);
}
template <class T> __device__ __forceinline__ complex<T> cosh(complex<T> z)
{
    T s, c;
    sincos(z.im, &s, &c);
    return make_complex(cosh(z.re) * c, sinh(z.re) * s);
}
// tan z = (sin x cos x + i sinh y cosh y) / (cos^2 x + sinh^2 y). The denominator adds two
// non-negative terms, so it never cancels: the form with cos 2x + cosh 2y loses digits where
// cos 2x ~ -1 and y ~ 0 (|tan z| large), 3.7e-5 absolute for complex64 near x = +-1.47. Beyond
// |y| = 20, tanh y is +-1 in float and double and Re tan z ~ 4 sin x cos x e^(-2|y|) (no
// overflow of sinh^2 y; tan(x + i inf) = 0 + i).
template <class T> __device__ __forceinline__ complex<T> ks_tan_parts(T x, T y)
{
    T s, c;
    sincos(x, &s, &c);
    if (fabs(y) > T(20))
        return make_complex(T(4) * s * c * exp(T(-2) * fabs(y)), copysign(T(1), y));
    const T sh = sinh(y), ch = cosh(y);
    const T d = c * c + sh * sh;
    return make_complex(s * c / d, sh * ch / d);
}
template <class T> __device__ __forceinline__ complex<T> tan(complex<T> z) { return ks_tan_parts(z.re, z.im); }
// tanh z = -i tan(iz): with tan(-y + ix) = a + ib, tanh(x + iy) = b - ia.
template <class T> __device__ __forceinline__ complex<T> tanh(complex<T> z)
{
    const complex<T> t = ks_tan_parts(-z.im, z.re);
    return make_complex(t.im, -t.re);
}
// asin z = -i log(iz + sqrt(1 - z^2)); acos z = pi/2 - asin z; atan z = i/2 (log(1 - iz) - log(1 + iz)).
template <class T> __device__ __forceinline__ complex<T> asin(complex<T> z)
{
    const complex<T> iz = make_complex(-z.im, z.re);
    const complex<T> w = log(iz + sqrt(T(1) - z * z));
    return make_complex(w.im, -w.re);
}
template <class T> __device__ __forceinline__ complex<T> acos(complex<T> z)
{
    const complex<T> a = asin(z);
    return make_complex(T(1.57079632679489661923132169163975144) - a.re, -a.im);
}
template <class T> __device__ __forceinline__ complex<T> atan(complex<T> z)
{
    const complex<T> iz = make_complex(-z.im, z.re);
    const complex<T> d = log(T(1) - iz) - log(iz + T(1));
    return make_complex(-d.im * T(0.5), d.re * T(0.5));
}

// ---- conversions (numpy's unsafe casting, with C++ conversion rules)
template <class To, class From> struct Cast { __device__ static To apply(From v) { return (To)v; } };
template <class From> struct Cast<bool, From> { __device__ static bool apply(From v) { return v != From(0); } };
template <class T, class From> struct Cast<complex<T>, From> {
    __device__ static complex<T> apply(From v) { return make_complex((T)v, T(0)); }
};
template <class T, class U> struct Cast<complex<T>, complex<U>> {
    __device__ static complex<T> apply(complex<U> v) { return make_complex((T)v.re, (T)v.im); }
};
template <class To, class U> struct Cast<To, complex<U>> {
    __device__ static To apply(complex<U> v) { return Cast<To, U>::apply(v.re); }
};
template <class U> struct Cast<bool, complex<U>> {
    __device__ static bool apply(complex<U> v) { return v.re != U(0) || v.im != U(0); }
};
template <> struct Cast<bool, bool> { __device__ static bool apply(bool v) { return v; } };
template <class To, class From> __device__ __forceinline__ To cast(From v) { return Cast<To, From>::apply(v); }
template <class T> __device__ __forceinline__ bool truth(T v) { return Cast<bool, T>::apply(v); }

#ifdef KS_FLOAT16
// float16 converts through float, as numpy's casts do: every integer a half can hold is exact in
// float (larger ones round to infinity either way), and double goes straight to half so that it is
// rounded once. Each specialisation below is more specialised than the generic ones it would
// otherwise tie with (Cast<bool, From>, Cast<complex<T>, From>, Cast<To, complex<U>>).
template <class To> struct Cast<To, __half> {
    __device__ static To apply(__half v) { return Cast<To, float>::apply(__half2float(v)); }
};
template <class From> struct Cast<__half, From> {
    __device__ static __half apply(From v) { return __float2half_rn(Cast<float, From>::apply(v)); }
};
template <> struct Cast<__half, double> { __device__ static __half apply(double v) { return __double2half(v); } };
template <> struct Cast<__half, __half> { __device__ static __half apply(__half v) { return v; } };
template <> struct Cast<bool, __half> {
    __device__ static bool apply(__half v) { return __half2float(v) != 0.0f; }
};
template <class T> struct Cast<complex<T>, __half> {
    __device__ static complex<T> apply(__half v) { return make_complex((T)__half2float(v), T(0)); }
};
template <class U> struct Cast<__half, complex<U>> {
    __device__ static __half apply(complex<U> v) { return Cast<__half, U>::apply(v.re); }
};
// Math on __half computes in float and rounds once (numpy's float16 ufuncs do the same).
#define KS_HALF_UNARY(name) \
    __device__ __forceinline__ __half name(__half x) { return __float2half_rn(name(__half2float(x))); }
KS_HALF_UNARY(sin) KS_HALF_UNARY(cos) KS_HALF_UNARY(tan) KS_HALF_UNARY(asin) KS_HALF_UNARY(acos)
KS_HALF_UNARY(atan) KS_HALF_UNARY(sinh) KS_HALF_UNARY(cosh) KS_HALF_UNARY(tanh) KS_HALF_UNARY(exp)
KS_HALF_UNARY(log) KS_HALF_UNARY(log10) KS_HALF_UNARY(sqrt) KS_HALF_UNARY(fabs) KS_HALF_UNARY(ceil)
KS_HALF_UNARY(floor)
#undef KS_HALF_UNARY
#define KS_HALF_BINARY(name) \
    __device__ __forceinline__ __half name(__half x, __half y) \
    { \
        return __float2half_rn(name(__half2float(x), __half2float(y))); \
    }
KS_HALF_BINARY(fmod) KS_HALF_BINARY(atan2) KS_HALF_BINARY(hypot) KS_HALF_BINARY(copysign) KS_HALF_BINARY(powr)
#undef KS_HALF_BINARY
__device__ __forceinline__ bool isnan(__half x) { return __hisnan(x); }
#endif

// ---- numpy semantics of integer and floating operations
// Floor division and remainder (Python's sign rules). Integer division by zero gives 0 (numpy
// warns and gives 0); INT_MIN // -1 wraps to INT_MIN as numpy does.
template <class T> __device__ __forceinline__ T floordiv(T a, T b)
{
    if constexpr (is_integer<T>::value) {
        if (b == T(0))
            return T(0);
        if constexpr (is_signed_int<T>::value) {
            if (b == T(-1))
                return T(0) - a;
            T q = a / b;
            if ((a % b != T(0)) && ((a < T(0)) != (b < T(0))))
                --q;
            return q;
        } else {
            return a / b;
        }
    } else {
        // numpy's npy_divmod
        if (b == T(0))
            return a / b;
        T m = fmod(a, b);
        T div = (a - m) / b;
        if (m != T(0)) {
            if ((b < T(0)) != (m < T(0)))
                div -= T(1);
        }
        if (div != T(0)) {
            T fd = floor(div);
            if (div - fd > T(0.5))
                fd += T(1);
            return fd;
        }
        return copysign(T(0), a / b);
    }
}
template <class T> __device__ __forceinline__ T mod(T a, T b)
{
    if constexpr (is_integer<T>::value) {
        if (b == T(0))
            return T(0);
        if constexpr (is_signed_int<T>::value) {
            if (b == T(-1))
                return T(0);
            T r = a % b;
            if (r != T(0) && ((r < T(0)) != (b < T(0))))
                r += b;
            return r;
        } else {
            return a % b;
        }
    } else {
        if (b == T(0))
            return fmod(a, b);
        T m = fmod(a, b);
        if (m != T(0)) {
            if ((b < T(0)) != (m < T(0)))
                m += b;
        } else {
            m = copysign(T(0), b);
        }
        return m;
    }
}
// C's truncating remainder for integers (numpy fmod): 0 for a zero divisor.
template <class T> __device__ __forceinline__ T cfmod(T a, T b)
{
    if constexpr (is_integer<T>::value) {
        if (b == T(0))
            return T(0);
        if constexpr (is_signed_int<T>::value) {
            if (b == T(-1))
                return T(0);
        }
        return a % b;
    } else {
        return fmod(a, b);
    }
}
// Integer power by squaring (wraps like numpy). A negative exponent, which numpy refuses, gives
// 1 for base 1, +-1 for base -1 and 0 otherwise (the truncated result).
template <class T> __device__ __forceinline__ T ipow(T base, T e)
{
    if constexpr (is_signed_int<T>::value) {
        if (e < T(0))
            return base == T(1) ? T(1) : base == T(-1) ? ((e & T(1)) ? T(-1) : T(1)) : T(0);
    }
    T result = T(1);
    while (e != T(0)) {
        if (e & T(1))
            result = T(result * base);
        e = T(e >> 1);
        base = T(base * base);
    }
    return result;
}
template <class T> __device__ __forceinline__ complex<T> pow(complex<T> a, complex<T> b)
{
    if (b.re == T(0) && b.im == T(0))
        return make_complex(T(1), T(0));
    if (a.re == T(0) && a.im == T(0))
        return make_complex(T(0), T(0));
    if (b.im == T(0) && b.re == T(1))
        return a;
    if (b.im == T(0) && b.re == T(2))
        return a * a;
    return exp(b * log(a));
}
template <class T> __device__ __forceinline__ T pow(T a, T b)
{
    if constexpr (is_integer<T>::value)
        return ipow(a, b);
    else
        return powr(a, b);
}
__device__ __forceinline__ bool pow(bool a, bool b) { return a || !b; }
// numpy's maximum/minimum propagate NaN (fmax/fmin do not).
template <class T> __device__ __forceinline__ T maximum(T a, T b)
{
    if constexpr (is_complex<T>::value) {
        if (isnan(a.re) || isnan(a.im))
            return a;
        if (isnan(b.re) || isnan(b.im))
            return b;
        return a >= b ? a : b;
    } else {
        return (a >= b || isnan(a)) ? a : b;
    }
}
template <class T> __device__ __forceinline__ T minimum(T a, T b)
{
    if constexpr (is_complex<T>::value) {
        if (isnan(a.re) || isnan(a.im))
            return a;
        if (isnan(b.re) || isnan(b.im))
            return b;
        return a <= b ? a : b;
    } else {
        return (a <= b || isnan(a)) ? a : b;
    }
}
template <class T> __device__ __forceinline__ T absolute(T a)
{
    if constexpr (is_signed_int<T>::value)
        return a < T(0) ? T(T(0) - a) : a;
    else if constexpr (is_integer<T>::value)
        return a;
    else
        return fabs(a);
}
template <class T> __device__ __forceinline__ T absolute(complex<T> a) { return abs(a); }
__device__ __forceinline__ bool absolute(bool a) { return a; }

// Exact comparisons of integers of different signedness (numpy 2 compares int64 with uint64 exactly).
template <class A, class B> __device__ __forceinline__ bool cmp_lt(A a, B b)
{
    if constexpr (is_integer<A>::value && is_integer<B>::value && is_signed_int<A>::value != is_signed_int<B>::value) {
        if constexpr (is_signed_int<A>::value)
            return a < A(0) || (unsigned long long)a < (unsigned long long)b;
        else
            return b >= B(0) && (unsigned long long)a < (unsigned long long)b;
    } else {
        return a < b;
    }
}
template <class A, class B> __device__ __forceinline__ bool cmp_eq(A a, B b)
{
    if constexpr (is_integer<A>::value && is_integer<B>::value && is_signed_int<A>::value != is_signed_int<B>::value) {
        if constexpr (is_signed_int<A>::value)
            return a >= A(0) && (unsigned long long)a == (unsigned long long)b;
        else
            return b >= B(0) && (unsigned long long)a == (unsigned long long)b;
    } else {
        return a == b;
    }
}

// ---- take and put: where an index j of an integer type lands on an axis of n > 0 elements, under
// numpy's modes. None raises (that would need a synchronisation) and none leaves the axis.
// index_from_end is numpy's default (-n <= j < 0 counts from the end), an index beyond [-n, n)
// going to the nearest end; index_wrap is mode='wrap' (j mod n); index_clip is mode='clip'.
template <class I> __device__ __forceinline__ long long index_clip(I j, long long n)
{
    if constexpr (is_signed_int<I>::value)
        return (long long)j < 0 ? 0 : (long long)j >= n ? n - 1 : (long long)j;
    else
        return (unsigned long long)j >= (unsigned long long)n ? n - 1 : (long long)j;
}
template <class I> __device__ __forceinline__ long long index_from_end(I j, long long n)
{
    if constexpr (is_signed_int<I>::value)
        return index_clip((long long)j < 0 ? (long long)j + n : (long long)j, n);
    else
        return index_clip(j, n);
}
template <class I> __device__ __forceinline__ long long index_wrap(I j, long long n)
{
    if constexpr (is_signed_int<I>::value) {
        const long long k = (long long)j % n;
        return k < 0 ? k + n : k;
    } else {
        return (long long)((unsigned long long)j % (unsigned long long)n);
    }
}
// Element i of a take's result (C order over outer x count x inner, countInner = count * inner)
// that picks k on an axis of `length`: its C-order position in the source.
__device__ __forceinline__ long long take_position(long long i, long long k, long long length, long long inner,
                                                   long long countInner)
{
    return (i / countInner * length + k) * inner + i % inner;
}

} // namespace ks
// ---- end of prelude
