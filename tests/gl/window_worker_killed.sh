#!/usr/bin/env bash
# The supervised window in a real X server (Xvfb): the GPU process is killed (SIGKILL) while the
# window runs; the window stays up, says what happened, starts a new GPU process, shows its frames
# and finishes the run (the requested frames shown, a screenshot written, exit status 0).
#   tests/gl/window_worker_killed.sh KERNELSCOPE OUT_DIR
# Needs xvfb-run. On a machine without CUDA the worker renders with Mesa and sends frames through
# CPU memory; the shell's handling of a dead worker is the same code either way.
# KS_WINDOW_TEST_FRAMES (400): the frames the window runs; a GPU shows 400 in under a second, before
# the kill below, so .ci/gpu-window.sh asks for more there.
set -uo pipefail
. "$(dirname "$0")/window_lib.sh"
app=$1
out=$2
# A new user's window: no settings saved by an earlier run (the app keeps them in XDG_CONFIG_HOME).
export XDG_CONFIG_HOME="$out.config"
rm -rf "$XDG_CONFIG_HOME"
mkdir -p "$out"
rm -f "$out/killed.png" "$out/killed.log"
frames=${KS_WINDOW_TEST_FRAMES:-400}
xvfb-run -a -s "-screen 0 1280x720x24" "$app" --frames "$frames" --size 1280x720 \
    --screenshot "$out/killed.png" >"$out/killed.log" 2>&1 &
runner=$!
worker=""
for _ in $(seq 1 600); do
    worker=$(worker_of "$runner" | head -1)
    [ -n "$worker" ] && break
    sleep 0.1
done
if [ -z "$worker" ]; then
    echo "window_worker_killed: no GPU process appeared" >&2
    cat "$out/killed.log" >&2
    kill "$runner" 2>/dev/null
    exit 1
fi
sleep 3 # frames are being shown
kill -KILL "$worker"
echo "window_worker_killed: killed GPU process $worker"
second=""
for _ in $(seq 1 300); do
    second=$(worker_of "$runner" | grep -v "^$worker$" | head -1)
    [ -n "$second" ] && break
    sleep 0.1
done
wait "$runner"
status=$?
cat "$out/killed.log"
[ -n "$second" ] || { echo "window_worker_killed: no new GPU process was started" >&2; exit 1; }
[ "$status" -eq 0 ] || { echo "window_worker_killed: the window exited with status $status" >&2; exit 1; }
grep -q "killed by signal 9\|signal 9\|SIGKILL" "$out/killed.log" || { echo "window_worker_killed: the window did not say what happened" >&2; exit 1; }
grep -q "your work was restored" "$out/killed.log" || { echo "window_worker_killed: no word of the restore" >&2; exit 1; }
# The default demo is a project like any other: restored paused, so that a kernel that took the
# process down does not run again before the user says so, and the status line says it.
grep -q "your work was restored, paused" "$out/killed.log" || { echo "window_worker_killed: the restored demo was not said to be paused" >&2; exit 1; }
grep -q "wrote screenshot .* after $frames frames" "$out/killed.log" || { echo "window_worker_killed: the run did not finish its frames" >&2; exit 1; }
[ -s "$out/killed.png" ] || { echo "window_worker_killed: no screenshot" >&2; exit 1; }
echo "window_worker_killed: ok (new GPU process $second)"
