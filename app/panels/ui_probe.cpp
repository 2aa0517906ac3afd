#include "panels/ui_probe.hpp"

namespace ks::app {

void UiProbe::forget(std::string_view prefix)
{
    for (auto it = m_rects.lower_bound(prefix); it != m_rects.end() && it->first.starts_with(prefix);)
        it = m_rects.erase(it);
}

std::optional<UiProbe::Rect> UiProbe::find(const std::string& name) const
{
    const auto it = m_rects.find(name);
    return it == m_rects.end() ? std::nullopt : std::optional<Rect>(it->second);
}

std::size_t UiProbe::count(std::string_view prefix) const
{
    std::size_t n = 0;
    for (auto it = m_rects.lower_bound(prefix); it != m_rects.end() && it->first.starts_with(prefix); ++it)
        ++n;
    return n;
}

UiProbe& uiProbe()
{
    static UiProbe probe;
    return probe;
}

} // namespace ks::app
