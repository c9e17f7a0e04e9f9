// Convolutions.

__constant__ float taps[9] = {0.05f, 0.1f, 0.15f, 0.2f, 0.0f, -0.2f, -0.15f, -0.1f, -0.05f};

// 1D convolution with a 9-tap filter in constant memory (zero padding).
extern "C" __global__ void conv1d_const(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < 9; ++k) {
        int j = i + k - 4;
        acc += (j >= 0 && j < n ? in[j] : 0.0f) * taps[k];
    }
    out[i] = acc;
}

// 2D 3x3 convolution of a w x w image with a filter from global memory
// (clamped borders).
extern "C" __global__ void conv2d_3x3(const float *img, const float *filter, float *out, int w) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = t % w, y = t / w;
    if (y >= w) return;
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            int yy = min(max(y + dy, 0), w - 1);
            int xx = min(max(x + dx, 0), w - 1);
            acc += img[yy * w + xx] * filter[(dy + 1) * 3 + dx + 1];
        }
    }
    out[y * w + x] = acc;
}
