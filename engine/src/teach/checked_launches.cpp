#include "ks/teach/checked_launches.hpp"

#include "ks/core/error.hpp"
#include "ks/cuda/driver.hpp"
#include "ks/teach/fault_report.hpp"
#include "ks/teach/instrument.hpp"
#include "ks/teach/variant_runner.hpp"

namespace ks::teach {

struct CheckedLaunches::Variant {
    InstrumentedKernel kernel;
    cuda::Module module;
    cuda::Function function;
};

CheckedLaunches::CheckedLaunches(rtc::CompileOptions options) : m_options(std::move(options)) {}

CheckedLaunches::~CheckedLaunches() = default;

const CheckedLaunches::Variant& CheckedLaunches::variant(const array::GeneratedLaunch& kernel)
{
    const std::string key = kernel.fileName + '\n' + kernel.name + '\n' + kernel.source;
    if (auto it = m_variants.find(key); it != m_variants.end())
        return *it->second;
    if (m_options.arch.empty()) {
        CUdevice device = 0;
        int major = 0, minor = 0;
        KS_CU(cuCtxGetDevice, &device);
        KS_CU(cuDeviceGetAttribute, &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
        KS_CU(cuDeviceGetAttribute, &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
        m_options.arch = "sm_" + std::to_string(major) + std::to_string(minor);
    }
    const VariantBuild b =
        buildVariant({kernel.source, kernel.fileName, kernel.name, VariantKind::Checked, ""}, m_options);
    if (!b.variant.ok)
        throwUsage("teach::CheckedLaunches", "no checked variant of generated kernel '" + kernel.name + "' (" +
                                                 kernel.fileName + "): " + b.variant.error);
    if (!b.compile.ok) {
        std::string log;
        for (const auto& d : b.compile.diagnostics)
            log += "\n" + rtc::formatDiagnostic(d);
        throwUsage("teach::CheckedLaunches",
                   "the checked variant of generated kernel '" + kernel.name + "' does not compile:" + log);
    }
    auto v = std::make_unique<Variant>();
    v->kernel = b.variant;
    v->module = cuda::Module(b.compile.cubin.empty() ? static_cast<const void*>(b.compile.ptx.c_str())
                                                     : static_cast<const void*>(b.compile.cubin.data()));
    v->function = v->module.function(b.loweredEntry);
    return *m_variants.emplace(key, std::move(v)).first->second;
}

void CheckedLaunches::launch(const array::GeneratedLaunch& kernel, const cuda::LaunchConfig& config, CUstream stream,
                             void** params)
{
    const Variant& v = variant(kernel);
    const std::size_t count = v.kernel.checkedKinds.size();
    Count& counted = m_counts[kernel.name];
    ++counted.launches;
    if (counted.parameterNames.empty())
        for (const syntax::KernelParam& p : v.kernel.kernel.params)
            counted.parameterNames.push_back(p.name);
    std::vector<void*> arguments(params, params + count);
    std::vector<CheckedExtent> extents(count, CheckedExtent{kExtentUnchecked, kExtentUnchecked});
    for (std::size_t i = 0; i < count; ++i) {
        if (v.kernel.checkedKinds[i] != syntax::ParamKind::Pointer)
            continue;
        ++counted.pointerArguments;
        const CUdeviceptr p = *static_cast<const CUdeviceptr*>(params[i]);
        CUdeviceptr base = 0;
        std::size_t size = 0;
        if (p == 0) {
            ++counted.nullPointers;
            continue;
        }
        if (cuda::driver().cuMemGetAddressRange(&base, &size, p) != CUDA_SUCCESS) {
            ++counted.unknownPointers;
            continue;
        }
        extents[i].size = base + size - p;
    }
    if (adjustExtents)
        adjustExtents(kernel.name, extents);
    const CheckedRecord record = runCheckedVariant(v.function, config, arguments, extents, stream);
    if (record.claimed != 0)
        m_findings.push_back({kernel.name, describeCheckedRun(record, v.kernel.kernel), record});
}

} // namespace ks::teach
