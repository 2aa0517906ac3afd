// The kernel scan behind the editor's stage picker: finds __global__ functions by text, skips
// comments and strings, steps over launch bounds, and says which fit the demo stage.
#include "ks/project/kernel_scan.hpp"

#include "test_support.hpp"

#include "ks/core/paths.hpp"

#include <gtest/gtest.h>

using ks::project::findKernels;

TEST(KernelScan, FindsTheDemoKernelsAndWhichFitTheStage)
{
    const std::string source = ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "thread_colors.cu");
    const auto kernels = findKernels(source);
    ASSERT_EQ(kernels.size(), 2u);
    EXPECT_EQ(kernels[0].name, "thread_colors_surface");
    EXPECT_EQ(kernels[1].name, "thread_colors_buffer");
    EXPECT_TRUE(kernels[0].externC);
    EXPECT_TRUE(ks::project::fitsDemoStage(kernels[0]));
    EXPECT_FALSE(ks::project::fitsDemoStage(kernels[1])) << "a uchar4* is not a surface";
    // The line is the line of the name, counted from the file's text.
    const auto at = source.find("thread_colors_surface(");
    EXPECT_EQ(kernels[0].line, 1 + int(std::count(source.begin(), source.begin() + std::ptrdiff_t(at), '\n')));
}

TEST(KernelScan, SkipsCommentsStringsAndAttributes)
{
    const std::string source = R"src(// __global__ void commented(int x) {}
/* __global__ void blocked(int x) {} */
const char* s = "__global__ void quoted(int)";
template <typename T>
__global__ void __launch_bounds__(256, 2) scaled(T* out, const T* in, Pair<int, float> p, int n)
{
}
extern "C" __global__
void stage(const cudaSurfaceObject_t surf,
           int w, int h, float t) {}
__global__ void none() {}
__global__ void onlyVoid(void) {}
)src";
    const auto kernels = findKernels(source);
    ASSERT_EQ(kernels.size(), 4u);
    EXPECT_EQ(kernels[0].name, "scaled");
    EXPECT_EQ(kernels[0].line, 5);
    ASSERT_EQ(kernels[0].parameters.size(), 4u) << "the comma inside Pair<int, float> does not split";
    EXPECT_EQ(kernels[0].parameters[2], "Pair<int, float> p");
    EXPECT_FALSE(kernels[0].externC);
    EXPECT_EQ(kernels[1].name, "stage");
    EXPECT_TRUE(kernels[1].externC);
    EXPECT_TRUE(ks::project::fitsDemoStage(kernels[1]));
    EXPECT_EQ(kernels[1].parameters[0], "const cudaSurfaceObject_t surf");
    EXPECT_TRUE(kernels[2].parameters.empty());
    EXPECT_TRUE(kernels[3].parameters.empty()) << "(void) is no parameter";
}
