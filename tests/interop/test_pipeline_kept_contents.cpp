// On a GPU host: a pipeline that keeps its resources' contents (PipelineOptions::keepContents)
// copies every resource CUDA writes into exported device memory after each frame, and another
// pipeline of the same project takes them from there: same bytes, the frame after, and the frames
// it runs next are the frames the first would have run (what the supervised GPU process's
// replacement does after a fault; the descriptors cross processes in the app, tests/interop/
// test_supervise_worker.cpp checks that path).
#include "ks/pipeline/kept_contents.hpp"
#include "ks/project/project.hpp"
#include "ks/rtc/cache.hpp"
#include "ks/scene/session.hpp"

#include "resource_download.hpp"
#include "test_support.hpp"

#include <unistd.h>

using ks::test::InteropTest;
using namespace ks::pipeline;
using ks::scene::Session;
namespace fs = std::filesystem;

namespace {

// acc: a mapped texture each frame adds to; accs: the same through "interop": "shared"; inout: a
// buffer each frame adds `in` to; out: write-discard; in: read-only (never kept); noise and gauss:
// random fills that go on with their sequence each frame (not reseeded), floats and doubles, on the
// Philox kernel path; xw, mrg, sob, poi, pph: the same on cuRAND's host generators (xorwow,
// mrg32k3a, sobol32; poisson fills, Philox's included), odd counts among them.
std::string project(int accWidth = 45)
{
    return R"({"kernelscope": 1,
      "resources": {
        "acc": {"kind": "texture", "format": "r32f", "size": [)" + std::to_string(accWidth) + R"(, 17]},
        "accs": {"kind": "texture", "format": "r32f", "size": [45, 17], "interop": "shared"},
        "in": {"kind": "buffer", "type": "float", "count": 1000, "init": 0.5},
        "out": {"kind": "buffer", "type": "float", "count": 1000, "discard": true},
        "inout": {"kind": "buffer", "type": "float", "count": 1000, "init": 1},
        "noise": {"kind": "buffer", "type": "float", "count": 1001},
        "gauss": {"kind": "buffer", "type": "double", "count": 999},
        "xw": {"kind": "buffer", "type": "float", "count": 1001},
        "mrg": {"kind": "buffer", "type": "double", "count": 999},
        "sob": {"kind": "buffer", "type": "float", "count": 1000},
        "poi": {"kind": "buffer", "type": "uint", "count": 1000},
        "pph": {"kind": "buffer", "type": "uint", "count": 1001}},
      "stages": [
        {"kind": "kernel", "name": "acc", "file": "roundtrip.cu", "kernel": "accumulate", "cover": "acc", "block": [16, 8],
         "args": [{"surface": "acc"}, {"width": "acc"}, {"height": "acc"}]},
        {"kind": "kernel", "name": "accs", "file": "roundtrip.cu", "kernel": "accumulate", "cover": "accs", "block": [16, 8],
         "args": [{"surface": "accs"}, {"width": "accs"}, {"height": "accs"}]},
        {"kind": "kernel", "name": "buffers", "file": "roundtrip.cu", "kernel": "buffers", "grid": [4], "block": [256],
         "args": ["in", "out", "inout", 1000, {"param": "k"}]},
        {"kind": "random", "name": "noise", "target": "noise", "distribution": "uniform", "params": [-1, 1]},
        {"kind": "random", "name": "gauss", "target": "gauss", "distribution": "normal", "params": [0, 1]},
        {"kind": "random", "name": "xw", "target": "xw", "generator": "xorwow", "distribution": "uniform", "params": [-1, 1]},
        {"kind": "random", "name": "mrg", "target": "mrg", "generator": "mrg32k3a", "distribution": "normal", "params": [0, 1]},
        {"kind": "random", "name": "sob", "target": "sob", "generator": "sobol32", "distribution": "lognormal", "params": [0, 0.5]},
        {"kind": "random", "name": "poi", "target": "poi", "generator": "xorwow", "distribution": "poisson", "params": [4]},
        {"kind": "random", "name": "pph", "target": "pph", "distribution": "poisson", "params": [2.5]}],
      "parameters": {"k": {"type": "float", "value": 3}}})";
}

const std::vector<std::string> kKept = {"acc", "accs", "out", "inout", "noise", "gauss", "xw", "mrg", "sob", "poi", "pph"};

class KeptContentsInterop : public InteropTest {
protected:
    std::unique_ptr<Session> session(int accWidth = 45)
    {
        PipelineOptions o;
        o.cuda = true;
        o.stream = m_stream.get();
        o.compile.arch = ks::cuda::queryDevice(0).archName();
        o.compile.ptxasVerbose = false;
        o.framesInFlight = 1; // as the app runs
        o.keepContents = true;
        auto r = ks::project::parseProject(project(accWidth), ks::test::sourceDir() / "tests" / "projects" / "interop" / "kept.json");
        for (const auto& p : r.problems)
            ADD_FAILURE() << p.format();
        if (!r.project)
            return nullptr;
        auto s = std::make_unique<Session>(*r.project, o, ks::test::sourceDir() / "shaders");
        for (const auto& problem : s->pipeline().buildAll(m_cache))
            ADD_FAILURE() << problem.format();
        return s;
    }
    static std::array<int, 2> descriptors(const Session& s)
    {
        return {s.pipeline().kept()->exportDescriptor(0), s.pipeline().kept()->exportDescriptor(1)};
    }
    static std::vector<std::vector<std::uint8_t>> contents(const Session& s)
    {
        std::vector<std::vector<std::uint8_t>> all;
        for (const std::string& name : kKept)
            all.push_back(s.pipeline().resources().download(name));
        return all;
    }
    ks::rtc::CompileCache m_cache;
};

} // namespace

TEST_F(KeptContentsInterop, AnotherPipelineTakesTheLastFrameAndGoesOnAsTheFirstWould)
{
    auto a = session();
    ASSERT_TRUE(a);
    const KeptContents* kept = a->pipeline().kept();
    ASSERT_NE(kept, nullptr) << a->pipeline().keptStatus();
    std::vector<std::string> names;
    for (const KeptEntry& e : kept->layout().entries)
        names.push_back(e.name);
    EXPECT_EQ(names, kKept) << "in is read-only: never kept";
    for (int f = 0; f < 5; ++f)
        ASSERT_TRUE(a->pipeline().frame()) << a->pipeline().error();
    a->pipeline().finish();
    EXPECT_EQ(a->pipeline().timings().keptBytes, double(kept->layout().contentBytes()));
    const auto afterFive = contents(*a);
    EXPECT_EQ(ks::test::download<float>(*a, "inout")[7], 1.0f + 5 * 0.5f);

    const std::array<int, 2> fds = descriptors(*a);
    auto b = session();
    const RestoredContents r = b->pipeline().restoreKept(kept->layout(), fds);
    EXPECT_EQ(r.frame, 4) << r.why;
    EXPECT_EQ(r.resources, int(kKept.size()));
    EXPECT_EQ(r.bytes, kept->layout().contentBytes());
    EXPECT_TRUE(r.skipped.empty());
    EXPECT_EQ(b->pipeline().frameIndex(), 5);
    EXPECT_EQ(contents(*b), afterFive) << "the restored bytes differ from the kept frame's";
    std::printf("[ kept ] %zu bytes restored in %.2f ms\n", std::size_t(r.bytes), r.ms);

    // Both go on: the same frames (the random stages draw on where an uninterrupted run would be).
    for (int f = 0; f < 3; ++f) {
        ASSERT_TRUE(a->pipeline().frame()) << a->pipeline().error();
        ASSERT_TRUE(b->pipeline().frame()) << b->pipeline().error();
    }
    a->pipeline().finish();
    b->pipeline().finish();
    const auto goneOnA = contents(*a), goneOnB = contents(*b);
    for (std::size_t i = 0; i < goneOnA.size(); ++i)
        EXPECT_TRUE(goneOnB[i] == goneOnA[i]) << "resource " << kKept[i] << " differs";
    EXPECT_EQ(ks::test::download<float>(*b, "inout")[7], 1.0f + 8 * 0.5f);

    // The restoring pipeline's own slots hold what it restored before it ran a frame: a second
    // restart (a fault right after the first) restores them again. (a's slots now hold frame 7.)
    auto c = session();
    auto d = session();
    const std::array<int, 2> cfds = descriptors(*c);
    EXPECT_EQ(c->pipeline().restoreKept(kept->layout(), fds).frame, 7);
    const RestoredContents again = d->pipeline().restoreKept(c->pipeline().kept()->layout(), cfds);
    EXPECT_EQ(again.frame, 7) << again.why;
    EXPECT_EQ(d->pipeline().frameIndex(), 8);
    EXPECT_EQ(contents(*d), contents(*a));
    for (int fd : fds)
        ::close(fd);
    for (int fd : cfds)
        ::close(fd);
}

TEST_F(KeptContentsInterop, NothingRestoredBeforeTheFirstFrameAndChangedResourcesAreSkipped)
{
    auto a = session();
    ASSERT_TRUE(a && a->pipeline().kept()) << (a ? a->pipeline().keptStatus() : "");
    const std::array<int, 2> fds = descriptors(*a);
    auto b = session();
    const RestoredContents none = b->pipeline().restoreKept(a->pipeline().kept()->layout(), fds);
    EXPECT_EQ(none.frame, -1);
    EXPECT_NE(none.why.find("no frame had finished"), std::string::npos) << none.why;
    EXPECT_EQ(b->pipeline().frameIndex(), 0);

    ASSERT_TRUE(a->pipeline().frame()) << a->pipeline().error();
    a->pipeline().finish();
    auto wider = session(46); // acc changed size: not restored, the others are
    const RestoredContents r = wider->pipeline().restoreKept(a->pipeline().kept()->layout(), fds);
    EXPECT_EQ(r.frame, 0);
    EXPECT_EQ(r.skipped, std::vector<std::string>{"acc"});
    EXPECT_EQ(r.resources, int(kKept.size()) - 1);
    EXPECT_EQ(wider->pipeline().resources().download("inout"), a->pipeline().resources().download("inout"));
    for (int fd : fds)
        ::close(fd);
}
