#!/usr/bin/env bash
# A window follows its screen's content scale (HiDPI, app/platform/app_window.cpp): under Xvfb with
# "Xft.dpi: 192" in the X resources (what a desktop sets for a 2x screen, and what GLFW reads on
# X11), a window run says it draws at UI scale 2.00, the shell and its GPU process alike, and its
# screenshot differs from one at 96 dpi; --ui-scale 1 wins over the screen.
#   tests/gl/window_content_scale.sh KERNELSCOPE OUT_DIR
# Needs xvfb-run and xrdb (x11-xserver-utils); skips (exit 77) without them. Xvfb runs with -noreset:
# without it the server resets when xrdb, its only client, leaves, and forgets the resources.
set -uo pipefail
. "$(dirname "$0")/window_lib.sh"
app=$1
out=$2
window_test_start window_content_scale "$out"
command -v xrdb >/dev/null || { echo "window_content_scale: skipped: no xrdb (x11-xserver-utils)"; exit 77; }
run() { # NAME DPI ARGS...
    local name=$1 dpi=$2
    shift 2
    xvfb-run -a -s "-screen 0 1600x900x24 -noreset" bash -c 'echo "Xft.dpi: $0" | xrdb -nocpp -merge && exec "$@"' "$dpi" \
        "$app" --frames 10 --size 1280x720 --no-settings --screenshot "$out/$name.png" "$@" >"$out/$name.log" 2>&1 ||
        { echo "window_content_scale: the $name run failed"; cat "$out/$name.log"; exit 1; }
}
run hidpi 192
grep -q "UI scale 2.00: the screen's content scale" "$out/hidpi.log" ||
    { echo "window_content_scale: no \"UI scale 2.00\" at 192 dpi"; cat "$out/hidpi.log"; exit 1; }
run plain 96
grep -q "UI scale" "$out/plain.log" && { echo "window_content_scale: a UI scale at 96 dpi"; cat "$out/plain.log"; exit 1; }
run forced 192 --ui-scale 1
grep -q "UI scale" "$out/forced.log" && { echo "window_content_scale: --ui-scale 1 did not win"; cat "$out/forced.log"; exit 1; }
cmp -s "$out/hidpi.png" "$out/plain.png" && { echo "window_content_scale: the 2x window looks like the 1x one"; exit 1; }
cmp -s "$out/plain.png" "$out/forced.png" || echo "window_content_scale: note: --ui-scale 1 at 192 dpi drew other pixels than 96 dpi"
echo "window_content_scale: 192 dpi drew at UI scale 2.00, 96 dpi and --ui-scale 1 at 1"
