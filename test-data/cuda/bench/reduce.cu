// Reductions: shared-memory trees, warp shuffles, atomics.

// Maximum of a block's elements, two loads per thread, shared tree.
extern "C" __global__ void reduce_max_shared(const float *in, float *out, int n) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x * 2 + t;
    float a = i < n ? in[i] : -3.0e38f;
    float b = i + blockDim.x < n ? in[i + blockDim.x] : -3.0e38f;
    s[t] = fmaxf(a, b);
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride) s[t] = fmaxf(s[t], s[t + stride]);
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

// Sum of each warp's elements with butterfly shuffles; one result per warp.
extern "C" __global__ void reduce_warp_xor(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
    if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}

// Dot product: grid-stride loop, warp shuffle reduction, one atomic per warp.
extern "C" __global__ void dot_product(const float *a, const float *b, float *result, int n) {
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        acc += a[i] * b[i];
    for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(result, acc);
}

// Integer minimum and maximum with global atomics.
extern "C" __global__ void reduce_minmax_int(const int *in, int *minmax, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int v = in[i];
        atomicMin(&minmax[0], v);
        atomicMax(&minmax[1], v);
    }
}
