// The pipeline's clock (ks/pipeline/frame_clock.hpp): frame f at f * step by default; a new step,
// speed or time takes effect from the next frame without a jump; bad values are refused.
#include "ks/pipeline/frame_clock.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using ks::pipeline::FrameClock;

TEST(FrameClock, DefaultIsFrameTimesStep)
{
    const FrameClock c(0.5);
    EXPECT_DOUBLE_EQ(c.timeOf(0), 0.0);
    EXPECT_DOUBLE_EQ(c.timeOf(7), 3.5);
    EXPECT_DOUBLE_EQ(c.advance(), 0.5);
    EXPECT_DOUBLE_EQ(FrameClock(-1.0).step(), 1.0 / 60.0); // a bad step falls back to 60 per second
}

TEST(FrameClock, ChangesTakeEffectFromTheNextFrameWithoutAJump)
{
    FrameClock c(0.1);
    // Frames 0..9 ran; frame 10 is next, at 1.0. A new step continues from there.
    ASSERT_TRUE(c.setStep(0.5, 10));
    EXPECT_NEAR(c.timeOf(10), 1.0, 1e-12);
    EXPECT_NEAR(c.timeOf(12), 2.0, 1e-12);
    // Half speed from frame 12.
    ASSERT_TRUE(c.setSpeed(0.5, 12));
    EXPECT_NEAR(c.timeOf(12), 2.0, 1e-12);
    EXPECT_NEAR(c.timeOf(14), 2.5, 1e-12);
    EXPECT_DOUBLE_EQ(c.advance(), 0.25);
    // Speed 0 holds the time while frames go on.
    ASSERT_TRUE(c.setSpeed(0.0, 14));
    EXPECT_NEAR(c.timeOf(100), 2.5, 1e-12);
    // A scrub: frame 100 runs at 10, and with speed 1 again the frames after it step on from there.
    ASSERT_TRUE(c.setTime(10.0, 100));
    ASSERT_TRUE(c.setSpeed(1.0, 100));
    EXPECT_NEAR(c.timeOf(100), 10.0, 1e-12);
    EXPECT_NEAR(c.timeOf(104), 12.0, 1e-12);
    // Back to the start keeps nothing.
    c.reset(0.25);
    EXPECT_DOUBLE_EQ(c.timeOf(4), 1.0);
    EXPECT_DOUBLE_EQ(c.speed(), 1.0);
}

TEST(FrameClock, BadValuesAreRefusedAndChangeNothing)
{
    FrameClock c(0.1);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_FALSE(c.setStep(0.0, 5));
    EXPECT_FALSE(c.setStep(-0.1, 5));
    EXPECT_FALSE(c.setStep(nan, 5));
    EXPECT_FALSE(c.setStep(inf, 5));
    EXPECT_FALSE(c.setSpeed(-1.0, 5));
    EXPECT_FALSE(c.setSpeed(nan, 5));
    EXPECT_FALSE(c.setTime(inf, 5));
    EXPECT_FALSE(c.setTime(nan, 5));
    EXPECT_DOUBLE_EQ(c.step(), 0.1);
    EXPECT_DOUBLE_EQ(c.speed(), 1.0);
    EXPECT_NEAR(c.timeOf(5), 0.5, 1e-12);
}
