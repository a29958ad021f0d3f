#!/usr/bin/env bash
# gpulab's Gradescope autograder for the lab @GPULAB_LAB@ (gpulab @GPULAB_VERSION@): the set-up
# Gradescope runs once, as root, when it builds the autograder's image. It installs the packages
# gpulab needs and builds gpulab for the CPU backend alone (Gradescope has no GPU), with this lab
# only. GPULAB_AUTOGRADER_ROOT (default /autograder) lets a test run it in a directory laid out
# like Gradescope's; there, packages already installed are not installed again.
# The base image to choose on Gradescope's Configure Autograder page (OS, version, variant),
# read by `gpulab package gradescope` and scripts/platform-image-check.sh:
# gpulab-base-image: Ubuntu 22.04 (variant Base)
set -euo pipefail
root="${GPULAB_AUTOGRADER_ROOT:-/autograder}"
gpulab="$root/source/gpulab"

bash "$gpulab/scripts/setup.sh" --packages-only

# The CUDA runtime's headers and library, Thrust and CUB: from /usr/local/cuda where an image
# has the toolkit, else Ubuntu's own package.
bash "$gpulab/scripts/cuda-toolkit.sh"

cmake -S "$gpulab" -B "$gpulab/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DGPULAB_CUDA_RUNNERS=OFF -DGPULAB_SIM=ON -DGPULAB_BUILD_LABS=@GPULAB_LAB@ -DBUILD_TESTING=OFF \
  >/dev/null
cmake --build "$gpulab/build" --target gpulab
echo "gpulab autograder setup: built $gpulab/build/gpulab for @GPULAB_LAB@ (CPU backend)"
