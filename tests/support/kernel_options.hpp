#pragma once
// NVRTC options for tests that compile kernels using the project's device headers (kernels/include).
#include "ks/rtc/compiler.hpp"

#include "test_support.hpp"

#include <string>

namespace ks::test {

inline rtc::CompileOptions kernelOptions(std::string arch)
{
    rtc::CompileOptions o;
    o.arch = std::move(arch);
    o.includePaths.push_back((sourceDir() / "kernels" / "include").string());
    return o;
}

} // namespace ks::test
