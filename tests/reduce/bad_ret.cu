// expect: reduce on bad_ret: illegal: value the atomic returns is used
/* refused: the value atomicAdd returns is used (each thread's ticket) */
#ifndef N
#define N 5000
#endif
#pragma carve launch bad_ret grid((N+255)/256) block(256)
#pragma carve arg in = int[N] : random(1)
#pragma carve arg out = int[1] : zeros out
#pragma carve arg pos = int[N] : zeros out
#pragma carve arg n = N
__global__ void bad_ret(const int *in, int *out, int *pos, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        pos[i] = atomicAdd(out, in[i]);
}
