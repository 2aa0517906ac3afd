// Test runner for the 'unit' label: no GPU, no GL. On a machine that has a CUDA driver, the
// driver is hidden (KS_FAKE_NO_CUDA) so that the no-driver paths are exercised everywhere.
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>

int main(int argc, char** argv)
{
    if (void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
        dlclose(lib);
        setenv("KS_FAKE_NO_CUDA", "1", 1);
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
