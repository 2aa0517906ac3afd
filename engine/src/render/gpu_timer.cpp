#include "ks/render/gpu_timer.hpp"

namespace ks::render {

GpuTimer::GpuTimer()
{
    glGenQueries(2 * kRing, m_queries.data());
}

GpuTimer::~GpuTimer()
{
    glDeleteQueries(2 * kRing, m_queries.data());
}

void GpuTimer::begin()
{
    // A query still pending in this slot is dropped (its result is older than what we keep).
    glQueryCounter(m_queries[std::size_t(2 * m_next)], GL_TIMESTAMP);
}

void GpuTimer::end()
{
    glQueryCounter(m_queries[std::size_t(2 * m_next + 1)], GL_TIMESTAMP);
    m_pending[std::size_t(m_next)] = true;
    m_last = m_next;
    m_next = (m_next + 1) % kRing;
}

double GpuTimer::elapsedMs(int slot) const
{
    GLuint64 t0 = 0, t1 = 0;
    glGetQueryObjectui64v(m_queries[std::size_t(2 * slot)], GL_QUERY_RESULT, &t0);
    glGetQueryObjectui64v(m_queries[std::size_t(2 * slot + 1)], GL_QUERY_RESULT, &t1);
    return t1 > t0 ? double(t1 - t0) * 1e-6 : 0.0;
}

double GpuTimer::latestMs()
{
    for (int k = 0; k < kRing; ++k) {
        const int i = (m_next + k) % kRing; // oldest first, so the newest finished one wins
        if (!m_pending[std::size_t(i)])
            continue;
        GLint available = 0; // the end timestamp comes after the begin one
        glGetQueryObjectiv(m_queries[std::size_t(2 * i + 1)], GL_QUERY_RESULT_AVAILABLE, &available);
        if (available) {
            m_latest = elapsedMs(i);
            m_pending[std::size_t(i)] = false;
        }
    }
    return m_latest;
}

double GpuTimer::finishMs()
{
    if (m_last < 0 || !m_pending[std::size_t(m_last)])
        return m_latest;
    m_pending[std::size_t(m_last)] = false;
    m_latest = elapsedMs(m_last);
    return m_latest;
}

} // namespace ks::render
