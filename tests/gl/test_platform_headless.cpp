// The app headless (app/platform/headless.cpp), on Mesa where there is no GPU; no CUDA needed.
//
// The whole window (scene and ImGui panels) renders headless into a PNG; without CUDA the app still
// opens and says why.
//
// The app, headless, when the disk is full or its own folders are not what they should be
// (issue 16, "bad input everywhere"): a clear message, the documented exit code, nothing half
// written and nothing wrong kept for later.
// - A full disk: the app runs with a file size limit (RLIMIT_FSIZE, SIGXFSZ ignored), so every
//   write past the limit fails as on a full disk (EFBIG where a full disk says ENOSPC).
// - The cache and state folders replaced by files.
// Runs the app binary (test::appBinary()) on Mesa's software GL.
#include "app.hpp"
#include "cli/options.hpp"
#include "ks/core/error.hpp"
#include "ks/core/paths.hpp"
#include "ks/io/image.hpp"
#include "ks/proc/child_process.hpp"
#include "platform/platforms.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

TEST(HeadlessApp, WritesAScreenshotOfTheWholeWindow)
{
    ks::app::AppOptions options;
    options.headless = true;
    options.frames = 3;
    options.width = 800;
    options.height = 500;
    options.dataDir = ks::test::sourceDir();
    options.screenshot = std::filesystem::temp_directory_path() / "ks_headless_app.png";
    std::filesystem::remove(options.screenshot);
    int rc = -1;
    try {
        rc = ks::app::runHeadless(options);
    } catch (const ks::Error& e) {
        if (e.domain() == ks::ErrorDomain::Egl)
            GTEST_SKIP() << "no headless GL: " << e.what();
        throw;
    }
    ASSERT_EQ(rc, 0);
    const ks::io::Rgba8Image shot = ks::io::readPng(options.screenshot);
    EXPECT_EQ(shot.width, 800);
    EXPECT_EQ(shot.height, 500);
    std::set<std::uint32_t> colours;
    for (std::size_t i = 0; i < shot.pixels.size(); i += 4)
        colours.insert(std::uint32_t(shot.pixels[i]) << 16 | std::uint32_t(shot.pixels[i + 1]) << 8 | shot.pixels[i + 2]);
    EXPECT_GT(colours.size(), 40u) << "panels with text should give many distinct colours";
    // The title bar of the first panel (Viewport) is at the top-left, in the style's title colour.
    const std::uint8_t* title = &shot.pixels[(std::size_t(6) * 800 + 200) * 4];
    EXPECT_GT(int(title[1]) + int(title[2]), 40) << "no panel title bar at the top";
    std::filesystem::remove(options.screenshot);
}

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The demo built ("compiled; not running: CUDA is unavailable" here, "running" on a GPU).
bool demoBuilt(const std::string& output)
{
    // The status line of a run without CUDA says how many kernel stages built; with CUDA the demo runs.
    return output.find("kernels built: 1 of 1") != std::string::npos ||
           output.find("project: thread_colors_surface (from thread_colors.cu) (frame 3)  |") != std::string::npos;
}

bool demoFailedToBuild(const std::string& output)
{
    // Without CUDA the status line counts the kernel stages built; with CUDA the stage cannot run.
    return output.find("kernels built: 0 of 1") != std::string::npos ||
           output.find("stage \"thread_colors_surface\" cannot run: build failed") != std::string::npos;
}

struct AppRun {
    int code = -1;
    std::string output;
};

// `env` and the app with `args`, under a file size limit of `limitKiB` (0: none; bash's ulimit -f
// counts KiB, a POSIX sh's 512-byte blocks); the output goes through a pipe to a file outside the
// limit.
// `prefix`: shell commands before (a cd); `runAs`: a command the app runs under (setpriv ...).
AppRun runApp(const std::vector<std::string>& args, const std::string& env, int limitKiB, const fs::path& dir,
              const std::string& prefix = "", const std::string& runAs = "")
{
    std::string app = "'" + ks::test::appBinary().string() + "'";
    for (const std::string& a : args)
        app += " '" + a + "'";
    const std::string limit = limitKiB > 0 ? "trap '' XFSZ; ulimit -f " + std::to_string(limitKiB) + "; " : "";
    const fs::path out = dir / "output.txt";
    const std::string command = "( " + prefix + limit + "exec " + runAs + "env " + env + " " + app + " 2>&1; ); echo \"exit=$?\"";
    ks::proc::ChildProcess child =
        ks::proc::ChildProcess::spawn({"/bin/bash", {"-c", "(" + command + ") | cat > '" + out.string() + "'"}, {}, -1});
    AppRun r;
    if (!child.wait(180s)) {
        child.kill();
        r.output = "(did not end within 180 s)";
        return r;
    }
    r.output = ks::paths::readTextFile(out);
    const auto at = r.output.rfind("exit=");
    if (at != std::string::npos)
        r.code = std::stoi(r.output.substr(at + 5));
    return r;
}

// Every file under `dir` (recursively) whose name matches `ending`.
std::vector<fs::path> filesEndingIn(const fs::path& dir, const std::string& ending)
{
    std::vector<fs::path> found;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file() && it->path().string().ends_with(ending))
            found.push_back(it->path());
    return found;
}

// How to run the app so that file permissions hold: as it is, or, for root (here and in CI),
// which reads and writes whatever the mode, as the user nobody through setpriv. Empty with
// `why` set when neither works.
std::optional<std::string> unprivileged(std::string& why)
{
    if (::geteuid() != 0)
        return std::string();
    if (!fs::exists("/usr/bin/setpriv")) {
        why = "running as root, which ignores file modes, and /usr/bin/setpriv (util-linux) is not there";
        return std::nullopt;
    }
    const std::string as = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
    // nobody must reach the app and the data folder (a checkout under a private home cannot).
    const std::string check = as + "/bin/sh -c \"test -x '" + ks::test::appBinary().string() + "' && test -r '" +
                              (ks::test::sourceDir() / "shaders").string() + "'\" > /dev/null 2>&1";
    if (std::system(check.c_str()) != 0) {
        why = "running as root, and the user nobody cannot reach " + ks::test::appBinary().string() + " or " +
              ks::test::sourceDir().string() + " to run the app without root's rights";
        return std::nullopt;
    }
    return as;
}

// The soak project (every stage kind and view kind): what these runs open.
fs::path soakFolder()
{
    return ks::test::sourceDir() / "tests" / "projects" / "soak";
}

// A folder others may enter and list (a test folder is its owner's alone), for the app as nobody.
void openToAll(const fs::path& folder)
{
    fs::permissions(folder, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                fs::perms::others_read | fs::perms::others_exec);
}

// Tests that need file modes to hold: the app binary, how to run it unprivileged (`as`), and a
// test folder it may enter; skipped, saying why, where that cannot be had.
class StorageTroubleAsNobody : public ::testing::Test {
protected:
    void SetUp() override
    {
        KS_REQUIRE_APP_BINARY();
        std::string why;
        const std::optional<std::string> runAs = unprivileged(why);
        if (!runAs)
            GTEST_SKIP() << why;
        as = *runAs;
        openToAll(dir.path());
    }
    std::string as;
    ks::test::TempDir dir;
};

} // namespace

TEST(StorageTrouble, AFullDiskFailsTheScreenshotAndLeavesNoPartOfIt)
{
    KS_REQUIRE_APP_BINARY();
    ks::test::TempDir dir;
    const fs::path shot = dir.path() / "shots" / "window.png";
    fs::create_directories(shot.parent_path());
    // 8 KiB: an 800x500 screenshot of the panels does not fit (the demo may not even build: NVRTC
    // needs room too, which the next test is about).
    const AppRun r = runApp({"--headless", "--data-dir", ks::test::sourceDir().string(), "--frames", "3", "--size",
                          "800x500", "--screenshot", shot.string()},
                         "XDG_CACHE_HOME=" + (dir.path() / "cache").string(), 8, dir.path());
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find(shot.string() + ": File too large"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("wrote screenshot"), std::string::npos) << "a failed write was reported written:\n" << r.output;
    EXPECT_TRUE(fs::is_empty(shot.parent_path())) << "a partial screenshot or its temporary file was left behind";

    // The same without the limit: written.
    const AppRun ok = runApp({"--headless", "--data-dir", ks::test::sourceDir().string(), "--frames", "3", "--size",
                           "800x500", "--screenshot", shot.string()},
                          "XDG_CACHE_HOME=" + (dir.path() / "cache").string(), 0, dir.path());
    EXPECT_EQ(ok.code, 0) << ok.output;
    EXPECT_TRUE(fs::exists(shot)) << ok.output;
}

// NVRTC itself needs room to work: without it, it fails with "Catastrophic error: unable to obtain
// mapped memory". That says nothing about the kernel, so the compile cache must not keep it as the
// kernel's result: once there is room again, the kernel compiles.
TEST(StorageTrouble, NvrtcOutOfRoomIsNotKeptAsTheKernelsResult)
{
    KS_REQUIRE_APP_BINARY();
    ks::test::TempDir dir;
    const std::string env = "XDG_CACHE_HOME=" + (dir.path() / "cache").string();
    const std::vector<std::string> args = {"--headless", "--data-dir", ks::test::sourceDir().string(), "--frames", "3",
                                           "--size", "320x200"};
    const AppRun starved = runApp(args, env, 1, dir.path());
    EXPECT_EQ(starved.code, 0) << "the app stays up: " << starved.output;
    // NVRTC did run out of room (else this test tests nothing); its failure fits in 1 KiB, so a
    // cache that kept it could have.
    ASSERT_TRUE(demoFailedToBuild(starved.output)) << starved.output;
    EXPECT_NE(starved.output.find("for want of a resource"), std::string::npos) << starved.output;
    for (const fs::path& entry : filesEndingIn(dir.path() / "cache", ".ksc")) {
        const std::string bytes = ks::paths::readFile(entry, 64 << 20);
        EXPECT_EQ(bytes.find("atastrophic error"), std::string::npos)
            << entry << " keeps NVRTC's want of room as the kernel's result";
    }
    const AppRun roomy = runApp(args, env, 0, dir.path());
    EXPECT_EQ(roomy.code, 0) << roomy.output;
    EXPECT_TRUE(demoBuilt(roomy.output)) << roomy.output;
    EXPECT_EQ(roomy.output.find("for want of a resource"), std::string::npos) << roomy.output;
}

// The cache and state folders replaced by files: the app warns once for each, keeps compiled
// results and the recent projects in memory, and runs (the whole app on a project: the demo kernel
// and the project's kernels build, the project is remembered as recent).
TEST(StorageTrouble, CacheAndStateFoldersThatAreFilesOnlyCostTheCache)
{
    KS_REQUIRE_APP_BINARY();
    ks::test::TempDir dir;
    const fs::path cacheFile = dir.write("cache-is-a-file", "not a folder\n");
    const fs::path stateFile = dir.write("state-is-a-file", "not a folder\n");
    const AppRun r = runApp({"--headless", "--data-dir", ks::test::sourceDir().string(), "--project",
                             (soakFolder() / "soak.json").string(), "--layout",
                             "standard", "--frames", "3", "--size", "320x200", "--screenshot",
                             (dir.path() / "shot.png").string()},
                            "XDG_CACHE_HOME=" + cacheFile.string() + " XDG_STATE_HOME=" + stateFile.string(), 0, dir.path());
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("cannot keep the list of recent projects"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("compile cache: cannot store entries in " + cacheFile.string()), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("results are kept in memory only"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::exists(dir.path() / "shot.png")) << r.output;
    EXPECT_EQ(ks::paths::readTextFile(cacheFile), "not a folder\n");
    EXPECT_EQ(ks::paths::readTextFile(stateFile), "not a folder\n");
}

// A project cannot make Kernelscope write anywhere but the paths named on the command line and its
// own cache and state folders: the whole app (--layout: panels, editor, views) on the soak project
// (every stage kind and view kind), with its home, XDG folders, temp folder and working folder all
// fresh, leaves the project's folder as it was, the working and temp folders empty, and files only
// in cache/, state/ and the named screenshot.
// (On a GPU host the CUDA driver's own JIT cache, $HOME/.nv/ComputeCache, is the driver's.)
TEST(StorageTrouble, ARunWritesOnlyWhereItWasToldAndItsOwnFolders)
{
    KS_REQUIRE_APP_BINARY();
    ks::test::TempDir dir;
    const fs::path root = dir.path() / "root";
    for (const char* d : {"home", "cache", "state", "config", "tmp", "cwd", "out", "project"})
        fs::create_directories(root / d);
    for (const char* f : {"soak.json", "soak.cu"})
        fs::copy_file(soakFolder() / f, root / "project" / f);
    auto listing = [](const fs::path& d) {
        std::vector<std::pair<std::string, std::string>> files; // relative path, content
        for (const auto& e : fs::recursive_directory_iterator(d))
            files.emplace_back(fs::relative(e.path(), d).string(),
                               e.is_regular_file() ? ks::paths::readFile(e.path(), 64 << 20) : std::string("(folder)"));
        std::sort(files.begin(), files.end());
        return files;
    };
    const auto projectBefore = listing(root / "project");
    const std::string env = "HOME=" + (root / "home").string() + " XDG_CACHE_HOME=" + (root / "cache").string() +
                            " XDG_STATE_HOME=" + (root / "state").string() + " XDG_CONFIG_HOME=" +
                            (root / "config").string() + " TMPDIR=" + (root / "tmp").string();
    const std::string run = "cd '" + (root / "cwd").string() + "' && ";
    const AppRun r = runApp({"--headless", "--data-dir", ks::test::sourceDir().string(), "--project",
                             (root / "project" / "soak.json").string(), "--frames", "5", "--size", "480x270",
                             "--layout", "standard", "--screenshot", (root / "out" / "shot.png").string()},
                            env, 0, dir.path(), run);
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_EQ(listing(root / "project"), projectBefore) << "the project's folder changed";
    EXPECT_TRUE(fs::is_empty(root / "cwd")) << "something was written in the working folder";
    EXPECT_TRUE(fs::is_empty(root / "tmp")) << "something was left in the temp folder";
    EXPECT_TRUE(fs::is_empty(root / "config")) << "something was written in the config folder";
    std::vector<std::string> outputs;
    for (const auto& e : fs::directory_iterator(root / "out"))
        outputs.push_back(e.path().filename().string());
    std::sort(outputs.begin(), outputs.end());
    EXPECT_EQ(outputs, std::vector<std::string>{"shot.png"});
    for (const auto& e : fs::recursive_directory_iterator(root / "home")) {
        const std::string rel = fs::relative(e.path(), root / "home").string();
        EXPECT_TRUE(rel == ".nv" || rel.starts_with(".nv/ComputeCache")) << "written in the home folder: " << rel;
    }
}

// Read-only cache and state folders (the app as a user who may not write them): the cache warns
// once and keeps results in memory, the app runs and writes the screenshot it was asked for.
TEST_F(StorageTroubleAsNobody, ReadOnlyCacheAndStateFoldersOnlyCostTheCache)
{
    const fs::path readOnly = dir.path() / "read-only", out = dir.path() / "out";
    fs::create_directories(readOnly);
    fs::create_directories(out);
    fs::permissions(readOnly, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                                  fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
    fs::permissions(out, fs::perms::all);
    const AppRun r = runApp({"--headless", "--data-dir", ks::test::sourceDir().string(), "--project",
                             (soakFolder() / "soak.json").string(), "--layout",
                             "standard", "--frames", "3", "--size", "320x200", "--screenshot", (out / "shot.png").string()},
                            "XDG_CACHE_HOME=" + readOnly.string() + " XDG_STATE_HOME=" + readOnly.string(), 0, dir.path(),
                            "", as);
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("compile cache: cannot store entries in " + readOnly.string()), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("Permission denied"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cannot keep the list of recent projects"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::exists(out / "shot.png")) << r.output;
    EXPECT_TRUE(fs::is_empty(readOnly));
}

// A project the user may not read: --validate names it and the reason, exit 1.
TEST_F(StorageTroubleAsNobody, AnUnreadableProjectSaysPermissionDenied)
{
    const fs::path project = dir.write("secret.json", ks::paths::readTextFile(soakFolder() / "soak.json"));
    fs::permissions(project, fs::perms::owner_read | fs::perms::owner_write);
    const AppRun r = runApp({"--validate", project.string()}, "KS_UNUSED=1", 0, dir.path(), "", as);
    EXPECT_EQ(r.code, 1) << r.output;
    EXPECT_NE(r.output.find(project.string() + ": Permission denied"), std::string::npos) << r.output;
}

// A file system that is full for real (ENOSPC, not the file size limit's EFBIG): a 256 KiB tmpfs,
// filled up before the app starts, mounted in a mount namespace of the app's own (unshare -rm:
// needs no root, but a kernel and container that allow user namespaces; skipped, saying so,
// where they do not). The cache and state folders on it cost the cache and the recent-projects
// list, never the run; a screenshot onto it fails with ENOSPC's words and leaves nothing behind.
// (Found by this test: Mesa's shader cache in the full cache folder killed the app with SIGBUS;
// app/platform/mesa_cache_guard.hpp turns it off when its folder has no room.)
TEST(StorageTrouble, AFileSystemThatIsFullForReal)
{
    KS_REQUIRE_APP_BINARY();
    if (!fs::exists("/usr/bin/unshare"))
        GTEST_SKIP() << "no /usr/bin/unshare (util-linux) to mount a small file system without root";
    ks::test::TempDir dir;
    const fs::path full = dir.path() / "full", out = dir.path() / "out";
    fs::create_directories(full);
    fs::create_directories(out);
    const fs::path script = dir.write("full.sh", R"sh(# $1: where to mount the full file system; then the command to run there
full=$1
shift
mount -t tmpfs -o size=256k tmpfs "$full" 2>/dev/null || exit 97
mkdir "$full/cache" "$full/state" "$full/shots" || exit 98
dd if=/dev/zero of="$full/filler" bs=4096 2>/dev/null
test "$(df --output=avail "$full" | tail -1 | tr -d ' ')" = 0 || exit 99
"$@"
code=$?
echo "left in shots: [$(ls -A "$full/shots")]"
exit $code
)sh");
    const std::string inNamespace = "unshare -rm /bin/sh '" + script.string() + "' '" + full.string() + "' ";
    const std::string env = "XDG_CACHE_HOME=" + (full / "cache").string() + " XDG_STATE_HOME=" + (full / "state").string();
    auto run = [&](const fs::path& shot) {
        return runApp({"--headless", "--data-dir", ks::test::sourceDir().string(), "--project",
                       (soakFolder() / "soak.json").string(), "--layout", "standard", "--frames", "3", "--size",
                       "320x200", "--screenshot", shot.string()},
                      env, 0, dir.path(), "", inNamespace);
    };
    const AppRun r = run(out / "shot.png");
    if (r.code == 97)
        GTEST_SKIP() << "cannot mount a tmpfs in a user namespace here (unshare -rm): " << r.output;
    ASSERT_NE(r.code, 98) << "could not make the folders: " << r.output;
    ASSERT_NE(r.code, 99) << "the file system was not full: " << r.output;
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("compile cache: cannot store entries in " + (full / "cache").string()), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("No space left on device"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("cannot keep the list of recent projects"), std::string::npos) << r.output;
    EXPECT_TRUE(fs::exists(out / "shot.png")) << r.output;
    // Mesa's own shader cache would have stopped the run with SIGBUS (exit 135): it was turned off.
    if (!std::getenv("MESA_SHADER_CACHE_DISABLE") && !std::getenv("MESA_SHADER_CACHE_DIR")) {
        EXPECT_NE(r.output.find("Mesa's shader cache is off for this run"), std::string::npos) << r.output;
    }

    const fs::path shot = full / "shots" / "window.png";
    const AppRun onFull = run(shot);
    EXPECT_EQ(onFull.code, 1) << onFull.output;
    EXPECT_NE(onFull.output.find(shot.string() + ": No space left on device"), std::string::npos) << onFull.output;
    EXPECT_EQ(onFull.output.find("wrote screenshot"), std::string::npos) << onFull.output;
    EXPECT_NE(onFull.output.find("left in shots: []"), std::string::npos) << "a partial screenshot or its temporary file:\n"
                                                                         << onFull.output;
}

// The same for a disk that fills up while the app runs: Mesa's shader cache index, all holes as
// Mesa 22.3 makes it, took the app down with SIGBUS (exit 135) at the first shader compiled after
// the disk filled (a view shader edited and compiled again, here). The app now gives the index its
// blocks once its GL context exists (allocateMesaShaderCacheIndex), and runs on.
TEST(StorageTrouble, ADiskThatFillsUpDuringTheRun)
{
    KS_REQUIRE_APP_BINARY();
    if (!fs::exists("/usr/bin/unshare"))
        GTEST_SKIP() << "no /usr/bin/unshare (util-linux) to mount a small file system without root";
    if (std::getenv("MESA_SHADER_CACHE_DISABLE") || std::getenv("MESA_SHADER_CACHE_DIR"))
        GTEST_SKIP() << "Mesa's shader cache is set by the environment here";
    ks::test::TempDir dir;
    const fs::path full = dir.path() / "full", data = dir.path() / "data";
    fs::create_directories(full);
    fs::create_directories(data);
    for (const char* sub : {"shaders", "kernels", "assets"})
        fs::copy(ks::test::sourceDir() / sub, data / sub, fs::copy_options::recursive);
    const fs::path project = dir.write("views.json", R"({"kernelscope": 1, "name": "views, no stages",
        "resources": {"m": {"kind": "buffer", "type": "float", "shape": [2, 4], "init": [0, 1, 2, 3, 3, 2, 1, 0]}},
        "stages": [], "views": [{"kind": "image", "name": "m", "source": "m", "range": [0, 3]}]})");
    const fs::path script = dir.write("fills.sh", R"sh(# $1: where to mount the file system; $2: the data folder; then the app's command
full=$1
data=$2
shift 2
[ "$1" = exec ] && shift
mount -t tmpfs -o size=80m tmpfs "$full" 2>/dev/null || exit 97
mkdir "$full/cache" "$full/state" || exit 98
log=$full.log
"$@" >"$log" 2>&1 &
app=$!
index=$full/cache/mesa_shader_cache/index
i=0
while [ ! -f "$index" ] && kill -0 $app 2>/dev/null && [ $i -lt 600 ]; do
    # Another driver's GL makes no such index: no need to wait for one.
    grep -q "headless GL:" "$log" && ! grep -q "headless GL: Mesa" "$log" && break
    sleep 0.1
    i=$((i + 1))
done
if [ ! -f "$index" ]; then kill $app 2>/dev/null; cat "$log"; exit 96; fi
sleep 1
dd if=/dev/zero of="$full/filler" bs=65536 2>/dev/null
echo "free after filling: $(df --output=avail "$full" | tail -1 | tr -d ' ')"
echo "this line, added while the disk is full, is not GLSL" >>"$data/shaders/view_image.comp"
i=0
while ! grep -q "shader reload failed" "$log" && kill -0 $app 2>/dev/null && [ $i -lt 600 ]; do
    sleep 0.1
    i=$((i + 1))
done
sleep 1
if kill -0 $app 2>/dev/null; then
    echo "still running after the reload"
    kill $app
    wait $app
else
    wait $app
    echo "the app ended by itself: exit $?"
fi
cat "$log"
exit 0
)sh");
    const std::string env = "XDG_CACHE_HOME=" + (full / "cache").string() + " XDG_STATE_HOME=" + (full / "state").string();
    const AppRun r = runApp({"--headless", "--ui", "--data-dir", data.string(), "--project", project.string(),
                             "--frames", "1000000", "--size", "320x200"},
                            env, 0, dir.path(), "unshare -rm /bin/sh '" + script.string() + "' '" + full.string() + "' '" +
                                                    data.string() + "' ");
    if (r.code == 97)
        GTEST_SKIP() << "cannot mount a tmpfs in a user namespace here (unshare -rm): " << r.output;
    if (r.code == 96)
        GTEST_SKIP() << "no Mesa shader cache index appeared (GL is not Mesa's, or its cache is of another kind): "
                     << r.output;
    ASSERT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("free after filling: 0"), std::string::npos) << r.output;
    // Compiled (and refused: the app says so on stderr, where a good reload is only in its panel).
    EXPECT_NE(r.output.find("shader reload failed, keeping the previous program"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("still running after the reload"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("cannot give Mesa's shader cache index"), std::string::npos) << r.output;
}

// A kernel file with a NUL byte (a binary file, or a kernel with anything after a NUL) is refused
// where the NUL is, by --validate and --check (both said "ok" before: NVRTC built the part before
// the NUL).
TEST(BadKernelFile, ANulByteIsAnErrorAtItsPlaceNotTheEndOfTheSource)
{
    KS_REQUIRE_APP_BINARY();
    ks::test::TempDir dir;
    const std::string good = "extern \"C\" __global__ void fill(float* a, int n)\n"
                             "{\n"
                             "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "    if (i < n) a[i] = 1.f;\n"
                             "}\n";
    dir.write("fill.cu", good + "// then" + std::string(1, '\0') + "\x7f" "ELF and more");
    const fs::path project = dir.write("p.json", R"({"kernelscope": 1, "name": "nul",
        "resources": {"a": {"kind": "buffer", "type": "float", "count": 64}},
        "stages": [{"kind": "kernel", "name": "fill", "file": "fill.cu", "kernel": "fill", "grid": [1], "block": [64],
                    "args": ["a", {"count": "a"}]}],
        "views": [{"kind": "plot", "name": "a", "source": "a"}]})");
    const AppRun v = runApp({"--data-dir", ks::test::sourceDir().string(), "--validate", project.string()}, "", 0, dir.path());
    EXPECT_EQ(v.code, 1) << v.output;
    EXPECT_NE(v.output.find("fill.cu:6:8: error: the source holds a NUL byte"), std::string::npos) << v.output;
    EXPECT_EQ(v.output.find(": ok"), std::string::npos) << v.output;

    const AppRun c = runApp({"--data-dir", ks::test::sourceDir().string(), "--check", (dir.path() / "fill.cu").string()},
                            "", 0, dir.path());
    EXPECT_EQ(c.code, 1) << c.output;
    EXPECT_NE(c.output.find("fill.cu:6:8: error: the source holds a NUL byte"), std::string::npos) << c.output;
}
