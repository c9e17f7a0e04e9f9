// Managed (unified memory) variables: `.global .attribute(.managed)`.
__managed__ int managed_counter;
__managed__ float managed_values[256];
__device__ __managed__ double managed_sum = 1.0;

__global__ void accumulate(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i < 256) {
        atomicAdd(&managed_counter, 1);
        managed_values[i] *= 2.0f;
        atomicAdd(&managed_sum, (double)managed_values[i]);
    }
}
