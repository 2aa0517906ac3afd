#include "ks/syntax/completion.hpp"

#include "ks/syntax/cuda_builtins.hpp"
#include "ks/syntax/lexer.hpp"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace ks::syntax {

namespace {

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

bool startsWithFolded(std::string_view s, std::string_view p)
{
    if (p.size() > s.size())
        return false;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (lower(s[i]) != lower(p[i]))
            return false;
    return true;
}

CompletionKind kindOf(CudaBuiltinKind k)
{
    switch (k) {
    case CudaBuiltinKind::Variable: return CompletionKind::Variable;
    case CudaBuiltinKind::Function: return CompletionKind::Function;
    case CudaBuiltinKind::Intrinsic: return CompletionKind::Intrinsic;
    case CudaBuiltinKind::Atomic: return CompletionKind::Atomic;
    }
    return CompletionKind::Function;
}

// a < b with case ignored, then as bytes.
bool labelLess(std::string_view a, std::string_view b)
{
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i)
        if (lower(a[i]) != lower(b[i]))
            return lower(a[i]) < lower(b[i]);
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

} // namespace

char completionKindLetter(CompletionKind k)
{
    switch (k) {
    case CompletionKind::Variable: return 'v';
    case CompletionKind::Function: return 'f';
    case CompletionKind::Intrinsic: return 'i';
    case CompletionKind::Atomic: return 'a';
    case CompletionKind::Parameter: return 'p';
    case CompletionKind::Resource: return 'r';
    case CompletionKind::Identifier: return 'w';
    }
    return '?';
}

bool isIdentifierChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::size_t identifierStart(std::string_view text, std::size_t cursor)
{
    cursor = std::min(cursor, text.size());
    std::size_t b = cursor;
    while (b > 0 && isIdentifierChar(text[b - 1]))
        --b;
    return b;
}

std::vector<std::string> identifiersOf(std::string_view text)
{
    std::unordered_set<std::string_view> seen;
    Lexer lexer(text);
    for (Token t; lexer.next(t);)
        if (t.kind == TokenKind::Identifier)
            seen.insert(t.text(text));
    std::vector<std::string> words(seen.begin(), seen.end());
    std::sort(words.begin(), words.end());
    return words;
}

std::vector<CompletionItem> completionCandidates(const std::vector<CompletionItem>& project,
                                                 const std::vector<std::string>& fileWords)
{
    std::vector<CompletionItem> all;
    all.reserve(cudaBuiltins().size() + project.size() + fileWords.size());
    std::unordered_set<std::string> labels;
    for (const CudaBuiltin& b : cudaBuiltins()) {
        all.push_back({std::string(b.name), kindOf(b.kind), std::string(b.signature), std::string(b.description)});
        labels.insert(all.back().label);
    }
    for (const CompletionItem& p : project)
        if (labels.insert(p.label).second)
            all.push_back(p);
    for (const std::string& w : fileWords)
        if (labels.insert(w).second)
            all.push_back({w, CompletionKind::Identifier, {}, {}});
    return all;
}

int completionMatch(std::string_view name, std::string_view prefix)
{
    if (name.substr(0, prefix.size()) == prefix)
        return 0;
    if (startsWithFolded(name, prefix))
        return 1;
    const std::size_t letter = name.find_first_not_of('_');
    if (letter == std::string_view::npos || prefix.empty())
        return -1;
    const std::string_view bare = name.substr(letter);
    if (startsWithFolded(bare, prefix))
        return 2;
    if (lower(bare[0]) != lower(prefix[0]))
        return -1;
    std::size_t at = 1;
    for (std::size_t i = 1; i < prefix.size(); ++i, ++at) {
        while (at < bare.size() && lower(bare[at]) != lower(prefix[i]))
            ++at;
        if (at == bare.size())
            return -1;
    }
    return 3;
}

std::vector<std::size_t> rankCompletions(const std::vector<CompletionItem>& candidates, std::string_view prefix,
                                         std::size_t limit)
{
    struct Hit {
        int tier;
        std::size_t index;
    };
    std::vector<Hit> hits;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const CompletionItem& c = candidates[i];
        if (c.kind == CompletionKind::Identifier && c.label == prefix)
            continue;
        if (const int tier = completionMatch(c.label, prefix); tier >= 0)
            hits.push_back({tier, i});
    }
    auto better = [&](const Hit& a, const Hit& b) {
        if (a.tier != b.tier)
            return a.tier < b.tier;
        return labelLess(candidates[a.index].label, candidates[b.index].label);
    };
    const std::size_t n = std::min(limit, hits.size());
    std::partial_sort(hits.begin(), hits.begin() + std::ptrdiff_t(n), hits.end(), better);
    std::vector<std::size_t> out(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] = hits[i].index;
    return out;
}

} // namespace ks::syntax
