#!/usr/bin/env bash
# The engine as a CMake package: installs a build tree into a fresh folder (cmake --install), then
# configures and builds tests/install/consumer (find_package(Kernelscope), Kernelscope::engine)
# against that folder alone, and runs it.
#   tests/install/build_consumer.sh BUILD_DIR
set -euo pipefail
build=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ks-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" --component dev >/dev/null
for f in lib/cmake/Kernelscope/KernelscopeConfig.cmake lib/cmake/Kernelscope/KernelscopeConfigVersion.cmake \
         lib/cmake/Kernelscope/KernelscopeTargets.cmake lib/libks_engine.a lib/libks_glad.a \
         include/kernelscope/ks/rtc/compiler.hpp include/kernelscope/ks_device/records.cuh \
         include/kernelscope/glad/glad/gl.h; do
    [ -e "$work/prefix/$f" ] || { echo "build_consumer: $f was not installed" >&2; exit 1; }
done
# Nothing of the source or build tree may leak into what the package tells a consumer.
if grep -n -e "$(cd "$here/../.." && pwd)" -e "$(cd "$build" && pwd)" "$work"/prefix/lib/cmake/Kernelscope/*.cmake; then
    echo "build_consumer: the installed package names the source or build tree" >&2
    exit 1
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$here/consumer" -B "$work/build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
"$work/build/consumer"
