#!/usr/bin/env bash
# A window remembers its size between launches (app/platform/app_window.cpp): a first window run
# under Xvfb at --size 1200x800 writes window.json and settings.json in $XDG_CONFIG_HOME/kernelscope;
# a second run without --size opens at 1200x800 (its screenshot's size), and one with --no-settings
# opens at the default 1600x900 and leaves both files as they were.
#   tests/gl/window_keeps_settings.sh KERNELSCOPE OUT_DIR
set -uo pipefail
. "$(dirname "$0")/window_lib.sh"
app=$1
out=$2
window_test_start window_keeps_settings "$out"
size_of() { python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print('%dx%d' % struct.unpack('>II', d[16:24]))" "$1"; }
run() { # NAME ARGS...
    local name=$1
    shift
    xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --frames 10 --screenshot "$out/$name.png" "$@" >"$out/$name.log" 2>&1 ||
        { echo "window_keeps_settings: the $name run failed"; cat "$out/$name.log"; exit 1; }
}
run first --size 1200x800
for f in window.json settings.json; do
    [ -s "$XDG_CONFIG_HOME/kernelscope/$f" ] || { echo "window_keeps_settings: no $f written"; exit 1; }
done
run second
[ "$(size_of "$out/second.png")" = 1200x800 ] || { echo "window_keeps_settings: the second window is $(size_of "$out/second.png"), not 1200x800"; exit 1; }
before=$(cat "$XDG_CONFIG_HOME/kernelscope/window.json" "$XDG_CONFIG_HOME/kernelscope/settings.json")
run unsaved --no-settings
[ "$(size_of "$out/unsaved.png")" = 1600x900 ] || { echo "window_keeps_settings: --no-settings opened at $(size_of "$out/unsaved.png")"; exit 1; }
[ "$before" = "$(cat "$XDG_CONFIG_HOME/kernelscope/window.json" "$XDG_CONFIG_HOME/kernelscope/settings.json")" ] ||
    { echo "window_keeps_settings: --no-settings changed the saved settings"; exit 1; }
echo "window_keeps_settings: 1200x800 kept, --no-settings at 1600x900 and nothing written"
