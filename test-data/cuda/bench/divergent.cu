// Predicated and divergent control flow, warp votes.

// Clamp, absolute value and selects (predication at O3).
extern "C" __global__ void predicated_select(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    int a = v < 0 ? -v : v;
    int c = a > 1000 ? 1000 : (a < 10 ? 10 : a);
    out[i] = (v & 1) ? c : -c;
}

// A four-way switch on the lane, each path with its own loop.
extern "C" __global__ void divergent_switch(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float r;
    switch (threadIdx.x & 3) {
    case 0:
        r = x * x;
        break;
    case 1: {
        r = 0.0f;
        for (int k = 0; k < (i & 7); ++k) r += x;
        break;
    }
    case 2:
        r = x > 0.0f ? sqrtf(x) : -x;
        break;
    default:
        r = fminf(fmaxf(x, -1.0f), 1.0f);
        break;
    }
    out[i] = r;
}

// Warp votes: ballot, popcount, any/all.
extern "C" __global__ void warp_vote(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    unsigned ballot = __ballot_sync(0xffffffffu, v > 0);
    int any_neg = __any_sync(0xffffffffu, v < 0);
    int all_small = __all_sync(0xffffffffu, (v & ~1023) == 0);
    if (i < n) out[i] = __popc(ballot) * 4 + any_neg * 2 + all_small;
}
