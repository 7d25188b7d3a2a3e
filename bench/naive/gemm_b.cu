/* gemm, spelling b (a textbook CUDA kernel, column-major like BLAS): C = alpha*A*B + beta*C. */
#ifndef N
#define N 512
#endif
#pragma carve launch sgemm_naive grid(N/16, N/16) block(16, 16)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : random(3) out
#pragma carve arg n = N
#pragma carve arg lda = N
#pragma carve arg ldb = N
#pragma carve arg ldc = N
#pragma carve arg alpha = 1.5
#pragma carve arg beta = 1.2
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N*N) bytes(4.0*4*N*N)
#pragma carve baseline sgemm(N, N, N)
__global__ void sgemm_naive(const float *A, const float *B, float *C, int n, int lda, int ldb, int ldc, float alpha, float beta)
{
    float c = 0.0f;
    const int m = blockIdx.x * blockDim.x + threadIdx.x;
    const int col = blockIdx.y * blockDim.y + threadIdx.y;
    for (int i = 0; i < n; ++i) {
        float a = A[m + i * lda];
        float b = B[i + col * ldb];
        c += a * b;
    }
    C[m + col * ldc] = C[m + col * ldc] * beta + alpha * c;
}
