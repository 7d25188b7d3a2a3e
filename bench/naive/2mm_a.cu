/* 2mm (D = alpha*A*B*C + beta*D), spelling a: PolyBench ported line by line, one kernel per
 * product, each accumulating into global memory. */
#ifndef N
#define N 512
#endif
#pragma carve launch mm2_1 grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg tmp = float[N*N] : zeros out
#pragma carve arg alpha = 1.5
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N*N) bytes(4.0*3*N*N)
#pragma carve baseline sgemm(N, N, N)
#pragma carve launch mm2_2 grid((N+31)/32, (N+7)/8) block(32, 8)
#pragma carve arg tmp = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : random(2)
#pragma carve arg D = float[N*N] : random(3) out
#pragma carve arg beta = 1.2
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N*N) bytes(4.0*4*N*N)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm2_1(float *A, float *B, float *tmp, float alpha)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j < N) {
        tmp[i * N + j] = 0;
        int k;
        for (k = 0; k < N; k++)
            tmp[i * N + j] += alpha * A[i * N + k] * B[k * N + j];
    }
}
__global__ void mm2_2(float *tmp, float *C, float *D, float beta)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < N && j < N) {
        D[i * N + j] *= beta;
        int k;
        for (k = 0; k < N; k++)
            D[i * N + j] += tmp[i * N + k] * C[k * N + j];
    }
}
