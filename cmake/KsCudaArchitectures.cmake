# Chooses CMAKE_CUDA_ARCHITECTURES before project() enables CUDA.
#
# - An explicit KS_CUDA_ARCHITECTURES (or CMAKE_CUDA_ARCHITECTURES) wins.
# - Otherwise, if nvidia-smi reports GPUs, machine code for exactly those GPUs plus PTX for the
#   newest of them (so the driver can JIT for anything newer).
# - Otherwise (no GPU, as on CI) PTX alone, for compute_75 (any GPU from Turing on) and compute_90
#   (Hopper's features): nothing built without a GPU can run a kernel where it was built, and the
#   driver compiles the PTX once for the GPU it meets and keeps it in its cache. Machine code for
#   five architectures made the build's .cu files cost five times the compile. To carry a build to
#   a GPU host, build for it: the `hopper` preset, or KS_CUDA_ARCHITECTURES.
if(DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED KS_CUDA_ARCHITECTURES)
  return()
endif()

set(_ks_default_archs "75-virtual;90-virtual")

if(DEFINED KS_CUDA_ARCHITECTURES)
  set(_ks_archs "${KS_CUDA_ARCHITECTURES}")
else()
  find_program(KS_NVIDIA_SMI nvidia-smi)
  set(_ks_archs "")
  if(KS_NVIDIA_SMI)
    execute_process(COMMAND "${KS_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _ks_caps RESULT_VARIABLE _ks_rc ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 20)
    if(_ks_rc EQUAL 0 AND _ks_caps MATCHES "^[0-9]")
      string(REPLACE "\n" ";" _ks_caps "${_ks_caps}")
      set(_ks_newest 0)
      foreach(_cap IN LISTS _ks_caps)
        string(REPLACE "." "" _sm "${_cap}")
        string(STRIP "${_sm}" _sm)
        list(APPEND _ks_archs "${_sm}-real")
        if(_sm GREATER _ks_newest)
          set(_ks_newest ${_sm})
        endif()
      endforeach()
      list(REMOVE_DUPLICATES _ks_archs)
      list(APPEND _ks_archs "${_ks_newest}-virtual")
      message(STATUS "Kernelscope: building CUDA code for the GPUs found: ${_ks_archs}")
    endif()
  endif()
  if(NOT _ks_archs)
    set(_ks_archs "${_ks_default_archs}")
    message(STATUS "Kernelscope: no GPU found at configure time; CUDA architectures ${_ks_archs}")
  endif()
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_ks_archs}" CACHE STRING "CUDA architectures (set by KsCudaArchitectures)")
