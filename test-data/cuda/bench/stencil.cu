// Stencils in one, two and three dimensions (bench-quality kernels).

#define RADIUS 3

// 7-point 1D stencil with boundary checks.
extern "C" __global__ void stencil1d(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) {
        int j = i + k;
        if (j >= 0 && j < n) acc += in[j] * (1.0f / (1 + (k < 0 ? -k : k)));
    }
    out[i] = acc;
}

// 1D stencil through a shared tile with a halo.
extern "C" __global__ void stencil1d_shared(const float *in, float *out, int n) {
    __shared__ float tile[256 + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    tile[l] = g < n ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int left = g - RADIUS;
        int right = g + blockDim.x;
        tile[l - RADIUS] = left >= 0 && left < n ? in[left] : 0.0f;
        tile[l + blockDim.x] = right < n ? in[right] : 0.0f;
    }
    __syncthreads();
    if (g < n) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k) acc += tile[l + k];
        out[g] = acc / (2 * RADIUS + 1);
    }
}

// 5-point 2D Jacobi step on a w x w grid; one thread per column, looping
// over the rows (a run-time trip count).
extern "C" __global__ void stencil2d_5pt(const float *in, float *out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x <= 0 || x >= w - 1) return;
    for (int y = 1; y < w - 1; ++y) {
        int c = y * w + x;
        out[c] = 0.25f * (in[c - 1] + in[c + 1] + in[c - w] + in[c + w]) - in[c];
    }
}

// 7-point 3D stencil on an n x n x n grid; one thread per (x, y), looping
// over z.
extern "C" __global__ void stencil3d_7pt(const float *in, float *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int x = t % n, y = t / n;
    if (y >= n || x == 0 || y == 0 || x == n - 1 || y == n - 1) return;
    int plane = n * n;
    for (int z = 1; z < n - 1; ++z) {
        int c = z * plane + y * n + x;
        out[c] = in[c] * -6.0f + in[c - 1] + in[c + 1] + in[c - n] + in[c + n] +
                 in[c - plane] + in[c + plane];
    }
}
