// expect: reduce on atomic_int: applied: int4 loads
/* an integer sum (exact) whose value is f(in[g]) and a parameter: the vector path applies */
#ifndef N
#define N 5000
#endif
#pragma carve launch atomic_int grid((N+255)/256) block(256)
#pragma carve arg in = int[N] : random(1, -50, 50)
#pragma carve arg out = int[1] : zeros out
#pragma carve arg n = N
#pragma carve arg scale = 3
__global__ void atomic_int(const int *in, int *out, int n, int scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i] * scale + 1);
}
