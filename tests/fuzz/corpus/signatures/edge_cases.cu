// Kernel shapes for the signature scanner (tests/unit/test_syntax_kernel_signature.cpp; its golden listing
// tests/unit/data/kernel_scan.txt says what it reads here). Not compiled: some are deliberately odd.
#define FAKE __global__ void fake(int* p) {}
const char* s = "__global__ void in_string(float*)";
const char* raw = R"x(__global__ void in_raw_string(int* p) {} ")x";

__global__ void unknowns(MyStruct s, int** pp, float& r) {}
__global__ void driver_objects(CUsurfObject s, CUtexObject t, CUdeviceptr d) {}
template <typename... Ts> __global__ void pack(Ts... args) {}
template <typename T, int N = 4> __global__ void defaulted(T (*rows)[N]) {}
template <> __global__ void defaulted<float, 2>(float (*rows)[2]) {}

namespace { __global__ void anonymous(int* p) {} }
namespace a::b { inline namespace v1 { __global__ void nested(ns::Particle* p, const ns::Particle q) {} } }

struct Holder {
    __global__ void member(int* p) {}
};
void host()
{
    auto l = [] __global__ (int* p) {};
}

__global__ void qualifiers(int const* a, float* const b, volatile int* c, const volatile float* d,
                           unsigned long long int e, const int f, __grid_constant__ const float4 g) {}
__global__ void __attribute__((used)) [[nodiscard]] attributes_mixed(signed char c, long double ld) {}
__global__ void comparisons(Pair<int, (2 > 1)>* p, int n = 1 < 2, float* after) {}
#if 0
__global__ void disabled(int* p) {}
#endif
__global__ void line_continued(int* p,
#define ONE 1 \
    continued
                               int q) {}
__global__ void char_literals(int c = '"', int d = ')') {}
__global__ void digit_separators(int n = 1'000, float* f) {}
__global__ void __cluster_dims__(2, 1, 1) __maxnreg__(64) clustered(float* out) {}
static __global__ __noinline__ void static_kernel(int* p) {}
__global__ void ns_qualified(::ns::Particle* p, std::size_t n, unsigned n2, const half h) {}
namespace outer {
__global__ void outer::written(float* p) {}
extern "C++" { __global__ void cpp_linkage(int* p) {} }
}
extern "C" { namespace in_c { __global__ void c_linkage(float a[], const float b[][4]) {} } }
