#pragma once
// The rtc layer's device code, the .cuh files beside this header, compiled into the engine as text
// by the build (cmake/KsEmbed.cmake).

namespace ks::rtc::device_text {

extern const char kLeanCurand[]; // lean_curand.cuh

} // namespace ks::rtc::device_text
