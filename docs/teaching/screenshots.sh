#!/usr/bin/env bash
# Makes every screenshot of the guided tour (docs/teaching/README.md) with the headless app from
# the shipped projects, so the pictures stay true. Needs a CUDA GPU.
#   docs/teaching/screenshots.sh [KERNELSCOPE] [OUT_DIR]
# Defaults: build/app/kernelscope and docs/teaching/images. Run from the repository root.
set -u
app=${1:-build/app/kernelscope}
out=${2:-docs/teaching/images}
mkdir -p "$out"
status=0
shot() { # NAME ARGS...
    local name=$1
    shift
    if "$app" --headless --frames 6 --size 1920x1080 --layout classroom "$@" --screenshot "$out/$name.png" \
        > "$out/$name.log" 2>&1; then
        echo "screenshot $name: ok"
    else
        echo "screenshot $name: FAILED (see $out/$name.log)"
        status=1
    fi
}
shot doublify-threadidx --project projects/doublify.json --overlay threadIdx --inspect 1,2
shot doublify-8x2-writecount --project projects/teaching/doublify_8x2.json --overlay "write count" --inspect 1,1
shot multiply-warps --project projects/multiply_them.json --stage multiply_them --overlay warp --inspect 390
shot pi-small-writecount --project projects/teaching/pi_small.json --stage "reduce stride 16" --overlay "write count"
shot pi-tree-timings --project projects/teaching/pi_tree.json --layout standard --stage map --timeline
shot index2d-blockidx --project projects/teaching/index_2d.json --overlay blockIdx --inspect 16,0
shot index2d-warp --project projects/teaching/index_2d.json --overlay warp
shot too-few-blocks-timeline --project projects/teaching/too_few_blocks.json --stage "grid stride" --overlay blockIdx --timeline
shot divergence-timeline --project projects/teaching/divergence.json --stage "by lane" --overlay lane --timeline
shot occupancy-timeline --project projects/teaching/occupancy.json --stage "block sum" --timeline
shot hello-printf-console --project projects/teaching/hello_printf.json --layout standard
exit $status
