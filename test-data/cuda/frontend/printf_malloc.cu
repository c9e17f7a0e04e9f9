// printf, malloc/free and assert: vprintf, malloc, free and __assertfail are
// resolved by ptxas itself.
#include <cstdio>
#include <cassert>

__global__ void scratch(int n, int *out)
{
    int *buf = (int *)malloc(n * sizeof(int));
    if (buf == nullptr) {
        printf("block %d: malloc of %d ints failed\n", blockIdx.x, n);
        return;
    }
    for (int i = 0; i < n; ++i)
        buf[i] = i * threadIdx.x;
    int sum = 0;
    for (int i = 0; i < n; ++i)
        sum += buf[i];
    assert(sum >= 0);
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
    printf("thread %d sum %d %f\n", threadIdx.x, sum, (double)sum * 0.5);
    free(buf);
}
