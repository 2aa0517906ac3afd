#!/usr/bin/env bash
# What a window shows under a real X server (Xvfb, supervised: the GPU process draws, the window
# shows) is what a headless run of the same project draws, so the headless tests' checks of the
# editor's colours, the plots' axes and the menus hold in the window too. For each project, the
# window's screenshot and the headless one (--ui, the same size and frames):
#   - fewer than 3% of the pixels differ (by more than 24 in a channel): the text of timings, the
#     cursor's line and tooltip over a plot;
#   - the menu bar (the top 22 rows) is the same;
#   - the editor's syntax colours are there, as many as headless (within a fifth);
#   - views_plot_log.json: the log axis and the axis titles as well; and again with --tour=1: the
#     guided tour's window and its outline around the Views panel;
#   - pi.json: Xvfb's pointer starts at the screen's centre, over its plot: the window shows the
#     value under the cursor (a tooltip) where the headless run, with no pointer, does not.
#   tests/gl/window_shows_headless.sh KERNELSCOPE OUT_DIR
set -uo pipefail
app=$1
out=$2
# A new user's window: no settings saved by an earlier run (the app keeps them in XDG_CONFIG_HOME).
export XDG_CONFIG_HOME="$out.config"
rm -rf "$XDG_CONFIG_HOME"
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out"
mkdir -p "$out"
fail() {
    echo "window_shows_headless: $*" >&2
    exit 1
}
edit=(--edit "$src/kernels/thread_colors.cu")
for run in projects/pi.json tests/projects/views_series.json tests/projects/views_plot_log.json \
    "tests/projects/views_plot_log.json --tour=1"; do
    read -r project extra <<<"$run"
    name=$(basename "$project" .json)${extra:+-tour}
    # A kernel file in the editor (views_series has no kernel stage, so no file of its own): its colours.
    "$app" --headless --ui --data-dir "$src" --project "$src/$project" --frames 30 --size 1280x720 $extra "${edit[@]}" \
        --screenshot "$out/$name-headless.png" >"$out/$name-headless.log" 2>&1 ||
        { cat "$out/$name-headless.log" >&2; fail "$project: the headless run failed"; }
    xvfb-run -a -s "-screen 0 1280x720x24" "$app" --data-dir "$src" --project "$src/$project" --frames 30 \
        --size 1280x720 $extra "${edit[@]}" --screenshot "$out/$name-window.png" >"$out/$name-window.log" 2>&1 ||
        { cat "$out/$name-window.log" >&2; fail "$project: the window's run failed"; }
    python3 - "$out/$name-headless.png" "$out/$name-window.png" "$name" <<'PY' || fail "$project: see above"
import struct, sys, zlib

def read_png(path):  # 8-bit RGB or RGBA, as the app writes them
    data = open(path, "rb").read()
    at, chunks = 8, []
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            chunks.append(body)
    assert depth == 8 and colour in (2, 6), f"{path}: not 8-bit RGB(A)"
    bpp = 4 if colour == 6 else 3
    raw, stride, rows, prev, j = zlib.decompress(b"".join(chunks)), width * bpp, [], bytes(width * bpp), 0
    for _ in range(height):
        kind, line = raw[j], bytearray(raw[j + 1:j + 1 + stride])
        j += 1 + stride
        for x in range(stride) if kind else ():
            a = line[x - bpp] if x >= bpp else 0
            b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows

head_path, window_path, name = sys.argv[1:4]
w, h, head = read_png(head_path)
w2, h2, window = read_png(window_path)
assert (w, h) == (w2, h2), f"{name}: sizes {w}x{h} and {w2}x{h2}"
differs = lambda p, q: max(abs(p[0] - q[0]), abs(p[1] - q[1]), abs(p[2] - q[2])) > 24
diff = [[differs(head[y][x], window[y][x]) for x in range(w)] for y in range(h)]
total = sum(map(sum, diff))
assert total < 0.03 * w * h, f"{name}: {total} pixels ({100.0 * total / (w * h):.1f}%) differ"
menu = sum(sum(row) for row in diff[:22])
assert menu <= 0.005 * 22 * w, f"{name}: the menu bar differs in {menu} pixels"
near = lambda p, c: max(abs(p[0] - c[0]), abs(p[1] - c[1]), abs(p[2] - c[2])) <= 8
counts = []
for colour_name, colour in (("qualifier", (229, 192, 123)), ("builtin", (239, 112, 122)), ("comment", (112, 122, 136))):
    a = sum(near(p, colour) for row in head for p in row)
    b = sum(near(p, colour) for row in window for p in row)
    assert b >= 3 and abs(a - b) <= a / 5 + 2, f"{name}: {colour_name} colour: {b} pixels in the window, {a} headless"
    counts.append(f"{colour_name} {b}")
if name.endswith("-tour"):  # the outline around the panel of the tour's step (theme::kTourHighlight)
    a = sum(near(p, (60, 210, 255)) for row in head for p in row)
    b = sum(near(p, (60, 210, 255)) for row in window for p in row)
    assert a > 1000 and b > 1000, f"{name}: the tour's outline: {b} pixels in the window, {a} headless"
    counts.append(f"tour outline {b}")
if name == "pi":
    tip = sum(sum(row[w // 2:w // 2 + 300]) for row in diff[h // 2:h // 2 + 60])
    assert tip > 500, f"{name}: no value under the cursor at the screen's centre ({tip} pixels differ there)"
print(f"window_shows_headless: {name}: {100.0 * total / (w * h):.2f}% of pixels differ, menu bar {menu}; colours: {', '.join(counts)}")
PY
done
echo "window_shows_headless: ok"
