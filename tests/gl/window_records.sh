#!/usr/bin/env bash
# A window without supervision (--no-supervise: GLFW in a real X server, Xvfb) records what it
# shows with --record: a folder of PNG frames, one per frame drawn, each the window's size, and not
# all the same (the window changes as it runs: the demo's animation on a GPU, the timings). The
# supervised window's --record: window_record_restart.sh.
#   tests/gl/window_records.sh KERNELSCOPE OUT_DIR
set -uo pipefail
app=$1
out=$2
# A new user's window: no settings saved by an earlier run (the app keeps them in XDG_CONFIG_HOME).
export XDG_CONFIG_HOME="$out.config"
rm -rf "$XDG_CONFIG_HOME"
rm -rf "$out"
mkdir -p "$out"
fail() {
    echo "window_records: $*" >&2
    cat "$out/log.txt" >&2 2>/dev/null
    exit 1
}
xvfb-run -a -s "-screen 0 800x600x24" "$app" --no-supervise --frames 12 --size 640x360 \
    --record "$out/frames" >"$out/log.txt" 2>&1 || fail "the window's run failed"
grep -q "recorded 12 frames" "$out/log.txt" || fail "no \"recorded 12 frames\" in the output"
count=$(find "$out/frames" -name 'frame_*.png' | wc -l)
[ "$count" -eq 12 ] || fail "$count PNG frames, not 12"
python3 - "$out/frames" <<'PY' || fail "the frames are not the window's"
import hashlib, pathlib, struct, sys
frames = sorted(pathlib.Path(sys.argv[1]).glob("frame_*.png"))
sizes = {struct.unpack(">II", f.read_bytes()[16:24]) for f in frames}
assert sizes == {(640, 360)}, f"frame sizes {sizes}"
digests = {hashlib.sha256(f.read_bytes()).hexdigest() for f in frames}
assert len(digests) > 1, "every frame the same: one picture was recorded over and over"
print(f"window_records: {len(frames)} frames of 640x360, {len(digests)} different")
PY
echo "window_records: ok"
