// The textual #include scanner behind the compile cache's key.
#include "ks/rtc/include_scanner.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using ks::rtc::findIncludeDirectives;
using ks::rtc::scanIncludes;

using ks::test::TempDir;

TEST(IncludeScanner, FindsDirectivesAndSkipsComments)
{
    const auto found = findIncludeDirectives("#include \"a.cuh\"\n"
                                             "  #  include <b/c.h>  // trailing\n"
                                             "// #include \"commented.h\"\n"
                                             "/* #include \"block.h\"\n #include \"still-block.h\" */\n"
                                             "#include_next <next.h>\n"
                                             "#includes <not-a-directive>\n"
                                             "#define X \"#include <in-string.h>\"\n"
                                             "#inc\\\nlude \"continued.h\"\n"
                                             "#include HEADER_MACRO\n"
                                             "#if 0\n#include \"disabled.h\"\n#endif\n");
    const std::vector<std::string> expected = {"\"a.cuh\"",       "<b/c.h>",      "<next.h>",
                                               "\"continued.h\"", "HEADER_MACRO", "\"disabled.h\""};
    EXPECT_EQ(found, expected);
}

TEST(IncludeScanner, ResolvesQuotedIncludesInTheIncludersFolderFirst)
{
    TempDir dir;
    const fs::path main = dir.path() / "src" / "main.cu";
    dir.write("src/common.cuh", "#include \"nested/inner.cuh\"\n");
    dir.write("src/nested/inner.cuh", "#include \"sibling.cuh\"\n"); // resolved next to inner.cuh
    dir.write("src/nested/sibling.cuh", "// leaf\n");
    dir.write("inc/common.cuh", "// shadowed by src/common.cuh for quoted includes\n");
    dir.write("inc/angle.cuh", "#include <common.cuh>\n"); // <> ignores the includer's folder

    const auto scan = scanIncludes("#include \"common.cuh\"\n#include <angle.cuh>\n#include \"missing.cuh\"\n", main,
                                   {(dir.path() / "inc").string()}, {});
    ASSERT_EQ(scan.files.size(), 6u);
    EXPECT_EQ(scan.files[0].path, fs::canonical(dir.path() / "src/common.cuh"));
    EXPECT_EQ(scan.files[1].path, fs::canonical(dir.path() / "src/nested/inner.cuh"));
    EXPECT_EQ(scan.files[2].path, fs::canonical(dir.path() / "src/nested/sibling.cuh"));
    EXPECT_EQ(scan.files[3].path, fs::canonical(dir.path() / "inc/angle.cuh"));
    EXPECT_EQ(scan.files[4].path, fs::canonical(dir.path() / "inc/common.cuh"));
    EXPECT_EQ(scan.files[5].spelled, "\"missing.cuh\"");
    EXPECT_TRUE(scan.files[5].path.empty());
}

TEST(IncludeScanner, StopsAtCyclesAndDoesNotReadToolkitHeaders)
{
    TempDir dir;
    dir.write("a.cuh", "#include \"b.cuh\"\n");
    dir.write("b.cuh", "#include \"a.cuh\"\n#include <tk.h>\n");
    dir.write("toolkit/tk.h", "#include <never-followed.h>\n");
    const auto scan = scanIncludes("#include \"a.cuh\"\n", dir.path() / "main.cu", {(dir.path() / "toolkit").string()},
                                   {(dir.path() / "toolkit").string()});
    // a -> b -> (a again: listed, not followed) and tk.h (toolkit: listed, not read).
    ASSERT_EQ(scan.files.size(), 4u);
    EXPECT_TRUE(scan.files[3].toolkit);
    for (const auto& f : scan.files)
        EXPECT_NE(f.spelled, "<never-followed.h>");
}

TEST(IncludeScanner, TheDigestFollowsHeaderContentAndExistence)
{
    TempDir dir;
    const fs::path main = dir.path() / "main.cu";
    const std::string source = "#include \"h.cuh\"\n";
    auto digest = [&] {
        ks::Sha256 h;
        scanIncludes(source, main, {}, {}).hashInto(h);
        return h.finish();
    };
    const auto absent = digest();
    dir.write("h.cuh", "#define V 1\n");
    const auto v1 = digest();
    dir.write("h.cuh", "#define V 2\n");
    const auto v2 = digest();
    EXPECT_NE(absent, v1);
    EXPECT_NE(v1, v2);
    dir.write("h.cuh", "#define V 1\n");
    EXPECT_EQ(digest(), v1);
}
