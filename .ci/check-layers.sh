#!/usr/bin/env bash
# Checks that the engine's includes point down its layers (docs/architecture.md, "Layers").
#   .ci/check-layers.sh [SOURCE_DIR]      (default: the checkout this script is in)
# Every engine layer is a folder (engine/include/ks/<layer>/, engine/src/<layer>/) with a level
# below. A file of layer L may include "ks/M/..." only when M is L or M's level is lower than L's:
# never a layer above it, never another layer of its own level. The engine never includes the app
# or its GUI libraries (GLFW, Dear ImGui). Prints file:line of every include that breaks this and
# exits 1; exits 0 when there is none. A layer folder missing from the table fails too, so a new
# layer gets a level when it is added.
set -u
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root" || exit 2
[ -d engine/include/ks ] && [ -d engine/src ] || { echo "check-layers: no engine/ under $root" >&2; exit 2; }

# Level of each layer; keep in step with the diagram in docs/architecture.md.
levels='
core 0
cuda 1
gl 1
io 1
project 2
proc 1
syntax 1
rtc 2
interop 2
array 3
rng 4
pipeline 5
render 5
scene 6
teach 6
'

fail=0
for dir in engine/include/ks/*/ engine/src/*/; do
    layer=$(basename "$dir")
    if ! grep -qE "^$layer [0-9]+$" <<<"$levels"; then
        echo "$dir: layer \"$layer\" has no level in .ci/check-layers.sh (add it there and to docs/architecture.md)"
        fail=1
    fi
done

mapfile -t files < <(find engine/include/ks engine/src -type f \
    \( -name '*.hpp' -o -name '*.h' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) | sort)
out=$(awk -v levels="$levels" '
    BEGIN {
        n = split(levels, rows, "\n")
        for (i = 1; i <= n; ++i)
            if (split(rows[i], f, " ") == 2)
                level[f[1]] = f[2]
    }
    FNR == 1 {
        p = FILENAME
        sub(/^engine\/include\/ks\//, "", p)
        sub(/^engine\/src\//, "", p)
        own = p
        sub(/\/.*/, "", own)
    }
    /^[ \t]*#[ \t]*include[ \t]*[<"]/ {
        target = $0
        sub(/^[ \t]*#[ \t]*include[ \t]*[<"]/, "", target)
        sub(/[>"].*/, "", target)
        if (target ~ /^(app\/|imgui|GLFW\/|backends\/imgui)/) {
            printf "%s:%d: ks::%s includes <%s>: the engine never includes the app or its GUI libraries\n",
                FILENAME, FNR, own, target
            next
        }
        if (target ~ /(^|\/)\.\.\//) {
            printf "%s:%d: ks::%s includes \"%s\": include engine headers as ks/<layer>/..., not by a relative path\n",
                FILENAME, FNR, own, target
            next
        }
        # Only ks/<layer>/ headers are layers. The kernels device library (kernels/include/ks_device:
        # records.cuh, checked.cuh, ...) is plain device headers below every layer, which NVRTC kernels
        # include, and which the nvcc code of the engine and the hosts of their records may include too.
        if (target !~ /^ks\/[A-Za-z0-9_]+\//)
            next
        to = target
        sub(/^ks\//, "", to)
        sub(/\/.*/, "", to)
        if (to == own || !(own in level))
            next
        if (!(to in level))
            printf "%s:%d: ks::%s includes %s: layer \"%s\" has no level\n", FILENAME, FNR, own, target, to
        else if (level[to] >= level[own])
            printf "%s:%d: ks::%s (level %d) includes %s (ks::%s, level %d): includes point to a lower level only\n",
                FILENAME, FNR, own, level[own], target, to, level[to]
    }' "${files[@]}")

if [ -n "$out" ]; then
    echo "$out"
    fail=1
fi
if [ $fail -ne 0 ]; then
    echo "check-layers: includes that run back up the engine's layers (see docs/architecture.md, \"Layers\")"
    exit 1
fi
echo "check-layers: every engine include points down ($(grep -cE '^[a-z]+ [0-9]+$' <<<"$levels") layers)"
