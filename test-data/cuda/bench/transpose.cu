// Matrix transposes of an n x n matrix.

extern "C" __global__ void transpose_naive(const float *in, float *out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int r = t / n, c = t % n;
    if (r < n) out[c * n + r] = in[r * n + c];
}

#define TDIM 16

// Through a padded 16x17 shared tile; the block's threads (any shape) walk
// the tile's 256 elements; blocks walk the tiles.
extern "C" __global__ void transpose_shared(const float *in, float *out, int n) {
    __shared__ float tile[TDIM][TDIM + 1];
    int tiles = (n + TDIM - 1) / TDIM;
    int threads = blockDim.x * blockDim.y;
    int lid = threadIdx.y * blockDim.x + threadIdx.x;
    for (int b = blockIdx.x; b < tiles * tiles; b += gridDim.x) {
        int br = b / tiles, bc = b % tiles;
        for (int e = lid; e < TDIM * TDIM; e += threads) {
            int r = br * TDIM + e / TDIM, c = bc * TDIM + e % TDIM;
            if (r < n && c < n) tile[e / TDIM][e % TDIM] = in[r * n + c];
        }
        __syncthreads();
        for (int e = lid; e < TDIM * TDIM; e += threads) {
            int r = bc * TDIM + e / TDIM, c = br * TDIM + e % TDIM;
            if (r < n && c < n) out[r * n + c] = tile[e % TDIM][e / TDIM];
        }
        __syncthreads();
    }
}
