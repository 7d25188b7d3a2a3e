/* mm_pipeline: C = A·B through shared-memory tiles loaded by a two-stage cp.async pipeline
 * (CUDA C++ Programming Guide, "Pipeline Primitives Interface"): while the block multiplies tile
 * k, the copies of tile k+1 are in flight. Threads 0..63 copy a 16x16 tile of A, 64..127 one
 * of B, 16 bytes each. tests/test_async.c runs it, and variants with the wait or the barrier
 * after it removed, which must fail. */
#include <cuda_pipeline.h>
#ifndef N
#define N 64
#endif
#define T 16
#pragma carve launch mm_pipeline grid(N/T, N/T) block(T, T)
#pragma carve arg A = float[N*N] : random(1)
#pragma carve arg B = float[N*N] : random(2)
#pragma carve arg C = float[N*N] : zeros out
#pragma carve arg n = N
__global__ void mm_pipeline(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[2][T][T];
    __shared__ float Bs[2][T][T];
    int tx = threadIdx.x, ty = threadIdx.y, t = ty * T + tx;
    int r = (t % 64) / 4, c = (t % 4) * 4;
    int ntiles = n / T;
    float acc = 0;
    if (t < 64)
        __pipeline_memcpy_async(&As[0][r][c], &A[(blockIdx.y * T + r) * n + c], 16);
    else if (t < 128)
        __pipeline_memcpy_async(&Bs[0][r][c], &B[r * n + blockIdx.x * T + c], 16);
    __pipeline_commit();
    for (int k = 0; k < ntiles; k++) {
        int cur = k & 1, nxt = cur ^ 1;
        if (k + 1 < ntiles) {
            if (t < 64)
                __pipeline_memcpy_async(&As[nxt][r][c], &A[(blockIdx.y * T + r) * n + (k + 1) * T + c], 16);
            else if (t < 128)
                __pipeline_memcpy_async(&Bs[nxt][r][c], &B[((k + 1) * T + r) * n + blockIdx.x * T + c], 16);
        }
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        for (int j = 0; j < T; j++)
            acc += As[cur][ty][j] * Bs[cur][j][tx];
        __syncthreads();
    }
    C[(blockIdx.y * T + ty) * n + blockIdx.x * T + tx] = acc;
}
