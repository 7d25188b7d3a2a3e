// batched_mm: C[b] = A[b] * B[b] for BATCH independent small matrices (MxK times KxN),
// the batch index in blockIdx.z, one thread per output element, unsigned counters.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef BATCH
#define BATCH 64
#endif
#ifndef M
#define M 32
#endif
#ifndef N
#define N 32
#endif
#ifndef K
#define K 32
#endif

__global__ void batched_matmul(const float *A, const float *B, float *C)
{
    unsigned b = blockIdx.z;
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    const float *a = A + (size_t)b * M * K;
    const float *bm = B + (size_t)b * K * N;
    float *c = C + (size_t)b * M * N;

    if (row < M && col < N) {
        float sum = 0.0f;
        for (unsigned k = 0; k < K; k++)
            sum += a[row * K + k] * bm[k * N + col];
        c[row * N + col] = sum;
    }
}

int main(void)
{
    size_t sa = (size_t)BATCH * M * K, sb = (size_t)BATCH * K * N, sc = (size_t)BATCH * M * N;
    float *A = (float *)malloc(sa * sizeof(float));
    float *B = (float *)malloc(sb * sizeof(float));
    float *C = (float *)malloc(sc * sizeof(float));
    float *dA, *dB, *dC;
    unsigned b, i, j, k;
    long bad = 0;

    for (i = 0; i < sa; i++)
        A[i] = (float)(i % 23) * 0.05f - 0.5f;
    for (i = 0; i < sb; i++)
        B[i] = (float)(i % 19) * 0.04f - 0.3f;

    cudaMalloc((void **)&dA, sa * sizeof(float));
    cudaMalloc((void **)&dB, sb * sizeof(float));
    cudaMalloc((void **)&dC, sc * sizeof(float));
    cudaMemcpy(dA, A, sa * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sb * sizeof(float), cudaMemcpyHostToDevice);

    dim3 threads(16, 16, 1);
    dim3 grid((N + 15) / 16, (M + 15) / 16, BATCH);
    batched_matmul<<<grid, threads>>>(dA, dB, dC);
    cudaMemcpy(C, dC, sc * sizeof(float), cudaMemcpyDeviceToHost);

    for (b = 0; b < BATCH; b++)
        for (i = 0; i < M; i++)
            for (j = 0; j < N; j++) {
                float s = 0.0f;
                for (k = 0; k < K; k++)
                    s += A[(size_t)b * M * K + i * K + k] * B[(size_t)b * K * N + k * N + j];
                float g = C[(size_t)b * M * N + i * N + j];
                if (fabsf(g - s) > 1e-4f * fabsf(s) + 1e-4f)
                    bad++;
            }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(A);
    free(B);
    free(C);
    if (bad) {
        printf("batched_mm: %ld wrong\nbatched_mm: FAILED\n", bad);
        return 1;
    }
    printf("batched_mm: PASSED\n");
    return 0;
}
