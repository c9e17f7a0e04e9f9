// Device-side graph control: cudaGraphSetConditional, which ptxas resolves
// itself (the PTX assembles without -c).
#include <cuda_runtime.h>

__global__ void loop_body(cudaGraphConditionalHandle handle, int *counter, int limit)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        int value = atomicAdd(counter, 1);
        cudaGraphSetConditional(handle, value + 1 < limit ? 1 : 0);
    }
}
