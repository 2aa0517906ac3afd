// The Arguments panel: the kernel parameters of a project inferred from a kernel, one row each
// (its name and type, what it is bound to and why, and a control that changes the binding), the
// buffers' shapes, the launch, and undo. A change asks App to infer the project again with the
// changed InferOptions (ProjectCommands::rebind); a refused change leaves the project running and
// its problems shown here.
#include "cli/options.hpp"
#include "panels/panels.hpp"
#include "panels/theme.hpp"

#include "ks/core/error.hpp"
#include "ks/io/data_source.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ks::app {

namespace {

namespace fs = std::filesystem;

const ImVec4 kProblem(1.f, 0.45f, 0.4f, 1.f);
const ImVec4 kName(0.55f, 0.85f, 1.f, 1.f);

// What a parameter is bound to in the project: a buffer, a texture, or a value.
enum class Slot { Buffer, Texture, Scalar };

Slot slotOf(const project::Project& p, const std::string& param)
{
    const project::ResourceDesc* r = p.resource(param);
    return !r ? Slot::Scalar : r->isTexture() ? Slot::Texture : Slot::Buffer;
}

// The spec given for `name` ("" when the binding is inferred).
std::string givenSpec(const pipeline::InferOptions& o, const std::string& name)
{
    for (const auto& [n, spec] : o.args)
        if (n == name)
            return spec;
    return {};
}

std::string shapeText(const std::vector<std::int64_t>& shape)
{
    std::string text;
    for (std::int64_t d : shape)
        text += (text.empty() ? "" : "x") + std::to_string(d);
    return text;
}

std::string givenShape(const pipeline::InferOptions& o, const std::string& name)
{
    for (const auto& [n, shape] : o.shapes)
        if (n == name)
            return shapeText(shape);
    return {};
}

std::string dimText(const std::optional<std::array<unsigned, 3>>& d)
{
    return d ? std::to_string((*d)[0]) + "," + std::to_string((*d)[1]) + "," + std::to_string((*d)[2]) : std::string();
}

// `o` with parameter `name` bound to `spec` ("": as inferred).
pipeline::InferOptions withArg(pipeline::InferOptions o, const std::string& name, const std::string& spec)
{
    std::erase_if(o.args, [&](const auto& a) { return a.first == name; });
    if (!spec.empty())
        o.args.emplace_back(name, spec);
    return o;
}

pipeline::InferOptions withShape(pipeline::InferOptions o, const std::string& name, std::vector<std::int64_t> shape)
{
    std::erase_if(o.shapes, [&](const auto& s) { return s.first == name; });
    if (!shape.empty())
        o.shapes.emplace_back(name, std::move(shape));
    return o;
}

// A field of the panel: its text as typed, first the running binding's.
std::string& field(KernelProject& k, const std::string& key, const std::string& running)
{
    return k.fields.try_emplace(key, running).first->second;
}

// Whether a dropped file is data a buffer or texture reads: a NumPy file or an image.
bool isDataFile(const fs::path& path)
{
    try {
        const io::DataKind kind = io::parseDataSpec(path.string()).kind;
        return kind == io::DataKind::Npy || kind == io::DataKind::Image;
    } catch (const Error&) {
        return false;
    }
}

// The choices of a binding's combo: data sources for buffers; count, width, height of each
// resource and the built-ins for scalars.
std::vector<std::string> choices(Slot slot, const project::Project& p)
{
    if (slot == Slot::Buffer)
        return {"random", "zeros", "ones", "range", "normal"};
    if (slot == Slot::Texture)
        return {};
    std::vector<std::string> out;
    for (const project::ResourceDesc& r : p.resources)
        for (const char* what : {"count:", "width:", "height:"})
            out.push_back(what + r.name);
    for (const project::BuiltinInfo& b : project::builtins())
        out.push_back(std::string("builtin:") + b.name);
    return out;
}

// How wide a row's controls are, in units of the font size.
float controlsWidth(Slot slot)
{
    return slot == Slot::Buffer ? 6.f + 8.f + 6.f + 3.5f : slot == Slot::Texture ? 14.f : 8.5f + 5.f + 0.5f;
}

// The combo and text field of one binding; pushes the changed binding.
void bindingControls(KernelProject& k, const pipeline::ParamBinding& b, Slot slot, Commands& commands)
{
    const float unit = ImGui::GetFontSize();
    const std::string given = givenSpec(k.options, b.param);
    const std::vector<std::string> options = choices(slot, *k.inference.project);
    std::string& text = field(k, "spec:" + b.param, given);
    if (!options.empty()) {
        ImGui::SetNextItemWidth(unit * (slot == Slot::Buffer ? 6.f : 8.5f));
        if (ImGui::BeginCombo("##choice", given.empty() ? "inferred" : given.c_str(), ImGuiComboFlags_HeightLarge)) {
            if (ImGui::Selectable("inferred", given.empty()) && !given.empty())
                commands.project.rebind = withArg(k.options, b.param, "");
            for (const std::string& c : options)
                if (ImGui::Selectable(c.c_str(), c == given) && c != given)
                    commands.project.rebind = withArg(k.options, b.param, c);
            ImGui::EndCombo();
        }
        uiProbe().record("args:choice:" + b.param, lastItemRect());
    }
    const float specWidth = unit * (slot == Slot::Buffer ? 8.f : slot == Slot::Texture ? 14.f : 5.f);
    if (!options.empty())
        sameLineIfFits(specWidth);
    const char* hint = slot == Slot::Buffer    ? ".npy, image"
                       : slot == Slot::Texture ? "an image file"
                       : b.record              ? "{JSON}, bytes:HEX"
                                               : "a number";
    ImGui::SetNextItemWidth(std::min(specWidth, ImGui::GetContentRegionAvail().x));
    if (ImGui::InputTextWithHint("##spec", hint, &text, ImGuiInputTextFlags_EnterReturnsTrue) && text != given)
        commands.project.rebind = withArg(k.options, b.param, text);
    uiProbe().record("args:spec:" + b.param, lastItemRect());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(slot == Slot::Scalar ? "Enter binds %s to it; empty: as inferred."
                                               : "Enter binds %s to it: a .npy or image file, FILE.raw:DTYPE:D0xD1, "
                                                 "random:SEED, normal:SEED or a number; empty: as inferred.\n"
                                                 "Drop a .npy or image file on this row to bind it.",
                          b.param.c_str());
}

// The members of a struct passed by value, a field each ("0.5"; "0, -2, 0" for a float3); Enter
// binds the struct to every member's field (empty: 0). Members of types no number sets (pointers,
// halves) are shown, not edited: raw bytes set those.
void recordControls(KernelProject& k, const pipeline::ParamBinding& b, Commands& commands)
{
    const float unit = ImGui::GetFontSize();
    const std::string given = givenSpec(k.options, b.param);
    const bool asBytes = given.rfind("bytes:", 0) == 0;
    bool entered = false;
    for (const syntax::RecordField& f : b.record->fields) {
        std::string running;
        for (const project::RecordValue& v : b.fields)
            if (v.field == f.name)
                running = project::formatNumbers(v.values);
        std::string& text = field(k, "member:" + b.param + "." + f.name, running);
        const bool settable = !asBytes && project::parseValueType(f.type).has_value();
        ImGui::SetNextItemWidth(unit * 8.f);
        ImGui::BeginDisabled(!settable);
        if (ImGui::InputTextWithHint(("##member:" + f.name).c_str(), "0", &text, ImGuiInputTextFlags_EnterReturnsTrue) &&
            text != running)
            entered = true;
        ImGui::EndDisabled();
        uiProbe().record("args:member:" + b.param + "." + f.name, lastItemRect());
        ImGui::SameLine();
        ImGui::TextDisabled("%s %s%s", f.type.c_str(), f.name.c_str(),
                            f.count > 1 ? ("[" + std::to_string(f.count) + "]").c_str() : "");
    }
    if (asBytes)
        ImGui::TextDisabled("(bound to raw bytes: clear the field above to set members)");
    if (!entered)
        return;
    std::string spec;
    for (const syntax::RecordField& f : b.record->fields) {
        const std::string& text = field(k, "member:" + b.param + "." + f.name, {});
        if (text.find_first_not_of(" ,") == std::string::npos)
            continue;
        spec += std::string(spec.empty() ? "{" : ", ") + "\"" + f.name + "\": [" + text + "]";
    }
    commands.project.rebind = withArg(k.options, b.param, spec.empty() ? std::string() : spec + "}");
}

// The shape field of a buffer: D0 or D0xD1; "" as inferred.
void shapeControl(KernelProject& k, const std::string& name, Commands& commands)
{
    const project::ResourceDesc& r = *k.inference.project->resource(name);
    const std::string running = r.shape ? std::to_string((*r.shape)[0]) + "x" + std::to_string((*r.shape)[1])
                                        : std::to_string(r.count);
    const std::string given = givenShape(k.options, name);
    std::string& text = field(k, "shape:" + name, given);
    sameLineIfFits(ImGui::GetFontSize() * 6.f + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("shape").x);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.f);
    if (ImGui::InputTextWithHint("shape", running.c_str(), &text, ImGuiInputTextFlags_EnterReturnsTrue) &&
        text != given) {
        std::string why;
        if (text.empty())
            commands.project.rebind = withShape(k.options, name, {});
        else if (auto dims = parseDims(text, 'x', 2, std::int64_t(1) << 40, why))
            commands.project.rebind = withShape(k.options, name, *dims);
        else
            k.fieldProblem = "the shape of " + name + ": " + why;
    }
    uiProbe().record("args:shape:" + name, lastItemRect());
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s's shape: D0 elements, or D0xD1 (rows x columns); empty: as inferred (now %s)",
                          name.c_str(), running.c_str());
}

// The width of a grid or block field: room for what the launch runs with.
float launchFieldWidth(const std::string& running)
{
    return std::max(ImGui::GetFontSize() * 7.f,
                    ImGui::CalcTextSize(running.c_str()).x + ImGui::GetStyle().FramePadding.x * 2.f);
}

// The launch's grid or block field: X[,Y[,Z]]; "" as inferred.
void launchControl(KernelProject& k, const char* label, std::optional<std::array<unsigned, 3>> pipeline::InferOptions::*dims,
                   const std::string& running, Commands& commands)
{
    const std::string given = dimText(k.options.*dims);
    std::string& text = field(k, label, given);
    ImGui::SetNextItemWidth(launchFieldWidth(running));
    if (ImGui::InputTextWithHint(label, running.c_str(), &text, ImGuiInputTextFlags_EnterReturnsTrue) && text != given) {
        std::string why;
        pipeline::InferOptions o = k.options;
        if (text.empty()) {
            o.*dims = std::nullopt;
            commands.project.rebind = o;
        } else if (auto v = parseDims(text, ',', 3, 2147483647ll, why)) {
            std::array<unsigned, 3> d{1, 1, 1};
            for (std::size_t i = 0; i < v->size(); ++i)
                d[i] = unsigned((*v)[i]);
            if (dims == &pipeline::InferOptions::block && std::uint64_t(d[0]) * d[1] * d[2] > 1024) {
                k.fieldProblem = std::string(label) + " " + text + ": CUDA allows at most 1024 threads a block";
                return;
            }
            o.*dims = d;
            commands.project.rebind = o;
        } else {
            k.fieldProblem = std::string(label) + ": " + why;
        }
    }
    uiProbe().record(std::string("args:") + label, lastItemRect());
}

// Binds the parameter of the row at [y0, y1) to a data file dropped there.
void takeDrop(const AppState& s, KernelProject& k, const pipeline::ParamBinding& b, Slot slot, float y0, float y1,
              Commands& commands)
{
    if (!s.drop || commands.dropTaken || s.drop->paths.empty())
        return;
    const ImVec2 at(s.drop->x, s.drop->y);
    const ImVec2 w0 = ImGui::GetWindowPos(), w1(w0.x + ImGui::GetWindowWidth(), w0.y + ImGui::GetWindowHeight());
    if (at.x < w0.x || at.x >= w1.x || at.y < std::max(y0, w0.y) || at.y >= std::min(y1, w1.y))
        return;
    const fs::path& file = s.drop->paths.front();
    if (!isDataFile(file))
        return; // a kernel or project dropped here opens as anywhere else
    commands.dropTaken = true;
    if (slot == Slot::Scalar)
        k.fieldProblem = b.param + " is a value: a file binds a buffer or a texture";
    else
        commands.project.rebind = withArg(k.options, b.param, file.string());
}

// "A const float* -> buffer A": a row's first words, before its controls.
std::string heading(const pipeline::ParamBinding& b, std::string* type = nullptr, std::string* bound = nullptr)
{
    const std::string t = b.type, d = std::string(theme::symbol("\xe2\x86\x92", "->")) + " " + b.bound;
    if (type)
        *type = t;
    if (bound)
        *bound = d;
    return b.param + "  " + t + "  " + d;
}

// `column`: where the rows' controls start (past the widest heading), relative to the window.
void parameterRow(AppState& s, KernelProject& k, std::size_t i, float column, Commands& commands)
{
    const pipeline::ParamBinding& b = k.inference.bindings[i];
    const project::Project& inferred = *k.inference.project;
    const Slot slot = slotOf(inferred, b.param);
    ImGui::PushID(int(i));
    const float y0 = ImGui::GetCursorScreenPos().y;
    std::string type, bound;
    heading(b, &type, &bound);
    ImGui::TextColored(kName, "%s", b.param.c_str());
    sameLineIfFits(ImGui::CalcTextSize(type.c_str()).x);
    ImGui::TextDisabled("%s", type.c_str());
    sameLineIfFits(ImGui::CalcTextSize(bound.c_str()).x);
    textWrappedColored(ImGui::GetStyleColorVec4(ImGuiCol_Text), "%s", bound.c_str());
    // The controls on the same line, in a column, where they fit; else under it.
    const float headingEnd = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
    const bool fits = headingEnd <= column &&
                      ImGui::GetWindowContentRegionMax().x - column >= controlsWidth(slot) * ImGui::GetFontSize();
    ImGui::Indent();
    if (fits)
        ImGui::SameLine(column);
    if (b.param.empty() || b.param[0] == '#') {
        ImGui::TextDisabled("(unnamed: name it in the kernel to bind it)");
    } else {
        bindingControls(k, b, slot, commands);
        if (slot == Slot::Buffer)
            shapeControl(k, b.param, commands);
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", b.reason.c_str());
    ImGui::PopStyleColor();
    if (b.record && slot == Slot::Scalar)
        recordControls(k, b, commands);
    // A parameter with a slider: the running pipeline's value (the Project panel shows the same).
    pipeline::Pipeline& p = s.project.session->pipeline();
    const auto& parameters = p.project().parameters;
    for (std::size_t j = 0; j < parameters.size(); ++j)
        if (slot == Slot::Scalar && parameters[j].name == b.param && b.bound == "parameter " + b.param)
            drawParameterEditor(parameters[j], p.parameters()[j]);
    ImGui::Unindent();
    const float y1 = ImGui::GetCursorScreenPos().y;
    const ImVec2 w0 = ImGui::GetWindowPos();
    uiProbe().record("args:row:" + b.param, {w0.x, y0, w0.x + ImGui::GetWindowWidth(), y1});
    takeDrop(s, k, b, slot, y0, y1, commands);
    ImGui::Separator();
    ImGui::PopID();
}

} // namespace

void drawArgumentsPanel(AppState& s, Commands& commands)
{
    KernelProject& k = *s.project.kernel;
    const bool open = ImGui::Begin(kArgumentsPanel);
    if (!open || !k.inference.project) {
        ImGui::End();
        return;
    }
    const project::Project& inferred = *k.inference.project;
    ImGui::TextWrapped("%s", inferred.name.c_str());
    sameLineIfFits(buttonWidth("Undo"));
    ImGui::BeginDisabled(k.undo.empty());
    if (ImGui::SmallButton("Undo"))
        commands.project.undoRebind = true;
    ImGui::EndDisabled();
    uiProbe().record("args:Undo", lastItemRect());
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("The bindings before the last change (Ctrl+Z in this panel); %zu step%s",
                          k.undo.size(), k.undo.size() == 1 ? "" : "s");
    sameLineIfFits(buttonWidth("Infer again"));
    if (ImGui::SmallButton("Infer again"))
        commands.project.rebind = k.options;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Read %s again (after an edit of its signature) and bind its parameters anew",
                          k.file.filename().c_str());
    const ImGuiIO& io = ImGui::GetIO();
    if (!k.undo.empty() && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::IsAnyItemActive() &&
        io.KeyCtrl && !io.KeyShift && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Z), false))
        commands.project.undoRebind = true;
    for (const project::Problem& p : k.problems) {
        ImGui::PushStyleColor(ImGuiCol_Text, kProblem);
        ImGui::TextWrapped("%s", p.format().c_str());
        ImGui::PopStyleColor();
    }
    if (!k.problems.empty())
        ImGui::TextDisabled("The project keeps running with the bindings below.");
    if (!k.fieldProblem.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kProblem);
        ImGui::TextWrapped("%s", k.fieldProblem.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::Separator();
    // The controls' column: past the widest heading, but never so far that the widest controls
    // do not fit beside it (a longer heading puts its row's controls under it).
    float column = 0, controls = 0;
    for (const pipeline::ParamBinding& b : k.inference.bindings) {
        column = std::max(column, ImGui::CalcTextSize(heading(b).c_str()).x);
        controls = std::max(controls, controlsWidth(slotOf(inferred, b.param)) * ImGui::GetFontSize());
    }
    column = std::min(column + ImGui::GetCursorPosX() + ImGui::GetStyle().ItemSpacing.x,
                      ImGui::GetWindowContentRegionMax().x - controls);
    for (std::size_t i = 0; i < k.inference.bindings.size(); ++i)
        parameterRow(s, k, i, column, commands);

    const project::StageDesc* stage = inferred.stages.empty() ? nullptr : &inferred.stages.front();
    if (stage) {
        const auto text = [](const std::array<unsigned, 3>& d) { return dimText(d); };
        launchControl(k, "grid", &pipeline::InferOptions::grid,
                      stage->cover.empty() ? text(stage->grid) : "covers " + stage->cover, commands);
        sameLineIfFits(launchFieldWidth(text(stage->block)) + ImGui::GetStyle().ItemInnerSpacing.x +
                       ImGui::CalcTextSize("block").x);
        launchControl(k, "block", &pipeline::InferOptions::block, text(stage->block), commands);
    }
    for (const std::string& note : k.inference.notes) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        ImGui::TextWrapped("%s", note.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::End();
}

} // namespace ks::app
