#pragma once
// GL timer queries around a render pass, read without stalling: begin()/end() use one of a small
// ring of queries, and latestMs() returns the newest result the GPU has finished. finishMs() waits
// for the last one (headless runs and tests). Needs the GL context current.

#include "ks/gl/gl.hpp"

#include <array>

namespace ks::render {

class GpuTimer {
public:
    GpuTimer();
    ~GpuTimer();
    GpuTimer(const GpuTimer&) = delete;
    GpuTimer& operator=(const GpuTimer&) = delete;

    void begin();
    void end();
    double latestMs(); // -1 until a result is available
    double finishMs(); // waits for the last ended query

private:
    static constexpr int kRing = 4;
    std::array<GLuint, kRing> m_queries{};
    std::array<bool, kRing> m_pending{};
    int m_next = 0;
    int m_last = -1;
    double m_latest = -1;
};

} // namespace ks::render
