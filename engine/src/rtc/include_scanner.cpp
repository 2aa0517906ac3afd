#include "ks/rtc/include_scanner.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/syntax/lexer.hpp"

#include <algorithm>
#include <set>

namespace ks::rtc {
namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 64;        // deeper nesting is a cycle the guards would stop anyway
constexpr std::size_t kMaxFiles = 4096;

bool isUnder(const fs::path& file, const std::vector<fs::path>& dirs)
{
    for (const fs::path& d : dirs) {
        auto [dirEnd, fileIt] = std::mismatch(d.begin(), d.end(), file.begin(), file.end());
        if (dirEnd == d.end())
            return true;
    }
    return false;
}

// Only regular files of at most the text limit: an include of /dev/zero, a FIFO or a folder is
// unreadable rather than a read that never ends.
bool readFile(const fs::path& path, std::string& out)
{
    try {
        out = paths::readTextFile(path);
        return true;
    } catch (const Error&) {
        return false;
    }
}

class Scanner {
public:
    Scanner(const std::vector<std::string>& includePaths, const std::vector<std::string>& toolkitDirs)
    {
        for (const auto& p : includePaths)
            m_includePaths.push_back(fs::path(p));
        for (const auto& t : toolkitDirs) {
            std::error_code ec;
            fs::path canonical = fs::weakly_canonical(t, ec);
            m_toolkitDirs.push_back(ec ? fs::path(t).lexically_normal() : canonical);
        }
    }

    void scan(std::string_view text, const fs::path& file, int depth)
    {
        if (depth > kMaxDepth)
            return;
        for (const std::string& spelled : findIncludeDirectives(text)) {
            if (m_result.files.size() >= kMaxFiles)
                return;
            IncludedFile inc;
            inc.spelled = spelled;
            inc.includer = file;
            if (spelled.size() < 2 || (spelled.front() != '"' && spelled.front() != '<')) {
                ++m_result.computedIncludes;
                m_result.files.push_back(std::move(inc));
                continue;
            }
            const std::string name = spelled.substr(1, spelled.size() - 2);
            inc.path = resolve(name, spelled.front() == '"', file);
            if (inc.path.empty()) {
                m_result.files.push_back(std::move(inc));
                continue;
            }
            inc.toolkit = isUnder(inc.path, m_toolkitDirs);
            if (inc.toolkit) {
                m_result.files.push_back(std::move(inc));
                continue;
            }
            std::string content;
            const bool firstVisit = m_visited.insert(inc.path).second;
            if (!readFile(inc.path, content)) {
                m_result.unreadable.push_back(inc.path);
                m_result.files.push_back(std::move(inc));
                continue;
            }
            inc.digest = Sha256::of(content);
            const fs::path path = inc.path;
            m_result.files.push_back(std::move(inc));
            if (firstVisit)
                scan(content, path, depth + 1);
        }
    }

    IncludeScan take() { return std::move(m_result); }

private:
    fs::path resolve(const std::string& name, bool quoted, const fs::path& includer) const
    {
        std::error_code ec;
        auto found = [&](const fs::path& candidate) -> fs::path {
            if (fs::is_regular_file(candidate, ec)) {
                fs::path c = fs::weakly_canonical(candidate, ec);
                return ec ? candidate.lexically_normal() : c;
            }
            return {};
        };
        if (fs::path(name).is_absolute())
            return found(name);
        if (quoted) {
            const fs::path dir = includer.has_parent_path() ? includer.parent_path() : fs::path(".");
            if (fs::path p = found(dir / name); !p.empty())
                return p;
        }
        for (const fs::path& dir : m_includePaths)
            if (fs::path p = found(dir / name); !p.empty())
                return p;
        return {};
    }

    std::vector<fs::path> m_includePaths;
    std::vector<fs::path> m_toolkitDirs;
    std::set<fs::path> m_visited;
    IncludeScan m_result;
};

} // namespace

std::vector<std::string> findIncludeDirectives(std::string_view text)
{
    std::vector<std::string> out;
    syntax::Lexer lexer(text);
    syntax::Token t;
    bool more = lexer.next(t);
    while (more) {
        const std::string_view directive = t.text(text);
        if (t.kind != syntax::TokenKind::Directive) {
            more = lexer.next(t);
            continue;
        }
        std::string word; // the directive's name, without the '#', blanks and line splices
        for (const char c : directive.substr(1))
            if (c != ' ' && c != '\t' && c != '\\' && c != '\n')
                word += c;
        // What follows the name, comments left out: "x.cuh" or <x.cuh> (nothing after it counts),
        // or a macro's tokens.
        std::string spelled;
        std::size_t last = 0;
        bool header = false;
        while ((more = lexer.next(t)) && t.inDirective && t.kind != syntax::TokenKind::Directive) {
            if (t.kind == syntax::TokenKind::Comment || header)
                continue;
            const std::string_view x = t.text(text);
            if (spelled.empty() && (t.kind == syntax::TokenKind::HeaderName || x.front() == '"'))
                header = true;
            else if (!spelled.empty() && t.begin > last)
                spelled += ' ';
            spelled += x;
            last = t.end;
        }
        if ((word == "include" || word == "include_next") && !spelled.empty())
            out.push_back(std::move(spelled));
    }
    return out;
}

IncludeScan scanIncludes(std::string_view source, const fs::path& fileName, const std::vector<std::string>& includePaths,
                         const std::vector<std::string>& toolkitDirs)
{
    Scanner scanner(includePaths, toolkitDirs);
    scanner.scan(source, fileName, 0);
    return scanner.take();
}

void IncludeScan::hashInto(Sha256& hash) const
{
    hash.field("includes");
    for (const IncludedFile& f : files) {
        hash.field(f.spelled);
        hash.field(f.includer.string());
        hash.field(f.path.empty() ? "<absent>" : f.path.string());
        if (!f.path.empty() && !f.toolkit)
            hash.update(f.digest.data(), f.digest.size());
    }
    for (const fs::path& p : unreadable)
        hash.field("unreadable:" + p.string());
}

} // namespace ks::rtc
