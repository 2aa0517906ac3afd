#include "ks/rtc/cache.hpp"

#include <cstdlib>
#include <functional>

namespace ks::rtc {

CompileCache::CompileCache(std::filesystem::path directory) : m_directory(std::move(directory)) {}

std::filesystem::path CompileCache::defaultDirectory()
{
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "kernelscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "kernelscope";
    return std::filesystem::temp_directory_path() / "kernelscope-cache";
}

std::shared_ptr<const CompileResult> CompileCache::compile(const std::string& source, const std::string& fileName,
                                                           const CompileOptions& options,
                                                           const std::vector<std::string>& nameExpressions)
{
    // Memory-only first version: keyed on the source, the file name, the options and the names.
    // (The live-kernels work replaces this key with one that covers included files and the NVRTC
    // version, and adds the disk store.)
    std::string key = fileName + '\n' + source + '\n';
    for (const auto& o : buildOptionList(options))
        key += o + '\n';
    for (const auto& n : nameExpressions)
        key += n + '\n';
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_memory.find(key); it != m_memory.end()) {
            ++m_stats.memoryHits;
            return it->second;
        }
    }
    auto result = std::make_shared<const CompileResult>(rtc::compile(source, fileName, options, nameExpressions));
    std::lock_guard lock(m_mutex);
    ++m_stats.misses;
    m_memory.emplace(std::move(key), result);
    return result;
}

void CompileCache::clear()
{
    std::lock_guard lock(m_mutex);
    m_memory.clear();
}

CacheStats CompileCache::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

} // namespace ks::rtc
