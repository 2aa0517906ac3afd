#!/usr/bin/env bash
# Copies the runnable outputs of a build tree (the app, test and bench executables, stripped) into
# DEST/build/{app,tests,bench}, the folder carried to a lent GPU host, where
#   .ci/gpu-suite.sh DEST/build OUT
# runs them. Binaries find shaders/, kernels/ and projects/ through KS_SOURCE_DIR (or next to them).
#   .ci/stage-gpu.sh BUILD_DIR [DEST]    (DEST defaults to .gpu)
set -eu
build=${1:?usage: stage-gpu.sh BUILD_DIR [DEST]}
dest=${2:-.gpu}
rm -rf "$dest/build"
mkdir -p "$dest/build/app" "$dest/build/tests" "$dest/build/bench"
[ -x "$build/app/kernelscope" ] && strip -o "$dest/build/app/kernelscope" "$build/app/kernelscope"
for f in "$build"/tests/ks_*_tests; do [ -x "$f" ] && strip -o "$dest/build/tests/$(basename "$f")" "$f"; done
for f in "$build"/bench/ks_bench_*; do [ -x "$f" ] && strip -o "$dest/build/bench/$(basename "$f")" "$f"; done
du -sh "$dest"
