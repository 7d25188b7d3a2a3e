// mv_define: y = A x with A of N x N, N a macro the file defines (overridable by -D), a thread
// per row. tests/macro/run.sh optimizes it at one N and runs the output at others.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 96
#endif

__global__ void mv(const float *A, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        float sum = 0.0f;
        for (int j = 0; j < N; j++)
            sum += A[i * N + j] * x[j];
        y[i] = sum;
    }
}

int main(void)
{
    float *A = (float *)malloc(sizeof(float) * N * N), *x = (float *)malloc(sizeof(float) * N);
    float *y = (float *)malloc(sizeof(float) * N);
    float *dA, *dx, *dy;
    int errors = 0;
    for (int i = 0; i < N * N; i++) A[i] = (float)((i * 7) % 13) / 13.0f - 0.5f;
    for (int j = 0; j < N; j++) x[j] = 1.0f + (float)(j % 5) / 5.0f;
    cudaMalloc((void **)&dA, sizeof(float) * N * N);
    cudaMalloc((void **)&dx, sizeof(float) * N);
    cudaMalloc((void **)&dy, sizeof(float) * N);
    cudaMemcpy(dA, A, sizeof(float) * N * N, cudaMemcpyHostToDevice);
    cudaMemcpy(dx, x, sizeof(float) * N, cudaMemcpyHostToDevice);
    mv<<<(N + 127) / 128, 128>>>(dA, dx, dy);
    cudaMemcpy(y, dy, sizeof(float) * N, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++) {
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
    printf("mv_define: %s\n", errors ? "FAILED" : "PASSED");
    return errors != 0;
}
