#include "ks/core/paths.hpp"

#include "ks/core/error.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ks::paths {

namespace fs = std::filesystem;

fs::path executableDir()
{
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : exe.parent_path();
}

static bool isDataRoot(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p / "shaders", ec) && fs::is_directory(p / "kernels", ec);
}

fs::path dataRoot(const fs::path& override)
{
    if (!override.empty()) {
        if (!isDataRoot(override))
            throwUsage("dataRoot", "--data-dir " + override.string() + " holds no shaders/ and kernels/ folders");
        return fs::absolute(override);
    }
    if (const char* env = std::getenv("KS_DATA_DIR"); env && *env) {
        if (!isDataRoot(env))
            throwUsage("dataRoot", std::string("KS_DATA_DIR=") + env + " holds no shaders/ and kernels/ folders");
        return fs::absolute(env);
    }
    std::string looked;
    fs::path dir = executableDir();
    for (int up = 0; up <= 4 && !dir.empty(); ++up) {
        if (isDataRoot(dir))
            return dir;
        if (isDataRoot(dir / "share" / "kernelscope"))
            return dir / "share" / "kernelscope";
        looked += (looked.empty() ? "" : ", ") + dir.string();
        if (dir == dir.parent_path())
            break;
        dir = dir.parent_path();
    }
    throwUsage("dataRoot", "cannot find Kernelscope's shaders/ and kernels/ folders (looked in " + looked +
                               "); pass --data-dir or set KS_DATA_DIR");
}

std::string readTextFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw Error(ErrorDomain::System, "open", errno, "", path.string() + ": " + std::strerror(errno));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace ks::paths
