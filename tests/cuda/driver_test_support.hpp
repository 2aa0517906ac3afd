#pragma once
// Helpers for the driver-layer GPU tests (ks::cuda): NVRTC builds of test kernels for device 0,
// as a loaded module or as relocatable PTX for the linker.
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/compiler.hpp"

#include "test_support.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace ks::test {

// `source` compiled for device 0; throws with NVRTC's log when it does not compile.
inline rtc::CompileResult compileForDevice(const std::string& source, bool relocatable = false,
                                           const std::vector<std::string>& nameExpressions = {})
{
    const cuda::DeviceInfo d = cuda::queryDevice(0);
    rtc::CompileOptions options;
    // Relocatable pieces go to the linker as PTX (a virtual architecture); the rest as CUBIN.
    options.arch = relocatable ? "compute_" + std::to_string(d.ccMajor) + std::to_string(d.ccMinor) : d.archName();
    if (relocatable)
        options.extra.push_back("-rdc=true");
    rtc::CompileResult r = rtc::compile(source, "driver_test.cu", options, nameExpressions);
    if (!r.ok)
        throw std::runtime_error("test kernel did not compile:\n" + r.log);
    return r;
}

inline cuda::Module loadForDevice(const std::string& source)
{
    const rtc::CompileResult r = compileForDevice(source);
    return cuda::Module(r.cubin.data());
}

// The device runtime library that launches from device code link against; empty when the toolkit
// is not installed where the tests run.
inline std::filesystem::path deviceRuntimeLibrary()
{
    for (const std::string& dir : rtc::toolkitIncludeDirs()) {
        const std::filesystem::path root = std::filesystem::path(dir).parent_path();
        for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib"}) {
            const std::filesystem::path lib = root / sub / "libcudadevrt.a";
            std::error_code ec;
            if (std::filesystem::is_regular_file(lib, ec))
                return lib;
        }
    }
    return {};
}

} // namespace ks::test
