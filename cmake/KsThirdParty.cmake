# Debian-packaged libraries without CMake configs of their own. Static archives are preferred so
# that binaries carried to another machine need only GLFW, libEGL/libGL and the CUDA libraries.
find_path(KS_STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb REQUIRED)
find_library(KS_STB_LIBRARY NAMES libstb.a stb REQUIRED)
add_library(ks_stb UNKNOWN IMPORTED GLOBAL)
add_library(ks::stb ALIAS ks_stb)
set_target_properties(ks_stb PROPERTIES IMPORTED_LOCATION "${KS_STB_LIBRARY}"
                                        INTERFACE_INCLUDE_DIRECTORIES "${KS_STB_INCLUDE_DIR}")
# libstb.a uses libm.
set_property(TARGET ks_stb APPEND PROPERTY INTERFACE_LINK_LIBRARIES m)
