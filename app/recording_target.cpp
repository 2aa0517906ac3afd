#include "recording_target.hpp"

#include <cctype>
#include <string>

namespace ks::app {

int recordingFormatOf(const std::filesystem::path& target)
{
    std::string ext = target.extension().string();
    for (char& c : ext)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".mp4" ? 0 : ext == ".gif" ? 1 : 2;
}

std::filesystem::path nextFreeRecordingTarget(const std::filesystem::path& target)
{
    std::error_code ec;
    const auto taken = [&ec](const std::filesystem::path& p) {
        return std::filesystem::exists(std::filesystem::symlink_status(p, ec));
    };
    if (!taken(target))
        return target;
    const std::filesystem::path stem = target.parent_path() / target.stem();
    const std::string ext = target.extension().string();
    for (int n = 2;; ++n) {
        std::filesystem::path candidate = stem;
        candidate += "-" + std::to_string(n) + ext;
        if (!taken(candidate))
            return candidate;
    }
}

} // namespace ks::app
