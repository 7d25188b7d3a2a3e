// atax: y = A^T (A x), A is M x N (row-major).
// Two kernels: tmp = A x (a thread per row), y = A^T tmp (a thread per column).
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
#define BLOCK 256

__global__ void atax_kernel1(const float *A, const float *x, float *tmp)
{
    int i, j;
    float sum;
    i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= M)
        return;
    sum = 0.0f;
    for (j = 0; j < N; j++)
        sum += A[i * N + j] * x[j];
    tmp[i] = sum;
}

__global__ void atax_kernel2(const float *A, const float *tmp, float *y)
{
    int i, j;
    j = blockIdx.x * BLOCK + threadIdx.x;
    if (j >= N)
        return;
    y[j] = 0.0f;
    for (i = 0; i < M; i++)
        y[j] += A[i * N + j] * tmp[i];
}

static void atax_cpu(const float *A, const float *x, float *tmp, float *y)
{
    int i, j;
    for (j = 0; j < N; j++)
        y[j] = 0.0f;
    for (i = 0; i < M; i++) {
        tmp[i] = 0.0f;
        for (j = 0; j < N; j++)
            tmp[i] += A[i * N + j] * x[j];
        for (j = 0; j < N; j++)
            y[j] += A[i * N + j] * tmp[i];
    }
}

int main(void)
{
    int i, j, errors = 0;
    float *A = (float *)malloc(sizeof(float) * M * N);
    float *x = (float *)malloc(sizeof(float) * N);
    float *tmp = (float *)malloc(sizeof(float) * M);
    float *y = (float *)malloc(sizeof(float) * N);
    float *y_gpu = (float *)malloc(sizeof(float) * N);
    float *d_A, *d_x, *d_tmp, *d_y;

    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++)
            A[i * N + j] = (float)((i * (j + 1)) % 17) / 17.0f - 0.4f;
    for (j = 0; j < N; j++)
        x[j] = 1.0f + (float)(j % 13) / 13.0f;

    cudaMalloc((void **)&d_A, sizeof(float) * M * N);
    cudaMalloc((void **)&d_x, sizeof(float) * N);
    cudaMalloc((void **)&d_tmp, sizeof(float) * M);
    cudaMalloc((void **)&d_y, sizeof(float) * N);
    cudaMemcpy(d_A, A, sizeof(float) * M * N, cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x, sizeof(float) * N, cudaMemcpyHostToDevice);

    atax_kernel1<<<(M + BLOCK - 1) / BLOCK, BLOCK>>>(d_A, d_x, d_tmp);
    atax_kernel2<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(d_A, d_tmp, d_y);
    cudaMemcpy(y_gpu, d_y, sizeof(float) * N, cudaMemcpyDeviceToHost);

    atax_cpu(A, x, tmp, y);
    for (j = 0; j < N; j++) {
        float diff = fabsf(y_gpu[j] - y[j]);
        if (diff > 1e-3f * fabsf(y[j]) + 1e-3f) {
            if (errors < 5)
                printf("mismatch y[%d]: gpu %f cpu %f\n", j, y_gpu[j], y[j]);
            errors++;
        }
    }
    cudaFree(d_A);
    cudaFree(d_x);
    cudaFree(d_tmp);
    cudaFree(d_y);
    free(A);
    free(x);
    free(tmp);
    free(y);
    free(y_gpu);
    if (errors) {
        printf("atax: FAILED (%d mismatches)\n", errors);
        return 1;
    }
    printf("atax: PASSED\n");
    return 0;
}
