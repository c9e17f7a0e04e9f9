// Dynamic parallelism: a kernel launching a kernel. nvcc -rdc=true calls
// cudaGetParameterBufferV2 and cudaLaunchDeviceV2, which live in libcudadevrt:
// ptxas accepts the PTX only with -c (nvlink resolves them), so without -c it
// is rejected ("Unresolved extern function").
__global__ void child(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] += 1;
}

__global__ void parent(int *data, int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        child<<<(n + 127) / 128, 128>>>(data, n);
}
