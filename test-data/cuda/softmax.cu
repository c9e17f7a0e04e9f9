// Row-wise numerically stable softmax, one block (of 256 threads) per row.
#include <cfloat>

__device__ float block_reduce_max(float v, float *scratch)
{
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / 32) ? scratch[lane] : -FLT_MAX;
    if (warp == 0)
        for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    float r = scratch[0];
    __syncthreads();
    return r;
}

__device__ float block_reduce_sum(float v, float *scratch)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / 32) ? scratch[lane] : 0.0f;
    if (warp == 0)
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) scratch[0] = v;
    __syncthreads();
    float r = scratch[0];
    __syncthreads();
    return r;
}

extern "C" __global__ void softmax(const float *in, float *out, int cols)
{
    __shared__ float scratch[32];
    const float *x = in + (size_t)blockIdx.x * cols;
    float *y = out + (size_t)blockIdx.x * cols;

    float m = -FLT_MAX;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
    m = block_reduce_max(m, scratch);

    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(x[c] - m);
    s = block_reduce_sum(s, scratch);

    float inv = 1.0f / s;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = __expf(x[c] - m) * inv;
}
