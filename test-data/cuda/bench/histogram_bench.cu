// Histograms with atomics.

// 64 bins straight in global memory.
extern "C" __global__ void histogram_global(const unsigned *in, unsigned *bins, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&bins[in[i] & 63], 1u);
}

// A byte histogram (256 bins) privatised in shared memory; each thread reads
// one word as four bytes (a `uchar4` vector).
extern "C" __global__ void histogram_bytes(const uchar4 *in, unsigned *bins, int n) {
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        uchar4 v = in[i];
        atomicAdd(&local[v.x], 1u);
        atomicAdd(&local[v.y], 1u);
        atomicAdd(&local[v.z], 1u);
        atomicAdd(&local[v.w], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}
