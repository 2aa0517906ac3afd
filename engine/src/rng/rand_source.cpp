#include "ks/rng/fill.hpp"

#include "device/device_text.hpp"

// Kept apart from fill.cpp so that compiling the source needs no array runtime.

namespace ks::rng {

const char* randFlipSource() noexcept
{
    return device_text::kRandFlip;
}

} // namespace ks::rng
