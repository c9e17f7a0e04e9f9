// Sorting networks.

// Bitonic sort of each block's elements in shared memory (blockDim.x a
// power of two, at most 256).
extern "C" __global__ void bitonic_sort_shared(const float *in, float *out, int n) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    unsigned g = blockIdx.x * blockDim.x + t;
    s[t] = g < n ? in[g] : 3.0e38f;
    __syncthreads();
    for (unsigned k = 2; k <= blockDim.x; k <<= 1) {
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned p = t ^ j;
            if (p > t) {
                float a = s[t], b = s[p];
                bool up = (t & k) == 0;
                if ((a > b) == up) {
                    s[t] = b;
                    s[p] = a;
                }
            }
            __syncthreads();
        }
    }
    if (g < n) out[g] = s[t];
}

// One global step (j, k) of a bitonic sort of integers.
extern "C" __global__ void bitonic_step(int *a, int j, int k) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned p = i ^ (unsigned)j;
    if (p > i) {
        int x = a[i], y = a[p];
        bool up = (i & (unsigned)k) == 0;
        if ((x > y) == up) {
            a[i] = y;
            a[p] = x;
        }
    }
}

// Odd-even transposition sort of each block's integers in shared memory.
extern "C" __global__ void odd_even_sort(const int *in, int *out, int n) {
    __shared__ int s[256];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    int len = blockDim.x;
    s[t] = g < n ? in[g] : 0x7fffffff;
    __syncthreads();
    for (int phase = 0; phase < len; ++phase) {
        int i = 2 * t + (phase & 1);
        if (i + 1 < len) {
            int a = s[i], b = s[i + 1];
            if (a > b) {
                s[i] = b;
                s[i + 1] = a;
            }
        }
        __syncthreads();
    }
    if (g < n) out[g] = s[t];
}
