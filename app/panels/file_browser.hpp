#pragma once
// The model of Kernelscope's file dialog (no Debian package has an ImGui file dialog, so it is a
// small one of its own over std::filesystem; the drawing is panels/file_dialog.cpp): a folder's
// entries, folders first, then the files whose names end in one of the wanted extensions, by name;
// dot files left out; up to the parent; a file name to open or to save as. Never throws: a folder
// that cannot be read leaves the list empty and says why in error().
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ks::app {

class FileBrowser {
public:
    struct Entry {
        std::string name;
        bool folder = false;
        std::uintmax_t bytes = 0; // files
    };

    // `extensions`: ".json", ".cu", ... (empty: every file).
    explicit FileBrowser(std::vector<std::string> extensions = {}) : m_extensions(std::move(extensions)) {}

    // Lists `folder` (made absolute); a file's path lists its folder and takes its name.
    void show(const std::filesystem::path& folderOrFile);
    void refresh() { show(m_folder); }
    void up() { show(m_folder.parent_path()); }
    // Into a folder of the listing, or picks a file of it (its name into name()).
    void choose(const Entry& entry);

    const std::filesystem::path& folder() const noexcept { return m_folder; }
    const std::vector<Entry>& entries() const noexcept { return m_entries; }
    const std::string& error() const noexcept { return m_error; }
    std::string& name() noexcept { return m_name; }
    bool accepts(const std::string& fileName) const;
    // The path the dialog would give: folder / name, or name itself when it is absolute (a typed
    // path); empty when there is no name.
    std::filesystem::path chosen() const;

private:
    std::vector<std::string> m_extensions;
    std::filesystem::path m_folder;
    std::vector<Entry> m_entries;
    std::string m_error;
    std::string m_name;
};

} // namespace ks::app
