#pragma once
// The pixel inspector: for one element of an output, the thread that produced it (from the "who
// wrote it" records, not from an assumed indexing formula) and the value of every resource at that
// element (small device-to-host reads).

#include "ks/cuda/driver.hpp"
#include "ks/cuda/module.hpp"
#include "ks/teach/overlay.hpp"

#include <ks_device/records.cuh>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ks::teach {

struct InspectedElement {
    std::size_t element = 0;
    long long x = 0, y = 0;      // element % width, element / width (y = 0 for 1-D)
    std::optional<Writer> writer; // empty when no thread wrote the element
    std::string summary;          // "(12, 3) written by block (1, 0, 0) thread (4, 3, 0): thread 76, warp 2 lane 12, SM 7"
};

// `width` = elements per row (0 or 1 for a 1-D output). Throws ks::Error (Usage) when `element`
// is not below records.size().
InspectedElement inspectElement(std::span<const WhoRecord> records, std::size_t element,
                                const cuda::LaunchConfig& launch, std::size_t width);

enum class ScalarKind { I8, U8, I16, U16, I32, U32, I64, U64, F32, F64 };
std::size_t scalarSize(ScalarKind kind);

// One resource as the inspector reads it: linear device memory (pointer) or a CUDA array (a
// mapped texture), elements of `components` scalars (uchar4 = U8 x 4, float = F32 x 1).
struct ResourceView {
    std::string name;
    CUdeviceptr pointer = 0;  // linear memory: element i at pointer + i * elementBytes()
    CUarray array = nullptr;  // or a 2-D CUDA array: element i at (i % width, i / width)
    std::size_t count = 0;    // elements
    std::size_t width = 0;    // elements per row (arrays; 0 = count)
    ScalarKind scalar = ScalarKind::F32;
    unsigned components = 1;
    std::size_t elementBytes() const { return scalarSize(scalar) * components; }
};

struct ResourceValue {
    std::string name;
    bool ok = false;
    std::string text;               // "0.25", "(255, 128, 0, 255)"; or why it could not be read
    std::vector<double> components;
};

// "1.5", "-3", "(1, 2, 3, 4)" from the bytes of one element.
std::string formatElement(const void* bytes, ScalarKind scalar, unsigned components, std::vector<double>* values = nullptr);

// Reads element `element` of every resource (one small copy each, on `stream`, then waits for the
// stream). A resource too small for the element gives ok == false with the reason; driver errors
// throw ks::Error. Needs the current context that owns the memory.
std::vector<ResourceValue> readElement(std::span<const ResourceView> resources, std::size_t element, CUstream stream);

} // namespace ks::teach
