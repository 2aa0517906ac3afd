#include "ks/array/scan.hpp"

#include "ks/array/runtime.hpp"
#include "ks/core/error.hpp"
#include "ks/cuda/memory.hpp"

#include <limits>

namespace ks::array {
namespace {

int readInt(const cuda::Module& module, const std::string& symbol)
{
    const auto [address, bytes] = module.global(symbol);
    if (bytes != sizeof(int))
        throwUsage("ks::array::ScanKernel", "unexpected symbol '" + symbol + "' in the generated module");
    int value = 0;
    KS_CU(cuMemcpyDtoH, &value, address, sizeof(int));
    return value;
}

} // namespace

ScanKernel::ScanKernel(Runtime& rt, ScanSpec spec) : m_runtime(&rt), m_spec(std::move(spec))
{
    const GeneratedScan g = generateScan(m_spec);
    m_source = g.source;
    m_vectorKernel = g.vectorKernel;
    m_key = "scan:" + m_source;
    rt.kernel(m_key, g.kernel, [&] { return m_source; }, m_spec.name + ".cu");
    m_dtype = parseDType(m_spec.type);
    if (m_dtype) {
        // Known size: the same formulas the kernel's macros use, no device round trip.
        m_valueSize = int(itemSize(*m_dtype));
        m_tile = scanTileElements(std::size_t(m_valueSize));
        m_packed = m_valueSize <= 4;
    } else {
        const cuda::Module& module = *rt.module(m_key);
        m_tile = readInt(module, g.tileSymbol);
        m_valueSize = readInt(module, g.sizeSymbol);
        m_packed = readInt(module, g.packedSymbol) != 0;
    }
    if (scanHasVectorKernel(std::size_t(m_valueSize)))
        m_vectorTile = scanVectorTileElements(std::size_t(m_valueSize), m_spec.tuning);
}

void ScanKernel::checkArray(const DeviceArray& a, const char* role) const
{
    if (m_dtype ? a.dtype() != *m_dtype : a.itemSize() != std::size_t(m_valueSize))
        throwUsage("ks::array::ScanKernel", std::string(role) + " " + a.describe() + " does not hold '" + m_spec.type +
                                                "'");
}

void ScanKernel::operator()(const DeviceArray& in, const DeviceArray& out) const
{
    checkArray(in, "the input");
    checkArray(out, "the output");
    out.requireWritable("ks::array::ScanKernel");
    if (in.size() != out.size())
        throwUsage("ks::array::ScanKernel", "input and output sizes differ: " + in.describe() + ", " + out.describe());
    const bool same = in.data() == out.data() && in.strides() == out.strides();
    if (!same && in.mayShareMemory(out))
        throwUsage("ks::array::ScanKernel", "input and output overlap without being the same array");
    if (in.isCContiguous() && out.isCContiguous()) {
        launch(in.data(), out.data(), in.size());
        return;
    }
    // Strided views: scan a contiguous copy (C order), then copy the result into `out`.
    const DeviceArray source = in.isCContiguous() ? in : in.copy(Order::C);
    DeviceArray target = out.isCContiguous() ? out : DeviceArray::empty(out.runtime(), out.shape(), out.dtype());
    launch(source.data(), target.data(), in.size());
    if (!out.isCContiguous()) {
        DeviceArray o = out;
        o.assign(target);
    }
}

void ScanKernel::launch(CUdeviceptr in, CUdeviceptr out, std::int64_t n) const
{
    if (n < 0)
        throwUsage("ks::array::ScanKernel::launch", "negative size " + std::to_string(n));
    if (n == 0)
        return;
    const bool vector = takesVectorPath(in, out);
    const int tile = vector ? m_vectorTile : m_tile;
    const ScanScratch layout = scanScratchSize(std::uint64_t(n), tile, m_valueSize, m_packed);
    if (layout.tiles > std::uint64_t(std::numeric_limits<int>::max()))
        throwUsage("ks::array::ScanKernel::launch", "too many elements for one scan: " + std::to_string(n));
    Runtime& rt = *m_runtime;
    const std::string& name = vector ? m_vectorKernel : m_spec.name;
    const cuda::Function& f = rt.kernel(m_key, name, [&] { return m_source; }, m_spec.name + ".cu");
    auto scratch = rt.allocate(layout.bytes);
    KS_CU(cuMemsetD8Async, scratch->get(), 0, layout.zeroBytes, rt.stream());
    cuda::LaunchConfig config;
    config.block.x = vector ? unsigned(m_spec.tuning.vectorBlock) : kAlgorithmBlockSize;
    config.grid.x = unsigned(layout.tiles);
    CUdeviceptr scratchPtr = scratch->get();
    long long count = n;
    void* params[] = {&in, &out, &count, &scratchPtr};
    rt.launch(f, config, params);
}

InclusiveScanKernel::InclusiveScanKernel(Runtime& rt, std::string type, std::string scanExpr, std::string neutral,
                                         std::string preamble)
    : ScanKernel(rt, ScanSpec{std::move(type), std::move(scanExpr), std::move(neutral), false, std::move(preamble),
                              "ks_inclusive_scan"})
{
}

ExclusiveScanKernel::ExclusiveScanKernel(Runtime& rt, std::string type, std::string scanExpr, std::string neutral,
                                         std::string preamble)
    : ScanKernel(rt, ScanSpec{std::move(type), std::move(scanExpr), std::move(neutral), true, std::move(preamble),
                              "ks_exclusive_scan"})
{
}

DeviceArray cumsum(const DeviceArray& a)
{
    const InclusiveScanKernel kernel(a.runtime(), std::string(cudaTypeName(a.dtype())), "a+b");
    DeviceArray out = DeviceArray::empty(a.runtime(), a.shape(), a.dtype());
    kernel(a, out);
    return out;
}

} // namespace ks::array
