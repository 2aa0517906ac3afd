#!/usr/bin/env bash
# A supervised window records (--record FILE.mp4) and its GPU process is killed (SIGKILL) mid-run:
# what was recorded until then is kept in FILE.mp4, a whole video that decodes (ffmpeg, fed by the
# killed process, outlives it and finishes the file); the window says the recording stopped and
# where the next one would go; the new GPU process does not record over the file; the run
# finishes. Then a window run that is not interrupted records exactly its frames.
#   tests/gl/window_record_restart.sh KERNELSCOPE OUT_DIR
# Needs xvfb-run and ffmpeg (skips, exit 77, without ffmpeg).
set -uo pipefail
. "$(dirname "$0")/window_lib.sh"
app=$1
out=$2
# A new user's window: no settings saved by an earlier run (the app keeps them in XDG_CONFIG_HOME).
export XDG_CONFIG_HOME="$out.config"
rm -rf "$XDG_CONFIG_HOME"
rm -rf "$out"
mkdir -p "$out"
fail() {
    echo "window_record_restart: $*" >&2
    cat "$out/log.txt" >&2 2>/dev/null
    exit 1
}
command -v ffmpeg >/dev/null || { echo "window_record_restart: skipped: no ffmpeg program"; exit 77; }
frames_in() { ffmpeg -v error -i "$1" -f framemd5 - 2>"$out/decode.txt" | grep -vc '^#'; }

# Uninterrupted: every frame the window draws, at its size.
xvfb-run -a -s "-screen 0 800x600x24" "$app" --frames 30 --size 640x360 --record "$out/whole.mp4" \
    >"$out/log.txt" 2>&1 || fail "the recording window's run failed"
grep -q "recorded 30 frames to .*whole.mp4" "$out/log.txt" || fail "no \"recorded 30 frames\" in the output"
n=$(frames_in "$out/whole.mp4")
[ "$n" -eq 30 ] || fail "whole.mp4 decodes to $n frames, not 30: $(cat "$out/decode.txt")"
size=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 "$out/whole.mp4")
[ "$size" = "640,360" ] || fail "whole.mp4 is $size, not 640,360"

# Interrupted: the GPU process is killed while it records.
xvfb-run -a -s "-screen 0 800x600x24" "$app" --frames 1500 --size 640x360 --record "$out/cut.mp4" \
    >"$out/log.txt" 2>&1 &
runner=$!
encoder_of() { # the ffmpeg the worker feeds
    local p
    for p in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        { tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | grep -q "cut.mp4" && echo "$p"
    done
}
worker=""
encoder=""
for _ in $(seq 1 600); do
    worker=$(worker_of "$runner" | head -1)
    [ -n "$worker" ] && encoder=$(encoder_of "$worker" | head -1)
    [ -n "$encoder" ] && break
    sleep 0.1
done
[ -n "$encoder" ] || { kill "$runner" 2>/dev/null; fail "no GPU process started recording"; }
sleep 1.5 # frames are being recorded
kill -KILL "$worker"
echo "window_record_restart: killed GPU process $worker while ffmpeg $encoder recorded"
wait "$runner"
status=$?
for _ in $(seq 1 100); do # the killed worker's ffmpeg finishing the file
    kill -0 "$encoder" 2>/dev/null || break
    sleep 0.1
done
cat "$out/log.txt"
[ "$status" -eq 0 ] || fail "the window exited with status $status"
grep -q "your work was restored" "$out/log.txt" || fail "no word of the restore"
grep -q "The recording stopped when the GPU process was replaced: what it recorded until then is in .*cut.mp4. Start recording again to go on (into .*cut-2.mp4)" \
    "$out/log.txt" || fail "the window did not say what became of the recording"
n=$(frames_in "$out/cut.mp4")
[ "$n" -gt 0 ] || fail "cut.mp4 does not decode: $(cat "$out/decode.txt")"
[ "$n" -lt 1500 ] || fail "cut.mp4 has $n frames: the new GPU process recorded over it"
[ ! -e "$out/cut-2.mp4" ] || fail "the new GPU process started a recording of its own"
echo "window_record_restart: ok (whole.mp4: 30 frames; cut.mp4: $n frames kept from the killed GPU process)"
