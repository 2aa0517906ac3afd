#include "text_history.hpp"

namespace ks::app {

namespace {
constexpr double kJoinSeconds = 1.0;
constexpr double kLongestStepSeconds = 5.0;
constexpr std::size_t kMaxSteps = 500;
constexpr std::size_t kMaxBytes = std::size_t(32) << 20;
} // namespace

void TextHistory::observe(const std::string& text, int cursor, double now, bool typing)
{
    if (!m_started) {
        m_started = true;
        m_seen = text;
        m_seenCursor = cursor;
        return;
    }
    if (text == m_seen) {
        m_seenCursor = cursor;
        return;
    }
    const bool joins = typing && m_typedAt >= 0 && now - m_typedAt <= kJoinSeconds &&
                       now - m_typingSince <= kLongestStepSeconds && !m_undo.empty();
    if (!joins) {
        m_bytes += m_seen.size();
        m_undo.push_back({std::move(m_seen), m_seenCursor});
        m_typingSince = typing ? now : -1;
    }
    m_typedAt = typing ? now : -1;
    for (const Step& s : m_redo)
        m_bytes -= s.text.size();
    m_redo.clear();
    m_seen = text;
    m_seenCursor = cursor;
    trim();
}

std::optional<TextHistory::Step> TextHistory::undo(const std::string& current, int cursor)
{
    observe(current, cursor, -1e300, false); // a change not seen yet is a step of its own
    return move(m_undo, m_redo, current, cursor);
}

std::optional<TextHistory::Step> TextHistory::redo(const std::string& current, int cursor)
{
    if (current != m_seen)
        return std::nullopt; // the text changed since the undo: the redo steps are gone
    return move(m_redo, m_undo, current, cursor);
}

// The newest step of `from` becomes the text; `current` goes onto `to`.
std::optional<TextHistory::Step> TextHistory::move(std::deque<Step>& from, std::deque<Step>& to,
                                                   const std::string& current, int cursor)
{
    if (from.empty())
        return std::nullopt;
    Step step = std::move(from.back());
    from.pop_back();
    m_bytes += current.size();
    m_bytes -= step.text.size();
    to.push_back({current, cursor});
    m_seen = step.text;
    m_seenCursor = step.cursor;
    m_typedAt = m_typingSince = -1;
    return step;
}

void TextHistory::trim()
{
    while (!m_undo.empty() && (m_undo.size() > kMaxSteps || m_bytes > kMaxBytes)) {
        m_bytes -= m_undo.front().text.size();
        m_undo.pop_front();
    }
}

} // namespace ks::app
