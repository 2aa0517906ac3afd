# One interface target carries the project's compile settings; every Kernelscope target links it.
add_library(ks_build_options INTERFACE)
add_library(ks::build_options ALIAS ks_build_options)
target_compile_features(ks_build_options INTERFACE cxx_std_20)
# Paths in error messages and std::source_location are relative to the repository root: the
# source tree's absolute prefix goes, and so does the relative one from the build folder ("../"),
# which is how ccache (cmake/KsCompilerCache.cmake) hands files under its base_dir to the compiler.
file(RELATIVE_PATH _ks_source_from_build "${PROJECT_BINARY_DIR}" "${PROJECT_SOURCE_DIR}")
set(_ks_prefix_maps "-fmacro-prefix-map=${PROJECT_SOURCE_DIR}/=")
if(_ks_source_from_build MATCHES "^(\\.\\./)+$") # "../" (CMake 3.25 ends it with a slash) or "../../"
  list(APPEND _ks_prefix_maps "-fmacro-prefix-map=${_ks_source_from_build}=")
elseif(_ks_source_from_build MATCHES "^(\\.\\./)*\\.\\.$")
  list(APPEND _ks_prefix_maps "-fmacro-prefix-map=${_ks_source_from_build}/=")
endif()
list(TRANSFORM _ks_prefix_maps PREPEND "-Xcompiler=" OUTPUT_VARIABLE _ks_cuda_prefix_maps)
target_compile_options(ks_build_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>
  "$<$<COMPILE_LANGUAGE:CXX,C>:${_ks_prefix_maps}>"
  "$<$<COMPILE_LANGUAGE:CUDA>:${_ks_cuda_prefix_maps}>"
  # CMake 3.25 does not know cuda_std_20 for nvcc 13: pass the standard directly.
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 --expt-relaxed-constexpr>)

# Sanitizer builds (presets asan, tsan, fuzz; docs/hardening.md). KS_SANITIZE: "address" is
# AddressSanitizer with UndefinedBehaviorSanitizer (any UB report aborts the test), "thread" is
# ThreadSanitizer. Host C/C++ only: nvcc's device code cannot be instrumented, and the one .cu file's
# host side runs uninstrumented, which both sanitizers allow.
set(KS_SANITIZE "" CACHE STRING "Sanitizer build: empty, address (ASan+UBSan) or thread (TSan)")
set_property(CACHE KS_SANITIZE PROPERTY STRINGS "" address thread)
option(KS_FUZZ "Build the libFuzzer targets of tests/fuzz (clang; implies KS_SANITIZE=address)" OFF)
if(KS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "KS_FUZZ needs clang (libFuzzer): configure with the `fuzz` preset or "
                        "-DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang")
  endif()
  set(KS_SANITIZE address CACHE STRING "" FORCE)
endif()
if(KS_SANITIZE STREQUAL "address")
  set(_ks_sanitize -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
elseif(KS_SANITIZE STREQUAL "thread")
  set(_ks_sanitize -fsanitize=thread -fno-omit-frame-pointer)
elseif(NOT KS_SANITIZE STREQUAL "")
  message(FATAL_ERROR "KS_SANITIZE is empty, address or thread, not \"${KS_SANITIZE}\"")
endif()
if(_ks_sanitize)
  set(_ks_sanitize_compile ${_ks_sanitize})
  if(KS_FUZZ)
    list(APPEND _ks_sanitize_compile -fsanitize=fuzzer-no-link)
  endif()
  target_compile_options(ks_build_options INTERFACE "$<$<COMPILE_LANGUAGE:CXX,C>:${_ks_sanitize_compile}>")
  target_link_options(ks_build_options INTERFACE ${_ks_sanitize})
endif()
