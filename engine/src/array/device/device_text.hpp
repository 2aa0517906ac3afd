#pragma once
// The device code of the generated array kernels, the .cuh files beside this header,
// compiled into the engine as text by the build (cmake/KsEmbed.cmake). algorithm_source.cpp fills
// their @NAME@ placeholders; NVRTC compiles the result.

namespace ks::array::device_text {

extern const char kDevicePrelude[];         // device_prelude.cuh
extern const char kAlgorithmSupport[];      // algorithm_support.cuh
extern const char kReductionKernel[];       // reduction_kernel.cuh
extern const char kReductionVectorKernel[]; // reduction_vector_kernel.cuh
extern const char kScanKernels[];           // scan_kernels.cuh
extern const char kStridedLayout[];         // strided_layout.cuh

} // namespace ks::array::device_text
