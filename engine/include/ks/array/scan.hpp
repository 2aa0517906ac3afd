#pragma once
// Prefix scans over device arrays: PyCUDA's InclusiveScanKernel and ExclusiveScanKernel.
//
// One pass over the data (read once, written once): each block scans a tile in shared memory,
// publishes the tile's aggregate, and looks back over its predecessors' published states for its
// prefix (decoupled look-back). Tiles are handed out in block start order, so a block only ever
// waits on blocks that are already running. Works in place (input == output) and out of place.
//
// Integer scans are exact; float scans combine in a tree-like order within a tile and in tile order
// across tiles, so results differ from a sequential sum by rounding only, and are the same on every
// run of the same size on the same device.
//
// All work is queued on the runtime's stream; nothing synchronises.

#include "ks/array/algorithm_source.hpp"
#include "ks/array/device_array.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace ks::array {

class Runtime;

class ScanKernel {
public:
    // Compiles through the runtime (cached: the second kernel with the same spec costs no compile).
    ScanKernel(Runtime& rt, ScanSpec spec);

    const ScanSpec& spec() const noexcept { return m_spec; }
    std::size_t valueSize() const noexcept { return std::size_t(m_valueSize); }
    // Elements per tile of the general kernel and of the vector kernel (0 where there is none).
    int tileElements() const noexcept { return m_tile; }
    int vectorTileElements() const noexcept { return m_vectorTile; }

    // In place (PyCUDA's scan_kern(data)), `data` of the spec's type. The scan runs over the
    // elements in C order; strided views go through a contiguous copy (one extra pass each way).
    void operator()(const DeviceArray& data) const { (*this)(data, data); }
    // Out of place: `in` and `out` the same size and of the spec's type. They must not overlap
    // unless they are the same array.
    void operator()(const DeviceArray& in, const DeviceArray& out) const;
    // Raw: `n` elements from device address `in` to `out` (may be equal).
    void launch(CUdeviceptr in, CUdeviceptr out, std::int64_t n) const;

    // Values of 4 or 8 bytes at 16-byte aligned `in` and `out` take a kernel with 16-byte loads and
    // stores and no shared-memory tile; everything else takes the general kernel (element loads
    // through shared memory). Both give the same results for integers; float results are
    // reproducible per path (each path fixes its own association). Off: always the general kernel
    // (for comparisons and tests).
    void setVectorPath(bool allowed) noexcept { m_vectorAllowed = allowed; }
    // Whether a launch over these addresses takes the vector kernel.
    bool takesVectorPath(CUdeviceptr in, CUdeviceptr out) const noexcept
    {
        return m_vectorAllowed && scanHasVectorKernel(std::size_t(m_valueSize)) && in % 16 == 0 && out % 16 == 0;
    }

private:
    void checkArray(const DeviceArray& a, const char* role) const;

    Runtime* m_runtime;
    ScanSpec m_spec;
    std::string m_key;
    std::string m_source;
    std::string m_vectorKernel;
    bool m_vectorAllowed = true;
    int m_tile = 0;
    int m_vectorTile = 0;
    int m_valueSize = 0;
    bool m_packed = false;
    std::optional<DType> m_dtype;
};

// PyCUDA's names. `type` is a C++ type ("int", "float", a struct from `preamble`); `scanExpr` of
// `a` (earlier) and `b` (later) must be associative.
class InclusiveScanKernel : public ScanKernel {
public:
    InclusiveScanKernel(Runtime& rt, std::string type, std::string scanExpr, std::string neutral = {},
                        std::string preamble = {});
};

class ExclusiveScanKernel : public ScanKernel {
public:
    // The neutral element is the first output and is required.
    ExclusiveScanKernel(Runtime& rt, std::string type, std::string scanExpr, std::string neutral,
                        std::string preamble = {});
};

// cumsum over the elements in C order into a new contiguous array of the same shape and dtype
// (inclusive "a+b"; complex too).
DeviceArray cumsum(const DeviceArray& a);

} // namespace ks::array
