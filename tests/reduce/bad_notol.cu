// expect: reduce on bad_notol: illegal: no tolerance
/* refused: a float sum reassociated, but the spec gives no tolerance */
#ifndef N
#define N 5000
#endif
#pragma carve launch bad_notol grid((N+255)/256) block(256)
#pragma carve arg in = float[N] : random(1)
#pragma carve arg out = float[1] : zeros out
#pragma carve arg n = N
__global__ void bad_notol(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(out, in[i]);
}
