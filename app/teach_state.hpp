#pragma once
// The teaching panels' state: the kernel stage they look at, the launch being edited, the overlay
// ("who wrote each element"), the block timeline and the pixel inspector. Panels draw from it and
// push TeachCommands; App applies them after the UI (app_teach.cpp).

#include "ks/cuda/module.hpp"
#include "ks/gl/objects.hpp"
#include "ks/teach/inspector.hpp"
#include "ks/teach/overlay.hpp"
#include "ks/teach/stage_probe.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::app {

enum class Layout { Standard, Classroom };

// A launch as the launch panel edits it: a grid (or "cover a resource"), a block, dynamic shared
// memory. Applied to the stage only when the device accepts it.
struct LaunchEdit {
    std::array<int, 3> grid{1, 1, 1};
    std::array<int, 3> block{256, 1, 1};
    int sharedBytes = 0;
    std::string cover; // empty: the grid above
    friend bool operator==(const LaunchEdit&, const LaunchEdit&) = default;
};

// One resource's value at the inspected element.
struct InspectedValue {
    std::string resource;
    std::string text; // "0.25", "(255, 128, 0, 255)", or why it could not be read
};

struct Inspection {
    std::size_t element = 0;
    teach::InspectedElement who;
    std::vector<InspectedValue> values;
};

struct TeachState {
    int stage = -1;             // the project's kernel stage the panels look at; -1: the first one
    LaunchEdit edit;            // the launch panel's fields
    int editStage = -2;         // the stage `edit` was loaded from (reload when the selection changes)
    std::string refusal;        // why the edited launch is not applied ("" when it is)
    std::string suggestion;     // the last "suggest" answer
    // Overlay: -1 off, else an index into teach::kOverlayModes.
    int overlayMode = -1;
    float overlayOpacity = 0.65f;
    bool overlayLive = false;     // record again every frame (animated kernels; costs a sync)
    std::string outputParam;      // "" : the kernel's first output bound to a resource
    std::string capturedKey;      // what the current capture was made for (stage, launch, build, output)
    std::int64_t overlayFrame = -2; // the capture the overlay texture shows, and in which mode
    int overlayTextureMode = -1;
    gl::Texture2D overlayTexture;
    teach::Legend legend;
    // Block timeline.
    bool timelineRequested = false;
    // Inspector: the element under the mouse in a view showing the recorded output, or pinned.
    // A view hovered with no overlay on asks for a recording too (kept up to date as the overlay's
    // is), so that hovering says at once which thread wrote an element.
    bool inspectWanted = false;
    std::optional<std::size_t> hoverElement, pinnedElement;
    std::optional<std::array<int, 2>> pinnedXY; // --inspect: pinned once a recording gives the width
    std::optional<Inspection> inspection; // of pinnedElement, else hoverElement
    std::int64_t inspectionFrame = -2;
    // Layout.
    Layout layout = Layout::Standard;
    int layoutGeneration = 0; // bumped on a layout change: panels take their new place once
    std::string error;        // the last probe or launch error, for the panel
};

struct TeachCommands {
    std::optional<int> selectStage;
    std::optional<LaunchEdit> setLaunch;
    bool suggest = false;
    bool recordTimeline = false;
    std::optional<Layout> layout;
    bool resetLayout = false; // put every panel back where the layout places it
    std::optional<int> overlayMode; // as the launch panel's overlay menu: -1 off, else kOverlayModes' index
};

} // namespace ks::app
