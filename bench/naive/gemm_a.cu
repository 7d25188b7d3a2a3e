/* gemm, spelling a (a PolyBench-to-CUDA port): C = alpha*A*B + beta*C, accumulated in C. */
#ifndef N
#define N 512
#endif
#define NI N
#define NJ N
#define NK N
#pragma carve launch gemm grid((NJ+31)/32, (NI+7)/8) block(32, 8)
#pragma carve arg a = float[NI*NK] : random(1)
#pragma carve arg b = float[NK*NJ] : random(2)
#pragma carve arg c = float[NI*NJ] : random(3) out
#pragma carve arg alpha = 1.5
#pragma carve arg beta = 1.2
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*NI*NJ*NK) bytes(4.0*(NI*NK + NK*NJ + 2.0*NI*NJ))
#pragma carve baseline sgemm(N, N, N)
__global__ void gemm(float *a, float *b, float *c, float alpha, float beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < NI) && (j < NJ)) {
        c[i * NJ + j] *= beta;
        int k;
        for (k = 0; k < NK; k++)
            c[i * NJ + j] += alpha * a[i * NK + k] * b[k * NJ + j];
    }
}
