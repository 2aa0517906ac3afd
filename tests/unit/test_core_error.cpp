// Errors carry the call, the code's name, its text and the caller's source location; without a
// driver the engine says why CUDA is unavailable and nothing exits.
#include "ks/core/error.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/cuda/memory.hpp"

#include <gtest/gtest.h>

#include <string>

TEST(Error, MessageNamesCallCodeAndLocation)
{
    const unsigned line = __LINE__ + 2;
    try {
        throw ks::Error(ks::ErrorDomain::Cuda, "cuModuleLoadData", 218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT failed");
    } catch (const ks::Error& e) {
        const std::string what = e.what();
        EXPECT_EQ(what, "tests/unit/test_core_error.cpp:" + std::to_string(line) +
                            " cuModuleLoadData CUDA_ERROR_INVALID_PTX (218): a PTX JIT failed");
        EXPECT_EQ(e.call(), "cuModuleLoadData");
        EXPECT_EQ(e.code(), 218);
        EXPECT_EQ(e.codeName(), "CUDA_ERROR_INVALID_PTX");
        EXPECT_EQ(e.line(), line);
        EXPECT_EQ(e.domain(), ks::ErrorDomain::Cuda);
    }
}

TEST(Error, CheckThrowsOnlyOnFailureWithTheCallersLocation)
{
    EXPECT_NO_THROW(ks::cuda::check(CUDA_SUCCESS, "cuCtxSynchronize"));
    const unsigned line = __LINE__ + 2;
    try {
        ks::cuda::check(CUDA_ERROR_INVALID_VALUE, "cuMemcpyHtoD");
        FAIL() << "check() did not throw";
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.call(), "cuMemcpyHtoD");
        EXPECT_EQ(e.code(), CUDA_ERROR_INVALID_VALUE);
        EXPECT_EQ(e.file(), "tests/unit/test_core_error.cpp");
        EXPECT_EQ(e.line(), line);
        EXPECT_NE(std::string(e.what()).find("cuMemcpyHtoD"), std::string::npos);
    }
}

TEST(Error, UsageErrorsNameTheRefusingFunction)
{
    try {
        ks::throwUsage("Function::launch", "block of 2048 threads exceeds the maximum of 1024");
        FAIL();
    } catch (const ks::Error& e) {
        EXPECT_EQ(e.domain(), ks::ErrorDomain::Usage);
        EXPECT_NE(std::string(e.what()).find("Function::launch: block of 2048"), std::string::npos) << e.what();
    }
}

// Each kind is caught by its class and still as a ks::Error with everything it carries.
template <class Kind>
void expectKind(ks::ErrorDomain domain, const char* call, long long code, const char* codeName)
{
    SCOPED_TRACE(codeName);
    const unsigned line = __LINE__ + 2;
    try {
        ks::throwError(domain, call, code, codeName, "what went wrong");
        FAIL() << "throwError returned";
    } catch (const Kind& e) {
        const ks::Error& base = e;
        EXPECT_EQ(base.domain(), domain);
        EXPECT_EQ(base.call(), call);
        EXPECT_EQ(base.code(), code);
        EXPECT_EQ(base.codeName(), codeName);
        EXPECT_EQ(base.text(), "what went wrong");
        EXPECT_EQ(base.line(), line);
    } catch (const ks::Error& e) {
        ADD_FAILURE() << "caught as a plain ks::Error, not the kind asked for: " << e.what();
    }
}

TEST(Error, KindsCanBeCaughtApart)
{
    expectKind<ks::OutOfMemoryError>(ks::ErrorDomain::Cuda, "cuMemAlloc", CUDA_ERROR_OUT_OF_MEMORY,
                                     "CUDA_ERROR_OUT_OF_MEMORY");
    expectKind<ks::OutOfMemoryError>(ks::ErrorDomain::Curand, "curandGenerate", 102, "CURAND_STATUS_ALLOCATION_FAILED");
    expectKind<ks::LaunchError>(ks::ErrorDomain::Cuda, "cuStreamSynchronize", CUDA_ERROR_ILLEGAL_ADDRESS,
                                "CUDA_ERROR_ILLEGAL_ADDRESS");
    expectKind<ks::LaunchError>(ks::ErrorDomain::Cuda, "cuCtxSynchronize", CUDA_ERROR_LAUNCH_TIMEOUT,
                                "CUDA_ERROR_LAUNCH_TIMEOUT");
    expectKind<ks::LaunchError>(ks::ErrorDomain::CudaRuntime, "philoxFill", 719, "cudaErrorLaunchFailure");
    expectKind<ks::CompileError>(ks::ErrorDomain::Nvrtc, "nvrtcCompileProgram", 6, "NVRTC_ERROR_COMPILATION");
    expectKind<ks::UsageError>(ks::ErrorDomain::Usage, "ks::array::sum", 0, "");
    // Not every failure is one of the kinds: an invalid value is a plain ks::Error.
    EXPECT_THROW(
        {
            try {
                ks::throwError(ks::ErrorDomain::Cuda, "cuMemcpyHtoD", CUDA_ERROR_INVALID_VALUE,
                               "CUDA_ERROR_INVALID_VALUE", "");
            } catch (const ks::UsageError&) {
            } catch (const ks::OutOfMemoryError&) {
            } catch (const ks::LaunchError&) {
            } catch (const ks::CompileError&) {
            }
        },
        ks::Error);
}

TEST(Error, TheDriversOutOfMemoryAndTheEnginesRefusalsHaveTheirKinds)
{
    // Without a driver the code has no name ("CUresult 2"): the number decides.
    EXPECT_THROW(ks::cuda::check(CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc"), ks::OutOfMemoryError);
    EXPECT_THROW(ks::throwUsage("ks::array::min", "a 0-size array has no minimum"), ks::UsageError);
}

TEST(NoDriver, StatusSaysWhy)
{
    // The unit runner hides a real driver (KS_FAKE_NO_CUDA), so this holds on every machine.
    const ks::cuda::DriverStatus& status = ks::cuda::driverStatus();
    EXPECT_FALSE(status.available);
    EXPECT_EQ(status.reason.rfind("CUDA driver not found", 0), 0u) << status.reason;
}

TEST(NoDriver, DeviceQueryFailsWithTheReasonAndDoesNotExit)
{
    const ks::cuda::SystemInfo sys = ks::cuda::querySystem();
    EXPECT_FALSE(sys.cudaAvailable);
    EXPECT_TRUE(sys.devices.empty());
    EXPECT_NE(sys.unavailableReason.find("CUDA driver not found"), std::string::npos) << sys.unavailableReason;
    EXPECT_GT(sys.nvrtcMajor, 0); // NVRTC needs no driver
    EXPECT_GE(sys.runtimeVersion, 12000);

    try {
        ks::cuda::queryDevice(0);
        FAIL() << "queryDevice succeeded without a driver";
    } catch (const ks::Error& e) {
        EXPECT_NE(std::string(e.what()).find("CUDA driver not found"), std::string::npos) << e.what();
        EXPECT_EQ(e.file(), "engine/src/cuda/device_info.cpp");
    }
    EXPECT_THROW(ks::cuda::DeviceMemory(1024), ks::Error);
    EXPECT_TRUE(ks::cuda::glDeviceOrdinals().empty());
}

TEST(Bytes, Formatting)
{
    EXPECT_EQ(ks::cuda::formatBytes(512), "512 B");
    EXPECT_EQ(ks::cuda::formatBytes(1536), "1.50 KiB");
    EXPECT_EQ(ks::cuda::formatBytes(3ull << 30), "3.00 GiB");
}
