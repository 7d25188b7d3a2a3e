// mvt: x1 = x1 + A * y1 and x2 = x2 + A^T * y2 (two mat-vecs on one N x N matrix)
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef N
#define N 512
#endif

__global__ void mvt_kernel1(int n, const float *a, const float *y1, float *x1)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float *row = a + i * n;
        int j = 0;
        float t = x1[i];
        while (j < n) {
            t += row[j] * y1[j];
            j++;
        }
        x1[i] = t;
    }
}

__global__ void mvt_kernel2(int n, const float *a, const float *y2, float *x2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int j = 0;
        while (j < n) {
            x2[i] = x2[i] + a[j * n + i] * y2[j];
            j++;
        }
    }
}

int main(void)
{
    int n = N;
    int i, j, fails = 0;
    size_t bytes = (size_t)n * n * sizeof(float);
    float *a = (float *)malloc(bytes);
    float *x1 = (float *)malloc(n * sizeof(float));
    float *x2 = (float *)malloc(n * sizeof(float));
    float *y1 = (float *)malloc(n * sizeof(float));
    float *y2 = (float *)malloc(n * sizeof(float));
    float *r1 = (float *)malloc(n * sizeof(float));
    float *r2 = (float *)malloc(n * sizeof(float));
    float *g1 = (float *)malloc(n * sizeof(float));
    float *g2 = (float *)malloc(n * sizeof(float));
    float *da, *dx1, *dx2, *dy1, *dy2;

    for (i = 0; i < n; i++) {
        x1[i] = (float)(i % 10) / 10.0f;
        x2[i] = (float)((i + 1) % 10) / 10.0f;
        y1[i] = (float)((i + 3) % 10) / 10.0f;
        y2[i] = (float)((i + 4) % 10) / 10.0f;
        for (j = 0; j < n; j++)
            a[i * n + j] = (float)((i * j) % n) / (float)n;
    }

    cudaMalloc((void **)&da, bytes);
    cudaMalloc((void **)&dx1, n * sizeof(float));
    cudaMalloc((void **)&dx2, n * sizeof(float));
    cudaMalloc((void **)&dy1, n * sizeof(float));
    cudaMalloc((void **)&dy2, n * sizeof(float));
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dx1, x1, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dx2, x2, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy1, y1, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy2, y2, n * sizeof(float), cudaMemcpyHostToDevice);

    dim3 block(256);
    dim3 grid((n + block.x - 1) / block.x);
    mvt_kernel1<<<grid, block>>>(n, da, dy1, dx1);
    mvt_kernel2<<<grid, block>>>(n, da, dy2, dx2);
    cudaDeviceSynchronize();
    cudaMemcpy(g1, dx1, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(g2, dx2, n * sizeof(float), cudaMemcpyDeviceToHost);

    for (i = 0; i < n; i++) {
        r1[i] = x1[i];
        r2[i] = x2[i];
        for (j = 0; j < n; j++) {
            r1[i] += a[i * n + j] * y1[j];
            r2[i] += a[j * n + i] * y2[j];
        }
    }
    for (i = 0; i < n; i++) {
        if (fabsf(g1[i] - r1[i]) > 1e-4f * fabsf(r1[i]) + 1e-4f)
            fails++;
        if (fabsf(g2[i] - r2[i]) > 1e-4f * fabsf(r2[i]) + 1e-4f)
            fails++;
    }
    printf("mvt: %d of %d values differ\n", fails, 2 * n);
    cudaFree(da); cudaFree(dx1); cudaFree(dx2); cudaFree(dy1); cudaFree(dy2);
    free(a); free(x1); free(x2); free(y1); free(y2); free(r1); free(r2); free(g1); free(g2);
    if (fails) {
        printf("mvt: FAILED\n");
        return 1;
    }
    printf("mvt: PASSED\n");
    return 0;
}
