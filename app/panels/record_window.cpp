// File > Record...: record what the app shows, at a fixed rate of its frames (one every N), as an
// MP4 (H.264), a GIF (both through the ffmpeg program) or a folder of PNG frames, of the Views panel
// (the project's views) or of the whole window. The platform that draws the
// window does the recording (RecordState); this window asks and shows how it goes.
#include "panels/panels.hpp"

#include "app.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

namespace ks::app {

namespace {

const char* const kFormats[] = {"MP4 video (H.264, ffmpeg)", "GIF (ffmpeg)", "PNG frames (a folder)"};
const char* const kExtensions[] = {".mp4", ".gif", ""};

// `target` with the format's extension (a folder for PNG frames: none).
std::string withExtension(std::string target, int format)
{
    const std::string ext = kExtensions[std::clamp(format, 0, 2)];
    for (const char* e : {".mp4", ".gif"})
        if (target.size() > 4 && target.compare(target.size() - 4, 4, e) == 0)
            target.resize(target.size() - 4);
    return target + ext;
}

} // namespace

void drawRecordWindow(AppState& s, App& app)
{
    RecordState& r = s.record;
    if (!r.showWindow)
        return;
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30.f, 0), ImGuiCond_Appearing);
    if (!ImGui::Begin(kRecordWindow, &r.showWindow, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::End();
        return;
    }
    if (r.target.empty())
        r.target = (s.dataRoot.empty() ? std::string("kernelscope") : std::string("kernelscope-recording")) + ".mp4";
    ImGui::BeginDisabled(r.wanted);
    if (ImGui::Combo("format", &r.format, kFormats, 3))
        r.target = withExtension(r.target, r.format);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22.f);
    ImGui::InputText("file or folder", &r.target);
    ImGui::Checkbox("the views only (else the whole window)", &r.viewportOnly);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.f);
    if (ImGui::InputInt("record every Nth frame", &r.every))
        r.every = std::clamp(r.every, 1, 1000);
    ImGui::EndDisabled();
    if (!r.wanted) {
        if (ImGui::Button("Start recording") && !r.target.empty())
            app.startRecording(r.target, r.viewportOnly, r.every);
    } else {
        if (ImGui::Button("Stop"))
            app.stopRecording();
        ImGui::SameLine();
        ImGui::TextColored(ImVec4(1.f, 0.35f, 0.3f, 1.f), "recording: %d frames", r.written);
    }
    if (!r.message.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.f);
        ImGui::TextUnformatted(r.message.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::TextDisabled("Frames are recorded at 60 per second of video, one every N app frames.");
    ImGui::End();
}

} // namespace ks::app
