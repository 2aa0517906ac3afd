# `cpack -G DEB`: Debian packages made from the install rules, one per component:
#   kernelscope      the app and its data (component app), installed under /usr
#   kernelscope-dev  the engine as a CMake package (component dev: headers, archives, config)
# tests/install/run_deb.sh builds the app's package, unpacks it with dpkg -x into a fresh folder and
# runs the app from there.
#
# Dependencies are named by hand, not by dpkg-shlibdeps: the app loads NVRTC and cuRAND from the
# CUDA Toolkit, which no Debian package of the right version provides (the toolkit's library folder
# stays in the binary's run path, as for `cmake --install`), and loads EGL/GL at run time (glad).
# tests/install/run_deb.sh checks the list against the binary: every library it needs is the CUDA
# Toolkit's or comes from a package named here.
set(CPACK_PACKAGE_NAME kernelscope)
set(CPACK_PACKAGE_VENDOR "Kernelscope")
set(CPACK_PACKAGE_CONTACT "Kernelscope developers <kernelscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Live CUDA kernels on OpenGL: edit, run, see")
set(CPACK_PACKAGE_DESCRIPTION "Kernelscope compiles CUDA kernels as they are edited (NVRTC), runs them on OpenGL \
buffers and textures every frame and shows the results, with the thread hierarchy made visible. \
Needs the NVIDIA driver and the CUDA Toolkit (NVRTC, cuRAND) under /usr/local/cuda.")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL app dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://kernelscope.invalid")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
set(CPACK_DEBIAN_APP_PACKAGE_NAME kernelscope)
set(CPACK_DEBIAN_APP_PACKAGE_DEPENDS "libc6 (>= 2.34), libstdc++6 (>= 12), libgcc-s1, libglfw3 (>= 3.3), libegl1, libgl1")
set(CPACK_DEBIAN_APP_PACKAGE_RECOMMENDS "ffmpeg, fonts-dejavu-core")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME kernelscope-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libglm-dev, libstb-dev, cmake (>= 3.25)")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_COMPONENT_APP_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_COMPONENT_DEV_DESCRIPTION "The Kernelscope engine for other CMake projects: find_package(Kernelscope), Kernelscope::engine.")
include(CPack)
