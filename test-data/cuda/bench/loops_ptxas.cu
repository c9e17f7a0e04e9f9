// Loops that cicc -O3 leaves rolled, or unrolls only once, so that what
// ptxas's phase 22 does to them shows in the SASS (`cargo xtask
// unroll-fidelity`): barriers and shuffles in the body, strides in
// registers, large bodies, calls, atomics, a second exit, a countdown.

// Unknown trip count, a barrier in the body (convergent: cicc does not
// runtime-unroll it).
extern "C" __global__ void tiles_sync(const float *in, float *out, int ntiles) {
    __shared__ float tile[256];
    float acc = 0.0f;
    for (int t = 0; t < ntiles; ++t) {
        tile[threadIdx.x] = in[t * 256 + threadIdx.x];
        __syncthreads();
        acc += tile[(threadIdx.x + 1) & 255];
        __syncthreads();
    }
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// Unknown trip count, a warp shuffle in the body.
extern "C" __global__ void shfl_scan(const float *in, float *out, int n) {
    float acc = 0.0f;
    for (int i = 0; i < n; ++i) {
        float v = in[i * 32 + threadIdx.x];
        acc += __shfl_xor_sync(0xffffffff, v, 1);
    }
    out[threadIdx.x] = acc;
}

// Grid-stride loop (stride is a register).
extern "C" __global__ void grid_stride(const float *in, float *out, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = in[i] * 2.0f + 1.0f;
}

// Block-stride loop with a constant bound.
extern "C" __global__ void block_stride_const(const float *in, float *out) {
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        out[i] = in[i] + 1.0f;
}

// Unknown trip count, big body.
extern "C" __global__ void big_body(const float *a, float *out, int n) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (int i = 0; i < n; ++i) {
        float x = a[i];
        s0 = s0 * x + 1.0f; s1 = s1 * s0 + x; s2 = s2 * s1 + s0; s3 = s3 * s2 + s1;
        s0 = s0 * s3 + x; s1 = s1 * s0 + s2; s2 = s2 * s3 + s0; s3 = s3 * s0 + s2;
        s0 = sqrtf(s0 * s0 + s1 * s1); s1 = s1 / (s2 + 3.0f);
    }
    out[threadIdx.x] = s0 + s1 + s2 + s3;
}

__device__ __noinline__ float helper(float x) { return x * x + 1.0f; }

// A call in the body.
extern "C" __global__ void with_call(const float *a, float *out, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += helper(a[i]);
    out[threadIdx.x] = s;
}

// Unknown trip count, unsigned, counting down.
extern "C" __global__ void countdown(const float *a, float *out, unsigned n) {
    float s = 0;
    for (unsigned i = n; i != 0; --i) s += a[i] * 0.5f;
    out[threadIdx.x] = s;
}

// Two-level nest, inner trip count from a parameter.
extern "C" __global__ void nest_param(const float *a, float *out, int rows, int cols) {
    float s = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) s += a[r * cols + c];
    out[threadIdx.x] = s;
}

// Atomic in the loop.
extern "C" __global__ void atomic_loop(const int *keys, int *bins, int n) {
    for (int i = threadIdx.x; i < n; i += 32) atomicAdd(&bins[keys[i] & 63], 1);
}

// Loop with a break (two exits).
extern "C" __global__ void find_first(const int *a, int *out, int n, int key) {
    int found = -1;
    for (int i = 0; i < n; ++i) {
        if (a[i] == key) { found = i; break; }
    }
    out[threadIdx.x] = found;
}

// Texture-like read-only loads via __ldg, unknown count.
extern "C" __global__ void ldg_sum(const float *__restrict__ a, float *out, int n) {
    float s = 0;
    for (int i = 0; i < n; ++i) s += __ldg(&a[i * 4]);
    out[threadIdx.x] = s;
}

// Known trip count 64, large body: cicc's threshold.
extern "C" __global__ void known_big(const float *a, float *out) {
    float s0 = 0, s1 = 1;
    for (int i = 0; i < 64; ++i) {
        float x = a[i];
        s0 = s0 * x + s1; s1 = s1 * s0 + x; s0 = s0 / (s1 + 2.0f); s1 = sqrtf(s1 + s0);
    }
    out[threadIdx.x] = s0 + s1;
}

// Double precision, unknown count.
extern "C" __global__ void dsum(const double *a, double *out, long n) {
    double s = 0;
    for (long i = 0; i < n; ++i) s += a[i] * a[i];
    out[threadIdx.x] = s;
}
