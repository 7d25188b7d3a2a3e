// trmm: B := alpha * A^T * B with A lower triangular with a unit diagonal (PolyBench's trmm),
// written to a separate output C so that every thread reads the original B.
// One thread per element of C; plain global memory.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef M
#define M 512
#endif
#ifndef N
#define N 512
#endif
#define BLOCK 16

__global__ void trmm_kernel(const float *A, const float *B, float *C, float alpha)
{
    int i, j, k;
    float sum;

    j = blockIdx.x * BLOCK + threadIdx.x;
    i = blockIdx.y * BLOCK + threadIdx.y;
    if (i >= M || j >= N)
        return;
    sum = B[i * N + j];
    for (k = i + 1; k < M; k++)
        sum += A[k * M + i] * B[k * N + j];
    C[i * N + j] = alpha * sum;
}

static void trmm_cpu(const float *A, const float *B, float *C, float alpha)
{
    int i, j, k;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            float sum = B[i * N + j];
            for (k = i + 1; k < M; k++)
                sum += A[k * M + i] * B[k * N + j];
            C[i * N + j] = alpha * sum;
        }
}

int main(void)
{
    int i, j, errors = 0;
    float alpha = 1.5f;
    size_t sizeA = (size_t)M * M * sizeof(float);
    size_t sizeB = (size_t)M * N * sizeof(float);
    float *hA = (float *)malloc(sizeA);
    float *hB = (float *)malloc(sizeB);
    float *hC = (float *)malloc(sizeB);
    float *ref = (float *)malloc(sizeB);
    float *dA, *dB, *dC;

    for (i = 0; i < M; i++) {
        for (j = 0; j < M; j++) {
            if (j < i)
                hA[i * M + j] = (float)((i + j) % M) / M;
            else if (j == i)
                hA[i * M + j] = 1.0f;
            else
                hA[i * M + j] = -999.0f; /* never read */
        }
        for (j = 0; j < N; j++)
            hB[i * N + j] = (float)((N + (i - j)) % N) / N;
    }

    cudaMalloc((void **)&dA, sizeA);
    cudaMalloc((void **)&dB, sizeB);
    cudaMalloc((void **)&dC, sizeB);
    cudaMemcpy(dA, hA, sizeA, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, hB, sizeB, cudaMemcpyHostToDevice);

    dim3 block(BLOCK, BLOCK);
    dim3 grid((N + BLOCK - 1) / BLOCK, (M + BLOCK - 1) / BLOCK);
    trmm_kernel<<<grid, block>>>(dA, dB, dC, alpha);
    cudaDeviceSynchronize();
    cudaMemcpy(hC, dC, sizeB, cudaMemcpyDeviceToHost);

    trmm_cpu(hA, hB, ref, alpha);
    for (i = 0; i < M * N; i++) {
        float d = fabsf(hC[i] - ref[i]);
        if (d > 1e-3f * fmaxf(fabsf(ref[i]), 1.0f)) {
            if (errors < 5)
                printf("mismatch at %d: %f vs %f\n", i, hC[i], ref[i]);
            errors++;
        }
    }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(hA);
    free(hB);
    free(hC);
    free(ref);
    if (errors) {
        printf("trmm: FAILED (%d errors)\n", errors);
        return 1;
    }
    printf("trmm: PASSED\n");
    return 0;
}
