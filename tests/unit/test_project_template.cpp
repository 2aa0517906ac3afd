// The file dialog's model (app/panels/file_browser.hpp) and new projects from templates
// (ks/project/template.hpp): listings, navigation and names; copies that leave the template alone.
#include "panels/file_browser.hpp"

#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/project/project.hpp"
#include "ks/project/template.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace fs = std::filesystem;

TEST(FileBrowser, FoldersFirstThenMatchingFilesByNameWithoutDotFiles)
{
    ks::test::TempDir dir;
    dir.write("b.json", "{}");
    dir.write("a.json", "{}");
    dir.write("k.cu", "");
    dir.write(".hidden.json", "{}");
    dir.write("sub/inner.json", "{}");
    dir.write("zeta/x.txt", "");
    ks::app::FileBrowser b({".json"});
    b.show(dir.path());
    ASSERT_TRUE(b.error().empty()) << b.error();
    std::vector<std::string> names;
    for (const auto& e : b.entries())
        names.push_back(e.name + (e.folder ? "/" : ""));
    EXPECT_EQ(names, (std::vector<std::string>{"sub/", "zeta/", "a.json", "b.json"}));
    EXPECT_EQ(b.entries()[2].bytes, 2u);

    b.choose(b.entries()[0]); // into sub/
    EXPECT_EQ(b.folder(), fs::absolute(dir.path() / "sub"));
    ASSERT_EQ(b.entries().size(), 1u);
    b.choose(b.entries()[0]); // a file: its name
    EXPECT_EQ(b.name(), "inner.json");
    EXPECT_EQ(b.chosen(), fs::absolute(dir.path() / "sub" / "inner.json"));
    b.up();
    EXPECT_EQ(b.folder(), fs::absolute(dir.path()));
    b.name() = "/elsewhere/typed.json"; // a typed absolute path wins over the folder
    EXPECT_EQ(b.chosen(), fs::path("/elsewhere/typed.json"));
    b.name().clear();
    EXPECT_TRUE(b.chosen().empty());

    // A file's path lists its folder and takes its name; a folder that is not there says so.
    b.show(dir.path() / "b.json");
    EXPECT_EQ(b.folder(), fs::absolute(dir.path()));
    EXPECT_EQ(b.name(), "b.json");
    b.show(dir.path() / "missing");
    EXPECT_TRUE(b.entries().empty());
    EXPECT_NE(b.error().find("cannot list"), std::string::npos) << b.error();
    ks::app::FileBrowser any;
    any.show(dir.path());
    EXPECT_EQ(any.entries().size(), 5u) << "every file without extensions (dot files still left out)";
}

TEST(NewProjectFromTemplate, CopiesTheKernelFilesAndLeavesTheTemplateAlone)
{
    ks::test::TempDir dir;
    dir.write("tpl/kernels/k.cu", "#include \"helper.cuh\"\n#include <ks_device/thread_colors.cuh>\n"
                                  "extern \"C\" __global__ void k(float* a) { a[threadIdx.x] = helper(); }\n");
    dir.write("tpl/kernels/helper.cuh", "__device__ float helper() { return 2.f; }\n");
    const fs::path tpl = dir.write("tpl/projects/t.json", R"({"kernelscope": 1, "name": "t",
        "resources": {"a": {"kind": "buffer", "type": "float", "count": 32}},
        "stages": [{"kind": "kernel", "name": "s", "file": "../kernels/k.cu", "kernel": "k", "grid": [1], "block": [32],
                    "args": ["a"]}]})");
    const std::string before = ks::paths::readTextFile(tpl);
    const fs::path target = dir.path() / "mine" / "deep" / "new.json";
    const ks::project::NewProject made = ks::project::newProjectFromTemplate(tpl, target);
    EXPECT_EQ(made.file, target);
    EXPECT_EQ(made.copied.size(), 2u);
    ASSERT_TRUE(fs::exists(target.parent_path() / "k.cu"));
    ASSERT_TRUE(fs::exists(target.parent_path() / "helper.cuh")) << "a file it includes with quotes, too";
    const ks::project::LoadResult r = ks::project::loadProject(target);
    ASSERT_TRUE(r.ok()) << (r.problems.empty() ? "" : r.problems[0].format());
    EXPECT_EQ(r.project->name, "new");
    EXPECT_EQ(r.project->resolve(r.project->stages[0].file), target.parent_path() / "k.cu");
    EXPECT_EQ(ks::paths::readTextFile(tpl), before) << "the template is untouched";

    // Refused, with nothing written: a target that exists, a kernel file of that name with other
    // contents, a template that does not load, a name without .json.
    EXPECT_THROW(ks::project::newProjectFromTemplate(tpl, target), ks::Error);
    dir.write("other/k.cu", "// someone else's\n");
    try {
        ks::project::newProjectFromTemplate(tpl, dir.path() / "other" / "p.json");
        ADD_FAILURE() << "a different k.cu was overwritten";
    } catch (const ks::Error& e) {
        EXPECT_NE(std::string(e.what()).find("exists already with other contents"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(dir.path() / "other" / "p.json"));
    EXPECT_EQ(ks::paths::readTextFile(dir.path() / "other" / "k.cu"), "// someone else's\n");
    const fs::path broken = dir.write("broken.json", "{\"kernelscope\": 1, ");
    EXPECT_THROW(ks::project::newProjectFromTemplate(broken, dir.path() / "b2" / "p.json"), ks::Error);
    EXPECT_FALSE(fs::exists(dir.path() / "b2"));
    EXPECT_THROW(ks::project::newProjectFromTemplate(tpl, dir.path() / "p.txt"), ks::Error);
}

TEST(NewProjectFromTemplate, EveryShippedProjectMakesANewProjectThatLoads)
{
    ks::test::TempDir dir;
    int made = 0;
    for (const auto& e : fs::recursive_directory_iterator(ks::test::sourceDir() / "projects")) {
        if (e.path().extension() != ".json")
            continue;
        const fs::path target = dir.path() / e.path().stem() / (e.path().stem().string() + ".json");
        const auto p = ks::project::newProjectFromTemplate(e.path(), target);
        const ks::project::LoadResult r = ks::project::loadProject(p.file);
        EXPECT_TRUE(r.ok()) << e.path() << ": " << (r.problems.empty() ? "" : r.problems[0].format());
        for (const auto& s : r.project->stages)
            if (!s.file.empty()) {
                EXPECT_EQ(r.project->resolve(s.file).parent_path(), target.parent_path()) << e.path();
            }
        ++made;
    }
    EXPECT_GE(made, 10);
}
