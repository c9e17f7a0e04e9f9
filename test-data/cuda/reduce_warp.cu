// Warp-shuffle reduction: each warp reduces with __shfl_down_sync, lane 0 adds to the total.
__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

extern "C" __global__ void reduce_warp(const float *in, float *out, int n)
{
    float v = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        v += in[i];
    }
    v = warp_sum(v);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(out, v);
    }
}
