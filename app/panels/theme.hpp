#pragma once
// Kernelscope's colours, shared by the panels (one place to tune readability).

#include <imgui.h>
#include <imgui_internal.h> // ImTextCharFromUtf8

namespace ks::app::theme {

// Severities and states.
constexpr ImU32 kError = IM_COL32(240, 100, 92, 255);
constexpr ImU32 kWarning = IM_COL32(236, 190, 84, 255);
constexpr ImU32 kNote = IM_COL32(112, 170, 250, 255);
constexpr ImU32 kLikelyCause = IM_COL32(250, 150, 64, 255);
constexpr ImU32 kOk = IM_COL32(132, 220, 132, 255);
constexpr ImU32 kBusy = IM_COL32(240, 200, 92, 255);
constexpr ImU32 kMuted = IM_COL32(190, 190, 190, 255);

// The source view.
constexpr ImU32 kCodeBg = IM_COL32(17, 19, 23, 255);
constexpr ImU32 kGutterBg = IM_COL32(24, 27, 33, 255);
constexpr ImU32 kCodeText = IM_COL32(216, 220, 226, 255);
constexpr ImU32 kLineNumber = IM_COL32(92, 100, 114, 255);
constexpr ImU32 kLineNumberCurrent = IM_COL32(196, 202, 212, 255);
constexpr ImU32 kCurrentLine = IM_COL32(255, 255, 255, 12);
constexpr ImU32 kErrorLine = IM_COL32(240, 100, 92, 40);
constexpr ImU32 kWarningLine = IM_COL32(236, 190, 84, 30);
constexpr ImU32 kNoteLine = IM_COL32(112, 170, 250, 22);
constexpr ImU32 kLikelyCauseLine = IM_COL32(250, 150, 64, 34);
constexpr ImU32 kMarkerInk = IM_COL32(22, 22, 26, 255);
constexpr ImU32 kCursor = IM_COL32(236, 240, 246, 255);
constexpr ImU32 kFindMatch = IM_COL32(200, 160, 60, 70);
constexpr ImU32 kFindCurrent = IM_COL32(240, 190, 60, 150);
constexpr ImU32 kBracketMatch = IM_COL32(150, 200, 255, 200);

// Syntax colours of the source view, one per syntax::SyntaxClass.
constexpr ImU32 kSyntaxKeyword = IM_COL32(198, 120, 221, 255);
constexpr ImU32 kSyntaxType = IM_COL32(86, 182, 194, 255);
constexpr ImU32 kSyntaxQualifier = IM_COL32(229, 192, 123, 255);
constexpr ImU32 kSyntaxBuiltin = IM_COL32(239, 112, 122, 255);
constexpr ImU32 kSyntaxIntrinsic = IM_COL32(97, 175, 239, 255);
constexpr ImU32 kSyntaxPreprocessor = IM_COL32(242, 140, 190, 255);
constexpr ImU32 kSyntaxString = IM_COL32(152, 195, 121, 255);
constexpr ImU32 kSyntaxNumber = IM_COL32(209, 154, 102, 255);
constexpr ImU32 kSyntaxComment = IM_COL32(112, 122, 136, 255);

// Labels drawn over views (plot axes, colour bars): their ink, a backing that keeps them legible
// over data, and the plot's gridlines.
constexpr ImU32 kViewLabel = IM_COL32(200, 204, 212, 255);
constexpr ImU32 kViewTitle = IM_COL32(236, 240, 246, 255); // a plot's axis titles, brighter than its labels
constexpr ImU32 kViewLabelBack = IM_COL32(16, 18, 22, 200);
constexpr ImU32 kViewGrid = IM_COL32(255, 255, 255, 28);

// The guided tour's outline around the panel its step is about (a colour no panel uses).
constexpr ImU32 kTourHighlight = IM_COL32(60, 210, 255, 255);

// Banners over the source.
constexpr ImU32 kBannerInfo = IM_COL32(38, 66, 104, 255);
constexpr ImU32 kBannerConflict = IM_COL32(104, 48, 40, 255);

inline ImVec4 colour(ImU32 c)
{
    return ImGui::ColorConvertU32ToFloat4(c);
}

// The symbol `utf8` (one character, e.g. a check mark) when the current font has its glyph, else
// `ascii`: without DejaVu (ImGui's built-in font covers Latin-1 only) the panels show "ok", not "?".
inline const char* symbol(const char* utf8, const char* ascii)
{
    unsigned int c = 0;
    ImTextCharFromUtf8(&c, utf8, nullptr);
    const ImFont* font = ImGui::GetFont();
    return font && c <= IM_UNICODE_CODEPOINT_MAX && font->FindGlyphNoFallback(ImWchar(c)) ? utf8 : ascii;
}

} // namespace ks::app::theme
