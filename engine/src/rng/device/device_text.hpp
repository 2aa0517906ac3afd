#pragma once
// The rng layer's device code, the .cuh files beside this header, compiled into the engine as text
// by the build (cmake/KsEmbed.cmake).

namespace ks::rng::device_text {

extern const char kRandFlip[]; // rand_flip.cuh

} // namespace ks::rng::device_text
