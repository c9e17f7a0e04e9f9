// Loops: known and run-time trip counts, nesting, data-dependent exits.

// A 12-iteration loop kept rolled.
extern "C" __global__ void loop_known_rolled(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i], acc = 0.0f, p = 1.0f;
#pragma unroll 1
    for (int k = 0; k < 12; ++k) {
        acc += p * (k + 1);
        p *= x * 0.5f;
    }
    out[i] = acc;
}

// Nested loops with run-time bounds: a triangular sum over (n % 13) rows.
extern "C" __global__ void loop_nested_triangle(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int m = n % 13 + 3;
    int acc = 0;
    for (int r = 0; r < m; ++r)
        for (int c = 0; c <= r; ++c) acc += (in[(i + r + c) % n] & 255) * (c + 1) - r;
    out[i] = acc;
}

// A data-dependent trip count: Collatz steps, capped at 100 (divergent
// loop exits across the warp).
extern "C" __global__ void loop_collatz(const unsigned *in, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = (in[i] & 1023) + 1;
    unsigned steps = 0;
    while (x != 1 && steps < 100) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        ++steps;
    }
    out[i] = steps;
}

// A loop whose trip count is a kernel argument, with a loop-invariant
// expression and an induction variable with stride 3.
extern "C" __global__ void loop_strided_invariant(const float *in, float *out, int n, int len) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    int m = len & 63;
    for (int k = 0; k < m; ++k) {
        float scale = (float)n * 0.001f + 1.0f;
        acc += in[(i + 3 * k) % n] * scale;
    }
    out[i] = acc;
}
