#pragma once
// Helpers of the GPU tests of instrumented variants (test_teach_instrument.cpp, test_teach_fault_report.cpp):
// compiling originals and variants for device 0 and loading them, downloads, bitwise comparison and
// an RGBA8 CUDA array that surfaces can write. Need the current context of a CudaTest.
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/cuda/device_info.hpp"
#include "ks/cuda/memory.hpp"
#include "ks/cuda/module.hpp"
#include "ks/rtc/compiler.hpp"
#include "ks/teach/instrument.hpp"

#include "kernel_options.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace ks::test {

inline ks::rtc::CompileOptions deviceOptions()
{
    return kernelOptions(ks::cuda::queryDevice(0).archName());
}

inline std::string teachingSource(const std::string& file)
{
    return ks::paths::readTextFile(ks::test::sourceDir() / "kernels" / "teaching" / file);
}

// A compiled kernel and the module that keeps it valid.
struct Loaded {
    ks::cuda::Module module;
    ks::cuda::Function function;
};

inline Loaded loadOriginal(const std::string& source, const std::string& kernel, const std::string& templateArgs = {})
{
    std::vector<std::string> names;
    if (!templateArgs.empty())
        names.push_back(kernel + "<" + templateArgs + ">");
    const auto r = ks::rtc::compile(source, "original.cu", deviceOptions(), names);
    if (!r.ok)
        throw std::runtime_error(r.log);
    Loaded l{ks::cuda::Module(r.cubin.data()), {}};
    l.function = l.module.function(names.empty() ? kernel : r.loweredNames.at(0));
    return l;
}

// `checked`: the checked teaching variant of WhoWrote or BlockTimeline (InstrumentRequest::checked).
inline Loaded loadVariant(const std::string& source, const std::string& kernel, ks::teach::VariantKind kind,
                          const std::string& output = {}, const std::string& templateArgs = {}, bool checked = false)
{
    ks::teach::InstrumentRequest request{source, "user.cu", kernel, kind, output};
    request.checked = checked;
    const auto b = ks::teach::buildVariant(request, deviceOptions(), templateArgs);
    if (!b.compile.ok)
        throw std::runtime_error(b.compile.log + "\n" + b.variant.source);
    Loaded l{ks::cuda::Module(b.compile.cubin.data()), {}};
    l.function = l.module.function(b.loweredEntry);
    return l;
}

template <class T>
std::vector<T> download(const ks::cuda::DeviceMemory& m)
{
    std::vector<T> v(m.size() / sizeof(T));
    m.download(v.data(), m.size());
    return v;
}

template <class T>
inline void expectBitwiseEqual(const std::vector<T>& a, const std::vector<T>& b)
{
    ASSERT_EQ(a.size(), b.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        differing += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
    EXPECT_EQ(differing, 0u) << "elements where the instrumented variant differs from the original";
}

// An RGBA8 CUDA array that surfaces can write.
struct SurfaceArray {
    CUarray array = nullptr;
    SurfaceArray(unsigned width, unsigned height)
    {
        CUDA_ARRAY3D_DESCRIPTOR d{};
        d.Width = width;
        d.Height = height;
        d.Format = CU_AD_FORMAT_UNSIGNED_INT8;
        d.NumChannels = 4;
        d.Flags = CUDA_ARRAY3D_SURFACE_LDST;
        KS_CU(cuArray3DCreate, &array, &d);
    }
    ~SurfaceArray() { KS_CU_NOTHROW(cuArrayDestroy, array); }
    SurfaceArray(const SurfaceArray&) = delete;
    SurfaceArray& operator=(const SurfaceArray&) = delete;

    void copy(void* host, unsigned width, unsigned height, bool toArray) const
    {
        CUDA_MEMCPY2D c{};
        c.WidthInBytes = width * 4;
        c.Height = height;
        if (toArray) {
            c.srcMemoryType = CU_MEMORYTYPE_HOST;
            c.srcHost = host;
            c.srcPitch = width * 4;
            c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
            c.dstArray = array;
        } else {
            c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
            c.srcArray = array;
            c.dstMemoryType = CU_MEMORYTYPE_HOST;
            c.dstHost = host;
            c.dstPitch = width * 4;
        }
        KS_CU(cuMemcpy2DAsync, &c, nullptr);
        KS_CU(cuCtxSynchronize);
    }
};

} // namespace ks::test
