#!/usr/bin/env bash
# The Debian package: `cpack -G DEB` makes the app's package (kernelscope_*.deb) from a build tree;
# it is unpacked with dpkg -x into a fresh folder (no root, nothing installed system-wide), its
# control data checked, and the app run from there: `kernelscope --version` and `--check` of a
# shipped kernel with the data found next to the unpacked binary (usr/bin/../share/kernelscope).
#   tests/install/run_deb.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ks-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -D CPACK_COMPONENTS_ALL=app -B "$work/out") \
    >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
debs=("$work"/out/kernelscope_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || { echo "run_deb: cpack made no kernelscope_*.deb" >&2; ls "$work/out" >&2; exit 1; }
deb=${debs[0]}
echo "run_deb: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
[ "$(dpkg-deb -f "$deb" Package)" = kernelscope ] || { echo "run_deb: wrong package name" >&2; exit 1; }
depends=$(dpkg-deb -f "$deb" Depends)
for d in libglfw3 libstdc++6 libegl1; do
    echo "$depends" | grep -q "$d" || { echo "run_deb: Depends ($depends) lacks $d" >&2; exit 1; }
done
contents=$(dpkg-deb -c "$deb")
grep -q './usr/share/applications/kernelscope.desktop' <<<"$contents" || { echo "run_deb: no desktop entry" >&2; exit 1; }
grep -q './usr/include/' <<<"$contents" && { echo "run_deb: the app package carries the engine's headers" >&2; exit 1; }
root="$work/root"
dpkg -x "$deb" "$root"
app="$root/usr/bin/kernelscope"
# Depends is written by hand (cmake/KsPackage.cmake says why): every library the binary needs is
# either the CUDA Toolkit's or one that a package named in Depends ships here.
libs=$(ldd "$app")
for needed in $(readelf -d "$app" | awk '/NEEDED/ { gsub(/[][]/, "", $5); print $5 }'); do
    path=$(awk -v l="$needed" '$1 == l && $2 == "=>" { print $3 } $1 ~ "/" l "$" { print $1 }' <<<"$libs" | head -1)
    [ -n "$path" ] || { echo "run_deb: $needed is not found by ldd" >&2; exit 1; }
    case "$path" in /usr/local/cuda*) continue ;; esac
    owner=
    # dpkg knows a file by the path its package ships it at: /lib/... or /usr/lib/... (merged /usr).
    for p in "$path" "/usr$path" "$(readlink -f "$path")"; do
        [ -n "$owner" ] || owner=$( (dpkg -S "$p" 2>/dev/null || true) | head -1 | cut -d: -f1)
    done
    [ -n "$owner" ] || { echo "run_deb: no package ships $path ($needed)" >&2; exit 1; }
    # Depends' package names, one per line (versions and alternatives dropped), matched whole.
    tr ',|' '\n\n' <<<"$depends" | awk '{ print $1 }' | grep -qxF "$owner" ||
        { echo "run_deb: $needed comes from $owner, not in Depends ($depends)" >&2; exit 1; }
    echo "run_deb: $needed from $owner (in Depends)"
done
# Stripped (CPACK_STRIP_FILES): what a package ships has no debug sections.
if readelf -S "$app" | grep -q '\.debug_info'; then echo "run_deb: the packaged binary is not stripped" >&2; exit 1; fi
unset KS_DATA_DIR
cd "$root"
"$app" --version | head -1 | grep '^kernelscope [0-9]'
"$app" --check "$root/usr/share/kernelscope/kernels/thread_colors.cu"
"$app" --validate "$root/usr/share/kernelscope/projects/pi.json"
echo "run_deb: ok"
