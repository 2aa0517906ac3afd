#include "editor/text_history.hpp"

#include <algorithm>
#include <functional>

namespace ks::app {

namespace {
constexpr double kJoinSeconds = 1.0;
constexpr double kLongestStepSeconds = 5.0;
constexpr std::size_t kMaxSteps = 500;
constexpr std::size_t kMaxBytes = std::size_t(32) << 20;

bool continuationByte(const std::string& s, std::size_t at)
{
    return at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80;
}

// `target` as an edit of `newer`.
TextHistory::Delta deltaOf(const std::string& target, const std::string& newer, int cursor)
{
    const std::size_t shorter = std::min(target.size(), newer.size());
    std::size_t front = 0;
    while (front < shorter && target[front] == newer[front])
        ++front;
    while (front > 0 && (continuationByte(target, front) || continuationByte(newer, front)))
        --front;
    std::size_t back = 0;
    while (back < shorter - front && target[target.size() - 1 - back] == newer[newer.size() - 1 - back])
        ++back;
    while (back > 0 && continuationByte(newer, newer.size() - back))
        --back;
    return {front, back, target.substr(front, target.size() - front - back), cursor};
}

// The text `d` makes of `newer`; nullopt when it does not fit.
std::optional<std::string> applyDelta(const TextHistory::Delta& d, const std::string& newer)
{
    if (d.keepFront > newer.size() || d.keepBack > newer.size() - d.keepFront)
        return std::nullopt;
    std::string out;
    out.reserve(d.keepFront + d.middle.size() + d.keepBack);
    out.append(newer, 0, d.keepFront).append(d.middle).append(newer, newer.size() - d.keepBack, d.keepBack);
    return out;
}

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
        m_undo.push_back({std::move(m_seen), m_seenCursor, std::nullopt});
        if (m_undo.size() >= 2)
            m_undo[m_undo.size() - 2].link.reset(); // its newer step changed
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
    if (!from.empty())
        from.back().link.reset(); // its newer step is now the text
    step.link.reset();
    m_bytes += current.size();
    m_bytes -= step.text.size();
    to.push_back({current, cursor, std::nullopt});
    if (to.size() >= 2)
        to[to.size() - 2].link.reset();
    m_seen = step.text;
    m_seenCursor = step.cursor;
    m_typedAt = m_typingSince = -1;
    return step;
}

TextHistory::Saved TextHistory::save() const
{
    Saved out;
    auto chain = [&](const std::deque<Step>& steps, std::vector<Delta>& deltas) {
        std::size_t bytes = 0;
        const std::string* newer = &m_seen;
        for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
            if (it == steps.rbegin()) {
                deltas.push_back(deltaOf(it->text, m_seen, it->cursor));
            } else {
                if (!it->link)
                    it->link = deltaOf(it->text, *newer, it->cursor);
                deltas.push_back(*it->link);
            }
            bytes += deltas.back().middle.size();
            if (bytes > kMaxSavedBytes) {
                deltas.pop_back();
                return;
            }
            newer = &it->text;
        }
    };
    chain(m_undo, out.undo);
    chain(m_redo, out.redo);
    out.base = std::hash<std::string>{}(m_seen);
    return out;
}

void TextHistory::restore(const Saved& saved, const std::string& text, int cursor)
{
    m_undo.clear();
    m_redo.clear();
    m_started = true;
    m_seen = text;
    m_seenCursor = cursor;
    m_typedAt = m_typingSince = -1;
    m_bytes = 0;
    auto rebuild = [&](const std::vector<Delta>& deltas, std::deque<Step>& steps) {
        const std::string* newer = &m_seen;
        for (std::size_t k = 0; k < deltas.size() && steps.size() < kMaxSteps; ++k) {
            std::optional<std::string> t = applyDelta(deltas[k], *newer);
            if (!t)
                return;
            m_bytes += t->size();
            // The oldest step goes in front; a step's link is its delta of the step after it.
            steps.push_front({std::move(*t), deltas[k].cursor, k == 0 ? std::nullopt : std::optional<Delta>(deltas[k])});
            newer = &steps.front().text;
        }
    };
    if (saved.base != std::hash<std::string>{}(text))
        return;
    rebuild(saved.undo, m_undo);
    rebuild(saved.redo, m_redo);
    trim();
}

void TextHistory::trim()
{
    while (!m_undo.empty() && (m_undo.size() > kMaxSteps || m_bytes > kMaxBytes)) {
        m_bytes -= m_undo.front().text.size();
        m_undo.pop_front();
    }
}

} // namespace ks::app
