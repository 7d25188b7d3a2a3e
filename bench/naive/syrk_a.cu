/* syrk, spelling a: C = alpha*A*A^T + beta*C (full square, PolyBench style). */
#ifndef N
#define N 512
#endif
#ifndef M
#define M 512
#endif
#pragma carve launch syrk grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg a = float[N*M] : random(1)
#pragma carve arg c = float[N*N] : random(2) out
#pragma carve arg alpha = 1.5
#pragma carve arg beta = 1.2
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N*M) bytes(4.0*(N*M + 2.0*N*N))
#pragma carve baseline sgemm(N, N, M)
__global__ void syrk(float *a, float *c, float alpha, float beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if ((i < N) && (j < N)) {
        c[i * N + j] *= beta;
        int k;
        for (k = 0; k < M; k++)
            c[i * N + j] += alpha * a[i * M + k] * a[j * M + k];
    }
}
