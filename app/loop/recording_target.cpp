#include "loop/recording_target.hpp"

#include "platform/video_encoder.hpp"

#include <string>

namespace ks::app {

int recordingFormatOf(const std::filesystem::path& target)
{
    const std::optional<VideoFormat> video = videoFormatOf(target);
    return !video ? 2 : *video == VideoFormat::Mp4 ? 0 : 1;
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
