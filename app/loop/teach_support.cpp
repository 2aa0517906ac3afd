#include "loop/teach_support.hpp"

#include "ks/core/error.hpp"
#include "ks/teach/inspector.hpp"

#include <algorithm>

namespace ks::app {

static_assert(int(teach::ScalarKind::F64) == int(project::ScalarType::Float64) &&
              int(teach::ScalarKind::U8) == int(project::ScalarType::UInt8));

std::vector<int> kernelStages(const pipeline::Pipeline& p)
{
    std::vector<int> out;
    for (std::size_t i = 0; i < p.stageCount(); ++i)
        if (dynamic_cast<const pipeline::KernelStage*>(&p.stage(i)))
            out.push_back(int(i));
    return out;
}

int teachStage(const AppState& s)
{
    if (!s.project.session)
        return -1;
    const std::vector<int> stages = kernelStages(s.project.session->pipeline());
    if (stages.empty())
        return -1;
    if (std::find(stages.begin(), stages.end(), s.teach.stage) != stages.end())
        return s.teach.stage;
    return stages.front();
}

LaunchEdit launchEditOf(const project::StageDesc& d)
{
    LaunchEdit e;
    for (std::size_t i = 0; i < 3; ++i) {
        e.grid[i] = int(d.grid[i]);
        e.block[i] = int(d.block[i]);
    }
    e.cover = d.cover;
    e.sharedBytes = int(d.sharedBytes);
    return e;
}

namespace {

cuda::Dim3 dim3Of(const std::array<int, 3>& v)
{
    return {unsigned(std::max(0, v[0])), unsigned(std::max(0, v[1])), unsigned(std::max(0, v[2]))};
}

const pipeline::KernelStage& kernelStage(const AppState& s, int stage)
{
    return static_cast<const pipeline::KernelStage&>(s.project.session->pipeline().stage(std::size_t(stage)));
}

} // namespace

cuda::Dim3 dataExtent(const AppState& s, int stage, const LaunchEdit& e)
{
    const pipeline::Pipeline& p = s.project.session->pipeline();
    const pipeline::Resource* r = e.cover.empty() ? nullptr : p.resources().find(e.cover);
    if (!r) {
        const auto outputs = teach::StageProbe::outputChoices(p, std::size_t(stage));
        if (!outputs.empty())
            r = p.resources().find(outputs.front().resource);
    }
    if (r) {
        const auto extent = pipeline::resourceExtent(r->desc);
        return {unsigned(extent[0]), unsigned(extent[1]), 1};
    }
    const cuda::Dim3 g = dim3Of(e.grid), b = dim3Of(e.block);
    return {g.x * b.x, g.y * b.y, g.z * b.z};
}

cuda::LaunchConfig launchConfigOf(const AppState& s, int stage, const LaunchEdit& e)
{
    cuda::LaunchConfig c{dim3Of(e.grid), dim3Of(e.block), unsigned(std::max(0, e.sharedBytes))};
    if (!e.cover.empty())
        c.grid = dim3Of(gridFor(s, stage, e));
    return c;
}

std::array<int, 3> gridFor(const AppState& s, int stage, const LaunchEdit& e)
{
    const cuda::Dim3 extent = dataExtent(s, stage, e);
    const cuda::Dim3 g = teach::gridToCover(extent, dim3Of(e.block));
    return {int(g.x), int(g.y), int(g.z)};
}

std::array<int, 3> suggestedBlockShape(unsigned threads, const std::array<int, 3>& current)
{
    if (current[1] <= 1 && current[2] <= 1)
        return {int(threads), 1, 1};
    const unsigned x = std::min(threads, 32u);
    return {int(x), int(threads / x), 1};
}

std::optional<teach::LaunchReport> analyzeEdit(const AppState& s, int stage, const LaunchEdit& e)
{
    const cuda::DeviceInfo* device = s.device();
    const pipeline::KernelStage& k = kernelStage(s, stage);
    if (!device || !k.function())
        return std::nullopt;
    return teach::analyzeLaunch(launchConfigOf(s, stage, e), k.function()->attributes(), device->limits,
                                cuda::OccupancyLimits::fromDevice(*device), dataExtent(s, stage, e));
}

std::string launchRefusal(const AppState& s, int stage, const LaunchEdit& e)
{
    for (int v : e.block)
        if (v < 1)
            return "every block dimension must be at least 1";
    if (e.cover.empty())
        for (int v : e.grid)
            if (v < 1)
                return "every grid dimension must be at least 1";
    if (e.sharedBytes < 0)
        return "dynamic shared memory cannot be negative";
    const std::optional<teach::LaunchReport> report = analyzeEdit(s, stage, e);
    return report && report->refusal ? report->refusal->message : std::string();
}

std::vector<InspectedValue> inspectValues(const pipeline::ResourceSet& resources, std::size_t element, int width,
                                          int height)
{
    std::vector<InspectedValue> out;
    for (std::size_t i = 0; i < resources.size(); ++i) {
        const project::ResourceDesc& d = resources[i].desc;
        InspectedValue v;
        v.resource = d.name;
        const auto extent = pipeline::resourceExtent(d);
        if (extent[0] != width || extent[1] != height) {
            v.text = "(another shape: " + std::to_string(extent[0]) + " x " + std::to_string(extent[1]) + ")";
            out.push_back(std::move(v));
            continue;
        }
        try {
            const std::vector<std::uint8_t> bytes = resources.downloadElement(d.name, element);
            teach::ScalarKind scalar = teach::ScalarKind::F32;
            unsigned components = 1;
            if (d.isTexture()) {
                scalar = d.format == project::TextureFormat::Rgba8 ? teach::ScalarKind::U8 : teach::ScalarKind::F32;
                components = d.format == project::TextureFormat::R32F ? 1 : 4;
            } else {
                scalar = teach::ScalarKind(int(d.element.scalar)); // same order as project::ScalarType
                components = unsigned(d.element.components);
            }
            v.text = teach::formatElement(bytes.data(), scalar, components);
        } catch (const Error& e) {
            v.text = e.what();
        }
        out.push_back(std::move(v));
    }
    return out;
}

} // namespace ks::app
