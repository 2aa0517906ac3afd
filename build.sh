#!/usr/bin/env bash
# Kernelscope's one entry point on a Debian machine with the CUDA Toolkit:
#   ./build.sh run  [kernelscope flags]   install what is missing, build, run the default demo
#   ./build.sh test                       install what is missing, build, run every test
#   ./build.sh build                      install what is missing and build
#   ./build.sh preset NAME [targets]      install what is missing, configure and build a CMake preset
#                                         (asan, tsan, fuzz, hopper, ...: CMakePresets.json)
# Environment: KS_BUILD_DIR (default build), KS_BUILD_TYPE (default RelWithDebInfo),
# KS_CUDA_ARCHITECTURES (default: the GPUs found, else PTX for compute_75 and compute_90).
set -euo pipefail
cd "$(dirname "$0")"

command=${1:-run}
[ $# -gt 0 ] && shift

packages=(cmake ninja-build g++ pkg-config python3 python3-glad
          libglfw3-dev libglm-dev libimgui-dev libgtest-dev nlohmann-json3-dev libstb-dev libcli11-dev
          libegl-dev libegl-mesa0 libgl1-mesa-dri fonts-dejavu-core xvfb xauth x11-xserver-utils ffmpeg ccache)

install_missing() {
    local missing=()
    for p in "${packages[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "build.sh: installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

find_cuda() {
    if command -v nvcc >/dev/null 2>&1; then return 0; fi
    for d in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
        if [ -n "$d" ] && [ -x "$d/bin/nvcc" ]; then export PATH="$d/bin:$PATH"; return 0; fi
    done
    echo "build.sh: the CUDA Toolkit (12 or newer) was not found: install it (nvcc, NVRTC, cuRAND) under /usr/local/cuda or set CUDA_HOME" >&2
    exit 1
}

configure_and_build() {
    install_missing
    find_cuda
    local dir=${KS_BUILD_DIR:-build}
    local args=(-S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="${KS_BUILD_TYPE:-RelWithDebInfo}")
    [ -n "${KS_CUDA_ARCHITECTURES:-}" ] && args+=(-DKS_CUDA_ARCHITECTURES="$KS_CUDA_ARCHITECTURES")
    cmake "${args[@]}" >/dev/null
    cmake --build "$dir" -j "$(nproc)"
}

case "$command" in
    run)
        configure_and_build
        exec "${KS_BUILD_DIR:-build}/app/kernelscope" "$@"
        ;;
    test)
        configure_and_build
        ctest --test-dir "${KS_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" "$@"
        ;;
    build)
        configure_and_build
        ;;
    preset)
        name=${1:?usage: ./build.sh preset NAME [targets]}
        shift
        extra=()
        [ "$name" = fuzz ] && extra=(clang-16 libclang-rt-16-dev) # clang 16: std::source_location; libFuzzer and clang's sanitizer runtimes
        install_missing "${extra[@]}"
        find_cuda
        cmake --preset "$name" >/dev/null
        if [ $# -gt 0 ]; then
            cmake --build --preset "$name" -j "$(nproc)" --target "$@"
        else
            cmake --build --preset "$name" -j "$(nproc)"
        fi
        ;;
    *)
        echo "usage: ./build.sh run [kernelscope flags] | test [ctest flags] | build | preset NAME [targets]" >&2
        exit 2
        ;;
esac
