#include "ks/teach/variant_runner.hpp"

#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace ks::teach {
namespace {

// The extents and the record of a checked launch on the device: appends their two parameters,
// and after the launch downloads the record (the caller waits for the stream).
class CheckedLaunch {
public:
    CheckedLaunch(const std::vector<CheckedExtent>& extents, CUstream stream)
        : m_extents(std::max<std::size_t>(1, extents.size()) * sizeof(CheckedExtent)), m_record(sizeof(CheckedRecord))
    {
        if (!extents.empty())
            KS_CU(cuMemcpyHtoDAsync, m_extents.get(), extents.data(), extents.size() * sizeof(CheckedExtent), stream);
        KS_CU(cuMemsetD8Async, m_record.get(), 0, m_record.size(), stream);
        m_extentsPtr = m_extents.get();
        m_recordPtr = m_record.get();
    }
    void appendParameters(std::vector<void*>& params)
    {
        params.push_back(&m_extentsPtr);
        params.push_back(&m_recordPtr);
    }
    void download(CheckedRecord& record, CUstream stream) const
    {
        KS_CU(cuMemcpyDtoHAsync, &record, m_record.get(), sizeof record, stream);
    }

private:
    cuda::DeviceMemory m_extents, m_record;
    CUdeviceptr m_extentsPtr = 0, m_recordPtr = 0;
};

void requireExtentPerArgument(const char* what, std::size_t arguments, std::size_t extents)
{
    if (extents != arguments)
        throwUsage(what, "give one extent per parameter of the kernel (" + std::to_string(arguments) +
                             " arguments, " + std::to_string(extents) + " extents)");
}

// Clears device records (as many as `records` holds) and the counters, launches the wrapper with
// (user arguments..., records, afterRecords..., counters[, extents, record]), downloads them and
// waits for the stream. With `checks`, the records and counters are checked too (their extents
// follow the user's) and `checked` gets the launch's record.
template <class Record>
std::array<unsigned, kCounterCount> launchAndCollect(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                                                     const std::vector<void*>& userArguments,
                                                     const std::vector<void*>& afterRecords,
                                                     std::vector<Record>& records, CUstream stream,
                                                     const VariantChecks* checks,
                                                     std::optional<CheckedRecord>& checked)
{
    cuda::DeviceMemory device(records.size() * sizeof(Record));
    cuda::DeviceMemory counters(kCounterCount * sizeof(unsigned));
    KS_CU(cuMemsetD8Async, device.get(), 0, device.size(), stream);
    KS_CU(cuMemsetD32Async, counters.get(), 0u, kCounterCount, stream);
    CUdeviceptr recordsPtr = device.get();
    CUdeviceptr countersPtr = counters.get();
    std::vector<void*> params = userArguments;
    params.push_back(&recordsPtr);
    params.insert(params.end(), afterRecords.begin(), afterRecords.end());
    params.push_back(&countersPtr);
    std::optional<CheckedLaunch> checking;
    if (checks) {
        requireExtentPerArgument("teach: a checked teaching variant", userArguments.size(), checks->extents.size());
        std::vector<CheckedExtent> extents = checks->extents;
        extents.push_back({checks->recordsBytes.value_or(device.size()), 0});
        extents.push_back({checks->countersBytes.value_or(counters.size()), 0});
        checking.emplace(extents, stream);
        checking->appendParameters(params);
    }
    wrapper.launch(launch, stream, params.data());
    std::array<unsigned, kCounterCount> c{};
    KS_CU(cuMemcpyDtoHAsync, records.data(), device.get(), device.size(), stream);
    KS_CU(cuMemcpyDtoHAsync, c.data(), counters.get(), sizeof c, stream);
    if (checking)
        checking->download(checked.emplace(), stream);
    KS_CU(cuStreamSynchronize, stream);
    return c;
}

} // namespace

WhoRun runWhoVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                     const std::vector<void*>& userArguments, std::size_t recordCount, std::size_t rowWidth,
                     CUstream stream, const VariantChecks* checks)
{
    if (recordCount == 0)
        throwUsage("teach::runWhoVariant", "the recorded output has no elements");
    unsigned long long count = recordCount;
    unsigned long long width = rowWidth ? rowWidth : recordCount;
    WhoRun run;
    run.records.resize(recordCount);
    const auto c = launchAndCollect(wrapper, launch, userArguments, {&count, &width}, run.records, stream, checks,
                                    run.checked);
    run.blocksStarted = c[kCounterBlockOrder];
    run.droppedWrites = c[kCounterDropped];
    return run;
}

TimelineRun runTimelineVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                               const std::vector<void*>& userArguments, CUstream stream, const VariantChecks* checks)
{
    TimelineRun run;
    run.blocks.resize(launch.grid.count());
    if (run.blocks.empty())
        throwUsage("teach::runTimelineVariant", "the launch has no blocks");
    run.blocksStarted =
        launchAndCollect(wrapper, launch, userArguments, {}, run.blocks, stream, checks, run.checked)[kCounterBlockOrder];
    return run;
}

CheckedRecord runCheckedVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                                const std::vector<void*>& userArguments, const std::vector<CheckedExtent>& extents,
                                CUstream stream)
{
    requireExtentPerArgument("teach::runCheckedVariant", userArguments.size(), extents.size());
    CheckedLaunch checking(extents, stream);
    std::vector<void*> params = userArguments;
    checking.appendParameters(params);
    wrapper.launch(launch, stream, params.data());
    CheckedRecord record{};
    checking.download(record, stream);
    KS_CU(cuStreamSynchronize, stream);
    return record;
}

} // namespace ks::teach
