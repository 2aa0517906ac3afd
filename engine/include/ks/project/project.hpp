#pragma once
// A Kernelscope project: resources (GL buffers and textures), parameters (live-editable constants),
// the stages a frame runs, the views that show the result and the camera. Stored as JSON (see
// docs/projects.md); paths inside are relative to the project file.
//
// Loading never throws for bad input: every problem found (bad JSON, unknown field, wrong type,
// missing file, unknown name) is a Problem with the file, the line:column in it and what was
// expected. A load with problems gives no project, so the caller keeps the one it has.

#include "ks/io/data_source.hpp"
#include "ks/project/json.hpp"
#include "ks/project/value_type.hpp"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::project {

struct Problem {
    std::filesystem::path file;
    SourcePos pos;
    std::string message;
    // "FILE:LINE:COL: error: message" (":LINE:COL" omitted when unknown).
    std::string format() const;
};

enum class ResourceKind { Buffer, Texture };
enum class TextureFormat { Rgba8, R32F, Rgba32F };
std::string_view formatName(TextureFormat f) noexcept; // "rgba8", "r32f", "rgba32f"

struct ResourceDesc {
    std::string name;
    ResourceKind kind = ResourceKind::Buffer;
    SourcePos pos;
    // Buffers: element type and count; `shape` {height, width} when 2-D (count = height * width).
    ValueType element;
    std::int64_t count = 0;
    std::optional<std::array<std::int64_t, 2>> shape;
    // Records of a struct as raw bytes ("record": "Particle"): a uchar buffer of shape
    // [records, sizeof(struct)], each row one record. Its extent and count are its records.
    std::string record;
    // Textures: format and size, or the size of the first view showing it ("size": "viewport").
    TextureFormat format = TextureFormat::Rgba8;
    int width = 0, height = 0;
    bool followViewport = false;
    // CUDA writes every element every frame, so previous contents need not survive a map
    // (registered write-discard).
    bool discard = false;
    // Textures: how CUDA reaches the texels ("interop"). "map" (false, the default): the GL texture
    // is registered with CUDA and mapped every frame. "shared" (true): CUDA owns the texels in a
    // CUDA array; each frame's result is copied into memory CUDA shares with GL (no registration,
    // no map/unmap, ordered by the host) and GL copies it into the texture before anything draws or
    // reads it. Faster where mapping is the frame's largest cost; see docs/projects.md.
    bool sharedInterop = false;
    // Initial contents: empty (zeros), one value (every scalar), or every scalar in order; or, when
    // `data` is set, a data source: a file (an image for textures) or generated values. Paths in
    // `data` are absolute.
    std::vector<double> init;
    std::optional<io::DataSpec> data;

    std::size_t bytes() const noexcept; // storage size
    bool isTexture() const noexcept { return kind == ResourceKind::Texture; }
};

struct ParameterDesc {
    std::string name;
    SourcePos pos;
    ValueType type;
    std::array<double, 4> value{};
    double min = 0, max = 1; // slider range
};

// One member of a struct argument, set by name: "pos" = {1, 2, 3}, "p[1].mass" = {2}.
struct RecordValue {
    std::string field;
    std::vector<double> values; // its scalars in order; fewer than it holds leave the rest 0
    friend bool operator==(const RecordValue&, const RecordValue&) = default;
};
// Numbers as --arg's reports and the Arguments panel show a member's values: "0, -9.8, 0" (%g each).
std::string formatNumbers(const std::vector<double>& values);

// What a kernel argument is bound to.
struct ArgBinding {
    // Record: a struct by value, laid out from its definition in the kernel's file, its members
    // set from `fields` (members not named are 0). Bytes: an argument's bytes as given (a struct
    // whose layout Kernelscope cannot read, a half).
    enum class Kind { Resource, Surface, Texture, Parameter, Builtin, Count, Width, Height, Literal, Record, Bytes };
    Kind kind = Kind::Literal;
    std::string name; // resource, parameter or builtin name
    ValueType literalType;
    std::array<double, 4> literal{};
    std::vector<RecordValue> fields;
    std::vector<std::uint8_t> bytes;
    SourcePos pos;
};

// Raw bytes as projects and --arg write them: hex digits, two per byte, spaces allowed
// ("0000803f 00000040"). parseHexBytes throws ks::Error naming the first character that is not.
std::string formatHexBytes(const std::vector<std::uint8_t>& bytes);
std::vector<std::uint8_t> parseHexBytes(std::string_view text);
// A struct's member values as --arg writes them, a JSON object: {"scale": 2, "pos": [0, 1, 0]}.
// Throws ks::Error saying what is not.
std::vector<RecordValue> parseRecordValues(std::string_view json);

// Built-in values a kernel may take: their names in projects and their types.
enum class Builtin { Time, TimeStep, Frame, Mouse, MouseButtons, Viewport, Seed };
struct BuiltinInfo {
    Builtin id;
    const char* name;
    ValueType type;
    const char* meaning;
};
const std::vector<BuiltinInfo>& builtins();
const BuiltinInfo* findBuiltin(std::string_view name);

enum class StageKind { Kernel, Random, Math, Reduce, Copy };
std::string_view stageKindName(StageKind k) noexcept;

struct StageDesc {
    StageKind kind = StageKind::Kernel;
    std::string name;
    bool enabled = true;
    bool once = false; // only on the first frame after a (re)start
    SourcePos pos;
    // kernel
    std::filesystem::path file; // as written (relative to the project file)
    SourcePos filePos;
    std::string kernel;
    std::string cover;                     // a resource: grid = ceil(its extent / block)
    bool coverFlat = false;                // cover its element count with grid.x alone (a 1-D kernel on a 2-D buffer)
    std::array<unsigned, 3> block{256, 1, 1};
    std::array<unsigned, 3> grid{1, 1, 1}; // when cover is empty
    unsigned sharedBytes = 0;
    std::vector<ArgBinding> args;
    // random fill
    std::string target;
    std::string generator = "philox";     // xorwow, philox, mrg32k3a, sobol32
    std::string distribution = "uniform"; // uniform, normal, lognormal, poisson
    std::array<double, 2> params{0, 1};   // uniform: [low, high]; normal/lognormal: [mean, stddev]; poisson: [lambda]
    std::uint64_t seed = 0;               // added to the project seed
    bool reseedEachFrame = false;
    // array math: "target = expression"
    std::string expression;
    // reduction
    std::string source;
    std::string op = "sum"; // sum, min, max, or "custom" with the three below
    std::string reduceExpr, mapExpr, neutral;
    std::string into; // optional buffer that receives the result
    // copy
    std::string from, to;
};

enum class ViewKind { Image, Points, Plot, HeightField };
std::string_view viewKindName(ViewKind k) noexcept;

// What a view reads: its "source", its points' "colors" or "scalar".
enum class ViewInput { Source, Colors, Scalar };

// Why a `kind` view cannot draw `input` from a resource holding `element` values (`texture`: an
// image texture; `cols` x `rows`: a buffer's shape, rows 0 when it is 1-D); nullopt when it can. The one
// rule the project reader (opening, --validate) and the renderer both apply, so that what passes
// --validate draws. The reason names no resource: "a plot view draws float values; it holds int".
std::optional<std::string> viewInputProblem(ViewKind kind, ViewInput input, const ValueType& element, bool texture,
                                            std::int64_t cols, std::int64_t rows);

enum class PlotStyle { Line, Scatter };
enum class PlotScale { Linear, Log };

struct ViewDesc {
    std::string name;
    ViewKind kind = ViewKind::Image;
    SourcePos pos;
    std::string source;  // image: texture or 2-D buffer; points: positions; plot: 1-D buffer; heightfield: 2-D buffer
    std::string colors;  // points: per-point colours (float4/uchar4), or
    std::string scalar;  // points: a scalar per point through the colour map
    std::vector<std::string> series; // plot: more 1-D float buffers drawn with the source, each in its colour
    PlotStyle style = PlotStyle::Line; // plot: a line through the values, or a dot per value
    std::string colormap = "viridis";
    std::array<float, 2> range{0, 1};
    bool autoRange = false; // plot, image of a float buffer: "range": "auto", the values' own range each frame
    // plot: values up a linear or a log10 axis (then the range is positive), and the axis titles.
    PlotScale yScale = PlotScale::Linear;
    std::string xLabel, yLabel;
    float scale = 1;      // heightfield height scale; image: value scale before the colour map
    float pointSize = 2;
    std::array<float, 4> color{0.46f, 0.85f, 0.35f, 1.f}; // points/plot without colours
};

struct CameraDesc {
    std::array<float, 3> target{0, 0, 0};
    float distance = 3, yaw = 30, pitch = 25, fov = 45;
};

struct Project {
    std::filesystem::path file; // absolute; relative paths inside resolve against its folder
    std::string name;
    std::string description; // one line, shown by File > Examples
    std::uint64_t seed = 1;
    double timeStep = 1.0 / 60.0; // the fixed time step: each frame advances time by this
    std::vector<ParameterDesc> parameters;
    std::vector<ResourceDesc> resources;
    std::vector<StageDesc> stages;
    std::vector<ViewDesc> views;
    CameraDesc camera;
    bool tabs = false; // views in tabs rather than side by side

    std::filesystem::path resolve(const std::filesystem::path& relative) const;
    const ResourceDesc* resource(std::string_view name) const;
    const ParameterDesc* parameter(std::string_view name) const;
};

struct LoadResult {
    std::optional<Project> project;
    std::vector<Problem> problems;
    bool ok() const { return project.has_value() && problems.empty(); }
};

// Parses `text` as the project file `file` (used for messages and relative paths): JSON, every
// field and its type, names resolved, referenced files present. Kernel signatures are not checked
// here (see checkProject in ks/pipeline/check.hpp).
LoadResult parseProject(std::string_view text, const std::filesystem::path& file);
// Reads and parses `file`.
LoadResult loadProject(const std::filesystem::path& file);

// The JSON text of `project`, with file paths relative to `saveAs` (the file it will be written to).
std::string serializeProject(const Project& project, const std::filesystem::path& saveAs);
// Writes it (atomically: a temporary file renamed over the target). Throws ks::Error on I/O failure.
void saveProject(const Project& project, const std::filesystem::path& file);

} // namespace ks::project
