// Inline asm with labels: each asm statement is its own `{ }` scope in the
// PTX, so the same labels appear once per inlined copy in one function.
__device__ __forceinline__ unsigned wait_nonzero(const volatile unsigned *flag)
{
    unsigned v;
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 "LAB_WAIT:\n\t"
                 "ld.volatile.global.u32 %0, [%1];\n\t"
                 "setp.eq.u32 p, %0, 0;\n\t"
                 "@p bra LAB_WAIT;\n\t"
                 "bra DONE;\n\t"
                 "DONE:\n\t"
                 "}"
                 : "=r"(v)
                 : "l"(flag)
                 : "memory");
    return v;
}

__device__ __forceinline__ unsigned clamp_asm(unsigned x, unsigned hi)
{
    unsigned r;
    asm("{\n\t"
        ".reg .pred big;\n\t"
        "mov.u32 %0, %1;\n\t"
        "setp.gt.u32 big, %1, %2;\n\t"
        "@!big bra DONE;\n\t"
        "mov.u32 %0, %2;\n\t"
        "DONE:\n\t"
        "}"
        : "=r"(r)
        : "r"(x), "r"(hi));
    return r;
}

__global__ void spin(const volatile unsigned *a, const volatile unsigned *b, unsigned *out)
{
    unsigned x = wait_nonzero(a);
    unsigned y = wait_nonzero(b);
    out[threadIdx.x] = clamp_asm(x, 100) + clamp_asm(y, 200);
}
