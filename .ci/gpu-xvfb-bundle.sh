#!/usr/bin/env bash
# Packs an X server (Xvfb) and Mesa's software GLX, from Debian's packages, into one archive that
# can be carried to a lent GPU host (no X server, no Mesa, no network there), so that the app's
# real window (the supervising shell, drawn by Mesa; its GPU process on the NVIDIA GPU) can be run
# there by .ci/gpu-window.sh.
#   .ci/gpu-xvfb-bundle.sh [OUT.tar.xz]      (default .gpu-x/xbundle.tar.xz; about 42 MB)
# The archive holds bin/{Xvfb,xkbcomp}, lib/ (the libraries they and Mesa need; the GPU host's own
# are used where it has them), dri/swrast_dri.so and xkb/ (the keyboard data).
# One library is a stand-in: Debian's LLVM 15 (which Mesa's software rasteriser links) names libz3
# (22 MB) for the static analyser's constraint solver, which Mesa never calls. A generated library
# that defines each Z3 function LLVM imports as abort() takes its place, to fit the 64 MiB that
# travels to the GPU host. Test tooling only: nothing of it ships.
set -euo pipefail
out=$(realpath -m "${1:-.gpu-x/xbundle.tar.xz}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/root" "$work/lists/partial" "$work/b/bin" "$work/b/lib" "$work/b/dri" "$(dirname "$out")"
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists="$work/lists")
apt-get "${o[@]}" update >/dev/null
packages=(xvfb xserver-common libxfont2 libfontenc1 libfreetype6 libpng16-16 libbrotli1 libpixman-1-0 libunwind8
          libxau6 libxdmcp6 xkb-data x11-xkb-utils libxkbfile1 libglx-mesa0 libgl1-mesa-dri libglapi-mesa libllvm15
          libdrm2 libdrm-amdgpu1 libdrm-radeon1 libdrm-nouveau2 libdrm-intel1 libpciaccess0 libsensors5 libelf1 libedit2
          libxml2 libicu72 liblzma5 libffi8 libtinfo6 libbsd0 libmd0 libexpat1 libzstd1 libz3-4
          libxcb1 libxcb-glx0 libxcb-dri2-0 libxcb-dri3-0 libxcb-present0 libxcb-sync1 libxcb-xfixes0 libxcb-randr0
          libxcb-shm0 libxcb-xkb1 libxshmfence1 libxxf86vm1 libx11-xcb1 libxi6 libxrandr2 libxcursor1 libxinerama1
          libxrender1 libxfixes3 libxext6)
(cd "$work/debs" && apt-get "${o[@]}" download "${packages[@]}" >/dev/null 2>&1)
for f in "$work"/debs/*.deb; do dpkg -x "$f" "$work/root"; done
cp "$work/root/usr/bin/Xvfb" "$work/root/usr/bin/xkbcomp" "$work/b/bin/"
cp -a "$work"/root/usr/lib/x86_64-linux-gnu/*.so.* "$work/b/lib/"
cp -a "$work"/root/lib/x86_64-linux-gnu/*.so.* "$work/b/lib/" 2>/dev/null || true
cp "$work/root/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so" "$work/b/dri/"
cp -a "$work/root/usr/share/X11/xkb" "$work/b/xkb"

# The stand-in for libz3: every Z3_ function libLLVM imports (Mesa loads it with RTLD_NOW).
rm -f "$work"/b/lib/libz3.so*
{
    echo '#include <stdlib.h>'
    nm -D --undefined-only "$work/b/lib/libLLVM-15.so.1" | awk '$2 ~ /^Z3_/ {print "void " $2 "(void) { abort(); }"}'
} >"$work/z3.c"
gcc -shared -fPIC -w -o "$work/b/lib/libz3.so.4" -Wl,-soname,libz3.so.4 "$work/z3.c"

tar -C "$work/b" -cf - . | xz -T2 -6 >"$out"
ls -la "$out"
