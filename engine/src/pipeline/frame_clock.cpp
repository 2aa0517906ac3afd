#include "ks/pipeline/frame_clock.hpp"

#include <cmath>

namespace ks::pipeline {

void FrameClock::reset(double timeStep) noexcept
{
    m_step = std::isfinite(timeStep) && timeStep > 0 ? timeStep : 1.0 / 60.0;
    m_speed = 1.0;
    m_baseTime = 0.0;
    m_baseFrame = 0;
}

void FrameClock::rebase(std::int64_t nextFrame) noexcept
{
    m_baseTime = timeOf(nextFrame);
    m_baseFrame = nextFrame;
}

bool FrameClock::setStep(double step, std::int64_t nextFrame) noexcept
{
    if (!std::isfinite(step) || step <= 0)
        return false;
    rebase(nextFrame);
    m_step = step;
    return true;
}

bool FrameClock::setSpeed(double speed, std::int64_t nextFrame) noexcept
{
    if (!std::isfinite(speed) || speed < 0)
        return false;
    rebase(nextFrame);
    m_speed = speed;
    return true;
}

bool FrameClock::setTime(double time, std::int64_t nextFrame) noexcept
{
    if (!std::isfinite(time))
        return false;
    m_baseTime = time;
    m_baseFrame = nextFrame;
    return true;
}

} // namespace ks::pipeline
