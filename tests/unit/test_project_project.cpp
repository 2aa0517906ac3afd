// The position-tracking JSON reader and project parsing: each malformed case gives its message at
// its line:column, and a good project round-trips through save.
#include "ks/pipeline/check.hpp"
#include "ks/project/json.hpp"
#include "ks/project/project.hpp"

#include "test_support.hpp"

#include <filesystem>
#include <fstream>

using namespace ks::project;

namespace {

const std::filesystem::path kFile = "/tmp/ks_unit/project.json";

// Parses and returns the single problem's formatted text (fails when there is not exactly one).
std::string onlyProblem(const std::string& text)
{
    const LoadResult r = parseProject(text, kFile);
    EXPECT_FALSE(r.project.has_value());
    EXPECT_EQ(r.problems.size(), 1u) << [&] {
        std::string all;
        for (const auto& p : r.problems)
            all += p.format() + "\n";
        return all;
    }();
    return r.problems.empty() ? "" : r.problems[0].format();
}

std::string minimal(const std::string& resources, const std::string& rest = "")
{
    return "{\n  \"kernelscope\": 1,\n  \"resources\": {" + resources + "}" + rest + "\n}\n";
}

} // namespace

TEST(Json, PositionsOfValuesAndKeys)
{
    const Json j = Json::parse("{\n  \"a\": [1, 2.5],\n  \"b\": {\"c\": \"x\"}\n}");
    ASSERT_TRUE(j.isObject());
    EXPECT_EQ(j.members()[0].keyPos.line, 2);
    EXPECT_EQ(j.members()[0].keyPos.column, 3);
    const Json& a = *j.find("a");
    EXPECT_EQ(a.pos().line, 2);
    EXPECT_EQ(a.pos().column, 8);
    EXPECT_TRUE(a.items()[0].isInteger());
    EXPECT_FALSE(a.items()[1].isInteger());
    EXPECT_EQ(a.items()[1].pos().column, 12);
    EXPECT_EQ(j.find("b")->find("c")->string(), "x");
    EXPECT_EQ(j.find("b")->find("c")->pos().line, 3);
}

TEST(Json, MalformedDocumentsGiveTheirPlace)
{
    struct Case {
        const char* text;
        int line, column;
        const char* message;
    } cases[] = {
        {"{\"a\": 1,}", 1, 9, "trailing comma before '}'"},
        {"[1, 2,]", 1, 7, "trailing comma before ']'"},
        {"{\"a\" 1}", 1, 6, "expected ':' after the member name"},
        {"{\n  \"a\": tru\n}", 2, 8, "expected a value"},
        {"{\"a\": 1} x", 1, 10, "unexpected 'x' after the end"},
        {"{\"a\": \"abc", 1, 7, "unterminated string"},
        {"{\"a\": 01}", 1, 8, "leading zeros"},
        {"{\"a\": 1, \"a\": 2}", 1, 10, "duplicate member \"a\""},
        {"// c\n{}", 1, 1, "comments are not allowed"},
        {"", 1, 1, "the file is empty"},
        {"{\"a\": [1 2]}", 1, 10, "expected ',' or ']'"},
        {"{\"a\": \"\\q\"}", 1, 10, "invalid escape"},
    };
    for (const Case& c : cases) {
        try {
            Json::parse(c.text);
            ADD_FAILURE() << "no error for " << c.text;
        } catch (const JsonError& e) {
            EXPECT_EQ(e.pos().line, c.line) << c.text << ": " << e.what();
            EXPECT_EQ(e.pos().column, c.column) << c.text << ": " << e.what();
            EXPECT_NE(e.message().find(c.message), std::string::npos) << c.text << ": " << e.what();
        }
    }
}

TEST(Json, StringEscapesAndNumbers)
{
    const Json j = Json::parse(R"(["a\"b\\n\u00e9\ud83d\ude00", -0.5e2, 12345678901234])");
    EXPECT_EQ(j.items()[0].string(), "a\"b\\n\xc3\xa9\xf0\x9f\x98\x80");
    EXPECT_DOUBLE_EQ(j.items()[1].number(), -50.0);
    EXPECT_EQ(j.items()[2].integer(), 12345678901234);
}

TEST(ProjectParse, BadJsonIsReportedWithFileLineColumn)
{
    EXPECT_EQ(onlyProblem("{\n  \"kernelscope\": 1,\n  \"resources\": {,}\n}"),
              kFile.string() + ":3:17: error: bad JSON: expected a member name in double quotes, found ','");
}

TEST(ProjectParse, UnknownFieldNamesTheExpectedOnes)
{
    const std::string p =
        onlyProblem(minimal("\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 4, \"colour\": 1}"));
    EXPECT_NE(p.find(":3:70: error: unknown field \"colour\" in resource \"a\"; expected \"kind\""), std::string::npos)
        << p;
}

TEST(ProjectParse, WrongTypesAndRanges)
{
    EXPECT_NE(onlyProblem(minimal("\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": \"4\"}"))
                  .find(":3:67: error: \"count\" of resource \"a\" must be an integer, found a string"),
              std::string::npos);
    EXPECT_NE(onlyProblem(minimal("\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 0}"))
                  .find("must be between 1 and"),
              std::string::npos);
    EXPECT_NE(onlyProblem(minimal("\"a\": {\"kind\": \"buffer\", \"type\": \"floot\", \"count\": 3}"))
                  .find(":3:49: error: unknown type \"floot\""),
              std::string::npos);
    EXPECT_NE(onlyProblem(minimal("\"a\": {\"kind\": \"tex\"}")).find("\"kind\" of resource \"a\" must be one of"),
              std::string::npos);
    EXPECT_NE(onlyProblem(minimal("\"t\": {\"kind\": \"texture\", \"size\": [0, 4]}")).find("\"size\" of texture"),
              std::string::npos);
    EXPECT_NE(onlyProblem("{\"resources\": {}}").find("the project needs a \"kernelscope\" member"), std::string::npos);
    EXPECT_NE(onlyProblem("[1]").find(":1:1: error: the project must be an object, found an array"), std::string::npos);
}

TEST(ProjectParse, MissingKernelFileAndUnknownNames)
{
    const std::string stage = ",\n  \"stages\": [{\"kind\": \"kernel\", \"file\": \"nope.cu\", \"kernel\": \"k\", "
                              "\"args\": [\"b\"]}]";
    const LoadResult r = parseProject(minimal("", stage), kFile);
    ASSERT_EQ(r.problems.size(), 2u);
    EXPECT_NE(r.problems[0].format().find(":4:76: error: argument \"b\" names neither a resource nor a parameter"),
              std::string::npos)
        << r.problems[0].format();
    EXPECT_NE(r.problems[1].format().find(":4:41: error: kernel file \"nope.cu\" not found"), std::string::npos)
        << r.problems[1].format();
}

TEST(ProjectParse, ViewNeedsTheRightResource)
{
    const std::string views = ",\n  \"views\": [{\"kind\": \"heightfield\", \"source\": \"a\"}]";
    const std::string p = onlyProblem(minimal("\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 4}", views));
    EXPECT_NE(p.find("needs a 2-D buffer"), std::string::npos) << p;
}

// One rule for what a view can draw (project::viewInputProblem), applied when the project is read
// (so --validate refuses it) and when the view is drawn: nothing --validate accepts fails at run time.
TEST(ProjectParse, EveryViewInputTheRendererRefusesIsRefusedOnReading)
{
    auto problemFor = [&](const std::string& resource, const std::string& view) {
        return onlyProblem(minimal(resource, ",\n  \"views\": [" + view + "]"));
    };
    const std::string ints = "\"a\": {\"kind\": \"buffer\", \"type\": \"int\", \"count\": 8}";
    EXPECT_NE(problemFor(ints, "{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\"}")
                  .find("view \"p\": source \"a\": a plot view draws float values; it holds int"),
              std::string::npos);
    EXPECT_NE(problemFor("\"a\": {\"kind\": \"buffer\", \"type\": \"double3\", \"count\": 8}",
                         "{\"kind\": \"points\", \"name\": \"p\", \"source\": \"a\"}")
                  .find("a points view needs float2, float3 or float4 positions; it holds double3"),
              std::string::npos);
    EXPECT_NE(problemFor("\"a\": {\"kind\": \"buffer\", \"type\": \"float2\", \"shape\": [4, 4]}",
                         "{\"kind\": \"image\", \"name\": \"i\", \"source\": \"a\"}")
                  .find("shows float, uchar, int or uint buffers (through a colour map), float4 or uchar4; it holds float2"),
              std::string::npos);
    EXPECT_NE(problemFor("\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"shape\": [1, 8]}",
                         "{\"kind\": \"heightfield\", \"name\": \"h\", \"source\": \"a\"}")
                  .find("needs a 2-D buffer of at least 2 x 2; it is 8 x 1"),
              std::string::npos);
    EXPECT_NE(problemFor("\"a\": {\"kind\": \"buffer\", \"type\": \"float4\", \"count\": 8},\n"
                         "    \"c\": {\"kind\": \"buffer\", \"type\": \"float3\", \"count\": 8}",
                         "{\"kind\": \"points\", \"name\": \"p\", \"source\": \"a\", \"colors\": \"c\"}")
                  .find("colors \"c\": point colours are float4 or uchar4; it holds float3"),
              std::string::npos);
    // and what it accepts, it accepts
    const LoadResult ok = parseProject(
        minimal("\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 8}",
                ",\n  \"views\": [{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\"}]"),
        kFile);
    EXPECT_TRUE(ok.ok()) << (ok.problems.empty() ? "" : ok.problems[0].format());
}

TEST(ProjectParse, HostileSizesAndLaunchDimensionsAreRefusedWhereTheyAre)
{
    const std::string overflow =
        onlyProblem(minimal("\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"shape\": [4294967296, 4294967296]}"));
    EXPECT_NE(overflow.find("\"shape\" of resource \"a\" holds 4294967296 x 4294967296 elements; a buffer holds at most "
                            "1099511627776"),
              std::string::npos)
        << overflow;
    const std::string stage = ",\n  \"stages\": [{\"kind\": \"kernel\", \"name\": \"k\", \"file\": \"" +
                              kFile.filename().string() + "\", \"kernel\": \"k\", \"grid\": [4294967296], \"block\": [0]}]";
    const LoadResult r = parseProject(minimal("", stage), kFile);
    std::string all;
    for (const auto& p : r.problems)
        all += p.format() + "\n";
    EXPECT_NE(all.find("\"block\" of stage \"k\": every dimension must be a whole number from 1 to 1024, found 0"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("\"grid\" of stage \"k\": every dimension must be a whole number from 1 to 2147483647, found "
                       "4294967296"),
              std::string::npos)
        << all;
}

// --validate's launch rule is the one every launch applies (cuda::checkLaunch), with the limits all
// CUDA GPUs share: a block of more than 1024 threads, a grid too tall, a cover grid too tall.
TEST(ProjectCheck, LaunchesNoCudaGpuCouldRunAreRefused)
{
    ks::project::Project p;
    ks::project::ResourceDesc tall;
    tall.name = "tall";
    tall.kind = ks::project::ResourceKind::Buffer;
    tall.shape = std::array<std::int64_t, 2>{1000000, 70000};
    tall.count = 1000000ll * 70000;
    p.resources.push_back(tall);
    ks::project::StageDesc s;
    s.name = "k";
    s.block = {32, 32, 2};
    auto why = ks::pipeline::launchProblem(p, s);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("block of 2048 threads exceeds"), std::string::npos) << *why;
    s.block = {256, 1, 1};
    s.grid = {1, 65536, 1};
    why = ks::pipeline::launchProblem(p, s);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("gridDim.y = 65536 exceeds"), std::string::npos) << *why;
    s.grid = {1, 1, 1};
    EXPECT_FALSE(ks::pipeline::launchProblem(p, s).has_value());
    s.cover = "tall";
    s.block = {1, 1, 1};
    why = ks::pipeline::launchProblem(p, s);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("gridDim.y = 1000000 exceeds"), std::string::npos) << *why;
}

TEST(ProjectParse, InvalidUtf8IsRefusedAtItsPlaceAndABomIsSkipped)
{
    const std::string bad = onlyProblem("{\"kernelscope\": 1, \"name\": \"caf\xC3\x28\"}");
    EXPECT_NE(bad.find(":1:32: error: bad JSON: invalid UTF-8 in a string"), std::string::npos) << bad;
    const std::string lone = onlyProblem("{\"kernelscope\": 1, \"name\": \"\\ud800\"}");
    EXPECT_NE(lone.find("high surrogate without its low surrogate"), std::string::npos) << lone;
    const LoadResult bom = parseProject("\xEF\xBB\xBF{\"kernelscope\": 1, \"name\": \"caf\xC3\xA9\"}", kFile);
    ASSERT_TRUE(bom.ok()) << (bom.problems.empty() ? "" : bom.problems[0].format());
    EXPECT_EQ(bom.project->name, "caf\xC3\xA9");
}

TEST(ProjectParse, InteropIsMapOrSharedAndSharedIsForTextures)
{
    const LoadResult r = parseProject(
        minimal("\"t\": {\"kind\": \"texture\", \"size\": [4, 4], \"interop\": \"shared\"},\n"
                "    \"u\": {\"kind\": \"texture\", \"size\": [4, 4], \"interop\": \"map\"},\n"
                "    \"v\": {\"kind\": \"texture\", \"size\": [4, 4]}"),
        kFile);
    ASSERT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems[0].format());
    EXPECT_TRUE(r.project->resource("t")->sharedInterop);
    EXPECT_FALSE(r.project->resource("u")->sharedInterop);
    EXPECT_FALSE(r.project->resource("v")->sharedInterop);
    const std::string saved = serializeProject(*r.project, kFile);
    EXPECT_NE(saved.find("\"interop\": \"shared\""), std::string::npos) << saved;
    EXPECT_EQ(saved.find("\"interop\": \"map\""), std::string::npos) << "the default is not written: " << saved;
    const LoadResult again = parseProject(saved, kFile);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(again.project->resource("t")->sharedInterop);

    EXPECT_NE(onlyProblem(minimal("\"t\": {\"kind\": \"texture\", \"size\": [4, 4], \"interop\": \"mapped\"}"))
                  .find(":3:69: error: \"interop\" of resource \"t\" must be one of \"map\" or \"shared\", found "
                        "\"mapped\""),
              std::string::npos);
    EXPECT_NE(onlyProblem(minimal("\"b\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 4, \"interop\": "
                                  "\"shared\"}"))
                  .find(":3:81: error: \"interop\": \"shared\" is for textures; buffer \"b\" is mapped (\"map\")"),
              std::string::npos);
}

TEST(ProjectParse, SaveRoundTripsAndRebasesPaths)
{
    const std::filesystem::path dir = ks::test::sourceDir() / "projects";
    for (const char* name : {"heat.json", "particles.json", "mandelbrot.json", "multiply_them.json", "pi.json"}) {
        const LoadResult r = loadProject(dir / name);
        ASSERT_TRUE(r.ok()) << name;
        const std::string text = serializeProject(*r.project, dir / name);
        const LoadResult again = parseProject(text, dir / name);
        ASSERT_TRUE(again.ok()) << name << "\n" << text;
        EXPECT_EQ(serializeProject(*again.project, dir / name), text) << name;
    }
    // Saved elsewhere, kernel paths stay pointing at the same files.
    const LoadResult heat = loadProject(dir / "heat.json");
    const std::filesystem::path other = std::filesystem::temp_directory_path() / "ks_unit_saveas" / "h.json";
    std::filesystem::create_directories(other.parent_path());
    saveProject(*heat.project, other);
    const LoadResult moved = loadProject(other);
    ASSERT_TRUE(moved.ok()) << (moved.problems.empty() ? "" : moved.problems[0].format());
    EXPECT_EQ(moved.project->resolve(moved.project->stages[0].file),
              std::filesystem::weakly_canonical(ks::test::sourceDir() / "kernels" / "heat.cu"));
    std::filesystem::remove_all(other.parent_path());
}

TEST(ProjectCheck, BindingMismatchesNameBothSides)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ks_unit_bind";
    std::filesystem::create_directories(dir);
    {
        std::ofstream k(dir / "k.cu");
        k << "extern \"C\" __global__ void k(const float4* p, float* q, int n, float s, cudaSurfaceObject_t o)\n{}\n";
    }
    const std::string text = R"({
  "kernelscope": 1,
  "parameters": {"s": {"type": "int", "value": 3}},
  "resources": {
    "p": {"kind": "buffer", "type": "float", "count": 8},
    "q": {"kind": "buffer", "type": "float", "count": 8},
    "t": {"kind": "texture", "size": [4, 4]}
  },
  "stages": [{"kind": "kernel", "file": "k.cu", "kernel": "k", "grid": [1], "block": [8],
              "args": ["p", "q", {"builtin": "time"}, "s", "q"]}]
})";
    const LoadResult r = parseProject(text, dir / "p.json");
    ASSERT_TRUE(r.ok());
    ks::rtc::CompileCache cache;
    const std::vector<Problem> problems = ks::pipeline::checkProject(*r.project, cache);
    ASSERT_EQ(problems.size(), 4u);
    EXPECT_NE(problems[0].format().find(":10:24: error: argument 1 of k: buffer \"p\" holds \"float\" but the kernel "
                                        "takes 'const float4* p'"),
              std::string::npos)
        << problems[0].format();
    EXPECT_NE(problems[1].format().find("argument 3 of k: builtin \"time\" has type \"float\", but the kernel takes "
                                        "'int n'"),
              std::string::npos)
        << problems[1].format();
    EXPECT_NE(problems[2].format().find("argument 4 of k: parameter \"s\" has type \"int\""), std::string::npos)
        << problems[2].format();
    EXPECT_NE(problems[3].format().find("argument 5 of k: buffer \"q\" is passed as a pointer, but the kernel takes "
                                        "'cudaSurfaceObject_t o' (a surface object)"),
              std::string::npos)
        << problems[3].format();
    std::filesystem::remove_all(dir);
}

TEST(ProjectCheck, CompileErrorsPointAtTheKernelLine)
{
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ks_unit_compile";
    std::filesystem::create_directories(dir);
    {
        std::ofstream k(dir / "k.cu");
        k << "extern \"C\" __global__ void k(float* p)\n{\n    p[0] = undefined_name;\n}\n";
    }
    const LoadResult r = parseProject(R"({"kernelscope": 1, "resources": {"p": {"kind": "buffer", "type": "float",
        "count": 1}}, "stages": [{"kind": "kernel", "file": "k.cu", "kernel": "k", "args": ["p"]}]})",
                                      dir / "p.json");
    ASSERT_TRUE(r.ok());
    ks::rtc::CompileCache cache;
    const std::vector<Problem> problems = ks::pipeline::checkProject(*r.project, cache);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].file, dir / "k.cu");
    EXPECT_EQ(problems[0].pos.line, 3);
    EXPECT_NE(problems[0].message.find("undefined_name"), std::string::npos) << problems[0].message;
    std::filesystem::remove_all(dir);
}

// Every shipped project is valid and every kernel it uses compiles for sm_90 with matching bindings.
TEST(ProjectCheck, ShippedProjectsValidate)
{
    ks::rtc::CompileCache cache;
    int count = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(ks::test::sourceDir() / "projects")) {
        if (entry.path().extension() != ".json")
            continue;
        ++count;
        const LoadResult r = loadProject(entry.path());
        for (const auto& p : r.problems)
            ADD_FAILURE() << p.format();
        if (!r.ok())
            continue;
        for (const auto& p : ks::pipeline::checkProject(*r.project, cache))
            ADD_FAILURE() << p.format();
    }
    EXPECT_GE(count, 15); // 8 demos and 7 teaching projects
}

// Plot views: several series, line or scatter, a fixed or an automatic range. Each series passes
// the same rule as the source (so --validate refuses what the renderer would), the fields are
// refused on other kinds of view with their position, and a project with them saves and reads back
// the same.
TEST(ProjectParse, PlotSeriesStyleAndAutoRange)
{
    const std::string buffers = "\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 8},\n"
                                "    \"b\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 16},\n"
                                "    \"i\": {\"kind\": \"buffer\", \"type\": \"int\", \"count\": 8},\n"
                                "    \"t\": {\"kind\": \"texture\", \"format\": \"rgba8\", \"size\": [4, 4]}";
    auto views = [](const std::string& v) { return ",\n  \"views\": [" + v + "]"; };
    const LoadResult ok = parseProject(
        minimal(buffers, views("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"series\": [\"b\"], "
                               "\"style\": \"scatter\", \"pointSize\": 4, \"range\": \"auto\"}")),
        kFile);
    ASSERT_TRUE(ok.ok()) << (ok.problems.empty() ? "" : ok.problems[0].format());
    const ViewDesc& v = ok.project->views.at(0);
    EXPECT_EQ(v.series, std::vector<std::string>{"b"});
    EXPECT_EQ(v.style, PlotStyle::Scatter);
    EXPECT_TRUE(v.autoRange);
    EXPECT_FLOAT_EQ(v.pointSize, 4.f);
    // Saved and read back: the same view.
    const std::string saved = serializeProject(*ok.project, kFile);
    const LoadResult again = parseProject(saved, kFile);
    ASSERT_TRUE(again.ok()) << saved;
    EXPECT_EQ(again.project->views.at(0).series, v.series);
    EXPECT_EQ(again.project->views.at(0).style, PlotStyle::Scatter);
    EXPECT_TRUE(again.project->views.at(0).autoRange);
    EXPECT_EQ(serializeProject(*again.project, kFile), saved);

    auto problemFor = [&](const std::string& view) { return onlyProblem(minimal(buffers, views(view))); };
    EXPECT_NE(problemFor("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"series\": [\"i\"]}")
                  .find("view \"p\": series \"i\": a plot view draws float values; it holds int"),
              std::string::npos);
    EXPECT_NE(problemFor("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"series\": [\"t\"]}")
                  .find("a \"series\" of view \"p\" \"t\" is a texture; expected a buffer"),
              std::string::npos);
    EXPECT_NE(problemFor("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"series\": [\"nope\"]}")
                  .find("a \"series\" of view \"p\" \"nope\" is not a buffer of the project"),
              std::string::npos);
    EXPECT_NE(problemFor("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"series\": \"b\"}")
                  .find("\"series\" of a plot view must be an array of buffer names"),
              std::string::npos);
    EXPECT_NE(problemFor("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"style\": \"bars\"}")
                  .find("\"style\" of a view must be one of \"line\" or \"scatter\", found \"bars\""),
              std::string::npos);
    EXPECT_NE(problemFor("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"range\": \"tight\"}")
                  .find("\"range\" of a view is [low, high] or \"auto\", found \"tight\""),
              std::string::npos);
    const std::string image = "{\"kind\": \"image\", \"name\": \"m\", \"source\": \"t\", ";
    // An automatic range is for plots and images (of float buffers), not points or height fields.
    const LoadResult points = parseProject(
        minimal(buffers, views("{\"kind\": \"points\", \"name\": \"m\", \"source\": \"a\", \"range\": \"auto\"}")), kFile);
    ASSERT_FALSE(points.problems.empty());
    EXPECT_NE(points.problems[0].message.find("\"range\": \"auto\" is for plot and image views"), std::string::npos)
        << points.problems[0].message;
    EXPECT_NE(problemFor(image + "\"style\": \"line\"}").find("\"style\" is for plot views"), std::string::npos);
    EXPECT_NE(problemFor(image + "\"series\": [\"a\"]}").find("\"series\" is for plot views"), std::string::npos);
}

// Plot views: axis titles and a log value axis. A log axis takes a positive fixed range (in values,
// not decades) or "auto"; the keys are refused on other kinds of view, naming the key; a project
// with them saves and reads back the same.
TEST(ProjectParse, PlotAxisTitlesAndLogScale)
{
    const std::string buffers = "\"a\": {\"kind\": \"buffer\", \"type\": \"float\", \"count\": 8},\n"
                                "    \"t\": {\"kind\": \"texture\", \"format\": \"rgba8\", \"size\": [4, 4]}";
    auto views = [](const std::string& v) { return ",\n  \"views\": [" + v + "]"; };
    const LoadResult ok = parseProject(
        minimal(buffers, views("{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", \"xLabel\": \"element\", "
                               "\"yLabel\": \"amplitude\", \"yScale\": \"log\", \"range\": [1e-3, 1e3]}, "
                               "{\"kind\": \"plot\", \"name\": \"q\", \"source\": \"a\", \"yScale\": \"log\", "
                               "\"range\": \"auto\"}, {\"kind\": \"plot\", \"name\": \"r\", \"source\": \"a\"}")),
        kFile);
    ASSERT_TRUE(ok.ok()) << (ok.problems.empty() ? "" : ok.problems[0].format());
    const ViewDesc& v = ok.project->views.at(0);
    EXPECT_EQ(v.xLabel, "element");
    EXPECT_EQ(v.yLabel, "amplitude");
    EXPECT_EQ(v.yScale, PlotScale::Log);
    EXPECT_FLOAT_EQ(v.range[0], 1e-3f);
    EXPECT_EQ(ok.project->views.at(1).yScale, PlotScale::Log);
    EXPECT_TRUE(ok.project->views.at(1).autoRange);
    EXPECT_EQ(ok.project->views.at(2).yScale, PlotScale::Linear) << "linear by default";
    EXPECT_TRUE(ok.project->views.at(2).xLabel.empty());
    const std::string saved = serializeProject(*ok.project, kFile);
    EXPECT_EQ(saved.find("\"yScale\": \"linear\""), std::string::npos) << "only what differs from the default";
    const LoadResult again = parseProject(saved, kFile);
    ASSERT_TRUE(again.ok()) << saved;
    EXPECT_EQ(again.project->views.at(0).xLabel, "element");
    EXPECT_EQ(again.project->views.at(0).yLabel, "amplitude");
    EXPECT_EQ(again.project->views.at(0).yScale, PlotScale::Log);
    EXPECT_EQ(again.project->views.at(1).yScale, PlotScale::Log);
    EXPECT_EQ(serializeProject(*again.project, kFile), saved);

    auto problemFor = [&](const std::string& view) { return onlyProblem(minimal(buffers, views(view))); };
    const std::string plot = "{\"kind\": \"plot\", \"name\": \"p\", \"source\": \"a\", ";
    // A log axis over a range that reaches zero or below; at the range, or at "yScale" for the default.
    const std::string zero = problemFor(plot + "\"yScale\": \"log\", \"range\": [0, 100]}");
    EXPECT_NE(zero.find("\"yScale\": \"log\" needs a positive \"range\" (low > 0) or \"range\": \"auto\"; the range is "
                        "[0, 100]"),
              std::string::npos)
        << zero;
    EXPECT_NE(problemFor(plot + "\"yScale\": \"log\", \"range\": [-1, 1]}").find("the range is [-1, 1]"),
              std::string::npos);
    const std::string byDefault = problemFor(plot + "\"yScale\": \"log\"}");
    EXPECT_NE(byDefault.find("the range is [0, 1] (the default)"), std::string::npos) << byDefault;
    const std::string line = "  \"views\": [" + plot + "\"yScale\": \"log\"}]"; // line 5 of the file
    EXPECT_NE(byDefault.find(":5:" + std::to_string(line.find("\"log\"") + 1) + ": error"), std::string::npos)
        << "at \"yScale\"'s value: " << byDefault;
    EXPECT_NE(problemFor(plot + "\"yScale\": \"ln\"}")
                  .find("\"yScale\" of a view must be one of \"linear\" or \"log\", found \"ln\""),
              std::string::npos);
    EXPECT_NE(problemFor(plot + "\"xLabel\": 3}").find("\"xLabel\" of a view must be a string, found a number"),
              std::string::npos);
    // A bad range is reported once, not again as a log range.
    EXPECT_NE(
        problemFor(plot + "\"yScale\": \"log\", \"range\": \"tight\"}").find("\"range\" of a view is [low, high]"),
        std::string::npos);
    // Only plot views take them.
    const std::string image = "{\"kind\": \"image\", \"name\": \"m\", \"source\": \"t\", ";
    EXPECT_NE(problemFor(image + "\"yScale\": \"log\"}").find("\"yScale\" is for plot views"), std::string::npos);
    EXPECT_NE(problemFor(image + "\"xLabel\": \"x\"}").find("\"xLabel\" is for plot views"), std::string::npos);
    EXPECT_NE(problemFor(image + "\"yLabel\": \"y\"}").find("\"yLabel\" is for plot views"), std::string::npos);
}
