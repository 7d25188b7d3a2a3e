/* triangular solve (L x = b, forward substitution), one step: with x[0..j] final, every later
 * row subtracts its column-j term. Spelling a: 1-D threads over rows. */
#ifndef N
#define N 4096
#endif
#ifndef J
#define J 100
#endif
#pragma carve launch trisolv_step grid((N+255)/256) block(256)
#pragma carve arg L = float[N*N] : random(1)
#pragma carve arg x = float[N] : random(2) out
#pragma carve arg j = J
#pragma carve tol rel(1e-5)
#pragma carve work flops(2.0*N) bytes(12.0*N)
#pragma carve baseline copy(N*4)
__global__ void trisolv_step(float *L, float *x, int j)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > j && i < N)
        x[i] = x[i] - L[i * N + j] * x[j];
}
