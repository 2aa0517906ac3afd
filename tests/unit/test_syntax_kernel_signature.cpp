// The kernel signature scanner (ks/syntax/kernel_signature.hpp) and the lexer under it: what it
// reads from every kernel file of the repository (a golden listing), each shape of declaration,
// host layouts of parameter types (against the host compiler's own <vector_types.h>).
#include "ks/core/paths.hpp"
#include "ks/pipeline/check.hpp"
#include "ks/syntax/kernel_signature.hpp"
#include "ks/syntax/lexer.hpp"
#include "ks/syntax/type_layout.hpp"
#include "ks/teach/instrument.hpp"

#include "test_support.hpp"

#include <vector_types.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ks::syntax;
using ks::pipeline::describeParam;
using ks::pipeline::paramValueType;
using ks::project::ScalarType;
using ks::project::ValueType;

namespace {

// Seeds of the `signatures` fuzz target that hold kernels of every shape the scanner knows.
std::string readSeed(const std::string& name)
{
    return ks::paths::readTextFile(ks::test::sourceDir() / "tests" / "fuzz" / "corpus" / "signatures" / name);
}

const KernelSignature* byName(const std::vector<KernelSignature>& ks, const std::string& name)
{
    for (const auto& k : ks)
        if (k.qualifiedName() == name)
            return &k;
    return nullptr;
}

const char* kindName(ParamKind k)
{
    switch (k) {
    case ParamKind::Pointer:
        return "pointer";
    case ParamKind::Value:
        return "value";
    case ParamKind::Surface:
        return "surface";
    case ParamKind::Texture:
        return "texture";
    case ParamKind::Unknown:
        return "unknown";
    }
    return "?";
}

// `text` with bytes outside printable ASCII as \xNN (the fuzzers' inputs hold any byte).
std::string printable(std::string_view text)
{
    std::string s;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7f) {
            s += c;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02X", u);
            s += hex;
        }
    }
    return s;
}

// A struct parameter's layout as read ("record Particle 32/16: pos@0 float3, ..."), or why not.
std::string record(const KernelParam& p)
{
    if (p.record) {
        std::string s = " record " + p.record->name + " " + std::to_string(p.record->layout.size) + "/" +
                        std::to_string(p.record->layout.align) + ":";
        for (const auto& f : p.record->fields)
            s += " " + f.name + "@" + std::to_string(f.offset) + " " + f.type +
                 (f.count > 1 ? "[" + std::to_string(f.count) + "]" : "");
        return printable(s);
    }
    return p.recordProblem.empty() ? "" : " no-record (" + printable(p.recordProblem) + ")";
}

// What the scanner reads from a source, one line per kernel and per parameter.
std::string listing(std::string_view source)
{
    std::ostringstream out;
    for (const KernelSignature& k : findKernels(source)) {
        out << "  " << printable(k.qualifiedName()) << " line " << k.line << (k.externC ? " extern-C" : "");
        if (k.isTemplate())
            out << " template<" << printable(k.templateParameters) << ">";
        for (const std::string& a : k.attributes)
            out << " " << printable(a);
        out << "\n";
        for (const KernelParam& p : k.params)
            out << "    " << kindName(p.kind) << " [" << printable(p.type) << "] [" << printable(p.name) << "] base ["
                << printable(p.baseType) << "]"
                << (p.pointeeConst ? " const" : "") << " line " << p.line << record(p) << "\n";
    }
    return out.str();
}

// Every file of CUDA source in the repository's kernels and test data: the shipped kernels, the
// projects' kernels, the fuzzers' seeds (edge_cases.cu and mixed.cu among them) and regressions.
std::vector<std::filesystem::path> kernelFiles()
{
    const std::filesystem::path root = ks::test::sourceDir();
    std::vector<std::filesystem::path> files;
    for (const char* dir : {"kernels", "projects", "tests/projects", "tests/fuzz/corpus", "tests/fuzz/regressions"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(root / dir)) {
            const std::string ext = e.path().extension().string();
            if (e.is_regular_file() && (ext == ".cu" || ext == ".cuh"))
                files.push_back(e.path().lexically_relative(root));
        }
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

// The golden listing (tests/unit/data/kernel_scan.txt) of what the scanner reads from every
// kernel file. After a deliberate change, KS_WRITE_KERNEL_SCAN=1 rewrites it; review its diff.
TEST(KernelScan, ReadsEveryKernelFileAsRecorded)
{
    std::string all;
    for (const auto& file : kernelFiles())
        all += file.generic_string() + "\n" + listing(ks::paths::readTextFile(ks::test::sourceDir() / file));
    const std::filesystem::path golden = ks::test::sourceDir() / "tests" / "unit" / "data" / "kernel_scan.txt";
    if (const char* write = std::getenv("KS_WRITE_KERNEL_SCAN"); write && std::string(write) == "1") {
        std::ofstream(golden, std::ios::binary) << all;
        GTEST_SKIP() << "wrote " << golden;
    }
    EXPECT_EQ(all, ks::paths::readTextFile(golden)) << "rewrite with KS_WRITE_KERNEL_SCAN=1 if the change is meant";
}

TEST(KernelScan, FindsEveryShapeWithNamesTypesAndQualifiers)
{
    const auto ks = findKernels(readSeed("mixed.cu"));
    ASSERT_EQ(ks.size(), 5u);

    const auto* plain = byName(ks, "plain");
    ASSERT_TRUE(plain);
    EXPECT_TRUE(plain->externC);
    EXPECT_EQ(plain->line, 6);
    EXPECT_EQ(plain->display(), "plain(float* __restrict__ out, const float* in, int n, float scale)");

    const auto* vectors = byName(ks, "vectors");
    ASSERT_TRUE(vectors);
    EXPECT_TRUE(vectors->externC) << "inside an extern \"C\" block";
    ASSERT_EQ(vectors->params.size(), 7u);
    EXPECT_EQ(vectors->params[5].type, "unsigned long long");
    EXPECT_EQ(vectors->params[5].name, "u");

    const auto* bounded = byName(ks, "outer::inner::bounded");
    ASSERT_TRUE(bounded);
    EXPECT_FALSE(bounded->externC);
    EXPECT_EQ(bounded->launchBounds, "128, 2");
    ASSERT_EQ(bounded->params.size(), 3u);
    EXPECT_EQ(bounded->params[1].type, "int");
    EXPECT_EQ(bounded->params[1].name, "");
    EXPECT_EQ(bounded->params[2].type, "float*") << "arrays decay";
    EXPECT_EQ(bounded->params[2].name, "arr");

    const auto* scaled = byName(ks, "scaled");
    ASSERT_TRUE(scaled);
    EXPECT_TRUE(scaled->isTemplate());
    EXPECT_EQ(scaled->display(), "scaled(T* data, T factor)");

    EXPECT_TRUE(byName(ks, "cpp_kernel"));
    EXPECT_FALSE(byName(ks, "declared_only")) << "declarations have no body";
    EXPECT_FALSE(byName(ks, "commented_out"));
    EXPECT_FALSE(byName(ks, "in_a_string"));
}

TEST(KernelScan, TemplateArgumentsWithCommasAndDefaultsStayInOneParameter)
{
    const auto ks =
        findKernels("template <class A, class B> struct Pair {};\n"
                    "__global__ void k(Pair<int, float>* p, int n = (1, 2), const unsigned char* const c) {}\n"
                    "__global__ void none(void) {}\n");
    ASSERT_EQ(ks.size(), 2u);
    ASSERT_EQ(ks[0].params.size(), 3u);
    EXPECT_EQ(ks[0].params[0].type, "Pair<int, float>*");
    EXPECT_EQ(ks[0].params[1].name, "n");
    EXPECT_EQ(ks[0].params[2].type, "const unsigned char* const");
    EXPECT_TRUE(ks[1].params.empty());
}

TEST(KernelScan, KnownLayoutsMatchTheHostCompilersVectorTypes)
{
#define KS_EXPECT_LAYOUT(T)                                                                                            \
    do {                                                                                                               \
        const auto l = knownTypeLayout(#T);                                                                            \
        ASSERT_TRUE(l) << #T;                                                                                          \
        EXPECT_EQ(l->size, sizeof(T)) << #T;                                                                           \
        EXPECT_EQ(l->align, alignof(T)) << #T;                                                                         \
    } while (0)
    KS_EXPECT_LAYOUT(char1);
    KS_EXPECT_LAYOUT(char2);
    KS_EXPECT_LAYOUT(char3);
    KS_EXPECT_LAYOUT(uchar4);
    KS_EXPECT_LAYOUT(short2);
    KS_EXPECT_LAYOUT(ushort3);
    KS_EXPECT_LAYOUT(short4);
    KS_EXPECT_LAYOUT(int1);
    KS_EXPECT_LAYOUT(int2);
    KS_EXPECT_LAYOUT(int3);
    KS_EXPECT_LAYOUT(uint4);
    KS_EXPECT_LAYOUT(long2);
    KS_EXPECT_LAYOUT(ulong3);
    KS_EXPECT_LAYOUT(longlong2);
    KS_EXPECT_LAYOUT(ulonglong3);
    KS_EXPECT_LAYOUT(float1);
    KS_EXPECT_LAYOUT(float2);
    KS_EXPECT_LAYOUT(float3);
    KS_EXPECT_LAYOUT(float4);
    KS_EXPECT_LAYOUT(double1);
    KS_EXPECT_LAYOUT(double2);
    KS_EXPECT_LAYOUT(double3);
    KS_EXPECT_LAYOUT(double4_16a);
    KS_EXPECT_LAYOUT(double4_32a);
    KS_EXPECT_LAYOUT(longlong4_16a);
    KS_EXPECT_LAYOUT(dim3);
    KS_EXPECT_LAYOUT(unsigned long long);
    KS_EXPECT_LAYOUT(signed char);
    KS_EXPECT_LAYOUT(bool);
    KS_EXPECT_LAYOUT(double);
#undef KS_EXPECT_LAYOUT
    EXPECT_EQ(knownTypeLayout("const float* __restrict__"), (TypeLayout{8, 8}));
    EXPECT_EQ(knownTypeLayout("MyStruct"), std::nullopt);
    EXPECT_EQ(knownTypeLayout("float5"), std::nullopt);
}

TEST(KernelScan, KindsValueTypesAndLinesOfParameters)
{
    const auto ks = findKernels(R"(
// __global__ void commented(int x)
extern "C" __global__ void __launch_bounds__(256) a(const float4* __restrict__ p, float *q,
    unsigned int n, float2 c, cudaSurfaceObject_t s, cudaTextureObject_t t)
{ }
template <class T> __global__ void b(T* x) {}
__global__ void c(void) {}
__global__ void d(MyStruct s, int** pp) {}
)");
    ASSERT_EQ(ks.size(), 4u);
    const KernelSignature& a = ks[0];
    EXPECT_EQ(a.name, "a");
    EXPECT_TRUE(a.externC);
    EXPECT_EQ(a.line, 3);
    ASSERT_EQ(a.params.size(), 6u);
    EXPECT_EQ(a.params[0].kind, ParamKind::Pointer);
    EXPECT_TRUE(a.params[0].pointeeConst);
    EXPECT_EQ(a.params[0].name, "p");
    EXPECT_EQ(a.params[0].baseType, "float4");
    EXPECT_TRUE((*paramValueType(a.params[0]) == ValueType{ScalarType::Float32, 4}));
    EXPECT_FALSE(a.params[1].pointeeConst);
    EXPECT_EQ(a.params[2].kind, ParamKind::Value);
    EXPECT_TRUE((*paramValueType(a.params[2]) == ValueType{ScalarType::UInt32, 1}));
    EXPECT_EQ(a.params[2].line, 4);
    EXPECT_TRUE((*paramValueType(a.params[3]) == ValueType{ScalarType::Float32, 2}));
    EXPECT_EQ(a.params[4].kind, ParamKind::Surface);
    EXPECT_EQ(a.params[5].kind, ParamKind::Texture);
    EXPECT_TRUE(ks[1].isTemplate());
    EXPECT_FALSE(ks[1].externC);
    EXPECT_TRUE(ks[2].params.empty());
    // A struct by value is a Value without a value type: --validate still cannot bind it.
    EXPECT_EQ(ks[3].params[0].kind, ParamKind::Value);
    EXPECT_FALSE(paramValueType(ks[3].params[0]));
    EXPECT_EQ(describeParam(ks[3].params[0]), "'MyStruct s' (a parameter of a type Kernelscope cannot bind)");
    EXPECT_EQ(ks[3].params[1].kind, ParamKind::Unknown);
}

TEST(KernelScan, RangesAttributesTemplateParametersAndOutputs)
{
    const std::string src = R"src(#define NOT_A_KERNEL __global__ void fake(int* p) {}
// __global__ void commented(float* x) {}
const char* s = "__global__ void in_string(float*)";
extern "C" __global__ void declared_only(float* p);
extern "C" {
__global__ void __launch_bounds__(128, 2)
k1(float* out,   // the output
   const float* __restrict__ in,
   int n, cudaSurfaceObject_t surf, unsigned long long raw)
{
    if (n) { out[0] = in[0]; }
}
}
template <class T> __global__ void k2(T* p, float) { p[0] = T(); }
)src";
    const auto kernels = findKernels(src);
    ASSERT_EQ(kernels.size(), 2u);
    const auto& k1 = kernels[0];
    EXPECT_EQ(k1.name, "k1");
    EXPECT_EQ(k1.line, 7);
    EXPECT_TRUE(k1.externC);
    EXPECT_FALSE(k1.isTemplate());
    ASSERT_EQ(k1.attributes.size(), 1u);
    EXPECT_EQ(k1.attributes[0], "__launch_bounds__(128, 2)");
    ASSERT_EQ(k1.params.size(), 5u);
    EXPECT_EQ(k1.params[0].name, "out");
    EXPECT_EQ(k1.params[0].type, "float*");
    EXPECT_EQ(k1.params[0].kind, ParamKind::Pointer);
    EXPECT_EQ(k1.params[0].baseType, "float");
    EXPECT_EQ(k1.params[1].declaration, "const float* __restrict__ in");
    EXPECT_TRUE(k1.params[1].pointeeConst);
    EXPECT_EQ(k1.params[2].kind, ParamKind::Value);
    EXPECT_EQ(k1.params[3].kind, ParamKind::Surface);
    // A surface handle passed as unsigned long long is a value, which the rewriter still records.
    EXPECT_EQ(k1.params[4].kind, ParamKind::Value);
    EXPECT_EQ(ks::teach::outputCandidates(k1), (std::vector<std::size_t>{0, 3, 4}));
    EXPECT_EQ(src.substr(k1.params[1].range.begin, k1.params[1].range.end - k1.params[1].range.begin),
              "const float* __restrict__ in");
    EXPECT_EQ(src.substr(k1.nameToken.begin, k1.nameToken.end - k1.nameToken.begin), "k1");
    EXPECT_EQ(src[k1.bodyBegin], '{');

    const auto& k2 = kernels[1];
    EXPECT_EQ(k2.name, "k2");
    EXPECT_FALSE(k2.externC);
    EXPECT_EQ(k2.templateParameters, "class T");
    EXPECT_EQ(k2.templateParameterNames, std::vector<std::string>{"T"});
    ASSERT_EQ(k2.params.size(), 2u);
    EXPECT_EQ(k2.params[1].name, "");
    EXPECT_EQ(k2.params[1].type, "float");
    EXPECT_FALSE(findKernel(src, "declared_only"));
    EXPECT_FALSE(findKernel(src, "fake"));
}

TEST(KernelScan, QualifiedNamesAndLookup)
{
    const std::string src = "namespace a { namespace { __global__ void k(int* p) {} } }\n"
                            "namespace b::c { __global__ void k(float v) {} }\n"
                            "namespace b { __global__ void b::c::later(float v) {} }\n";
    const auto ks = findKernels(src);
    ASSERT_EQ(ks.size(), 3u);
    EXPECT_EQ(ks[0].namespaces, (std::vector<std::string>{"a", ""}));
    EXPECT_EQ(ks[0].qualifiedName(), "a::k");
    EXPECT_EQ(ks[1].qualifiedName(), "b::c::k");
    EXPECT_EQ(ks[1].display(), "b::c::k(float v)");
    EXPECT_EQ(ks[2].qualifiedName(), "b::c::later") << "a written qualification names the enclosing b";
    ASSERT_TRUE(findKernel(src, "b::c::k"));
    EXPECT_EQ(findKernel(src, "b::c::k")->line, 2);
    EXPECT_EQ(findKernel(src, "k")->line, 1) << "the first of that unqualified name";
    EXPECT_FALSE(findKernel(src, "c::k"));
    EXPECT_EQ(lineOf(src, src.find("later")), 3);
    EXPECT_EQ(lineOf(src, 9999), 4);
}

TEST(KernelScan, TheLexerKeepsCommentsDirectivesAndLiteralsApartFromCode)
{
    using Spelled = std::vector<std::pair<std::string, TokenKind>>;
    // The tokens of `src` in a directive (or, with `directive` false, the code: outside them and
    // outside comments), with their lines.
    auto tokens = [](const std::string& src, bool directive, std::vector<int>* lines = nullptr) {
        Spelled out;
        for (const Token& t : tokenize(src))
            if (directive ? t.inDirective : !t.inDirective && t.kind != TokenKind::Comment) {
                out.emplace_back(std::string(t.text(src)), t.kind);
                if (lines)
                    lines->push_back(t.line);
            }
        return out;
    };
    const std::string src = "a /* x\ny */ b // c\n#define X 1 \\\n  2\n\"q\\\"s\" 1'000 'c' R\"d(\n)\")d\" ::z\n";
    std::vector<int> lines;
    EXPECT_EQ(tokens(src, false, &lines), (Spelled{{"a", TokenKind::Identifier},
                                                   {"b", TokenKind::Identifier},
                                                   {"\"q\\\"s\"", TokenKind::String},
                                                   {"1'000", TokenKind::Number},
                                                   {"'c'", TokenKind::Char},
                                                   {"R\"d(\n)\")d\"", TokenKind::String},
                                                   {"::", TokenKind::Punct},
                                                   {"z", TokenKind::Identifier}}));
    EXPECT_EQ(lines, (std::vector<int>{1, 2, 5, 5, 5, 5, 6, 6}));
    // The directive, its continued line included, and the header name of an #include.
    EXPECT_EQ(tokens("  # include <a/b.h> // x\n#define Y \\\n <q>\n", true),
              (Spelled{{"# include", TokenKind::Directive},
                       {"<a/b.h>", TokenKind::HeaderName},
                       {"// x", TokenKind::Comment},
                       {"#define", TokenKind::Directive},
                       {"Y", TokenKind::Identifier},
                       {"<", TokenKind::Punct},
                       {"q", TokenKind::Identifier},
                       {">", TokenKind::Punct}}));
}
