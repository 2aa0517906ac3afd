// The table of CUDA's device-side names (ks/syntax/cuda_builtins.hpp): sorted and unique, every
// entry with a declaration naming it and a description, the names the brief of the editor's help
// promises present, and the highlighter colouring them as their kind says.
#include "ks/syntax/cuda_builtins.hpp"
#include "ks/syntax/highlight.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using ks::syntax::CudaBuiltin;
using ks::syntax::CudaBuiltinKind;

TEST(CudaBuiltins, SortedUniqueAndComplete)
{
    const auto all = ks::syntax::cudaBuiltins();
    ASSERT_GT(all.size(), 100u);
    for (std::size_t i = 1; i < all.size(); ++i)
        EXPECT_LT(all[i - 1].name, all[i].name) << "sorted and unique at " << all[i].name;
    for (const CudaBuiltin& b : all) {
        EXPECT_NE(b.signature.find(b.name), std::string_view::npos) << b.name << ": " << b.signature;
        EXPECT_FALSE(b.description.empty()) << b.name;
        EXPECT_EQ(b.description.find('\n'), std::string_view::npos) << b.name << ": one line";
        EXPECT_EQ(ks::syntax::findCudaBuiltin(b.name), &b);
    }
}

TEST(CudaBuiltins, FindsWhatKernelsUse)
{
    struct Want {
        const char* name;
        CudaBuiltinKind kind;
        const char* signature;
    };
    for (const Want& w : std::vector<Want>{
             {"threadIdx", CudaBuiltinKind::Variable, "uint3 threadIdx"},
             {"blockDim", CudaBuiltinKind::Variable, "dim3 blockDim"},
             {"warpSize", CudaBuiltinKind::Variable, "int warpSize"},
             {"__syncthreads", CudaBuiltinKind::Function, "void __syncthreads()"},
             {"__shfl_sync", CudaBuiltinKind::Function,
              "T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize)"},
             {"__fmaf_rn", CudaBuiltinKind::Intrinsic, "float __fmaf_rn(float x, float y, float z)"},
             {"__ldg", CudaBuiltinKind::Intrinsic, "T __ldg(const T* address)"},
             {"__expf", CudaBuiltinKind::Intrinsic, "float __expf(float x)"},
             {"atomicAdd", CudaBuiltinKind::Atomic, "T atomicAdd(T* address, T val)"},
             {"atomicCAS", CudaBuiltinKind::Atomic, "T atomicCAS(T* address, T compare, T val)"},
         }) {
        const CudaBuiltin* b = ks::syntax::findCudaBuiltin(w.name);
        ASSERT_NE(b, nullptr) << w.name;
        EXPECT_EQ(b->kind, w.kind) << w.name;
        EXPECT_EQ(b->signature, w.signature);
    }
    EXPECT_EQ(ks::syntax::findCudaBuiltin("atomicAd"), nullptr);
    EXPECT_EQ(ks::syntax::findCudaBuiltin(""), nullptr);
    EXPECT_EQ(ks::syntax::findCudaBuiltin("zzz"), nullptr);
}

// The highlighter reads the same table: variables are Builtin, everything else Intrinsic.
TEST(CudaBuiltins, HighlighterColoursEveryEntry)
{
    for (const CudaBuiltin& b : ks::syntax::cudaBuiltins()) {
        std::vector<ks::syntax::SyntaxSpan> spans;
        ks::syntax::lexLine(std::string(b.name), {}, spans);
        ASSERT_EQ(spans.size(), 1u) << b.name;
        EXPECT_EQ(spans[0].cls, b.kind == CudaBuiltinKind::Variable ? ks::syntax::SyntaxClass::Builtin
                                                                     : ks::syntax::SyntaxClass::Intrinsic)
            << b.name;
    }
}
