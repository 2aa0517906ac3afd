#!/usr/bin/env bash
# The pictures of File > Examples: each shipped project run headless on a GPU for 90 frames, its
# views written at 320x180 to assets/thumbnails/NAME.png (NAME: the project file's name).
#   .ci/thumbnails.sh KERNELSCOPE [OUT_DIR]     (default OUT_DIR: assets/thumbnails)
# Needs a CUDA device: without one the views show nothing worth a picture, so it stops.
set -euo pipefail
app=$1
src=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$src/assets/thumbnails}
mkdir -p "$out"
status=0
for project in "$src"/projects/*.json "$src"/projects/teaching/*.json; do
    name=$(basename "$project" .json)
    if ! timeout 120 "$app" --headless --data-dir "$src" --project "$project" --frames 90 --size 320x180 \
        --screenshot "$out/$name.png" >"$out/$name.log" 2>&1; then
        echo "thumbnails: $name failed (exit $?); see $out/$name.log"
        status=1
        continue
    fi
    grep -q "CUDA is unavailable\|CUDA driver not found" "$out/$name.log" && {
        echo "thumbnails: no CUDA device: the pictures would be empty"
        exit 1
    }
    rm -f "$out/$name.log"
    echo "thumbnails: $out/$name.png"
done
exit $status
