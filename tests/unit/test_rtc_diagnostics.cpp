// Diagnostics from real NVRTC compiles (sm_90, no GPU): errors and warnings at the user's lines
// and columns, remarks, catastrophic errors, errors inside included headers, template context,
// ptxas back-end errors, bad options; and the parser on logs with tabs.
#include "ks/rtc/compiler.hpp"
#include "ks/rtc/diagnostics.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ks::rtc;

namespace {

CompileResult build(const std::string& source, const std::string& fileName = "user.cu",
                    const std::vector<std::string>& includePaths = {})
{
    CompileOptions o;
    o.arch = "sm_90";
    o.includePaths = includePaths;
    return compile(source, fileName, o);
}

const Diagnostic* find(const CompileResult& r, Severity severity, const std::string& fragment)
{
    auto it = std::find_if(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic& d) {
        return d.severity == severity && d.message.find(fragment) != std::string::npos;
    });
    return it == r.diagnostics.end() ? nullptr : &*it;
}

std::string dump(const CompileResult& r)
{
    std::string s = "log:\n" + r.log + "\ndiagnostics:\n";
    for (const auto& d : r.diagnostics)
        s += formatDiagnostic(d) + "\n";
    return s;
}

} // namespace

TEST(Diagnostics, AMissingSemicolonIsReportedAtTheNextLineAndMarkedOnItsOwn)
{
    const std::string source = "extern \"C\" __global__ void k(float* p)\n" // 1
                               "{\n"                                       // 2
                               "    float x = p[0]\n"                      // 3: the real cause
                               "\n"                                        // 4
                               "    p[1] = x;\n"                           // 5: reported here
                               "}\n";
    const CompileResult r = build(source);
    ASSERT_FALSE(r.ok);
    const Diagnostic* error = find(r, Severity::Error, "expected a \";\"");
    ASSERT_TRUE(error) << dump(r);
    EXPECT_EQ(error->file, "user.cu");
    EXPECT_EQ(error->line, 5);
    EXPECT_EQ(error->column, 5);
    EXPECT_EQ(error->excerpt, "    p[1] = x;");
    const Diagnostic* cause = find(r, Severity::Note, "likely cause");
    ASSERT_TRUE(cause) << dump(r);
    EXPECT_TRUE(cause->likelyCause);
    EXPECT_EQ(cause->line, 3);
    EXPECT_EQ(cause->column, 19); // just past "p[0]"
    EXPECT_EQ(formatDiagnostic(*error), "user.cu:5:5: error: expected a \";\"");
}

TEST(Diagnostics, WarningsAndRemarksComeWithASuccessfulBuild)
{
    const std::string source = "extern \"C\" __global__ void k(float* p)\n"
                               "{\n"
                               "    int unused = 3;\n"
                               "#pragma message(\"hello from the kernel\")\n"
                               "    p[0] = 1.f;\n"
                               "}\n";
    const CompileResult r = build(source);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_FALSE(r.cubin.empty());
    const Diagnostic* warning = find(r, Severity::Warning, "\"unused\" was declared but never referenced");
    ASSERT_TRUE(warning) << dump(r);
    EXPECT_EQ(warning->line, 3);
    EXPECT_EQ(warning->column, 9);
    EXPECT_EQ(warning->code, "#177-D");
    const Diagnostic* remark = find(r, Severity::Remark, "hello from the kernel");
    ASSERT_TRUE(remark) << dump(r);
    EXPECT_EQ(remark->line, 4);
    for (const auto& d : r.diagnostics)
        EXPECT_EQ(d.message.find("can be suppressed"), std::string::npos) << "the hint is not a diagnostic";
}

TEST(Diagnostics, AMissingIncludeIsACatastrophicErrorAtTheUsersLine)
{
    const CompileResult r = build("// header first\n#include \"no_such_header.cuh\"\nextern \"C\" __global__ void k() {}\n");
    ASSERT_FALSE(r.ok);
    const Diagnostic* e = find(r, Severity::Error, "cannot open source file \"no_such_header.cuh\"");
    ASSERT_TRUE(e) << dump(r);
    EXPECT_EQ(e->file, "user.cu");
    EXPECT_EQ(e->line, 2);
    EXPECT_EQ(r.diagnostics.size(), 1u) << dump(r);
}

TEST(Diagnostics, AnErrorDirectiveIsReported)
{
    const CompileResult r = build("\n#error \"stop here\"\n");
    const Diagnostic* e = find(r, Severity::Error, "stop here");
    ASSERT_TRUE(e) << dump(r);
    EXPECT_EQ(e->line, 2);
}

TEST(Diagnostics, ErrorsInsideAnIncludedHeaderCarryTheHeadersName)
{
    ks::test::TempDir dir;
    dir.write("inc/helpers.cuh", "#pragma once\n"
                                 "__device__ inline float helper(float x)\n"
                                 "{\n"
                                 "    return x * undefined_in_header;\n"
                                 "}\n");
    const std::string source = "#include <helpers.cuh>\n"
                               "extern \"C\" __global__ void k(float* p) { p[0] = helper(p[1]) + missing_here; }\n";
    const CompileResult r = build(source, "main.cu", {(dir.path() / "inc").string()});
    ASSERT_FALSE(r.ok);
    const Diagnostic* inHeader = find(r, Severity::Error, "undefined_in_header");
    ASSERT_TRUE(inHeader) << dump(r);
    EXPECT_NE(inHeader->file.find("helpers.cuh"), std::string::npos) << inHeader->file;
    EXPECT_EQ(inHeader->line, 4);
    EXPECT_EQ(inHeader->column, 16);
    const Diagnostic* inMain = find(r, Severity::Error, "missing_here");
    ASSERT_TRUE(inMain) << dump(r);
    EXPECT_EQ(inMain->file, "main.cu");
    EXPECT_EQ(inMain->line, 2);
}

TEST(Diagnostics, TemplateErrorsPointBackToWhereTheTemplateWasUsed)
{
    const std::string source = "template <class T>\n"
                               "__device__ T twice(T v) { return v.nonexistent * 2; }\n"
                               "\n"
                               "extern \"C\" __global__ void k(float* p)\n"
                               "{\n"
                               "    p[0] = twice(p[1]);\n"
                               "}\n";
    const CompileResult r = build(source);
    ASSERT_FALSE(r.ok);
    const Diagnostic* e = find(r, Severity::Error, "must have class type");
    ASSERT_TRUE(e) << dump(r);
    EXPECT_EQ(e->line, 2);
    const Diagnostic* note = find(r, Severity::Note, "instantiation of");
    ASSERT_TRUE(note) << dump(r);
    EXPECT_EQ(note->line, 6);
    EXPECT_EQ(note->file, "user.cu");
    EXPECT_NE(note->message.find("T=float"), std::string::npos);
}

TEST(Diagnostics, BackEndErrorsFromPtxasAreErrorsOfTheFile)
{
    const CompileResult unresolved = build("extern __device__ float missing_fn(float);\n"
                                           "extern \"C\" __global__ void k(float* p) { p[0] = missing_fn(p[1]); }\n");
    ASSERT_FALSE(unresolved.ok);
    const Diagnostic* e = find(unresolved, Severity::Error, "Unresolved extern function");
    ASSERT_TRUE(e) << dump(unresolved);
    EXPECT_EQ(e->file, "user.cu");
    EXPECT_EQ(e->line, 0);
    EXPECT_NE(e->message.find("missing_fn(float)"), std::string::npos) << e->message;
    EXPECT_EQ(formatDiagnostic(*e).rfind("user.cu: error: ptxas: ", 0), 0u) << formatDiagnostic(*e);

    const CompileResult badAsm =
        build("extern \"C\" __global__ void k(float* p) { asm volatile(\"bogus.instr %0;\" :: \"f\"(p[0])); }\n");
    ASSERT_FALSE(badAsm.ok);
    const Diagnostic* a = find(badAsm, Severity::Error, "Not a name of any known instruction: 'bogus'");
    ASSERT_TRUE(a) << dump(badAsm);
    EXPECT_NE(a->message.find("(PTX line "), std::string::npos);
}

TEST(Diagnostics, BadOptionsAreToolFailuresWithNvrtcsReason)
{
    CompileOptions o;
    o.arch = "sm_90";
    o.cppStandard = "c++99";
    const CompileResult r = compile("extern \"C\" __global__ void k() {}\n", "user.cu", o);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(r.toolFailure);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_NE(dump(r).find("invalid value for --std"), std::string::npos) << dump(r);
}

TEST(Diagnostics, LineNumbersAreTheUsersWhateverTheFileNameHolds)
{
    const CompileResult r = build("\n\n\nextern \"C\" __global__ void k() { oops; }\n", "dir with space/we\"ird.cu");
    ASSERT_FALSE(r.diagnostics.empty()) << r.log;
    EXPECT_EQ(r.diagnostics[0].line, 4);
    EXPECT_EQ(r.diagnostics[0].file, "dir with space/we\"ird.cu");
}

TEST(DiagnosticsParser, ColumnsCountCharactersWhenTheSourceHasTabs)
{
    const std::string log = "tab.cu(3): error: identifier \"undefined_x\" is undefined\n"
                            "  \tint\tbad = undefined_x;\n"
                            "  \t   \t      ^\n"
                            "\n"
                            "1 error detected in the compilation of \"tab.cu\".\n";
    const auto d = parseLog(log);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].column, 12);
    EXPECT_EQ(d[0].excerpt, "\tint\tbad = undefined_x;");
}

TEST(DiagnosticsParser, LocationlessLinesGetTheDefaultFile)
{
    const auto d = parseLog("nvrtc: error: unrecognized option --bogus found\n"
                            "Command-line error: invalid PCH directory: /x\n"
                            "ptxas warning : Double is not supported. Demoting to float\n"
                            "ptxas info    : Used 8 registers, used 0 barriers\n"
                            "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n",
                            "main.cu");
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(formatDiagnostic(d[0]), "main.cu: error: unrecognized option --bogus found");
    EXPECT_EQ(formatDiagnostic(d[1]), "main.cu: error: invalid PCH directory: /x");
    EXPECT_EQ(formatDiagnostic(d[2]), "main.cu: warning: ptxas: Double is not supported. Demoting to float");
}

// NVRTC's own trouble (seen when it had no room: a file size limit), at no line: one error with
// NVRTC's words, which the compiler then treats as a tool failure (never cached).
TEST(Diagnostics, NvrtcsOwnCatastropheIsAnErrorAtNoLine)
{
    const std::string log = "Catastrophic error: unable to obtain mapped memory\n"
                            "1 catastrophic error detected in the compilation of \"k.cu\".\n"
                            "Compilation terminated.\n";
    const std::vector<Diagnostic> d = parseLog(log, "k.cu");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, Severity::Error);
    EXPECT_EQ(d[0].line, 0);
    EXPECT_EQ(d[0].file, "k.cu");
    EXPECT_EQ(d[0].message, "unable to obtain mapped memory");
}

// NVRTC reads the source as a C string: a NUL byte would end it there, and a kernel followed by a
// NUL and anything at all (a binary file that starts like one, say) would build as "ok".
TEST(Diagnostics, ASourceWithANulByteIsRefusedWhereTheNulIs)
{
    const std::string good = "extern \"C\" __global__ void k(float* a) { a[0] = 1.f; }\n";
    const CompileResult r = build(good + "int x;" + std::string(1, '\0') + "\x7f" "ELF garbage", "bin.cu");
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
    EXPECT_EQ(r.diagnostics[0].severity, Severity::Error);
    EXPECT_EQ(r.diagnostics[0].file, "bin.cu");
    EXPECT_EQ(r.diagnostics[0].line, 2);
    EXPECT_EQ(r.diagnostics[0].column, 7);
    EXPECT_NE(r.diagnostics[0].message.find("NUL byte"), std::string::npos) << dump(r);
    EXPECT_TRUE(r.ptx.empty());

    const CompileResult first = build(std::string(1, '\0') + good, "zero.cu");
    EXPECT_FALSE(first.ok);
    ASSERT_EQ(first.diagnostics.size(), 1u) << dump(first);
    EXPECT_EQ(first.diagnostics[0].line, 1);
    EXPECT_EQ(first.diagnostics[0].column, 1);

    EXPECT_TRUE(build(good).ok); // the same kernel without the NUL builds
}
