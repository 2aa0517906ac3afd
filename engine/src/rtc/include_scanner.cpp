#include "ks/rtc/include_scanner.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace ks::rtc {
namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 64;        // deeper nesting is a cycle the guards would stop anyway
constexpr std::size_t kMaxFiles = 4096;

// Removes comments (keeping newlines, so that nothing shifts between lines) and joins continued
// lines. String and character literals are kept as they are.
std::string stripComments(std::string_view in)
{
    std::string out;
    out.reserve(in.size());
    enum class State { Code, Line, Block, String, Char } state = State::Code;
    for (std::size_t i = 0; i < in.size(); ++i) {
        const char c = in[i];
        const char next = i + 1 < in.size() ? in[i + 1] : '\0';
        if (c == '\\' && next == '\n') { // continuation: the logical line goes on
            ++i;
            continue;
        }
        switch (state) {
        case State::Code:
            if (c == '/' && next == '/') {
                state = State::Line;
                ++i;
            } else if (c == '/' && next == '*') {
                state = State::Block;
                out += ' ';
                ++i;
            } else {
                if (c == '"')
                    state = State::String;
                else if (c == '\'')
                    state = State::Char;
                out += c;
            }
            break;
        case State::Line:
            if (c == '\n') {
                state = State::Code;
                out += c;
            }
            break;
        case State::Block:
            if (c == '*' && next == '/') {
                state = State::Code;
                ++i;
            } else if (c == '\n') {
                out += c;
            }
            break;
        case State::String:
        case State::Char:
            out += c;
            if (c == '\\' && next != '\0') {
                out += next;
                ++i;
            } else if ((state == State::String && c == '"') || (state == State::Char && c == '\'') || c == '\n') {
                state = State::Code;
            }
            break;
        }
    }
    return out;
}

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
    const std::string clean = stripComments(text);
    std::istringstream lines(clean);
    std::string line;
    while (std::getline(lines, line)) {
        std::size_t i = line.find_first_not_of(" \t");
        if (i == std::string::npos || line[i] != '#')
            continue;
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string::npos || line.compare(i, 7, "include") != 0)
            continue;
        i += 7;
        if (line.compare(i, 5, "_next") == 0)
            i += 5;
        if (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_'))
            continue; // #includes, #include_foo: not a directive we know
        i = line.find_first_not_of(" \t", i);
        if (i == std::string::npos)
            continue;
        const char open = line[i];
        const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
        if (close) {
            const std::size_t end = line.find(close, i + 1);
            if (end != std::string::npos) {
                out.push_back(line.substr(i, end - i + 1));
                continue;
            }
        }
        const std::size_t last = line.find_last_not_of(" \t\r");
        out.push_back(line.substr(i, last - i + 1));
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
