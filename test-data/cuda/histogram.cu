// 256-bin byte histogram: privatised per block in shared memory, merged with global atomics.
#define BINS 256

extern "C" __global__ void histogram(const unsigned char *data, unsigned int *bins, int n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();

    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int c = local[b];
        if (c) atomicAdd(&bins[b], c);
    }
}
