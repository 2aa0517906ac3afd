#pragma once
// The time a pipeline's kernels receive (`time`, `timeStep` builtins): each frame advances it by a
// fixed step, times a speed, from wherever it was last set. With the defaults (the project's step,
// speed 1, never set) frame f runs at f * step, so the same project, seed and frame count give the
// same results. Changing the step or the speed, or setting the time (scrubbing), takes effect from
// the next frame without a jump: the time continues from the value the change was made at. Pure.
#include <cstdint>

namespace ks::pipeline {

class FrameClock {
public:
    explicit FrameClock(double timeStep = 1.0 / 60.0) noexcept { reset(timeStep); }

    // Back to the start: step `timeStep`, speed 1, frame 0 at time 0.
    void reset(double timeStep) noexcept;

    // The time frame `frame` runs at.
    double timeOf(std::int64_t frame) const noexcept { return m_baseTime + double(frame - m_baseFrame) * advance(); }
    // What a frame adds to the time: step * speed.
    double advance() const noexcept { return m_step * m_speed; }
    double step() const noexcept { return m_step; }
    double speed() const noexcept { return m_speed; }

    // From frame `nextFrame` on. A step must be positive and finite and a speed finite and not
    // negative (0 holds the time still while frames run); other values are ignored (returns false).
    bool setStep(double step, std::int64_t nextFrame) noexcept;
    bool setSpeed(double speed, std::int64_t nextFrame) noexcept;
    // Frame `nextFrame` runs at `time` (finite), the frames after it from there.
    bool setTime(double time, std::int64_t nextFrame) noexcept;

private:
    void rebase(std::int64_t nextFrame) noexcept;
    double m_step = 1.0 / 60.0;
    double m_speed = 1.0;
    double m_baseTime = 0.0;
    std::int64_t m_baseFrame = 0;
};

} // namespace ks::pipeline
