#pragma once
// A small process-wide log. Destructors that cannot throw report failures here; the app installs a
// sink that feeds its log panel. Thread-safe: any thread may log and the sink may be swapped while
// other threads log.

#include <functional>
#include <string>
#include <string_view>

namespace ks::log {

enum class Level { Debug, Info, Warning, Error };

using Sink = std::function<void(Level, std::string_view)>;

// Replaces the sink (nullptr restores the default, which writes to stderr). Returns the old one.
Sink setSink(Sink sink);

void write(Level level, std::string_view message);
inline void debug(std::string_view m) { write(Level::Debug, m); }
inline void info(std::string_view m) { write(Level::Info, m); }
inline void warning(std::string_view m) { write(Level::Warning, m); }
inline void error(std::string_view m) { write(Level::Error, m); }

std::string_view levelName(Level level) noexcept;

} // namespace ks::log
