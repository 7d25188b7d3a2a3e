// expect: reduce on bad_exch: not applicable: not a commutative reduction
/* refused: atomicExch is not a commutative reduction */
#ifndef N
#define N 5000
#endif
#pragma carve launch bad_exch grid((N+255)/256) block(256)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[1] : zeros out
#pragma carve arg n = N
__global__ void bad_exch(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicExch(out, in[i]);
}
