#!/usr/bin/env bash
# Regenerate test-data/examples/*.ptx from the CUDA sources in this folder.
# Usage: CUDA=/path/to/cuda-13.0.88 ./regen.sh
set -euo pipefail

: "${CUDA:?set CUDA to the CUDA toolkit root (the folder holding bin/nvcc)}"
NVCC="$CUDA/bin/nvcc"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../examples"
mkdir -p "$out"

"$NVCC" --version | tail -n 2

cd "$here"
for cu in *.cu; do
    name="${cu%.cu}"
    echo "nvcc -ptx -O3 -arch=sm_90 -lineinfo $cu -o ../examples/$name.ptx"
    "$NVCC" -ptx -O3 -arch=sm_90 -lineinfo "$cu" -o "$out/$name.ptx"
done

# Debug build (device debug info, .section .debug_* data) of one kernel.
echo "nvcc -ptx -G -arch=sm_90 saxpy.cu -o ../examples/saxpy_debug.ptx"
"$NVCC" -ptx -G -arch=sm_90 saxpy.cu -o "$out/saxpy_debug.ptx"
