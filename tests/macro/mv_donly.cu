// mv_donly: y = A x with A of M x N, M and N given only by -D (the file defines neither), a
// thread per row. tests/macro/run.sh optimizes it at one size and runs the output at others.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

__global__ void mv(const float *A, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) {
        float sum = 0.0f;
        for (int j = 0; j < N; j++)
            sum += A[i * N + j] * x[j];
        y[i] = sum;
    }
}

int main(void)
{
    float *A = (float *)malloc(sizeof(float) * M * N), *x = (float *)malloc(sizeof(float) * N);
    float *y = (float *)malloc(sizeof(float) * M);
    float *dA, *dx, *dy;
    int errors = 0;
    for (int i = 0; i < M * N; i++) A[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    for (int j = 0; j < N; j++) x[j] = 1.0f + (float)(j % 5) / 5.0f;
    cudaMalloc((void **)&dA, sizeof(float) * M * N);
    cudaMalloc((void **)&dx, sizeof(float) * N);
    cudaMalloc((void **)&dy, sizeof(float) * M);
    cudaMemcpy(dA, A, sizeof(float) * M * N, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, sizeof(float) * N, cudaMemcpyHostToDevice);
    mv<<<(M + 127) / 128, 128>>>(dA, dx, dy);
    cudaMemcpy(y, dy, sizeof(float) * M, cudaMemcpyDeviceToHost);
    for (int i = 0; i < M; i++) {
        float s = 0.0f;
        for (int j = 0; j < N; j++) s += A[i * N + j] * x[j];
        if (fabsf(s - y[i]) > 1e-3f * fabsf(s) + 1e-3f) errors++;
    }
    cudaFree(dA);
    cudaFree(dx);
    cudaFree(dy);
    free(A);
    free(x);
    free(y);
    printf("mv_donly: %s\n", errors ? "FAILED" : "PASSED");
    return errors != 0;
}
