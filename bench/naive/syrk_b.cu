/* syrk, spelling b: pointer rows, a register accumulator declared first, nested guards. */
#ifndef N
#define N 512
#endif
#ifndef M
#define M 512
#endif
#pragma carve launch syrk_rows grid(N/16, N/16) block(16, 16)
#pragma carve arg A = float[N*M] : random(1)
#pragma carve arg C = float[N*N] : random(2) out
#pragma carve arg n = N
#pragma carve arg m = M
#pragma carve arg alpha = 1.5
#pragma carve arg beta = 1.2
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N*M) bytes(4.0*(N*M + 2.0*N*N))
#pragma carve baseline sgemm(N, N, M)
__global__ void syrk_rows(const float *A, float *C, int n, int m, float alpha, float beta)
{
    float s = 0.0f;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n) {
        if (j < n) {
            const float *ai = A + i * m;
            const float *aj = &A[j * m];
            for (int k = 0; k < m; k++)
                s += ai[k] * aj[k];
            C[i * n + j] = beta * C[i * n + j] + alpha * s;
        }
    }
}
