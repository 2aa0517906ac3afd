#include "ks/project/kernel_document.hpp"

#include "ks/core/atomic_file.hpp"
#include "ks/core/file_watcher.hpp"
#include "ks/core/log.hpp"
#include "ks/core/paths.hpp"

#include <system_error>

namespace ks::project {

namespace fs = std::filesystem;

KernelDocument::KernelDocument(const fs::path& path) : m_path(FileWatcher::normalize(path))
{
    m_diskText = paths::readTextFile(m_path);
    std::error_code ec;
    m_diskTime = fs::last_write_time(m_path, ec);
    m_text = m_diskText;
}

KernelDocument::DiskVersion KernelDocument::readDisk() const
{
    DiskVersion v;
    std::error_code ec;
    v.exists = fs::exists(m_path, ec);
    if (!v.exists)
        return v;
    v.time = fs::last_write_time(m_path, ec);
    try {
        v.text = paths::readTextFile(m_path);
        v.readable = true;
    } catch (const std::exception& e) {
        log::warning(std::string("cannot read ") + m_path.string() + " after it changed: " + e.what());
    }
    return v;
}

void KernelDocument::setText(std::string text)
{
    if (text == m_text)
        return;
    m_text = std::move(text);
    ++m_revision;
}

void KernelDocument::adoptDisk(const DiskVersion& disk)
{
    m_diskText = disk.text;
    m_diskTime = disk.time;
    m_missing = false;
}

void KernelDocument::edit(std::string text)
{
    setText(std::move(text));
}

DiskChange KernelDocument::syncWithDisk()
{
    const DiskVersion disk = readDisk();
    if (!disk.exists) {
        if (m_missing)
            return DiskChange::None;
        m_missing = true;
        return DiskChange::Deleted;
    }
    if (!disk.readable)
        return DiskChange::None; // mid-replace or permissions: the next event tries again
    if (m_conflict) {
        // Still unresolved: keep showing the newest disk version.
        m_conflictText = disk.text;
        return DiskChange::None;
    }
    if (disk.text == m_diskText) {
        // Touched, written back with the same bytes (our own save's event lands here), or
        // recreated as it was: nothing to reload, and unsaved edits stay unsaved.
        adoptDisk(disk);
        return DiskChange::None;
    }
    if (m_text == m_diskText) { // no unsaved edits (a deleted file counts as none when untouched)
        adoptDisk(disk);
        setText(disk.text);
        return DiskChange::Reloaded;
    }
    m_conflict = true;
    m_conflictText = disk.text;
    return DiskChange::Conflict;
}

void KernelDocument::reloadFromDisk()
{
    const DiskVersion disk = readDisk();
    m_conflict = false;
    m_conflictText.clear();
    if (!disk.exists || !disk.readable) {
        m_missing = !disk.exists;
        return;
    }
    adoptDisk(disk);
    setText(disk.text);
}

void KernelDocument::keepMine()
{
    if (!m_conflict)
        return;
    const DiskVersion disk = readDisk();
    if (disk.exists && disk.readable)
        adoptDisk(disk);
    m_conflict = false;
    m_conflictText.clear();
}

void KernelDocument::saveMineOverDisk()
{
    keepMine();
    save();
}

bool KernelDocument::save()
{
    if (m_conflict)
        return false;
    const DiskVersion disk = readDisk();
    // Only overwrite the version the document knows: a change nobody has looked at yet becomes a
    // conflict instead (the watcher's event may simply not have been handled yet).
    if (disk.exists && disk.readable && disk.text != m_diskText) {
        m_conflict = true;
        m_conflictText = disk.text;
        return false;
    }
    paths::writeFileAtomically(m_path, m_text);
    m_diskText = m_text;
    m_missing = false;
    std::error_code ec;
    m_diskTime = fs::last_write_time(m_path, ec);
    return true;
}

} // namespace ks::project
