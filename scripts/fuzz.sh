#!/usr/bin/env bash
# Runs one fuzz target of tests/fuzz/ under libFuzzer for a while:
#
#   scripts/fuzz.sh npy|lab_config|report|review_scan [SECONDS] [libFuzzer options...]
#   (SECONDS: 600 by default)
#
# Builds the target with clang-14 and -fsanitize=fuzzer,address,undefined in build-fuzz/, from
# tests/fuzz/CMakeLists.txt configured alone (the source lists the normal build's replay tests
# use; nothing else of gpulab is built), starts a working corpus in
# build-fuzz/fuzz-corpus/<target>/ from the target's seeds (kept between runs), and runs it on
# one core (run it under `nice` on a shared machine). A finding (a crash, a broken invariant, an input
# slower than 10 s) is written to build-fuzz/fuzz-findings/<target>/ and the script fails:
# replay it with build-fuzz/fuzz_<target> FILE, fix it, and add the file to
# tests/fuzz/corpus/<target>/, where the replay test (ctest -R fuzz_) keeps it checked.
set -euo pipefail
target=${1:?usage: scripts/fuzz.sh npy|lab_config|report|review_scan [SECONDS] [libFuzzer options...]}
seconds=${2:-600}
shift $(($# < 2 ? $# : 2))
cd "$(dirname "$0")/.."
# libFuzzer comes with clang-14 where apt installs recommended packages (scripts/setup.sh does).
if ! compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a" > /dev/null; then
  echo "scripts/fuzz.sh: clang-14's libFuzzer is missing: apt-get install libclang-rt-14-dev" >&2
  exit 1
fi
[ -f build-fuzz/build.ninja ] ||
  CXX=clang++-14 cmake -S tests/fuzz -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build-fuzz --target "fuzz_$target"
corpus=build-fuzz/fuzz-corpus/$target
findings=build-fuzz/fuzz-findings/$target
mkdir -p "$corpus" "$findings"
# The seeds CMake listed for this target: folders of inputs, or single files (the labs' lab.json).
while read -r seed; do
  [ -z "$seed" ] && continue
  if [ -d "$seed" ]; then
    cp "$seed"/* "$corpus"/
  else
    cp "$seed" "$corpus/seed-$(echo "$seed" | md5sum | cut -c1-12)"
  fi
done < "build-fuzz/fuzz_$target.seeds"
exec "build-fuzz/fuzz_$target" "$corpus" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 "$@"
