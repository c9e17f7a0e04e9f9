#!/usr/bin/env bash
# Regenerate test-data/frontend/*.ptx (and rejected/device_runtime_launch.ptx)
# from the CUDA sources in this folder.
# Usage: CUDA=/path/to/cuda-13.0.88 ./regen.sh
set -euo pipefail

: "${CUDA:?set CUDA to the CUDA toolkit root (the folder holding bin/nvcc)}"
NVCC="$CUDA/bin/nvcc"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../frontend"
mkdir -p "$out"
"$NVCC" --version | tail -n 2
cd "$here"

ptx() { # name arch [flags...]
    local name=$1 arch=$2
    shift 2
    echo "nvcc -ptx -O3 -arch=$arch $* $name.cu -o ../../frontend/$name.ptx"
    "$NVCC" -ptx -O3 -arch="$arch" "$@" "$name.cu" -o "$out/$name.ptx"
}

ptx managed sm_75
ptx asm_labels sm_75
ptx printf_malloc sm_75
ptx tex_surf sm_75
ptx coop_groups sm_75 -rdc=true
ptx graph_conditional sm_90 -rdc=true

# Rejected by ptxas without -c: the two header lines of test-data/rejected/.
echo "nvcc -ptx -O3 -arch=sm_75 -rdc=true dynamic_parallelism.cu -o ../../rejected/device_runtime_launch.ptx"
"$NVCC" -ptx -O3 -arch=sm_75 -rdc=true dynamic_parallelism.cu -o /tmp/device_runtime_launch.$$.ptx
{
    echo "// EXPECT: unresolved extern function (nvcc -rdc dynamic parallelism calls libcudadevrt's __cudaCDP2GetParameterBufferV2, resolved only by nvlink after ptxas -c)"
    echo "// ptxas: fatal   : Unresolved extern function '__cudaCDP2GetParameterBufferV2'"
    cat /tmp/device_runtime_launch.$$.ptx
} > "$here/../../rejected/device_runtime_launch.ptx"
rm -f /tmp/device_runtime_launch.$$.ptx
