#include "ks/core/log.hpp"

#include <cstdio>
#include <mutex>

namespace ks::log {
namespace {

// The one piece of process-wide mutable state in the engine: where log lines go. Guarded.
struct SinkSlot {
    std::mutex mutex;
    Sink sink;
};

SinkSlot& slot()
{
    static SinkSlot s;
    return s;
}

} // namespace

std::string_view levelName(Level level) noexcept
{
    switch (level) {
    case Level::Debug: return "debug";
    case Level::Info: return "info";
    case Level::Warning: return "warning";
    case Level::Error: return "error";
    }
    return "?";
}

Sink setSink(Sink sink)
{
    std::lock_guard lock(slot().mutex);
    std::swap(slot().sink, sink);
    return sink;
}

void write(Level level, std::string_view message)
{
    std::lock_guard lock(slot().mutex);
    if (slot().sink) {
        slot().sink(level, message);
        return;
    }
    if (level == Level::Debug)
        return;
    std::fprintf(stderr, "kernelscope %.*s: %.*s\n", int(levelName(level).size()), levelName(level).data(),
                 int(message.size()), message.data());
}

} // namespace ks::log
