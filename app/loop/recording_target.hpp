#pragma once
// Names of the app's recordings (File > Record..., --record): their format and where the next one
// goes without writing over one already made.

#include <filesystem>

namespace ks::app {

// The Record window's format for a target, as RecordState::format counts them: 0 an MP4, 1 a GIF
// (videoFormatOf's), 2 a folder of PNG frames (anything else).
int recordingFormatOf(const std::filesystem::path& target);

// Where a recording goes on without overwriting `target`: target itself when nothing is there,
// else NAME-2.EXT, NAME-3.EXT, ... (a folder of PNG frames: NAME-2, ...), the first that is free.
std::filesystem::path nextFreeRecordingTarget(const std::filesystem::path& target);

} // namespace ks::app
