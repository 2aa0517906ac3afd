#pragma once
// GL timestamps around a render pass, read without stalling: begin() and end() write a pair from a
// small ring of GL_TIMESTAMP queries (glQueryCounter), and latestMs() returns the newest pair the
// GPU has finished. finishMs() waits for the last one (headless runs and tests). Needs the GL
// context current.

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
    double elapsedMs(int slot) const; // waits for the slot's pair
    std::array<GLuint, 2 * kRing> m_queries{}; // slot i: begin 2i, end 2i+1
    std::array<bool, kRing> m_pending{};
    int m_next = 0;
    int m_last = -1;
    double m_latest = -1;
};

} // namespace ks::render
