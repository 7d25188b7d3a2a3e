// expect: reduce on atomic_max: applied: atomicMax into out
/* atomicMax into out[k] (k a parameter) after an early return: exact, no tolerance */
#ifndef N
#define N 5000
#endif
#pragma carve launch atomic_max grid((N+127)/128) block(128)
#pragma carve arg in = int[N] : random(1, -100000, 100000)
#pragma carve arg out = int[4] : zeros out
#pragma carve arg n = N
#pragma carve arg k = 2
__global__ void atomic_max(const int *in, int *out, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i] * 3 - 7;
    atomicMax(&out[k], v);
}
