// saxpy-likes, vector types, integer and floating-point math.

extern "C" __global__ void daxpy(int n, double a, const double *x, double *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

// saxpy on float4 vectors (n counts vectors).
extern "C" __global__ void saxpy_float4(int n, float a, const float4 *x, float4 *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 u = x[i], v = y[i];
    v.x = a * u.x + v.x;
    v.y = a * u.y + v.y;
    v.z = a * u.z + v.z;
    v.w = a * u.w + v.w;
    y[i] = v;
}

// Grid-stride z = x * y + z on int2 vectors.
extern "C" __global__ void vec_int2_mad(const int2 *x, const int2 *y, int2 *z, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int2 a = x[i], b = y[i], c = z[i];
        z[i] = make_int2(a.x * b.x + c.x, a.y * b.y + c.y);
    }
}

// Integer math: high multiply, shifts, bit counts, division by constants
// and by a run-time value.
extern "C" __global__ void int_math(const unsigned *in, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    unsigned h = __umulhi(x, 0x9e3779b9u);
    unsigned r = (x >> 7) ^ (x << 3) ^ __brev(x);
    unsigned d = (x & 15) + 1;
    unsigned q = x / 7 + x % 10 + x / d + (unsigned)((int)x / -3);
    out[i] = h + r + __popc(x) + __clz(x) + q;
}

// Float math: sqrt, exp, log, sin, fma, min/max, division.
extern "C" __global__ void float_math(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = in[i];
    float ax = fabsf(x) + 1.0f;
    float r = sqrtf(ax) + expf(-ax) + logf(ax) + sinf(x) + fmaf(x, x, 1.0f) / ax;
    out[i] = fminf(fmaxf(r, -100.0f), 100.0f);
}
