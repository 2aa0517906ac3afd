#include "ks/project/recovery_store.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/file_watcher.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace ks::project {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "kernelscope-recovery 1\n";
constexpr std::string_view kExtension = ".recovery";

std::uint64_t fnv1a(std::string_view s)
{
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

// Reads "key: value\n" at `at`; advances past it.
std::optional<std::string_view> field(std::string_view content, std::size_t& at, std::string_view key)
{
    if (content.substr(at, key.size() + 2) != std::string(key) + ": ")
        return std::nullopt;
    const std::size_t start = at + key.size() + 2;
    const std::size_t end = content.find('\n', start);
    if (end == std::string_view::npos)
        return std::nullopt;
    at = end + 1;
    return content.substr(start, end - start);
}

template <class T>
std::optional<T> number(std::string_view text)
{
    T value{};
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || p != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace

RecoveryStore::RecoveryStore(fs::path directory) : m_directory(std::move(directory)) {}

fs::path RecoveryStore::defaultDirectory()
{
    const fs::path folder = paths::userFolder(paths::UserFolder::State);
    return folder.empty() ? fs::temp_directory_path() / "kernelscope-recovery" : folder / "recovery";
}

fs::path RecoveryStore::fileFor(const fs::path& original) const
{
    const fs::path path = FileWatcher::normalize(original);
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(path.string())));
    // The name says which file it is to a person listing the folder; the hash keeps two files of
    // the same name apart.
    return m_directory / (path.filename().string() + "." + hash + std::string(kExtension));
}

std::string RecoveryStore::format(const fs::path& original, std::string_view text, long long savedAtUnix)
{
    std::string out(kMagic);
    out += "path: " + FileWatcher::normalize(original).string() + "\n";
    out += "saved: " + std::to_string(savedAtUnix) + "\n";
    out += "bytes: " + std::to_string(text.size()) + "\n\n";
    out += text;
    return out;
}

std::optional<RecoveryEntry> RecoveryStore::parse(std::string_view content)
{
    if (content.substr(0, kMagic.size()) != kMagic)
        return std::nullopt;
    std::size_t at = kMagic.size();
    const auto path = field(content, at, "path");
    const auto saved = path ? field(content, at, "saved") : std::nullopt;
    const auto bytes = saved ? field(content, at, "bytes") : std::nullopt;
    if (!bytes || path->empty() || content.substr(at, 1) != "\n")
        return std::nullopt;
    ++at;
    const auto savedAt = number<long long>(*saved);
    const auto size = number<std::size_t>(*bytes);
    if (!savedAt || !size || content.size() - at != *size)
        return std::nullopt; // truncated or padded: not trustworthy
    RecoveryEntry e;
    e.original = fs::path(std::string(*path));
    e.savedAtUnix = *savedAt;
    e.text = std::string(content.substr(at));
    return e;
}

bool RecoveryStore::write(const fs::path& original, std::string_view text)
{
    try {
        std::error_code ec;
        fs::create_directories(m_directory, ec);
        const long long now =
            std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
        paths::writeFileAtomically(fileFor(original), format(original, text, now));
        return true;
    } catch (const std::exception& e) {
        log::warning(std::string("cannot write the recovery copy of ") + original.string() + ": " + e.what());
        return false;
    }
}

void RecoveryStore::remove(const fs::path& original)
{
    std::error_code ec;
    fs::remove(fileFor(original), ec);
    if (ec)
        log::warning("cannot remove the recovery copy " + fileFor(original).string() + ": " + ec.message());
}

std::optional<RecoveryEntry> RecoveryStore::find(const fs::path& original) const
{
    const fs::path file = fileFor(original);
    std::error_code ec;
    if (!fs::exists(file, ec))
        return std::nullopt;
    try {
        auto entry = parse(paths::readTextFile(file));
        if (entry && entry->original == FileWatcher::normalize(original)) {
            entry->file = file;
            return entry;
        }
    } catch (const std::exception& e) {
        log::warning(std::string("cannot read the recovery copy ") + file.string() + ": " + e.what());
    }
    return std::nullopt;
}

std::vector<RecoveryEntry> RecoveryStore::list() const
{
    std::vector<RecoveryEntry> entries;
    std::error_code ec;
    for (fs::directory_iterator it(m_directory, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != kExtension)
            continue;
        try {
            if (auto entry = parse(paths::readTextFile(it->path()))) {
                entry->file = it->path();
                entries.push_back(std::move(*entry));
            }
        } catch (const std::exception&) {
            // unreadable: not ours to report at every listing
        }
    }
    std::sort(entries.begin(), entries.end(),
              [](const RecoveryEntry& a, const RecoveryEntry& b) { return a.savedAtUnix < b.savedAtUnix; });
    return entries;
}

} // namespace ks::project
