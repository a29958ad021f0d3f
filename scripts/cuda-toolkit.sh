#!/usr/bin/env bash
# The CUDA runtime's headers and library, Thrust and CUB, which the harness and the CPU backend
# build against even where nothing runs on a GPU: nothing to do where /usr/local/cuda or an nvcc
# on PATH has them, else Ubuntu's own toolkit (nvidia-cuda-toolkit, in multiverse) is installed.
# For machines without a GPU that build gpulab from scratch: the GitHub Classroom workflow of
# the student kit (`gpulab dist --github-classroom`) runs it. Without the toolkit's recommends
# (Nsight, the visual profiler and its Java, cuda-gdb: 363 packages and 2.2 GB to download on
# Ubuntu 22.04 instead of 85 and 1.5 GB), which nothing here runs.
set -euo pipefail
if [ -e /usr/local/cuda/include/cuda_runtime.h ] || command -v nvcc >/dev/null; then exit 0; fi
echo "gpulab: no CUDA toolkit; installing Ubuntu's nvidia-cuda-toolkit"
if [ "$(id -u)" -ne 0 ]; then sudo=sudo; else sudo=; fi
if command -v add-apt-repository >/dev/null; then $sudo add-apt-repository -y multiverse; fi
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >/dev/null
