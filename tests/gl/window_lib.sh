# Helpers of the window tests that run the app under Xvfb (sourced, not run).

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
