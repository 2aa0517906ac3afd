#pragma once
// Finds the __global__ functions a source file declares, from the text alone (comments and string
// literals skipped), so that the UI can list a file's kernels before and while it compiles. This
// is a scan, not a parser: it is for pickers and hints; the compiler's answer is the truth.

#include <string>
#include <string_view>
#include <vector>

namespace ks::project {

struct KernelDeclaration {
    std::string name;
    int line = 0;                        // 1-based line of the name
    std::vector<std::string> parameters; // each "type name" as written, whitespace collapsed
    bool externC = false;                // declared extern "C": its symbol is its name
};

std::vector<KernelDeclaration> findKernels(std::string_view source);

// Whether `k` can run as the demo stage's kernel: (cudaSurfaceObject_t, int width, int height,
// float time).
bool fitsDemoStage(const KernelDeclaration& k);

} // namespace ks::project
