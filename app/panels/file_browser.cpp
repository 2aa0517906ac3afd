#include "panels/file_browser.hpp"

#include <algorithm>
#include <system_error>

namespace ks::app {

namespace fs = std::filesystem;

bool FileBrowser::accepts(const std::string& fileName) const
{
    if (m_extensions.empty())
        return true;
    for (const std::string& e : m_extensions)
        if (fileName.size() > e.size() && fileName.compare(fileName.size() - e.size(), e.size(), e) == 0)
            return true;
    return false;
}

void FileBrowser::show(const fs::path& where)
{
    std::error_code ec;
    fs::path folder = fs::absolute(where.empty() ? fs::current_path(ec) : where, ec).lexically_normal();
    if (folder.has_filename() == false && folder != folder.root_path())
        folder = folder.parent_path(); // "a/b/" -> "a/b"
    if (fs::is_regular_file(folder, ec)) {
        m_name = folder.filename().string();
        folder = folder.parent_path();
    }
    m_folder = folder;
    m_entries.clear();
    m_error.clear();
    fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec);
    if (ec) {
        m_error = "cannot list " + folder.string() + ": " + ec.message();
        return;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec) {
            m_error = "listing " + folder.string() + " stopped: " + ec.message();
            break;
        }
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.')
            continue;
        std::error_code e2;
        if (it->is_directory(e2)) {
            m_entries.push_back({name, true, 0});
        } else if (it->is_regular_file(e2) && accepts(name)) {
            const std::uintmax_t bytes = it->file_size(e2);
            m_entries.push_back({name, false, e2 ? 0 : bytes});
        }
    }
    std::sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
        return a.folder != b.folder ? a.folder : a.name < b.name;
    });
}

void FileBrowser::choose(const Entry& entry)
{
    if (entry.folder)
        show(m_folder / entry.name);
    else
        m_name = entry.name;
}

fs::path FileBrowser::chosen() const
{
    if (m_name.empty())
        return {};
    const fs::path typed(m_name);
    return typed.is_absolute() ? typed.lexically_normal() : (m_folder / typed).lexically_normal();
}

} // namespace ks::app
