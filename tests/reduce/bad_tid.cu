// expect: reduce on bad_tid: illegal: address depends on the thread
/* refused: the atomic's address depends on the thread (a histogram, not one reduction) */
#ifndef N
#define N 5000
#endif
#pragma carve launch bad_tid grid((N+255)/256) block(256)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[4] : zeros out
#pragma carve arg n = N
#pragma carve tol rel(1e-3)
__global__ void bad_tid(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&out[i % 4], in[i]);
}
