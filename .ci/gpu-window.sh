#!/usr/bin/env bash
# The app's real window on a lent GPU host, which has no X server: Xvfb and Mesa's software GLX
# from the archive .ci/gpu-xvfb-bundle.sh makes. The window (the supervising shell) is drawn by
# Mesa; its GPU process renders on the NVIDIA GPU through EGL and CUDA, as on a desktop whose
# window GL cannot import the GPU's memory (frames come through CPU memory).
#   .ci/gpu-window.sh BUNDLE.tar.xz KERNELSCOPE OUT_DIR
# Runs, in order (the fault last: on the lent hosts a fault makes later raster draws hang,
# docs/supervision.md):
#   1. tests/gl/window_shows_headless.sh: the window against headless runs of the same projects;
#   2. tests/gl/window_worker_killed.sh: the GPU process killed while the window runs;
#   3. the default demo in the window, a screenshot;
#   4. a kernel that writes out of bounds from frame 3 (tests/projects/faults/oob_write.json) in the
#      window: the window stays up, a new GPU process restores the project, frames go on
#      (KS_SKIP_UI_DRAW=1: the new GPU process lays out its panels without drawing them, for the
#      flaw above), a screenshot.
# Prints one line per step, "ok" or "FAILED"; exit 0 when every step passed.
set -u
bundle=$(realpath "${1:?usage: gpu-window.sh BUNDLE KERNELSCOPE OUT_DIR}")
app=$(realpath "${2:?usage: gpu-window.sh BUNDLE KERNELSCOPE OUT_DIR}")
out=$(realpath -m "${3:?usage: gpu-window.sh BUNDLE KERNELSCOPE OUT_DIR}")
src=$(cd "$(dirname "$0")/.." && pwd)
export KS_SOURCE_DIR=${KS_SOURCE_DIR:-$src} KS_DATA_DIR=${KS_DATA_DIR:-$src}
mkdir -p "$out"
x=/tmp/ks-x
rm -rf "$x" && mkdir -p "$x" && tar -C "$x" -xJf "$bundle" || { echo "gpu-window: cannot unpack $bundle"; exit 1; }
# The host's own libraries where it has them (newer, and what its other libraries expect).
host=$(ldconfig -p | awk '{print $1}')
for f in "$x"/lib/*; do
    grep -qxF "$(basename "$f")" <<<"$host" && rm -f "$f"
done
# Xvfb loads Mesa's driver and runs xkbcomp from the paths it was built with.
mkdir -p /usr/lib/x86_64-linux-gnu/dri /var/lib/xkb
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || cp "$x/dri/swrast_dri.so" /usr/lib/x86_64-linux-gnu/dri/
[ -x /usr/bin/xkbcomp ] || cp "$x/bin/xkbcomp" /usr/bin/xkbcomp
export LD_LIBRARY_PATH="$x/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" LIBGL_DRIVERS_PATH="$x/dri"
export DISPLAY=:77
"$x/bin/Xvfb" :77 -screen 0 1280x720x24 -xkbdir "$x/xkb" -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
for _ in $(seq 1 100); do [ -S /tmp/.X11-unix/X77 ] && break; sleep 0.1; done
[ -S /tmp/.X11-unix/X77 ] || { echo "gpu-window: Xvfb did not start"; cat "$out/xvfb.log"; exit 1; }
# The window tests call xvfb-run; the server is already there.
mkdir -p "$x/shim"
cat >"$x/shim/xvfb-run" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do case "$1" in -a) shift ;; -s) shift 2 ;; *) break ;; esac; done
exec "$@"
EOF
chmod +x "$x/shim/xvfb-run"
export PATH="$x/shim:$PATH"

failed=0
step() { # NAME COMMAND...: runs it, its output in OUT/NAME.log
    local name=$1
    shift
    local t0=$SECONDS
    if "$@" >"$out/$name.log" 2>&1; then
        echo "gpu-window: $name: ok ($((SECONDS - t0)) s)"
    else
        echo "gpu-window: $name: FAILED ($((SECONDS - t0)) s), the end of its log:"
        tail -15 "$out/$name.log"
        failed=1
    fi
}
step shows-headless bash "$src/tests/gl/window_shows_headless.sh" "$app" "$out/shows"
step worker-killed env KS_WINDOW_TEST_FRAMES=5000 bash "$src/tests/gl/window_worker_killed.sh" "$app" "$out/killed"
step demo-window "$app" --frames 120 --size 1280x720 --screenshot "$out/demo-window.png"
fault() {
    KS_SKIP_UI_DRAW=1 timeout 120 "$app" --project "$src/tests/projects/faults/oob_write.json" --frames 150 \
        --size 1280x720 --screenshot "$out/fault-window.png" >"$out/fault-run.log" 2>&1 || { cat "$out/fault-run.log"; return 1; }
    cat "$out/fault-run.log"
    [ -s "$out/fault-window.png" ] &&
        grep -q 'kernel oob_write in faults.cu) faulted: CUDA_ERROR_ILLEGAL_ADDRESS (700); your work was restored, paused at frame 3' "$out/fault-run.log"
}
step fault-window fault
grep -h "kernelscope:" "$out/demo-window.log" "$out/fault-run.log" | cut -c1-400
exit $failed
