#include "ks/render/gpu_timer.hpp"

namespace ks::render {

GpuTimer::GpuTimer()
{
    glGenQueries(kRing, m_queries.data());
}

GpuTimer::~GpuTimer()
{
    glDeleteQueries(kRing, m_queries.data());
}

void GpuTimer::begin()
{
    // A query still pending in this slot is dropped (its result is older than what we keep).
    glBeginQuery(GL_TIME_ELAPSED, m_queries[std::size_t(m_next)]);
}

void GpuTimer::end()
{
    glEndQuery(GL_TIME_ELAPSED);
    m_pending[std::size_t(m_next)] = true;
    m_last = m_next;
    m_next = (m_next + 1) % kRing;
}

double GpuTimer::latestMs()
{
    for (int k = 0; k < kRing; ++k) {
        const int i = (m_next + k) % kRing; // oldest first, so the newest finished one wins
        if (!m_pending[std::size_t(i)])
            continue;
        GLint available = 0;
        glGetQueryObjectiv(m_queries[std::size_t(i)], GL_QUERY_RESULT_AVAILABLE, &available);
        if (available) {
            GLuint64 ns = 0;
            glGetQueryObjectui64v(m_queries[std::size_t(i)], GL_QUERY_RESULT, &ns);
            m_latest = double(ns) * 1e-6;
            m_pending[std::size_t(i)] = false;
        }
    }
    return m_latest;
}

double GpuTimer::finishMs()
{
    if (m_last < 0 || !m_pending[std::size_t(m_last)])
        return m_latest;
    GLuint64 ns = 0;
    glGetQueryObjectui64v(m_queries[std::size_t(m_last)], GL_QUERY_RESULT, &ns);
    m_pending[std::size_t(m_last)] = false;
    m_latest = double(ns) * 1e-6;
    return m_latest;
}

} // namespace ks::render
