#!/usr/bin/env bash
# Unpacks Debian packages carried to a GPU machine that has no package registry (bubblewrap,
# CLI11, libarchive and what they need, binutils, OpenSSL's libcrypto, Cairo with its libraries and
# the figures' font) into a prefix, keeping only the shared libraries that the machine lacks, and
# prints the environment that uses them:
#
#   eval "$(bash scripts/gpu-prefix.sh DEB_DIR [PREFIX])"    # then: bash scripts/gpu-check.sh
#
# Fetch the packages on a Debian machine first (in an ignored folder of the checkout):
#   apt-get download bubblewrap libcli11-dev libarchive-dev libarchive13 libacl1 libbz2-1.0 \
#     liblz4-1 liblzma5 libnettle8 libxml2 libzstd1 libicu72 libcap2 libselinux1 libpcre2-8-0 \
#     binutils binutils-common binutils-x86-64-linux-gnu libbinutils libctf0 libctf-nobfd0 \
#     libgprofng0 libjansson4 libssl-dev libssl3 python3-jsonschema python3-attr \
#     python3-pyrsistent libcairo2-dev libcairo2 libfreetype-dev libfreetype6 libfontconfig-dev \
#     libfontconfig1 libpixman-1-0 libpng16-16 libxcb1 libxcb-render0 libxcb-shm0 libx11-6 \
#     libxext6 libxrender1 libxau6 libxdmcp6 libbsd0 libmd0 libexpat1 libbrotli1 fonts-dejavu-core
# (python3-jsonschema: the e2e tests check every report they read against its schema. Cairo's
# header and library are found without pkg-config (cmake/FindCairo.cmake); cairo-ft.h includes
# FreeType's and fontconfig's headers. The font is found through XDG_DATA_DIRS.)
set -euo pipefail
debs=${1:?usage: gpu-prefix.sh DEB_DIR [PREFIX]}
prefix=${2:-/tmp/gpulab-prefix}
mkdir -p "$prefix"
for f in "$debs"/*.deb; do dpkg -x "$f" "$prefix"; done
lib="$prefix/usr/lib/x86_64-linux-gnu"
# A library the system has already stays the system's: a second copy of libc's neighbours
# ahead of it on LD_LIBRARY_PATH can break the system's own programs.
known=$(ldconfig -p | awk '{print $1}')
for so in "$lib"/*.so.*; do
  [[ -L $so || -e $so ]] || continue
  if grep -qxF "$(basename "$so")" <<<"$known"; then rm -f "$(readlink -f "$so")" "$so"; fi
done
# A development link left pointing at a removed library points at the system's copy instead.
for link in "$lib"/*.so; do
  [[ -L $link && ! -e $link ]] || continue
  target=$(basename "$(readlink "$link")")
  # libarchive.so.13.6.2 is the system's libarchive.so.13.
  system=$(ldconfig -p | awk -v n="$target" 'index(n, $1) == 1 && $2 ~ /x86-64/ {print $NF; exit}')
  [[ -n $system ]] && ln -sf "$system" "$link"
done
echo "export PATH=$prefix/usr/bin:\$PATH"
echo "export LD_LIBRARY_PATH=$lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
echo "export GPULAB_PREFIX=$prefix/usr"
echo "export PYTHONPATH=$prefix/usr/lib/python3/dist-packages\${PYTHONPATH:+:\$PYTHONPATH}"
# The figures' font (grader/plot/figure_canvas.h) under the prefix's share/, before the system's.
echo "export XDG_DATA_DIRS=$prefix/usr/share:\${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
