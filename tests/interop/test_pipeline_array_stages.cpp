// On a GPU host: the random, math and reduce stages on GL buffers mapped for the frame give the
// numbers a host computation gives (outputs poisoned first), random fills repeat with the seed, and
// the particle project's bounding-box read-outs match its positions.
#include "ks/project/project.hpp"
#include "ks/scene/session.hpp"
#include "resource_download.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace ks::pipeline;
using ks::scene::Session;
using ks::test::download;

namespace {

namespace fs = std::filesystem;

std::string numbers(const std::vector<float>& v) { return ks::test::jsonNumbers(v); }

class ArrayStagesInterop : public ks::test::InteropTest {
protected:
    std::unique_ptr<Session> session(const std::string& text, std::optional<std::uint64_t> seed = std::nullopt)
    {
        auto r = ks::project::parseProject(text, ks::test::sourceDir() / "tests" / "projects" / "interop" / "a.json");
        for (const auto& p : r.problems)
            ADD_FAILURE() << p.format();
        PipelineOptions o;
        o.cuda = true;
        o.stream = m_stream.get();
        o.compile.arch = ks::cuda::queryDevice(0).archName();
        o.compile.ptxasVerbose = false;
        o.seed = seed;
        auto s = std::make_unique<Session>(*r.project, o, ks::test::sourceDir() / "shaders");
        for (const auto& problem : s->pipeline().buildAll(m_cache))
            ADD_FAILURE() << problem.format();
        for (std::size_t i = 0; i < s->pipeline().stageCount(); ++i)
            EXPECT_TRUE(s->pipeline().stage(i).ready()) << s->pipeline().stage(i).status();
        return s;
    }
    ks::rtc::CompileCache m_cache;
};

TEST_F(ArrayStagesInterop, MathMatchesTheHost)
{
    const int n = 4 * 1001; // float4 x 1001
    const auto vel = ks::test::randomFloats(n, 11), acc = ks::test::randomFloats(n, 12);
    const std::vector<float> poison(n, -777.f);
    auto s = session(R"({"kernelscope": 1, "timeStep": 0.01, "parameters": {"k": {"type": "float", "value": 2.5}},
      "resources": {"vel": {"kind": "buffer", "type": "float4", "count": 1001, "init": )" + numbers(vel) + R"(},
        "acc": {"kind": "buffer", "type": "float4", "count": 1001, "init": )" + numbers(acc) + R"(},
        "out": {"kind": "buffer", "type": "float", "count": 4004, "discard": true, "init": )" + numbers(poison) + R"(}},
      "stages": [{"kind": "math", "name": "v", "expression": "vel = vel + dt*acc*k"},
                 {"kind": "math", "name": "o", "expression": "out = vel * vel - acc + i % 4"}]})");
    ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    const auto v = download<float>(*s, "vel"), o = download<float>(*s, "out");
    for (int i = 0; i < n; ++i) {
        const float hv = vel[std::size_t(i)] + 0.01f * acc[std::size_t(i)] * 2.5f;
        ASSERT_NEAR(v[std::size_t(i)], hv, 1e-6f * (1 + std::fabs(hv))) << i;
        const float ho = hv * hv - acc[std::size_t(i)] + float(i % 4);
        ASSERT_NEAR(o[std::size_t(i)], ho, 1e-5f * (1 + std::fabs(ho))) << i;
    }
    EXPECT_GT(s->pipeline().timings().stages[0].ms, 0.f);
}

TEST_F(ArrayStagesInterop, ReductionsMatchTheHost)
{
    const int count = 10007;
    const auto data = ks::test::randomFloats(std::size_t(count) * 4, 21);
    auto s = session(R"({"kernelscope": 1,
      "resources": {"p": {"kind": "buffer", "type": "float4", "count": 10007, "init": )" + numbers(data) + R"(},
        "sum": {"kind": "buffer", "type": "double", "count": 4, "discard": true, "init": -777}},
      "stages": [{"kind": "reduce", "name": "s", "source": "p", "op": "sum", "into": "sum"},
                 {"kind": "reduce", "name": "lo", "source": "p", "op": "min"},
                 {"kind": "reduce", "name": "hi", "source": "p", "op": "max"},
                 {"kind": "reduce", "name": "sq", "source": "p", "op": "custom", "reduce": "a + b", "neutral": "0",
                  "map": "x[i] * x[i]"}]})");
    ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    const auto r = s->pipeline().readouts();
    ASSERT_EQ(r.size(), 4u);
    for (const auto& x : r) {
        ASSERT_TRUE(x.valid) << x.stage;
        ASSERT_EQ(x.values.size(), 4u) << x.stage;
    }
    const auto into = download<double>(*s, "sum");
    for (int c = 0; c < 4; ++c) {
        double sum = 0, sq = 0;
        float lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < count; ++i) {
            const float x = data[std::size_t(i) * 4 + std::size_t(c)];
            sum += x, sq += double(x * x);
            lo = std::min(lo, x), hi = std::max(hi, x);
        }
        EXPECT_NEAR(r[0].values[std::size_t(c)], sum, 1e-9 * (1 + std::fabs(sum))) << c; // accumulated in double
        EXPECT_EQ(into[std::size_t(c)], r[0].values[std::size_t(c)]) << c;
        EXPECT_EQ(r[1].values[std::size_t(c)], double(lo)) << c;
        EXPECT_EQ(r[2].values[std::size_t(c)], double(hi)) << c;
        EXPECT_NEAR(r[3].values[std::size_t(c)], sq, 1e-4 * sq) << c; // accumulated in float
    }
}

TEST_F(ArrayStagesInterop, RandomFillsRepeatWithTheSeed)
{
    const std::string project = R"({"kernelscope": 1, "seed": 3,
      "resources": {"u": {"kind": "buffer", "type": "float", "count": 100001, "init": -777},
        "g": {"kind": "buffer", "type": "double", "count": 100001, "init": -777},
        "k": {"kind": "buffer", "type": "unsigned int", "count": 100001, "init": 4000000000}},
      "stages": [{"kind": "random", "target": "u", "params": [-2, 3]},
                 {"kind": "random", "target": "g", "distribution": "normal", "params": [1, 2], "generator": "xorwow",
                  "seed": 9},
                 {"kind": "random", "target": "k", "distribution": "poisson", "params": [4], "reseedEachFrame": true}]})";
    auto a = session(project), b = session(project), c = session(project, 4);
    for (auto* s : {a.get(), b.get(), c.get()})
        ASSERT_TRUE(s->pipeline().frame()) << s->pipeline().error();
    const auto u = download<float>(*a, "u");
    const auto g = download<double>(*a, "g");
    const auto k = download<std::uint32_t>(*a, "k");
    double mean = 0, var = 0, kmean = 0;
    for (float x : u)
        ASSERT_TRUE(x >= -2.f && x <= 3.f) << x;
    for (double x : g)
        mean += x / double(g.size());
    for (double x : g)
        var += (x - mean) * (x - mean) / double(g.size());
    for (std::uint32_t x : k) {
        ASSERT_LT(x, 100u);
        kmean += double(x) / double(k.size());
    }
    EXPECT_NEAR(mean, 1.0, 0.03);
    EXPECT_NEAR(std::sqrt(var), 2.0, 0.03);
    EXPECT_NEAR(kmean, 4.0, 0.05);
    EXPECT_NE(*std::min_element(u.begin(), u.end()), *std::max_element(u.begin(), u.end()));
    for (const char* name : {"u", "g", "k"}) {
        EXPECT_EQ(a->pipeline().resources().download(name), b->pipeline().resources().download(name)) << name;
        EXPECT_NE(a->pipeline().resources().download(name), c->pipeline().resources().download(name)) << name;
    }
    // The next frame continues the sequence (or reseeds per frame): new numbers; a restart repeats.
    const auto first = a->pipeline().resources().download("u");
    const auto firstK = a->pipeline().resources().download("k");
    ASSERT_TRUE(a->pipeline().frame());
    EXPECT_NE(first, a->pipeline().resources().download("u"));
    EXPECT_NE(firstK, a->pipeline().resources().download("k"));
    a->pipeline().restart();
    ASSERT_TRUE(a->pipeline().frame());
    EXPECT_EQ(first, a->pipeline().resources().download("u"));
    EXPECT_EQ(firstK, a->pipeline().resources().download("k"));
}

TEST_F(ArrayStagesInterop, ParticleBoundingBoxReadoutsMatchThePositions)
{
    auto r = ks::project::loadProject(ks::test::sourceDir() / "projects" / "particles.json");
    ASSERT_TRUE(r.ok());
    PipelineOptions o;
    o.cuda = true;
    o.stream = m_stream.get();
    o.compile.arch = ks::cuda::queryDevice(0).archName();
    o.compile.ptxasVerbose = false;
    Session s(*r.project, o, ks::test::sourceDir() / "shaders");
    for (const auto& problem : s.pipeline().buildAll(m_cache))
        ADD_FAILURE() << problem.format();
    for (int f = 0; f < 20; ++f)
        ASSERT_TRUE(s.pipeline().frame()) << s.pipeline().error();
    const auto pos = download<float>(s, "pos");
    const auto readouts = s.pipeline().readouts();
    ASSERT_EQ(readouts.size(), 2u);
    for (int c = 0; c < 3; ++c) {
        float lo = INFINITY, hi = -INFINITY;
        for (std::size_t i = std::size_t(c); i < pos.size(); i += 4)
            lo = std::min(lo, pos[i]), hi = std::max(hi, pos[i]);
        EXPECT_EQ(readouts[0].values[std::size_t(c)], double(lo)) << c;
        EXPECT_EQ(readouts[1].values[std::size_t(c)], double(hi)) << c;
        EXPECT_LT(lo, hi);
    }
}

} // namespace
