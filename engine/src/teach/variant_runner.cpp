#include "ks/teach/variant_runner.hpp"

#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace ks::teach {
namespace {

// Clears device records (as many as `records` holds) and the counters, launches the wrapper with
// (user arguments..., records, afterRecords..., counters), downloads both and waits for the stream.
template <class Record>
std::array<unsigned, kCounterCount> launchAndCollect(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                                                     const std::vector<void*>& userArguments,
                                                     const std::vector<void*>& afterRecords,
                                                     std::vector<Record>& records, CUstream stream)
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
    wrapper.launch(launch, stream, params.data());
    std::array<unsigned, kCounterCount> c{};
    KS_CU(cuMemcpyDtoHAsync, records.data(), device.get(), device.size(), stream);
    KS_CU(cuMemcpyDtoHAsync, c.data(), counters.get(), sizeof c, stream);
    KS_CU(cuStreamSynchronize, stream);
    return c;
}

} // namespace

WhoRun runWhoVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                     const std::vector<void*>& userArguments, std::size_t recordCount, std::size_t rowWidth,
                     CUstream stream)
{
    if (recordCount == 0)
        throwUsage("teach::runWhoVariant", "the recorded output has no elements");
    unsigned long long count = recordCount;
    unsigned long long width = rowWidth ? rowWidth : recordCount;
    WhoRun run;
    run.records.resize(recordCount);
    const auto c = launchAndCollect(wrapper, launch, userArguments, {&count, &width}, run.records, stream);
    run.blocksStarted = c[kCounterBlockOrder];
    run.droppedWrites = c[kCounterDropped];
    return run;
}

TimelineRun runTimelineVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                               const std::vector<void*>& userArguments, CUstream stream)
{
    TimelineRun run;
    run.blocks.resize(launch.grid.count());
    if (run.blocks.empty())
        throwUsage("teach::runTimelineVariant", "the launch has no blocks");
    run.blocksStarted = launchAndCollect(wrapper, launch, userArguments, {}, run.blocks, stream)[kCounterBlockOrder];
    return run;
}

CheckedRecord runCheckedVariant(const cuda::Function& wrapper, const cuda::LaunchConfig& launch,
                                const std::vector<void*>& userArguments, const std::vector<CheckedExtent>& extents,
                                CUstream stream)
{
    if (extents.size() != userArguments.size())
        throwUsage("teach::runCheckedVariant", "give one extent per parameter of the kernel (" +
                                                   std::to_string(userArguments.size()) + " arguments, " +
                                                   std::to_string(extents.size()) + " extents)");
    cuda::DeviceMemory extentMemory(std::max<std::size_t>(1, extents.size()) * sizeof(CheckedExtent));
    cuda::DeviceMemory recordMemory(sizeof(CheckedRecord));
    if (!extents.empty())
        KS_CU(cuMemcpyHtoDAsync, extentMemory.get(), extents.data(), extents.size() * sizeof(CheckedExtent), stream);
    KS_CU(cuMemsetD8Async, recordMemory.get(), 0, recordMemory.size(), stream);
    CUdeviceptr extentsPtr = extentMemory.get();
    CUdeviceptr recordPtr = recordMemory.get();
    std::vector<void*> params = userArguments;
    params.push_back(&extentsPtr);
    params.push_back(&recordPtr);
    wrapper.launch(launch, stream, params.data());
    CheckedRecord record{};
    KS_CU(cuMemcpyDtoHAsync, &record, recordMemory.get(), sizeof record, stream);
    KS_CU(cuStreamSynchronize, stream);
    return record;
}

} // namespace ks::teach
