#!/usr/bin/env bash
# gpulab's set-up: installs the Debian packages it needs (only those missing), then configures
# and builds with the `default` CMake preset. Safe to run again; used by the README's two
# commands and by CI. With --packages-only it stops after the packages: the student kit and the
# Gradescope autograder build their own way.
set -euo pipefail
cd "$(dirname "$0")/.."

# The CPU backend (sim/) adds Boost.Context for its fibers and clang-14's LibTooling for its
# rewriter.
# libarchive writes the student kit and the Gradescope autograder, and reads the .zip and .tar.gz
# submissions students hand in. bubblewrap is the sandbox every build and run of student code
# goes through (docs/GRADING.md). binutils' nm and c++filt list what a submission's objects
# define, which the build checks (grader/build/symbol_policy.h). libssl-dev's libcrypto gives the
# HMAC-SHA256 that draws seeds from the instructor's hidden seed (grader/files/secret.h). python3 runs
# the include-layering test (scripts/check_layers.py); python3-jsonschema checks every lab.json
# against labs/lab.schema.json (tests/lab_schema/); python3-yaml reads the student kit's GitHub
# Classroom workflow in its test (tests/e2e/kit_classroom_e2e.cpp). slurm-wlm (slurmctld, slurmd,
# sbatch...) and munge run the private single-node cluster `grade-all --slurm` is tested on
# (tests/slurm/). libcairo2-dev draws the handouts' figures and the error maps as SVG and PNG,
# and fonts-dejavu-core is the font of their words (grader/plot/figure_canvas.h). zsh runs the
# test of its completion script (tests/e2e/completion_e2e.cpp).
packages=(cmake ninja-build g++ binutils doctest-dev nlohmann-json3-dev libcli11-dev
          libboost-context-dev clang-14 libclang-14-dev libclang-cpp14-dev llvm-14-dev
          libarchive-dev libssl-dev libcairo2-dev fonts-dejavu-core bubblewrap python3
          python3-jsonschema python3-yaml slurm-wlm munge zsh)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "gpulab setup: installing ${missing[*]}"
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
[ "${1:-}" = "--packages-only" ] && exit 0

nvcc=/usr/local/cuda/bin/nvcc
if [ ! -x "$nvcc" ]; then
  echo "gpulab setup: $nvcc not found. gpulab needs the CUDA toolkit (nvcc and CCCL) at" \
       "/usr/local/cuda, also on machines without a GPU." >&2
  exit 1
fi

cmake --preset default >/dev/null
cmake --build --preset default
