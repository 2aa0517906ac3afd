#!/usr/bin/env bash
# Installs a build tree into a fresh folder (cmake --install) and runs the installed app from there:
# every installed piece is where it belongs, and `kernelscope --version`, `--check` (the demo kernel
# and its include folder) and `--validate` (a shipped project and its kernels) work with
# the data found next to the binary (bin/../share/kernelscope), not in the source or build tree.
#   tests/install/run_installed.sh BUILD_DIR
set -euo pipefail
build=$1
prefix=$(mktemp -d "${TMPDIR:-/tmp}/ks-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/kernelscope \
         share/kernelscope/shaders/view_plot.vert share/kernelscope/kernels/thread_colors.cu \
         share/kernelscope/kernels/include/ks_device/thread_colors.cuh share/kernelscope/projects/pi.json \
         share/kernelscope/assets/kernelscope.svg share/kernelscope/docs/teaching/README.md \
         share/applications/kernelscope.desktop share/icons/hicolor/scalable/apps/kernelscope.svg \
         share/doc/kernelscope/LICENSE share/doc/kernelscope/README.md; do
    [ -e "$prefix/$f" ] || { echo "run_installed: $f was not installed" >&2; exit 1; }
done
grep -q '^Exec=kernelscope' "$prefix/share/applications/kernelscope.desktop"
grep -q '^Icon=kernelscope' "$prefix/share/applications/kernelscope.desktop"
# Nothing but the install tree to find data in: no override, and a working folder elsewhere.
unset KS_DATA_DIR
cd "$prefix"
version=$("$prefix/bin/kernelscope" --version)
echo "$version" | head -1
echo "$version" | grep -q '^kernelscope [0-9]'
"$prefix/bin/kernelscope" --check "$prefix/share/kernelscope/kernels/thread_colors.cu"
"$prefix/bin/kernelscope" --validate "$prefix/share/kernelscope/projects/pi.json"
# And it was that data: with the data folder moved away, the same check cannot find any.
mv "$prefix/share/kernelscope" "$prefix/share/elsewhere"
if "$prefix/bin/kernelscope" --check "$prefix/share/elsewhere/kernels/thread_colors.cu" >/dev/null 2>&1; then
    echo "run_installed: the installed app found data outside its install tree" >&2
    exit 1
fi
echo "run_installed: ok"
