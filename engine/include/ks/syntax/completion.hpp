#pragma once
// Completion of CUDA C++ names for the kernel editor, without the GUI: the candidates (CUDA's
// built-ins, intrinsics and atomics from cuda_builtins.hpp, the open project's parameters and
// resources, the file's own identifiers read through the one lexer), and how the prefix typed
// filters and ranks them.
//
// Matching, best first (ASCII case folded except in the first tier):
//   0  the name starts with the prefix, case and all ("atomicA": atomicAdd)
//   1  the same with case ignored ("atomica": atomicAdd)
//   2  the name without its leading underscores starts with it ("sync": __syncthreads)
//   3  the prefix's characters appear in order in the name, the first at the name's first letter
//      or digit ("shfd": __shfl_down_sync)
// Within a tier, names sort by their text with case ignored, then as bytes, so a list is the same
// every time; a name offered by several sources is offered once, by the first of built-ins,
// project, file.
//
// Plain values; not thread-safe.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::syntax {

enum class CompletionKind : std::uint8_t { Variable, Function, Intrinsic, Atomic, Parameter, Resource, Identifier };

struct CompletionItem {
    std::string label;       // what accepting it inserts
    CompletionKind kind = CompletionKind::Identifier;
    std::string detail;      // a declaration or a type: "T atomicAdd(T* address, T val)", "float, 0 to 1"
    std::string description; // one sentence, or empty
};

// One letter per kind for the list's first column: v f i a p r w.
char completionKindLetter(CompletionKind k);

// Where the identifier that ends at `cursor` begins (== cursor when the character before it is no
// identifier character). An identifier is [A-Za-z0-9_]; bytes of 0x80 and above do not count.
std::size_t identifierStart(std::string_view text, std::size_t cursor);
bool isIdentifierChar(char c);

// The distinct identifiers of `text`, sorted (keywords, type names and the names of directives
// included; those in comments, strings and numbers not): what the file offers. O(text): the
// editor reads it again when typing pauses, not per key.
std::vector<std::string> identifiersOf(std::string_view text);

// Every candidate: the CUDA table's entries, then `project`'s items, then `fileWords` as
// Identifier items; each label once, the first source winning.
std::vector<CompletionItem> completionCandidates(const std::vector<CompletionItem>& project,
                                                 const std::vector<std::string>& fileWords);

// The tier (0 to 3, above) in which `name` matches `prefix`, or -1. An empty prefix matches every
// name in tier 0.
int completionMatch(std::string_view name, std::string_view prefix);

// Indices of the candidates that match `prefix`, best first, at most `limit`. An Identifier item
// whose label is the prefix itself is left out: it is the word being typed, read at a pause.
std::vector<std::size_t> rankCompletions(const std::vector<CompletionItem>& candidates, std::string_view prefix,
                                         std::size_t limit = 200);

} // namespace ks::syntax
