#pragma once
// A project made from a kernel's signature (kernelscope --kernel FILE.cu[:NAME]): every parameter
// is bound by its type and name, and every binding says why, so that nothing is guessed in silence.
//
//   pointers          a buffer of the pointed-to type (CUDA's scalars and vector types); `const T*`
//                     is an input (random numbers unless data is given), `T*` an output (zeros)
//   count-like names  (n, N, count, size, len, length, numElements, ...) the element count of the
//                     first buffer
//   width/height-like (width, w, nx, cols, pitch, ...; height, h, ny, rows) the 2-D extents
//   time, t, dt, frame, seed   the built-ins
//   other scalars     a parameter with a slider
//   surfaces/textures a texture (the data's size, --image-size, or the view's)
//
// The launch covers the first output (256 threads a block, or 16 x 16 when the kernel reads
// threadIdx.y or blockIdx.y) unless a grid and block are given. Each output gets a view.
//
// Inference reads headers of data files (to learn shapes and types) and compiles nothing; it needs
// no GPU. The result is an ordinary project: --save-project writes it, --project runs it again.

#include "ks/project/project.hpp"
#include "ks/syntax/type_layout.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks::pipeline {

// "FILE.cu", "FILE.cu:NAME" or "FILE.cu:ns::scale<double>" split into the file and the kernel
// ("" when not given). A ':' that is part of "::" or of a Windows drive letter does not split.
std::pair<std::filesystem::path, std::string> splitKernelSpec(std::string_view spec);

struct InferOptions {
    std::string kernel; // the kernel to run ("" = the file's first); "scale<double>" for a template
    std::vector<std::pair<std::string, std::string>> args;              // --arg NAME=SPEC
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes; // --shape NAME=D0xD1
    std::optional<std::array<unsigned, 3>> grid, block;               // --grid, --block
    // The extents of 2-D outputs (and textures) that no data or --shape sizes: --image-size, else the
    // default. Textures without it follow the viewport.
    std::optional<std::array<int, 2>> size;
    std::int64_t defaultCount = std::int64_t(1) << 20; // 1-D buffers that nothing sizes
    std::array<int, 2> defaultSize{1024, 1024};        // 2-D buffers that nothing sizes
};

// How one kernel parameter is bound, for the Arguments panel, --save-project's report and tests:
// "n: the element count of a (by its name)".
struct ParamBinding {
    std::string param;  // the parameter's name ("#2" when unnamed)
    std::string type;   // as written: "const float*"
    std::string bound;  // what it is bound to: "buffer a", "builtin time", "parameter alpha"
    std::string reason; // why: "a pointer to float the kernel only reads: an input"
    // A struct by value: its layout (the Arguments panel edits its members) and the values set.
    std::optional<syntax::RecordLayout> record;
    std::vector<project::RecordValue> fields;
    std::string describe() const; // "n: the element count of a (by its name)"
};

struct Inference {
    std::optional<project::Project> project;
    std::vector<ParamBinding> bindings;     // one per kernel parameter, in order
    std::vector<std::string> notes;         // the launch and its shared memory, and why
    std::vector<project::Problem> problems; // located: the kernel file's line, or the argument given
    bool ok() const { return project.has_value() && problems.empty(); }
};

// The project that runs `kernel` of `file` (whose text is `source`) on inferred data. Data files
// named in options.args are read for their headers only. Relative data paths are taken from the
// current directory and stored absolute; `saveAs` (when given) makes them relative to it.
Inference inferProject(const std::filesystem::path& file, std::string_view source, const InferOptions& options);

} // namespace ks::pipeline
