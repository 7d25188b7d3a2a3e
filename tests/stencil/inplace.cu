/* refused: the stencil's input is stored through (its second half holds the output): the pass
 * tiles only a parameter nothing in the kernel writes (race-free, so the engines agree on it) */
#ifndef N
#define N 64
#endif
#pragma carve launch inplace grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg A = float[2*N*N] : random(1) out
#pragma carve tol rel(1e-5)
__global__ void inplace(float *A)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < N - 1 && j < N - 1)
        A[N * N + i * N + j] = 0.5f * (A[i * N + j - 1] + A[i * N + j + 1]);
}
