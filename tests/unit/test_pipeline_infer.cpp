// Projects inferred from kernels as public tutorials and samples write them
// (kernels/tutorials): what each parameter is bound to, the launch, the views, and what is
// refused with a reason.
#include "ks/pipeline/infer.hpp"

#include "ks/pipeline/check.hpp"
#include "ks/pipeline/kernel_stage.hpp"
#include "ks/syntax/kernel_signature.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/io/npy.hpp"
#include "ks/project/project.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <map>

namespace fs = std::filesystem;
using ks::pipeline::Inference;
using ks::pipeline::InferOptions;
using ks::project::ResourceDesc;
using ks::project::ViewKind;

namespace {

fs::path corpus(const std::string& file)
{
    return ks::test::sourceDir() / "kernels" / "tutorials" / file;
}

Inference infer(const std::string& file, InferOptions o = {})
{
    const fs::path path = corpus(file);
    return ks::pipeline::inferProject(path, ks::paths::readTextFile(path), o);
}

Inference infer(const std::string& file, const std::string& kernel)
{
    InferOptions o;
    o.kernel = kernel;
    return infer(file, o);
}

// "param -> bound" for each parameter, in order.
std::vector<std::string> bound(const Inference& inf)
{
    std::vector<std::string> out;
    for (const auto& b : inf.bindings)
        out.push_back(b.param + " -> " + b.bound);
    return out;
}

std::string problems(const Inference& inf)
{
    std::string out;
    for (const auto& p : inf.problems)
        out += p.format() + "\n";
    return out;
}

const ResourceDesc& resource(const Inference& inf, const std::string& name)
{
    const ResourceDesc* r = inf.project->resource(name);
    if (!r)
        throw std::runtime_error("no resource " + name);
    return *r;
}

std::vector<std::string> viewKinds(const Inference& inf)
{
    std::vector<std::string> out;
    for (const auto& v : inf.project->views)
        out.push_back(v.source + ":" + std::string(ks::project::viewKindName(v.kind)));
    return out;
}

using Strings = std::vector<std::string>;

} // namespace

TEST(Infer, VectorAddInputsAreRandomTheOutputIsPlottedAndTheCountIsNamed)
{
    const Inference inf = infer("vector_add.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"A -> buffer A", "B -> buffer B", "C -> buffer C", "numElements -> count of A"}));
    EXPECT_EQ(inf.bindings[3].describe(), "numElements: the element count of A (by its name)");
    EXPECT_TRUE(resource(inf, "A").data.has_value());
    EXPECT_FALSE(resource(inf, "C").data.has_value()); // zeros
    EXPECT_EQ(resource(inf, "C").count, std::int64_t(1) << 20);
    const auto& stage = inf.project->stages.at(0);
    EXPECT_EQ(stage.kernel, "vectorAdd");
    EXPECT_EQ(stage.cover, "C");
    EXPECT_EQ(stage.block, (std::array<unsigned, 3>{256, 1, 1}));
    EXPECT_EQ(viewKinds(inf), (Strings{"C:plot"}));
    EXPECT_TRUE(inf.project->views[0].autoRange);
}

TEST(Infer, SaxpyReadsXOnlyAndUpdatesYInPlace)
{
    const Inference inf = infer("saxpy.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"n -> count of x", "a -> parameter a", "x -> buffer x", "y -> buffer y"}));
    EXPECT_NE(inf.bindings[2].reason.find("an input (read, never written"), std::string::npos) << inf.bindings[2].reason;
    EXPECT_NE(inf.bindings[3].reason.find("in place"), std::string::npos) << inf.bindings[3].reason;
    EXPECT_TRUE(resource(inf, "y").data.has_value()); // in place: starts from random numbers
    EXPECT_EQ(inf.project->stages[0].cover, "y");
    ASSERT_EQ(inf.project->parameters.size(), 1u);
    EXPECT_EQ(inf.project->parameters[0].name, "a");
}

TEST(Infer, GridStrideLoopKernel)
{
    const Inference inf = infer("grid_stride_add.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"n -> count of x", "x -> buffer x", "y -> buffer y"}));
}

TEST(Infer, TransposesThatSizeByGridDimTakeGridAndBlock)
{
    InferOptions o;
    o.kernel = "transposeCoalesced";
    o.grid = std::array<unsigned, 3>{32, 32, 1};
    o.block = std::array<unsigned, 3>{32, 8, 1};
    o.shapes = {{"idata", {1024, 1024}}};
    const Inference inf = infer("transpose.cu", o);
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"odata -> buffer odata", "idata -> buffer idata"}));
    const auto& s = inf.project->stages[0];
    EXPECT_TRUE(s.cover.empty());
    EXPECT_EQ(s.grid, (std::array<unsigned, 3>{32, 32, 1}));
    EXPECT_EQ(s.block, (std::array<unsigned, 3>{32, 8, 1}));
    EXPECT_EQ(resource(inf, "odata").shape, (std::array<std::int64_t, 2>{1024, 1024}));
    EXPECT_EQ(viewKinds(inf), (Strings{"odata:image"}));
    EXPECT_EQ(infer("transpose.cu", "transposeNaive").project->stages[0].kernel, "transposeNaive");
}

TEST(Infer, SizedTransposeIsTwoDimensional)
{
    InferOptions o;
    o.shapes = {{"in", {300, 500}}};
    const Inference inf = infer("transpose_sized.cu", o);
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"out -> buffer out", "in -> buffer in", "width -> width of out",
                                   "height -> height of out"}));
    EXPECT_EQ(resource(inf, "out").shape, (std::array<std::int64_t, 2>{300, 500}));
    EXPECT_EQ(inf.project->stages[0].block, (std::array<unsigned, 3>{16, 16, 1}));
    EXPECT_FALSE(inf.project->stages[0].coverFlat);
}

TEST(Infer, SquareMatrixMultiplyTakesTheSideForN)
{
    for (const char* kernel : {"matMulNaive", "matMulTiled"}) {
        InferOptions o;
        o.kernel = kernel;
        o.shapes = {{"A", {256, 256}}};
        const Inference inf = infer("matmul.cu", o);
        ASSERT_TRUE(inf.ok()) << problems(inf);
        EXPECT_EQ(bound(inf), (Strings{"A -> buffer A", "B -> buffer B", "C -> buffer C", "N -> width of A"}))
            << kernel;
        EXPECT_EQ(resource(inf, "B").shape, (std::array<std::int64_t, 2>{256, 256}));
    }
}

TEST(Infer, HistogramGets256Bins)
{
    const Inference inf = infer("histogram.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"data -> buffer data", "hist -> buffer hist", "n -> count of data"}));
    EXPECT_EQ(resource(inf, "hist").count, 256);
    EXPECT_FALSE(resource(inf, "hist").data.has_value()); // written through atomics: starts at zero
    // The launch covers the output: 256 threads for 256 bins would miss the data, so the input's
    // count is the one to cover... the first output is what the inference covers; say so.
    EXPECT_EQ(inf.project->stages[0].cover, "hist");
}

TEST(Infer, SharedMemoryReductionAndScanAndStencil)
{
    Inference inf = infer("reduce.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"g_idata -> buffer g_idata", "g_odata -> buffer g_odata", "n -> count of g_idata"}));
    inf = infer("scan.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"g_odata -> buffer g_odata", "g_idata -> buffer g_idata", "n -> count of g_odata"}));
    EXPECT_TRUE(resource(inf, "g_idata").data.has_value()); // only read: an input
    inf = infer("stencil.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"in -> buffer in", "out -> buffer out", "n -> count of in"}));
    EXPECT_EQ(resource(inf, "in").element.scalar, ks::project::ScalarType::Int32);
}

TEST(Infer, MandelbrotIsAColourImageWithSliders)
{
    const Inference inf = infer("mandelbrot.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"img -> buffer img", "width -> width of img", "height -> height of img",
                                   "scale -> parameter scale", "maxIter -> parameter maxIter"}));
    EXPECT_EQ(resource(inf, "img").shape, (std::array<std::int64_t, 2>{1024, 1024}));
    EXPECT_EQ(viewKinds(inf), (Strings{"img:image"}));
    const auto* iter = inf.project->parameter("maxIter");
    ASSERT_TRUE(iter);
    EXPECT_EQ(iter->value[0], 256);
    EXPECT_EQ(inf.project->stages[0].block, (std::array<unsigned, 3>{16, 16, 1}));
}

TEST(Infer, SobelAndBlurAreImageKernels)
{
    Inference inf = infer("sobel.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"in -> buffer in", "out -> buffer out", "width -> width of in",
                                   "height -> height of in"}));
    EXPECT_EQ(viewKinds(inf), (Strings{"out:image"})); // gray, through the colour map from 0 to 255
    inf = infer("box_blur.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"in -> buffer in", "out -> buffer out", "w -> width of in", "h -> height of in",
                                   "radius -> parameter radius"}));
    EXPECT_EQ(viewKinds(inf), (Strings{"out:image"}));
}

TEST(Infer, ParticlesAndNBodyArePoints)
{
    Inference inf = infer("particles.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"pos -> buffer pos", "vel -> buffer vel", "dt -> builtin dt", "n -> count of pos"}));
    EXPECT_EQ(viewKinds(inf), (Strings{"pos:points"}));
    EXPECT_TRUE(resource(inf, "pos").data.has_value());
    inf = infer("nbody.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"p -> buffer p", "v -> buffer v", "dt -> builtin dt", "n -> count of p"}));
    EXPECT_EQ(resource(inf, "v").element.components, 3);
    EXPECT_EQ(viewKinds(inf), (Strings{"v:points"}));
}

TEST(Infer, SurfacesAndTexturesBecomeTextures)
{
    Inference inf = infer("surface_gradient.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"out -> texture out", "width -> width of out", "height -> height of out",
                                   "time -> builtin time"}));
    EXPECT_TRUE(resource(inf, "out").isTexture());
    EXPECT_TRUE(resource(inf, "out").followViewport);
    EXPECT_EQ(inf.project->stages[0].args[0].kind, ks::project::ArgBinding::Kind::Surface);
    EXPECT_EQ(viewKinds(inf), (Strings{"out:image"}));
    InferOptions sized;
    sized.size = std::array<int, 2>{640, 360};
    inf = infer("surface_gradient.cu", sized);
    EXPECT_EQ(resource(inf, "out").width, 640);
    EXPECT_EQ(resource(inf, "out").height, 360);
    inf = infer("texture_sample.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"tex -> texture tex", "luminance -> buffer luminance", "width -> width of tex",
                                   "height -> height of tex"}));
    EXPECT_EQ(viewKinds(inf), (Strings{"luminance:image"}));
}

TEST(Infer, TemplatesRunByTheirInstantiation)
{
    Inference inf = infer("scale_template.cu", "scale<double>");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"data -> buffer data", "factor -> parameter factor", "n -> count of data"}));
    EXPECT_EQ(inf.project->stages[0].kernel, "scale<double>");
    EXPECT_EQ(resource(inf, "data").element.scalar, ks::project::ScalarType::Float64);
    EXPECT_EQ(inf.project->parameters[0].type.scalar, ks::project::ScalarType::Float64);
    inf = infer("scale_template.cu", "scale<int>");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(resource(inf, "data").element.scalar, ks::project::ScalarType::Int32);
    // A template without its arguments says how to name one.
    inf = infer("scale_template.cu");
    ASSERT_FALSE(inf.ok());
    EXPECT_NE(problems(inf).find("scale_template.cu:scale<float>"), std::string::npos) << problems(inf);
    inf = infer("scale_template.cu", "scale<float, int>");
    EXPECT_NE(problems(inf).find("1 template parameters (typename T); 2 given"), std::string::npos) << problems(inf);
}

TEST(Infer, NamespacedKernelsRunByTheirQualifiedName)
{
    const Inference inf = infer("namespaced.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(inf.project->stages[0].kernel, "kernels::square");
    EXPECT_EQ(bound(inf), (Strings{"out -> buffer out", "in -> buffer in", "count -> count of out"}));
    EXPECT_EQ(infer("namespaced.cu", "kernels::square").project->stages[0].kernel, "kernels::square");
}

TEST(Infer, HeatStepAndPyCudaTutorialKernels)
{
    Inference inf = infer("heat.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"u -> buffer u", "unew -> buffer unew", "nx -> width of u", "ny -> height of u",
                                   "alpha -> parameter alpha"}));
    EXPECT_EQ(viewKinds(inf), (Strings{"unew:image"}));
    EXPECT_TRUE(inf.project->views[0].autoRange);
    inf = infer("pycuda_tutorial.cu", "multiply_them");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"dest -> buffer dest", "a -> buffer a", "b -> buffer b"}));
    EXPECT_TRUE(resource(inf, "a").data.has_value()); // read only
    inf = infer("pycuda_tutorial.cu", "doublify");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_NE(inf.bindings[0].reason.find("in place"), std::string::npos) << inf.bindings[0].reason;
}

TEST(Infer, DotComplexThresholdReluInvert)
{
    Inference inf = infer("dot.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"a -> buffer a", "b -> buffer b", "c -> buffer c", "n -> count of a"}));
    EXPECT_FALSE(resource(inf, "c").data.has_value()); // atomicAdd(c, ...): an output from zero
    inf = infer("complex_mul.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(resource(inf, "c").element.scalar, ks::project::ScalarType::Float64);
    EXPECT_EQ(resource(inf, "c").element.components, 2);
    EXPECT_EQ(viewKinds(inf), (Strings{})); // double2 has no view; --dump writes it
    inf = infer("threshold.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"in -> buffer in", "mask -> buffer mask", "level -> parameter level",
                                   "invert -> parameter invert", "n -> count of in"}));
    const auto* invert = inf.project->parameter("invert");
    ASSERT_TRUE(invert);
    EXPECT_EQ(invert->max, 1); // a bool: 0 or 1
    inf = infer("relu.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"x -> buffer x", "n -> count of x"}));
    inf = infer("invert.cu");
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(viewKinds(inf), (Strings{"img:image"}));
}

TEST(Infer, StructsOfTheFileAreLaidOutPointedToAsRowsOfBytesAndByValueAsMembers)
{
    InferOptions o;
    o.shapes = {{"particles", {1000}}};
    o.args = {{"step", R"({"dt": 0.5, "gravity": [0, -10, 0], "restitution": 1})"}};
    const Inference inf = infer("particles_aos.cu", o);
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(bound(inf), (Strings{"particles -> buffer particles", "n -> count of particles", "step -> struct StepSettings"}));
    // sizeof(Particle) is 32 (float3, float3, float, int): one row of raw bytes per particle.
    const ResourceDesc& r = resource(inf, "particles");
    EXPECT_EQ(r.element, (ks::project::ValueType{ks::project::ScalarType::UInt8, 1}));
    ASSERT_TRUE(r.shape);
    EXPECT_EQ(*r.shape, (std::array<std::int64_t, 2>{1000, 32}));
    EXPECT_NE(inf.bindings[0].reason.find("1000 records of struct Particle"), std::string::npos) << inf.bindings[0].reason;
    EXPECT_NE(inf.bindings[0].reason.find("mass at 24"), std::string::npos) << inf.bindings[0].reason;
    EXPECT_TRUE(inf.project->views.empty()); // raw bytes draw as nothing; --dump writes them
    const auto& stage = inf.project->stages.at(0);
    EXPECT_EQ(r.record, "Particle");
    EXPECT_EQ(stage.cover, "particles"); // one thread per particle: its extent is its records
    EXPECT_EQ(ks::pipeline::resourceExtent(r), (std::array<std::int64_t, 2>{1000, 1}));
    EXPECT_EQ(ks::pipeline::launchConfigOf(stage, &r).grid.x, 4u); // blocks of 256
    EXPECT_EQ(stage.args[1].kind, ks::project::ArgBinding::Kind::Count);
    ASSERT_EQ(stage.args[2].kind, ks::project::ArgBinding::Kind::Record);
    EXPECT_EQ(stage.args[2].fields.size(), 3u);

    // The saved project keeps the members, reads back the same, and passes --validate's bindings.
    ks::test::TempDir dir;
    const fs::path file = dir.path() / "p.json";
    const std::string text = ks::project::serializeProject(*inf.project, file);
    EXPECT_NE(text.find("\"struct\""), std::string::npos) << text;
    const ks::project::LoadResult back = ks::project::parseProject(text, file);
    ASSERT_TRUE(back.ok()) << (back.problems.empty() ? "" : back.problems[0].format());
    EXPECT_EQ(back.project->stages[0].args[2].fields, stage.args[2].fields);
    const auto kernel = ks::syntax::findKernel(ks::paths::readTextFile(corpus("particles_aos.cu")), "stepParticles");
    ASSERT_TRUE(kernel);
    const auto found = ks::pipeline::checkStageBindings(*back.project, back.project->stages[0], *kernel);
    EXPECT_TRUE(found.empty()) << found[0].format();

    // The same struct as raw bytes; a member it lacks, too many values, bytes of the wrong size.
    auto check = [&](const std::string& spec) {
        InferOptions x;
        x.args = {{"step", spec}};
        return infer("particles_aos.cu", x);
    };
    const Inference raw = check("bytes:0000003f 00000000 000020c1 00000000 00000000 0000803f");
    ASSERT_TRUE(raw.ok()) << problems(raw);
    EXPECT_EQ(raw.project->stages[0].args[2].bytes.size(), 24u);
    EXPECT_EQ(raw.bindings[2].bound, "raw bytes");
    EXPECT_NE(problems(check(R"({"speed": 1})")).find("no member \"speed\"; its members are dt, gravity, floor, restitution"),
              std::string::npos)
        << problems(check(R"({"speed": 1})"));
    EXPECT_NE(problems(check(R"({"gravity": [1, 2, 3, 4]})")).find("holds 3 numbers"), std::string::npos);
    EXPECT_NE(problems(check(R"({"dt": )")).find("--arg step="), std::string::npos);
    EXPECT_NE(problems(check("bytes:0011zz")).find("not a hex digit"), std::string::npos);
    ks::project::Project wrong = *raw.project;
    wrong.stages[0].args[2].bytes.resize(20);
    const auto tooShort = ks::pipeline::checkStageBindings(wrong, wrong.stages[0], *kernel);
    ASSERT_EQ(tooShort.size(), 1u);
    EXPECT_NE(tooShort[0].message.find("20 bytes are given"), std::string::npos) << tooShort[0].message;
    EXPECT_NE(tooShort[0].message.find("is 24 bytes"), std::string::npos) << tooShort[0].message;
}

TEST(Infer, AStructItCannotLayOutIsRefusedNamingTheParameterAndOfferingBytes)
{
    const fs::path path = ks::test::sourceDir() / "tests" / "projects" / "infer" / "struct_param.cu";
    const std::string source = ks::paths::readTextFile(path);
    const Inference inf = ks::pipeline::inferProject(path, source, {});
    ASSERT_FALSE(inf.ok());
    const std::string text = problems(inf);
    EXPECT_NE(text.find("struct_param.cu:8:"), std::string::npos) << text;
    EXPECT_NE(text.find("'Params p'"), std::string::npos) << text;
    EXPECT_NE(text.find("bit-field"), std::string::npos) << text;
    EXPECT_NE(text.find("--arg p=bytes:HEX"), std::string::npos) << text;
    // Given as bytes, it runs: the size is checked against the compiled kernel at launch.
    InferOptions o;
    o.args = {{"p", "bytes:0000803f 05000000"}};
    const Inference given = ks::pipeline::inferProject(path, source, o);
    EXPECT_TRUE(given.ok()) << problems(given);
    o.args = {{"p", R"({"gain": 1})"}};
    EXPECT_NE(problems(ks::pipeline::inferProject(path, source, o)).find("raw bytes"), std::string::npos);
}

TEST(Infer, UnknownKernelArgAndShapeNamesListWhatThereIs)
{
    Inference inf = infer("vector_add.cu", "vectorSub");
    EXPECT_NE(problems(inf).find("no kernel \"vectorSub\"; it has vectorAdd"), std::string::npos)
        << problems(inf);
    InferOptions o;
    o.args = {{"Q", "zeros"}};
    inf = infer("vector_add.cu", o);
    EXPECT_NE(problems(inf).find("--arg Q=zeros: kernel vectorAdd has no parameter \"Q\"; its parameters are A, B, "
                                 "C, numElements"),
              std::string::npos)
        << problems(inf);
    o.args = {};
    o.shapes = {{"Z", {3}}};
    inf = infer("vector_add.cu", o);
    EXPECT_NE(problems(inf).find("--shape Z: kernel vectorAdd has no parameter \"Z\""), std::string::npos)
        << problems(inf);
    o.shapes = {};
    o.args = {{"A", "bogus:thing"}};
    inf = infer("vector_add.cu", o);
    EXPECT_NE(problems(inf).find("--arg A=bogus:thing: "), std::string::npos) << problems(inf);
}

TEST(Infer, ShapesComeFromDataAndScalarsFromNumbers)
{
    ks::test::TempDir dir;
    const fs::path a = dir.path() / "a.npy";
    std::vector<float> values(1000, 2.f);
    ks::io::writeNpy(a, "<f4", {1000}, values.data(), values.size() * 4);
    InferOptions o;
    o.args = {{"A", a.string()}, {"numElements", "500"}};
    const Inference inf = infer("vector_add.cu", o);
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(resource(inf, "A").count, 1000);
    EXPECT_EQ(resource(inf, "B").count, 1000); // the problem's shape: the first data's
    EXPECT_EQ(resource(inf, "C").count, 1000);
    EXPECT_EQ(bound(inf).back(), "numElements -> the value 500");
    EXPECT_EQ(inf.project->stages[0].args[3].kind, ks::project::ArgBinding::Kind::Literal);
}

// The inferred project is an ordinary one: it serializes, parses back, and serializes the same.
TEST(Infer, EveryCorpusProjectRoundTripsThroughItsJson)
{
    ks::test::TempDir dir;
    int made = 0;
    for (const auto& entry : fs::directory_iterator(corpus(""))) {
        const std::string source = ks::paths::readTextFile(entry.path());
        for (const std::string& kernel : {std::string(), std::string("scale<float>")}) {
            if (!kernel.empty() && entry.path().filename() != "scale_template.cu")
                continue;
            InferOptions o;
            o.kernel = kernel;
            const Inference inf = ks::pipeline::inferProject(entry.path(), source, o);
            if (!inf.ok())
                continue;
            ++made;
            const fs::path file = dir.path() / (entry.path().stem().string() + ".json");
            const std::string text = ks::project::serializeProject(*inf.project, file);
            const ks::project::LoadResult back = ks::project::parseProject(text, file);
            ASSERT_TRUE(back.ok()) << entry.path() << "\n" << text << "\n"
                                   << (back.problems.empty() ? "" : back.problems[0].format());
            EXPECT_EQ(ks::project::serializeProject(*back.project, file), text) << entry.path();
        }
    }
    EXPECT_GE(made, 25); // kernels as tutorials and samples write them
}

TEST(Infer, KernelSpecsSplitAtASingleColon)
{
    using ks::pipeline::splitKernelSpec;
    EXPECT_EQ(splitKernelSpec("k.cu"), (std::pair<fs::path, std::string>{"k.cu", ""}));
    EXPECT_EQ(splitKernelSpec("k.cu:saxpy"), (std::pair<fs::path, std::string>{"k.cu", "saxpy"}));
    EXPECT_EQ(splitKernelSpec("dir/k.cu:ns::scale<double>"),
              (std::pair<fs::path, std::string>{"dir/k.cu", "ns::scale<double>"}));
}

// A name that picks more than one kernel (overloads, or one name in two namespaces) is not guessed:
// NVRTC could not tell them apart by it either. A qualified name picks one, and a global kernel's
// plain name is its qualified name.
TEST(Infer, ANameOfTwoKernelsIsRefusedNamingBoth)
{
    const std::string source = "namespace a { __global__ void scale(float* p, int n) {} }\n"
                               "namespace b { __global__ void scale(double* p) {} }\n"
                               "__global__ void twice(float* p) {}\n"
                               "__global__ void twice(int* p) {}\n"
                               "__global__ void clamp(float* p, float lo, float hi) {}\n"
                               "namespace a { __global__ void clamp(float* p) {} }\n";
    InferOptions o;
    o.kernel = "scale";
    Inference inf = ks::pipeline::inferProject("k.cu", source, o);
    ASSERT_FALSE(inf.ok());
    EXPECT_NE(problems(inf).find("\"scale\" names 2 kernels (a::scale on line 1, b::scale on line 2)"),
              std::string::npos)
        << problems(inf);
    o.kernel = "a::scale";
    inf = ks::pipeline::inferProject("k.cu", source, o);
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(inf.bindings.size(), 2u);
    o.kernel = "twice";
    inf = ks::pipeline::inferProject("k.cu", source, o);
    EXPECT_NE(problems(inf).find("\"twice\" names 2 kernels (twice on line 3, twice on line 4)"), std::string::npos)
        << problems(inf);
    o.kernel = "clamp"; // the global one
    inf = ks::pipeline::inferProject("k.cu", source, o);
    ASSERT_TRUE(inf.ok()) << problems(inf);
    EXPECT_EQ(inf.bindings.size(), 3u);
}

// The lexer takes bytes past 0x7F as identifier characters; a project file keeps names as UTF-8, so
// a Latin-1 name is refused by the inference instead of failing when the project is written.
TEST(Infer, NamesThatAreNotUtf8AreRefused)
{
    InferOptions o;
    Inference inf = ks::pipeline::inferProject("k.cu", "__global__ void k(float* gr\xfc\xdf, int n) {}\n", o);
    ASSERT_FALSE(inf.ok());
    EXPECT_NE(problems(inf).find("parameter 1 of k has a name that is not UTF-8 text"), std::string::npos)
        << problems(inf);
    inf = ks::pipeline::inferProject("k.cu", "__global__ void gr\xfc\xdf(float* p, int n) {}\n", o);
    ASSERT_FALSE(inf.ok());
    EXPECT_NE(problems(inf).find("the kernel's name is not UTF-8 text"), std::string::npos) << problems(inf);
    inf = ks::pipeline::inferProject("k.cu", "__global__ void gr\xc3\xbc\xc3\x9f(float* p, int n) {}\n", o);
    EXPECT_TRUE(inf.ok()) << problems(inf); // UTF-8 names are fine
}
