// PTX and SASS listings with their source lines (ks/rtc/listing.hpp), no GPU needed:
// - PTX's .file/.loc directives give each instruction its source line, and an NVRTC build with
//   -lineinfo maps the user's lines (as numbered in the file) to the instructions they became,
//   while its code and resources stay those of a build without.
// - nvdisasm's "//## File" markers (a fixed snippet of its --print-code --print-line-info output)
//   and cuobjdump's function headers parse into functions and lines.
// - disassemble() finds nvdisasm or cuobjdump, or says how to get one.
#include "ks/rtc/compiler.hpp"
#include "ks/rtc/kernel_facts.hpp"
#include "ks/rtc/listing.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ks::rtc;

namespace {

// The texts of `lines` of `listing`, one a line.
std::string textOf(const Listing& listing, const std::vector<std::size_t>& lines)
{
    std::string out;
    for (std::size_t i : lines)
        out += listing.lines[i].text + "\n";
    return out;
}

const ListingFunction* functionNamed(const Listing& listing, std::string_view symbol)
{
    for (const ListingFunction& f : listing.functions)
        if (f.symbol == symbol)
            return &f;
    return nullptr;
}

// Written by hand in NVVM's layout: the .file table after the functions, a device function, an
// extern declaration (no body), a kernel with an inlined call.
constexpr const char* kPtx = R"PTX(//
.version 8.8
.target sm_90
.address_size 64

.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.func  (.param .b32 func_retval0) _Z2sqf(
	.param .b32 _Z2sqf_param_0
)
{
	.reg .f32 	%f<3>;
	.loc	2 1 0
	ld.param.f32 	%f1, [_Z2sqf_param_0];
	mul.f32 	%f2, %f1, %f1;
	st.param.f32 	[func_retval0], %f2;
	ret;

}
	// .globl	twice
.visible .entry twice(
	.param .u64 twice_param_0
)
{
	.reg .f32 	%f<3>;
	.loc	1 7 5
	ld.param.u64 	%rd1, [twice_param_0];
	.loc	2 1 31, function_name $L__info_string0, inlined_at 1 8 12
	mul.f32 	%f2, %f1, %f1;
	.loc	1 8 5
	st.global.f32 	[%rd1], %f2;
	.loc	1 9 1
	ret;

}
	.file	1 "/home/user/kernels/twice.cu"
	.file	2 "/home/user/kernels/sq.cuh"
)PTX";

// nvdisasm --print-code --print-line-info over a CUBIN of a kernel and a device function kept as a
// call, in nvdisasm's layout (CUDA 12/13): a section per function, its symbol directives, then the
// instructions with a "//## File" marker wherever the source line changes.
constexpr const char* kNvdisasm = R"SASS(	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
	.elftype	@"ET_EXEC"


//--------------------- .text._Z2sqf              --------------------------
	.section	.text._Z2sqf,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=6"
	.align	128
_Z2sqf:
.text._Z2sqf:
	//## File "/home/user/kernels/sq.cuh", line 1
        /*0000*/                   FMUL R4, R4, R4 ;
        /*0010*/                   RET.REL.NODEC R20 `(twice) ;
//--------------------- .text.twice              --------------------------
	.section	.text.twice,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=24"
	.align	128
        .global         twice
        .type           twice,@function
        .size           twice,(.L_x_2 - twice)
        .other          twice,@"STO_CUDA_ENTRY STV_DEFAULT"
twice:
.text.twice:
	//## File "/home/user/kernels/twice.cu", line 7
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*0010*/                   LDC.64 R2, c[0x0][0x210] ;
	//## File "/home/user/kernels/sq.cuh", line 1 inlined at "/home/user/kernels/twice.cu", line 8
        /*0020*/                   FMUL R5, R0, R0 ;
	//## File "/home/user/kernels/twice.cu", line 8
        /*0030*/                   STG.E desc[UR4][R2.64], R5 ;
	//## File "/home/user/kernels/twice.cu", line 9
        /*0040*/                   EXIT ;
.L_x_1:
        /*0050*/                   BRA `(.L_x_1);
.L_x_2:
)SASS";

} // namespace

TEST(PtxListing, FileAndLocDirectivesGiveEachInstructionItsSourceLine)
{
    const Listing l = parsePtxListing(kPtx);
    ASSERT_EQ(l.files.size(), 2u);
    EXPECT_TRUE(l.lineInfo);
    const int twice = l.fileIndex("twice.cu"), sq = l.fileIndex("/elsewhere/sq.cuh");
    EXPECT_EQ(twice, 1) << "found by file name, whatever the path";
    EXPECT_EQ(sq, 2);
    EXPECT_EQ(l.fileIndex("other.cu"), 0);

    ASSERT_EQ(l.functions.size(), 2u) << "the extern declaration has no body";
    EXPECT_EQ(l.functions[0].symbol, "_Z2sqf");
    EXPECT_FALSE(l.functions[0].entry);
    EXPECT_EQ(l.functions[1].symbol, "twice");
    EXPECT_TRUE(l.functions[1].entry);
    EXPECT_EQ(l.lines[l.functions[1].first].text, ".visible .entry twice(");
    EXPECT_EQ(l.lines[l.functions[1].end - 1].text, "}");

    const std::string line8 = textOf(l, l.linesFrom(twice, 8));
    EXPECT_NE(line8.find("st.global.f32"), std::string::npos) << line8;
    EXPECT_EQ(line8.find("mul.f32"), std::string::npos) << "the inlined multiply is sq.cuh's line 1:\n" << line8;
    const std::string inlined = textOf(l, l.linesFrom(sq, 1));
    EXPECT_NE(inlined.find("%f2, %f1, %f1"), std::string::npos) << inlined;
    EXPECT_NE(inlined.find("ld.param.f32"), std::string::npos) << "the device function's own lines too";
    EXPECT_NE(textOf(l, l.linesFrom(twice, 7)).find("ld.param.u64"), std::string::npos);
    for (std::size_t i = 0; i < l.lines.size(); ++i) {
        if (!l.functionAt(i)) {
            EXPECT_EQ(l.lines[i].line, 0) << "outside a function no line has a source line: " << l.lines[i].text;
        }
    }
    EXPECT_TRUE(l.linesFrom(twice, 99).empty());
    EXPECT_TRUE(l.linesFrom(0, 8).empty());
}

TEST(PtxListing, AnnotatedListingNamesTheLineOverEachRun)
{
    const std::string source = "\n\n\n\n\n\n    int i = 0;\n    p[i] = sq(p[i]);\n}\n";
    const std::string text = annotatedListing(parsePtxListing(kPtx), "twice.cu", source);
    EXPECT_NE(text.find("// twice.cu:7: int i = 0;\n\t.loc\t1 7 5\n\tld.param.u64"), std::string::npos) << text;
    EXPECT_NE(text.find("// sq.cuh:1\n"), std::string::npos) << "another file's line: no text\n" << text;
    EXPECT_NE(text.find("// twice.cu:8: p[i] = sq(p[i]);\n\t.loc\t1 8 5\n\tst.global.f32"), std::string::npos) << text;
    EXPECT_TRUE(annotatedListing(parsePtxListing(""), "twice.cu", source).empty());
}

// An NVRTC build with -lineinfo: each line of the user's file, numbered as the user sees it, maps
// to the instructions it became; the code is the same as without line information.
TEST(PtxListing, NvrtcLineInfoMapsTheUsersLinesToTheirInstructions)
{
    const std::string source = "#include <cuda_fp16.h>\n"                                         // 1
                               "extern \"C\" __global__ void twice(float* p, int n)\n"             // 2
                               "{\n"                                                               // 3
                               "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"              // 4
                               "    if (i >= n)\n"                                                 // 5
                               "        return;\n"                                                 // 6
                               "    p[i] = 2.f * p[i];\n"                                          // 7
                               "}\n"                                                               // 8
                               "__global__ void other(int* q) { q[threadIdx.x] = 1; }\n";          // 9
    CompileOptions o;
    o.arch = "sm_90";
    o.lineInfo = true;
    const CompileResult r = compile(source, "twice.cu", o, {"other"});
    ASSERT_TRUE(r.ok) << r.log;
    const Listing l = parsePtxListing(r.ptx);
    EXPECT_TRUE(l.lineInfo);
    const int file = l.fileIndex("twice.cu");
    ASSERT_GT(file, 0) << r.ptx;
    ASSERT_NE(functionNamed(l, "twice"), nullptr) << r.ptx;
    ASSERT_NE(functionNamed(l, r.loweredNames.at(0)), nullptr) << "the C++ kernel, by its lowered name";
    EXPECT_TRUE(functionNamed(l, "twice")->entry);

    const std::string line4 = textOf(l, l.linesFrom(file, 4));
    EXPECT_NE(line4.find("%ctaid.x"), std::string::npos) << line4;
    const std::string line7 = textOf(l, l.linesFrom(file, 7));
    EXPECT_NE(line7.find("st.global.f32"), std::string::npos) << line7;
    EXPECT_NE(line7.find("ld.global.f32"), std::string::npos) << line7;
    EXPECT_EQ(line4.find("st.global"), std::string::npos) << line4;
    const std::vector<std::size_t> line9 = l.linesFrom(file, 9);
    ASSERT_FALSE(line9.empty());
    EXPECT_EQ(l.functionAt(line9.front())->symbol, r.loweredNames.at(0));
    EXPECT_TRUE(l.linesFrom(file, 1).empty()) << "an #include is no code";

    // The same code without line information: only the directives differ, and the resources.
    o.lineInfo = false;
    const CompileResult plain = compile(source, "twice.cu", o, {"other"});
    ASSERT_TRUE(plain.ok) << plain.log;
    EXPECT_FALSE(parsePtxListing(plain.ptx).lineInfo);
    auto code = [](const Listing& listing) {
        std::vector<std::string> out;
        for (const ListingLine& line : listing.lines)
            if (line.text.find(".loc") == std::string::npos && line.text.find(".file") == std::string::npos &&
                line.text.find("$L__") == std::string::npos && line.text.find("debug") == std::string::npos)
                out.push_back(line.text);
        return out;
    };
    EXPECT_EQ(code(l), code(parsePtxListing(plain.ptx)));
    const auto a = parsePtxasReport(r.log), b = parsePtxasReport(plain.log);
    ASSERT_EQ(a.kernels.size(), b.kernels.size());
    for (std::size_t i = 0; i < a.kernels.size(); ++i)
        EXPECT_EQ(a.kernels[i].registers, b.kernels[i].registers) << a.kernels[i].symbol;
}

TEST(SassListing, NvdisasmLineMarkersGiveEachInstructionItsSourceLine)
{
    const Listing l = parseSassListing(kNvdisasm);
    EXPECT_TRUE(l.lineInfo);
    ASSERT_EQ(l.functions.size(), 2u);
    EXPECT_EQ(l.functions[0].symbol, "_Z2sqf");
    EXPECT_FALSE(l.functions[0].entry);
    EXPECT_EQ(l.functions[1].symbol, "twice");
    EXPECT_TRUE(l.functions[1].entry) << "STO_CUDA_ENTRY";
    const int twice = l.fileIndex("twice.cu"), sq = l.fileIndex("sq.cuh");
    ASSERT_GT(twice, 0);
    ASSERT_GT(sq, 0);
    for (const ListingLine& line : l.lines)
        EXPECT_EQ(line.text.find("//## File"), std::string::npos) << "markers are no lines: " << line.text;

    const std::string line8 = textOf(l, l.linesFrom(twice, 8));
    EXPECT_NE(line8.find("STG.E desc[UR4][R2.64], R5 ;"), std::string::npos) << line8;
    EXPECT_EQ(line8.find("FMUL"), std::string::npos) << "the inlined multiply is sq.cuh's\n" << line8;
    const std::vector<std::size_t> sqLines = l.linesFrom(sq, 1);
    const std::string inlined = textOf(l, sqLines);
    EXPECT_NE(inlined.find("FMUL R5, R0, R0"), std::string::npos) << inlined;
    EXPECT_NE(inlined.find("FMUL R4, R4, R4"), std::string::npos) << inlined;
    EXPECT_EQ(l.functionAt(sqLines.front())->symbol, "_Z2sqf");
    EXPECT_EQ(l.functionAt(sqLines.back())->symbol, "twice");
    const std::vector<std::size_t> line9 = l.linesFrom(twice, 9);
    ASSERT_EQ(line9.size(), 4u) << "EXIT, then the loop after it until the next marker";
    EXPECT_NE(l.lines[line9[0]].text.find("EXIT"), std::string::npos);

    const std::string text = annotatedListing(l, "twice.cu", "\n\n\n\n\n\n    int i = 0;\n    p[i] = sq(p[i]);\n}\n");
    EXPECT_NE(text.find("// twice.cu:8: p[i] = sq(p[i]);\n        /*0030*/                   STG.E"), std::string::npos)
        << text;
}

TEST(SassListing, CuobjdumpFunctionsParseWithoutSourceLines)
{
    const Listing l = parseSassListing("\n\tcode for sm_90\n\t\tFunction : twice\n"
                                       "\t.headerflags\t@\"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS\"\n"
                                       "        /*0000*/                   LDC R1, c[0x0][0x28] ;   /* 0x00000a00ff017b82 */\n"
                                       "        /*0010*/                   EXIT ;                   /* 0x000000000000794d */\n"
                                       "\t\t..........\n\n\n\t\tFunction : _Z5otherPi\n"
                                       "        /*0000*/                   EXIT ;                   /* 0x000000000000794d */\n");
    EXPECT_FALSE(l.lineInfo);
    EXPECT_TRUE(l.files.empty());
    ASSERT_EQ(l.functions.size(), 2u);
    EXPECT_EQ(l.functions[0].symbol, "twice");
    EXPECT_EQ(l.functions[1].symbol, "_Z5otherPi");
    EXPECT_TRUE(l.functions[1].entry);
    EXPECT_NE(l.lines[l.functions[0].first + 3].text.find("EXIT"), std::string::npos);
    EXPECT_EQ(l.functions[1].end, l.lines.size());
}

// Where the toolkit has a disassembler, its SASS parses into the build's functions (with source
// lines from nvdisasm); where it has none, the reason says how to get one.
TEST(SassListing, DisassembleFindsTheToolkitsDisassemblerOrSaysHowToGetOne)
{
    CompileOptions o;
    o.arch = "sm_90";
    o.lineInfo = true;
    const CompileResult r = compile("extern \"C\" __global__ void sass_me(int* p)\n{\n    p[0] = 42;\n}\n", "s.cu", o);
    ASSERT_TRUE(r.ok);
    const Disassembly d = disassemble(r.cubin);
    EXPECT_FALSE(disassemble({}).ok);
    if (!d.ok) {
        EXPECT_EQ(d.reason, kNoDisassembler);
        EXPECT_NE(d.reason.find("install"), std::string::npos) << d.reason;
        GTEST_SKIP() << "no disassembler here: " << d.reason;
    }
    const Listing l = parseSassListing(d.text);
    ASSERT_NE(functionNamed(l, "sass_me"), nullptr) << d.text;
    EXPECT_TRUE(functionNamed(l, "sass_me")->entry) << d.text;
    if (d.lineInfo) {
        const std::string line3 = textOf(l, l.linesFrom(l.fileIndex("s.cu"), 3));
        EXPECT_NE(line3.find("STG"), std::string::npos) << d.text;
    }
}
