// Dense linear algebra: naive GEMM, a shared-tile GEMM, GEMV.

// C = A * B for n x n matrices, one thread per element of C.
extern "C" __global__ void gemm_naive(const float *a, const float *b, float *c, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = t / n, col = t % n;
    if (row >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

#define TILE 8

// C = A * B for n x n matrices (n a multiple of 8) with 8x8 shared tiles;
// any block shape: the block's threads walk the tile's 64 elements.
extern "C" __global__ void gemm_tile8(const float *a, const float *b, float *c, int n) {
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int tiles = n / TILE;
    int threads = blockDim.x * blockDim.y;
    int lid = threadIdx.y * blockDim.x + threadIdx.x;
    for (int tile = blockIdx.x; tile < tiles * tiles; tile += gridDim.x) {
        int tr = tile / tiles, tc = tile % tiles;
        float acc[2] = {0.0f, 0.0f};
        for (int kt = 0; kt < tiles; ++kt) {
            for (int e = lid; e < TILE * TILE; e += threads) {
                int r = e / TILE, q = e % TILE;
                ta[r][q] = a[(tr * TILE + r) * n + kt * TILE + q];
                tb[r][q] = b[(kt * TILE + r) * n + tc * TILE + q];
            }
            __syncthreads();
            for (int e = lid, s = 0; e < TILE * TILE && s < 2; e += threads, ++s) {
                int r = e / TILE, q = e % TILE;
#pragma unroll
                for (int k = 0; k < TILE; ++k) acc[s] += ta[r][k] * tb[k][q];
            }
            __syncthreads();
        }
        for (int e = lid, s = 0; e < TILE * TILE && s < 2; e += threads, ++s) {
            int r = e / TILE, q = e % TILE;
            c[(tr * TILE + r) * n + tc * TILE + q] = acc[s];
        }
    }
}

// y = A x for an n x n matrix, one thread per row.
extern "C" __global__ void gemv(const float *a, const float *x, float *y, int n) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    float acc = 0.0f;
    const float *r = a + (long)row * n;
    for (int k = 0; k < n; ++k) acc = fmaf(r[k], x[k], acc);
    y[row] = acc;
}
