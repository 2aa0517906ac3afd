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
    if (m_undo.empty())
        return std::nullopt;
    Step back = std::move(m_undo.back());
    m_undo.pop_back();
    m_bytes += current.size();
    m_bytes -= back.text.size();
    m_redo.push_back({current, cursor});
    m_seen = back.text;
    m_seenCursor = back.cursor;
    m_typedAt = m_typingSince = -1;
    return back;
}

std::optional<TextHistory::Step> TextHistory::redo(const std::string& current, int cursor)
{
    if (current != m_seen || m_redo.empty())
        return std::nullopt; // the text changed since the undo: the redo steps are gone
    Step forward = std::move(m_redo.back());
    m_redo.pop_back();
    m_bytes += current.size();
    m_bytes -= forward.text.size();
    m_undo.push_back({current, cursor});
    m_seen = forward.text;
    m_seenCursor = forward.cursor;
    m_typedAt = m_typingSince = -1;
    return forward;
}

void TextHistory::trim()
{
    while (!m_undo.empty() && (m_undo.size() > kMaxSteps || m_bytes > kMaxBytes)) {
        m_bytes -= m_undo.front().text.size();
        m_undo.pop_front();
    }
}

} // namespace ks::app
