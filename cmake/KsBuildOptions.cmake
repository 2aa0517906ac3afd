# One interface target carries the project's compile settings; every Kernelscope target links it.
add_library(ks_build_options INTERFACE)
add_library(ks::build_options ALIAS ks_build_options)
target_compile_features(ks_build_options INTERFACE cxx_std_20)
target_compile_options(ks_build_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
  # Paths in error messages and std::source_location are relative to the repository root.
  $<$<COMPILE_LANGUAGE:CXX,C>:-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=>
  # CMake 3.25 does not know cuda_std_20 for nvcc 13: pass the standard directly.
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 --expt-relaxed-constexpr>)
