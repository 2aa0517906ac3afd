// The device prelude of generated array kernels (see kernel_source.hpp): the text of
// device/device_prelude.cuh, which the build compiles into the engine (cmake/KsEmbed.cmake).
#include "ks/array/kernel_source.hpp"

#include "device/device_text.hpp"

namespace ks::array {

std::string_view devicePrelude()
{
    return device_text::kDevicePrelude;
}

} // namespace ks::array
