// Row-wise softmax and layer normalisation, one thread per row of 16.

#define COLS 16

extern "C" __global__ void softmax_rows(const float *in, float *out, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *x = in + r * COLS;
    float m = -3.0e38f;
    for (int c = 0; c < COLS; ++c) m = fmaxf(m, x[c]);
    float sum = 0.0f;
    for (int c = 0; c < COLS; ++c) sum += __expf(x[c] - m);
    float inv = 1.0f / sum;
    for (int c = 0; c < COLS; ++c) out[r * COLS + c] = __expf(x[c] - m) * inv;
}

extern "C" __global__ void layernorm_rows(const float *in, const float *gamma, float *out, int rows) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float *x = in + r * COLS;
    float mean = 0.0f;
    for (int c = 0; c < COLS; ++c) mean += x[c];
    mean *= 1.0f / COLS;
    float var = 0.0f;
    for (int c = 0; c < COLS; ++c) {
        float d = x[c] - mean;
        var += d * d;
    }
    float rs = rsqrtf(var * (1.0f / COLS) + 1e-5f);
    for (int c = 0; c < COLS; ++c) out[r * COLS + c] = (x[c] - mean) * rs * gamma[c];
}
