// "Find the fault" without a GPU: the extents the checked variant is given from a stage's
// bindings, the options of --find-faults and of the checked re-run, the report between the two
// processes, and the parent's handling of every way its child can end (stand-in children: shell
// scripts that write a report, fail, die or never end).
#include "supervise/find_fault.hpp"
#include "parse_options.hpp"

#include "ks/teach/checked_extents.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ks::app::FindFaultResult;
using Outcome = ks::app::FindFaultResult::Outcome;
using ks::syntax::ParamKind;
using ks::project::ArgBinding;

ArgBinding bind(ArgBinding::Kind kind, std::string name)
{
    ArgBinding b;
    b.kind = kind;
    b.name = std::move(name);
    return b;
}

ks::project::ResourceDesc buffer(std::string name, std::int64_t count, ks::project::ScalarType scalar, int components)
{
    ks::project::ResourceDesc r;
    r.name = std::move(name);
    r.element = {scalar, components};
    r.count = count;
    return r;
}

ks::project::ResourceDesc texture(std::string name, int width, int height)
{
    ks::project::ResourceDesc r;
    r.name = std::move(name);
    r.kind = ks::project::ResourceKind::Texture;
    r.width = width;
    r.height = height;
    return r;
}

TEST(FindFault, ExtentsComeFromTheStagesBindings)
{
    using K = ArgBinding::Kind;
    const std::vector<ks::project::ResourceDesc> resources{
        buffer("positions", 1000, ks::project::ScalarType::Float32, 4), buffer("out", 4096, ks::project::ScalarType::Float32, 1),
        texture("img", 320, 200)};
    auto find = [&](std::string_view name) -> const ks::project::ResourceDesc* {
        for (const auto& r : resources)
            if (r.name == name)
                return &r;
        return nullptr;
    };
    ks::project::StageDesc stage;
    stage.args = {bind(K::Resource, "positions"), // float4*: 16000 bytes
                  bind(K::Resource, "img"),       // cudaSurfaceObject_t bound by name: 320 x 200
                  bind(K::Count, "out"),          // int: not checked
                  bind(K::Literal, ""),           // a pointer bound to a literal (0): not checked
                  bind(K::Resource, "missing"),   // no such resource: not checked
                  bind(K::Resource, "out"),       // a surface parameter bound to a buffer: not checked
                  bind(K::Texture, "img"),        // a sampled texture passed to a surface parameter: not checked
                  bind(K::Surface, "img")};       // surface: 320 x 200
    const std::vector<ParamKind> kinds{ParamKind::Pointer, ParamKind::Surface, ParamKind::Value, ParamKind::Pointer,
                                       ParamKind::Pointer, ParamKind::Surface, ParamKind::Surface, ParamKind::Surface,
                                       ParamKind::Pointer}; // one parameter more than bindings
    const ks::teach::CheckedBindings b = ks::teach::checkedBindings(stage, kinds, find);
    ASSERT_EQ(b.extents.size(), kinds.size());
    ASSERT_EQ(b.resources.size(), kinds.size());
    EXPECT_EQ(b.extents[0].size, 16000u);
    EXPECT_EQ(b.resources[0], "positions");
    EXPECT_EQ(b.extents[1].size, 320u);
    EXPECT_EQ(b.extents[1].height, 200u);
    EXPECT_EQ(b.resources[1], "img");
    for (std::size_t i : {2u, 3u, 4u, 5u, 6u, 8u}) {
        EXPECT_EQ(b.extents[i].size, ks::teach::kExtentUnchecked) << "parameter " << i;
        EXPECT_EQ(b.resources[i], "") << "parameter " << i;
    }
    EXPECT_EQ(b.extents[7].size, 320u);
    EXPECT_EQ(b.extents[7].height, 200u);
}

ks::app::ParseOutcome parse(std::vector<std::string> args)
{
    return ks::test::parseOptions(std::move(args));
}

TEST(FindFault, OptionsParseAndRefuseNonsense)
{
    const auto find = parse({"--headless", "--project", "p.json", "--find-faults", "--find-faults-limit", "20"});
    ASSERT_TRUE(find.options);
    EXPECT_TRUE(find.options->findFaults);
    EXPECT_DOUBLE_EQ(find.options->findFaultsLimit, 20.0);
    EXPECT_EQ(find.options->checkedFrame, -1);
    EXPECT_FALSE(parse({"--headless", "--project", "p.json"}).options->findFaults);
    EXPECT_EQ(parse({"--headless", "--find-faults"}).exitCode, 2) << "--find-faults needs a project";
    EXPECT_EQ(parse({"--find-faults-limit", "0", "--project", "p.json"}).exitCode, 2);

    const auto child = parse({"--project", "p.json", "--checked-frame", "3", "--checked-stage", "paint",
                              "--checked-report", "r.json"});
    ASSERT_TRUE(child.options);
    EXPECT_TRUE(child.options->headless) << "a checked re-run is always headless";
    EXPECT_EQ(child.options->checkedFrame, 3);
    EXPECT_EQ(child.options->checkedStage, "paint");
    EXPECT_EQ(child.options->checkedReport, "r.json");
    EXPECT_EQ(parse({"--project", "p.json", "--checked-frame", "3", "--checked-stage", "paint"}).exitCode, 2)
        << "no report file";
    EXPECT_EQ(parse({"--project", "p.json", "--checked-stage", "paint", "--checked-report", "r.json"}).exitCode, 2)
        << "no frame";
    EXPECT_EQ(parse({"--project", "p.json", "--checked-frame", "-1", "--checked-stage", "s", "--checked-report", "r"})
                  .exitCode,
              2);
    EXPECT_EQ(parse({"--project", "p.json", "--find-faults", "--checked-frame", "1", "--checked-stage", "s",
                     "--checked-report", "r"})
                  .exitCode,
              2)
        << "a checked re-run does not look for faults itself";

    EXPECT_EQ(child.options->checkedVariant, "checked") << "find the fault's variant by default";
    const auto who = parse({"--project", "p.json", "--checked-frame", "3", "--checked-stage", "paint",
                            "--checked-report", "r.json", "--checked-variant", "who"});
    ASSERT_TRUE(who.options);
    EXPECT_EQ(who.options->checkedVariant, "who");
    EXPECT_EQ(parse({"--project", "p.json", "--checked-frame", "3", "--checked-stage", "paint", "--checked-report",
                     "r.json", "--checked-variant", "inspector"})
                  .exitCode,
              2);
    EXPECT_EQ(parse({"--headless", "--project", "p.json", "--checked-variant", "timeline"}).exitCode, 2)
        << "--checked-variant goes with --checked-frame";
}

TEST(FindFault, TheChildsArgumentsCarryWhatMakesTheSameFrames)
{
    const auto parsed = parse({"--headless", "--project", "p.json", "--seed", "7", "--size", "640x360",
                               "--frame-limit", "1.5", "--device", "1", "--find-faults"});
    ASSERT_TRUE(parsed.options);
    ks::test::TempDir dir;
    const fs::path source = dir.write("k.cu", "// the editor's text\n");
    ks::app::FindFaultRequest request;
    request.project = "/tmp/p.json";
    request.frame = 3;
    request.stage = "paint";
    request.source = source;
    request.extraArgs = ks::app::checkedRunOptions(*parsed.options);
    const std::vector<std::string> args = ks::app::checkedRunArgs(request, "/tmp/r.json");
    auto after = [&](const std::string& flag) {
        for (std::size_t i = 0; i + 1 < args.size(); ++i)
            if (args[i] == flag)
                return args[i + 1];
        return std::string("(missing)");
    };
    EXPECT_EQ(after("--project"), "/tmp/p.json");
    EXPECT_EQ(after("--checked-frame"), "3");
    EXPECT_EQ(after("--checked-stage"), "paint");
    EXPECT_EQ(after("--checked-report"), "/tmp/r.json");
    EXPECT_EQ(after("--checked-source"), source.string());
    EXPECT_EQ(after("--seed"), "7");
    EXPECT_EQ(after("--size"), "640x360");
    EXPECT_EQ(after("--device"), "1");
    EXPECT_DOUBLE_EQ(std::stod(after("--frame-limit")), 1.5);
    // What the parent passes parses as a checked re-run.
    std::vector<std::string> childArgs = args;
    const auto child = parse(childArgs);
    ASSERT_TRUE(child.options);
    EXPECT_EQ(child.options->checkedFrame, 3);
    EXPECT_EQ(child.options->seed, 7u);
    EXPECT_EQ(child.options->checkedSource, source);
}

TEST(FindFault, ReportsRoundTripAndBadOnesSaySo)
{
    ks::test::TempDir dir;
    ks::app::CheckedReport r;
    r.ran = r.found = true;
    r.frame = 3;
    r.stage = "paint";
    r.kernel = "oob_near";
    r.file = "/src/faults.cu";
    r.sentence = "thread (5,0,0) of block (0,0,0) wrote out[4100], 4 elements past the end of out (4096 elements), "
                 "at line 126";
    r.line = 126;
    r.access = "write";
    r.param = r.resource = "out";
    r.element = 4100;
    r.failures = 1;
    ASSERT_TRUE(ks::app::writeCheckedReport(dir.path() / "r.json", r));
    std::string error;
    const auto back = ks::app::readCheckedReport(dir.path() / "r.json", error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(nlohmann::json(*back), nlohmann::json(r));

    EXPECT_FALSE(ks::app::readCheckedReport(dir.path() / "none.json", error));
    EXPECT_EQ(error, "it wrote no report");
    EXPECT_FALSE(ks::app::readCheckedReport(dir.write("bad.json", "{\"ran\": tru"), error));
    EXPECT_NE(error.find("malformed"), std::string::npos) << error;
    EXPECT_FALSE(ks::app::readCheckedReport(dir.write("type.json", "{\"line\": \"twelve\"}"), error));
    EXPECT_NE(error.find("malformed"), std::string::npos) << error;
    const auto partial = ks::app::readCheckedReport(dir.write("partial.json", "{\"found\": true, \"line\": 4}"), error);
    ASSERT_TRUE(partial) << "missing fields take their defaults";
    EXPECT_EQ(partial->line, 4);
    EXPECT_FALSE(partial->ran);

    FindFaultResult found;
    found.outcome = Outcome::Found;
    found.report = r;
    EXPECT_EQ(ks::app::compilerStyleLine(found), "/src/faults.cu:126: error: " + r.sentence);
    found.report.line = 0;
    EXPECT_EQ(ks::app::compilerStyleLine(found), "") << "no line: nothing for an editor to jump to";
    found.report.line = 126;
    found.outcome = Outcome::NothingFound;
    EXPECT_EQ(ks::app::compilerStyleLine(found), "");
}

// A stand-in for the checked re-run: a shell script that finds --checked-report in its arguments,
// writes its arguments to args.txt beside itself and then does `body` ($report is the report file).
class FakeChild : public ::testing::Test {
protected:
    ks::app::FindFaultRequest request(const std::string& body, std::chrono::milliseconds limit = std::chrono::seconds(20))
    {
        // A new file each time: a shell reads its script as it runs, so one must never be rewritten.
        const fs::path script = m_dir.write("fake-kernelscope-" + std::to_string(++m_scripts) + ".sh",
                                            "#!/bin/sh\n"
                                            "printf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args.txt\"\n"
                                            "while [ $# -gt 0 ]; do [ \"$1\" = --checked-report ] && report=$2; shift; done\n" +
                                                body + "\n");
        fs::permissions(script, fs::perms::owner_all);
        fs::create_directories(m_dir.path() / "work");
        ks::app::FindFaultRequest r;
        r.executable = script;
        r.project = m_dir.path() / "p.json";
        r.frame = 3;
        r.stage = "paint";
        r.workDir = m_dir.path() / "work";
        r.faultText = "frame 3: stage \"paint\" (kernel trap in faults.cu) faulted: CUDA_ERROR_ILLEGAL_INSTRUCTION (715)";
        r.limit = limit;
        return r;
    }
    static std::string report(const std::string& json) { return "cat > \"$report\" <<'EOF'\n" + json + "\nEOF"; }
    ks::test::TempDir m_dir;
    int m_scripts = 0;
};

TEST_F(FakeChild, AFoundAccessIsTheSentenceAtItsLine)
{
    const FindFaultResult r = ks::app::findFault(request(report(
        R"J({"ran": true, "found": true, "frame": 3, "stage": "paint", "file": "/src/faults.cu", "line": 23,
            "sentence": "thread (5,0,0) of block (0,0,0) wrote out[68719476741], 68719472645 elements past the end of out (4096 elements), at line 23"})J")));
    ASSERT_EQ(r.outcome, Outcome::Found) << r.message;
    EXPECT_EQ(r.message.rfind("found the fault: thread (5,0,0) of block (0,0,0) wrote out[", 0), 0u) << r.message;
    EXPECT_EQ(ks::app::compilerStyleLine(r).rfind("/src/faults.cu:23: error: thread (5,0,0)", 0), 0u);
    EXPECT_TRUE(r.logTail.empty());
}

TEST_F(FakeChild, ACheckedRunThatFaultsAnywayMeansSomethingElse)
{
    const FindFaultResult r = ks::app::findFault(request(report(
        R"J({"ran": false, "faulted": true, "frame": 3, "error": "frame 3: stage \"paint\" faulted: CUDA_ERROR_ILLEGAL_INSTRUCTION (715)"})J")));
    ASSERT_EQ(r.outcome, Outcome::NothingFound) << r.message;
    EXPECT_EQ(r.message, "the checked re-run found no out-of-bounds or misaligned access through pointer parameters "
                         "or surfaces; the fault was something else: frame 3: stage \"paint\" faulted: "
                         "CUDA_ERROR_ILLEGAL_INSTRUCTION (715)");
}

TEST_F(FakeChild, ACleanCheckedRunNamesTheOriginalFault)
{
    const FindFaultResult r =
        ks::app::findFault(request(report(R"J({"ran": true, "found": false, "frame": 3, "sentence": "no access was out of bounds or misaligned"})J")));
    ASSERT_EQ(r.outcome, Outcome::NothingFound) << r.message;
    EXPECT_NE(r.message.find("the fault was something else: frame 3: stage \"paint\" (kernel trap"), std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("ran without a fault this time"), std::string::npos) << r.message;
}

TEST_F(FakeChild, AVariantThatCannotRunSaysWhy)
{
    const FindFaultResult r = ks::app::findFault(
        request("echo 'building the checked variant' >&2\n" +
                report(R"J({"ran": false, "error": "the instrumented variant of misaligned did not build: no conversion (faults.cu:41)"})J")));
    ASSERT_EQ(r.outcome, Outcome::NotRun) << r.message;
    EXPECT_EQ(r.message, "the checked re-run could not check the kernel: the instrumented variant of misaligned did "
                         "not build: no conversion (faults.cu:41)");
    EXPECT_NE(r.logTail.find("building the checked variant"), std::string::npos) << "its output is kept";
}

TEST_F(FakeChild, AChildThatFailsIsReportedWithItsStatusAndOutput)
{
    FindFaultResult r = ks::app::findFault(request("echo 'kernelscope: error: no CUDA context'; exit 5"));
    ASSERT_EQ(r.outcome, Outcome::ChildFailed);
    EXPECT_EQ(r.message, "the checked re-run failed: kernelscope exited with status 5 (it wrote no report)");
    EXPECT_EQ(r.logTail, "kernelscope: error: no CUDA context\n");

    r = ks::app::findFault(request("kill -9 $$"));
    ASSERT_EQ(r.outcome, Outcome::ChildFailed);
    EXPECT_NE(r.message.find("killed by signal 9"), std::string::npos) << r.message;

    r = ks::app::findFault(request("printf '{\"found\": tr' > \"$report\""));
    ASSERT_EQ(r.outcome, Outcome::ChildFailed);
    EXPECT_NE(r.message.find("exited with status 0 (its report is malformed"), std::string::npos) << r.message;

    ks::app::FindFaultRequest missing = request("exit 0");
    missing.executable = m_dir.path() / "no-such-kernelscope";
    r = ks::app::findFault(missing);
    ASSERT_EQ(r.outcome, Outcome::ChildFailed);
    EXPECT_NE(r.message.find("exited with status 127"), std::string::npos) << r.message;
}

TEST_F(FakeChild, AChildThatNeverEndsIsStoppedAtTheLimit)
{
    const auto began = std::chrono::steady_clock::now();
    const FindFaultResult r =
        ks::app::findFault(request("echo started; exec sleep 600", std::chrono::milliseconds(300)));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    ASSERT_EQ(r.outcome, Outcome::TimedOut);
    EXPECT_EQ(r.message, "the checked re-run did not finish within 0.3 s; it was stopped");
    EXPECT_LT(seconds, 5.0);
    EXPECT_EQ(r.logTail, "started\n");
}

TEST_F(FakeChild, TheChildIsGivenTheRequest)
{
    ks::app::FindFaultRequest r = request(report(R"J({"ran": true})J"));
    r.source = m_dir.write("edited.cu", "// unsaved\n");
    r.extraArgs = {"--seed", "9"};
    ASSERT_EQ(ks::app::findFault(r).outcome, Outcome::NothingFound);
    std::ifstream in(m_dir.path() / "args.txt");
    std::vector<std::string> args;
    for (std::string line; std::getline(in, line);)
        args.push_back(line);
    EXPECT_EQ(args, ks::app::checkedRunArgs(r, r.workDir / "checked-report.json"));
}

TEST_F(FakeChild, TheSearchRunsInTheBackgroundAndStopsWithItsOwner)
{
    ks::app::FaultSearch search;
    EXPECT_FALSE(search.running());
    EXPECT_FALSE(search.take());
    ASSERT_TRUE(search.start(request("sleep 0.2\n" + report(R"J({"ran": true, "found": true, "line": 2, "sentence": "s"})J"))));
    EXPECT_TRUE(search.running());
    EXPECT_FALSE(search.start(request("exit 0"))) << "one search at a time";
    std::optional<FindFaultResult> r;
    for (int i = 0; i < 500 && !r; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        r = search.take();
    }
    ASSERT_TRUE(r) << "the search did not finish in 5 s";
    EXPECT_EQ(r->outcome, Outcome::Found);
    EXPECT_FALSE(search.running());
    EXPECT_FALSE(search.take()) << "a result is taken once";

    // A search whose child never ends: its owner going away stops it at once.
    const auto began = std::chrono::steady_clock::now();
    {
        ks::app::FaultSearch endless;
        ASSERT_TRUE(endless.start(request("exec sleep 600", std::chrono::seconds(600))));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(), 5.0);
}

} // namespace
