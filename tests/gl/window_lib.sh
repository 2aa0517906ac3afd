# Helpers of the window tests that run the app under Xvfb (sourced, not run).

# A window test's start: an empty OUT_DIR ($2) holding the settings of a new user's window
# (XDG_CONFIG_HOME), and xvfb-run, else the test (named $1) is skipped (exit 77).
window_test_start() {
    rm -rf "$2"
    mkdir -p "$2"
    export XDG_CONFIG_HOME="$2/config"
    command -v xvfb-run >/dev/null || { echo "$1: skipped: no xvfb-run"; exit 77; }
}

# Every process below PID $1, children before their own children.
descendants() {
    local p
    for p in $(ps -o pid= --ppid "$1" 2>/dev/null); do
        echo "$p"
        descendants "$p"
    done
}

# The GPU processes (kernelscope --worker) below PID $1 (xvfb-run -> kernelscope -> kernelscope --worker).
worker_of() {
    local p
    for p in $(descendants "$1"); do
        { tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | grep -q -- "--worker" && echo "$p"
    done
}
