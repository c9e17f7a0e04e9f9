// Two loops: one with a compile-time trip count, one whose trip count is only known at run time.
extern "C" __global__ void poly_known_trip(const float *x, float *y, const float *coeff)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    float acc = 0.0f;
    // Horner evaluation of a degree-7 polynomial: trip count is exactly 8.
    for (int k = 7; k >= 0; --k) {
        acc = acc * v + coeff[k];
    }
    y[i] = acc;
}

extern "C" __global__ void prefix_unknown_trip(const int *x, int *y, int len, int step)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    // Trip count depends on run-time len and step.
    for (int k = i; k < len; k += step) {
        acc ^= x[k] * (k + 1);
    }
    y[i] = acc;
}
