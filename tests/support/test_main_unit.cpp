// Test runner for the 'unit' label: no GPU, no GL. On a machine that has a CUDA driver, the
// driver is hidden (KS_FAKE_NO_CUDA) so that the no-driver paths are exercised everywhere.
#include "../unit/fake_worker.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv)
{
    // Started by a supervision test as its worker (tests/unit/fake_worker.cpp).
    if (argc == 4 && std::strcmp(argv[1], "--fake-worker") == 0)
        return ks::test::runFakeWorker(argv[2], std::atoi(argv[3]));
    if (void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL)) {
        dlclose(lib);
        setenv("KS_FAKE_NO_CUDA", "1", 1);
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
