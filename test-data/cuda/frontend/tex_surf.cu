// Texture and surface objects (bindless .u64 handles).
#include <cuda_runtime.h>

__global__ void sample(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 t = tex2D<float4>(tex, x + 0.5f, y + 0.5f);
    float l = tex2DLod<float>(tex, x * 0.5f, y * 0.5f, 1.0f);
    uchar4 s;
    surf2Dread(&s, surf, x * 4, y);
    s.x = (unsigned char)(t.x * 255.0f);
    surf2Dwrite(s, surf, x * 4, y);
    out[y * w + x] = t.y + t.z + t.w + l + s.y;
}
