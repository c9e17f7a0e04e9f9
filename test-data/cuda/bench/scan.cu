// Prefix sums.

// Inclusive Hillis-Steele scan of each block's elements in shared memory
// (double-buffered).
extern "C" __global__ void scan_hillis_steele(const float *in, float *out, int n) {
    __shared__ float buf[2][256];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    int cur = 0;
    buf[0][t] = g < n ? in[g] : 0.0f;
    __syncthreads();
    for (int off = 1; off < blockDim.x; off <<= 1) {
        float v = buf[cur][t];
        if (t >= off) v += buf[cur][t - off];
        buf[1 - cur][t] = v;
        cur = 1 - cur;
        __syncthreads();
    }
    if (g < n) out[g] = buf[cur][t];
}

// Inclusive scan of each warp's integers with `shfl.sync.up`.
extern "C" __global__ void scan_warp_shfl(const int *in, int *out, int n) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = g < n ? in[g] & 1023 : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    if (g < n) out[g] = v;
}

// Exclusive Blelloch (up-sweep, down-sweep) scan of a block's integers;
// blockDim.x is a power of two.
extern "C" __global__ void scan_blelloch(const int *in, int *out, int n) {
    __shared__ int s[256];
    int t = threadIdx.x;
    int g = blockIdx.x * blockDim.x + t;
    int len = blockDim.x;
    s[t] = g < n ? in[g] & 0xffff : 0;
    __syncthreads();
    for (int d = 1; d < len; d <<= 1) {
        int k = (t + 1) * d * 2 - 1;
        if (k < len) s[k] += s[k - d];
        __syncthreads();
    }
    if (t == 0) s[len - 1] = 0;
    __syncthreads();
    for (int d = len / 2; d >= 1; d >>= 1) {
        int k = (t + 1) * d * 2 - 1;
        if (k < len) {
            int left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
        __syncthreads();
    }
    if (g < n) out[g] = s[t];
}
