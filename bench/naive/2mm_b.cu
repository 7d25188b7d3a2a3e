/* 2mm, spelling b: tile constants for the block size, early return guards, a while loop and a
 * `<=` bound, register accumulators. */
#ifndef N
#define N 512
#endif
#define BS 16
#pragma carve launch mm2_1 grid(N/BS, N/BS) block(BS, BS)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg tmp = float[N*N] : zeros out
#pragma carve arg alpha = 1.5
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N*N) bytes(4.0*3*N*N)
#pragma carve baseline sgemm(N, N, N)
#pragma carve launch mm2_2 grid(N/BS, N/BS) block(BS, BS)
#pragma carve arg tmp = float[N*N] : random(1)
#pragma carve arg C = float[N*N] : random(2)
#pragma carve arg D = float[N*N] : random(3) out
#pragma carve arg beta = 1.2
#pragma carve tol rel(1e-4)
#pragma carve work flops(2.0*N*N*N) bytes(4.0*4*N*N)
#pragma carve baseline sgemm(N, N, N)
__global__ void mm2_1(const float *A, const float *B, float *tmp, float alpha)
{
    int col = blockIdx.x * BS + threadIdx.x;
    int row = blockIdx.y * BS + threadIdx.y;
    if (row >= N || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k <= N - 1; k++)
        acc += alpha * A[row * N + k] * B[k * N + col];
    tmp[row * N + col] = acc;
}
__global__ void mm2_2(const float *tmp, const float *C, float *D, float beta)
{
    int col = blockIdx.x * BS + threadIdx.x;
    int row = blockIdx.y * BS + threadIdx.y;
    if (row >= N || col >= N) return;
    float acc = D[row * N + col] * beta;
    int k = 0;
    while (k < N) {
        acc += tmp[row * N + k] * C[k * N + col];
        k++;
    }
    D[row * N + col] = acc;
}
