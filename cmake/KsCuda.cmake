# CUDA libraries without the driver. CMake's CUDA::nvrtc drags in CUDA::cuda_driver (libcuda),
# which would stop Kernelscope from even starting on a machine without the NVIDIA driver. The
# engine loads the driver at run time instead (engine/include/ks/cuda/driver.hpp), so these
# targets carry NVRTC and the headers alone.
add_library(ks_cuda_headers INTERFACE)
add_library(ks::cuda_headers ALIAS ks_cuda_headers)
target_include_directories(ks_cuda_headers SYSTEM INTERFACE ${CUDAToolkit_INCLUDE_DIRS})

find_library(KS_NVRTC_LIBRARY nvrtc HINTS "${CUDAToolkit_LIBRARY_DIR}" REQUIRED NO_DEFAULT_PATH)
add_library(ks_nvrtc SHARED IMPORTED GLOBAL)
add_library(ks::nvrtc ALIAS ks_nvrtc)
set_target_properties(ks_nvrtc PROPERTIES IMPORTED_LOCATION "${KS_NVRTC_LIBRARY}")
target_link_libraries(ks_nvrtc INTERFACE ks::cuda_headers)
