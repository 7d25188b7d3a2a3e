// seidel2d: the 2-D Gauss-Seidel sweep (9-point average, in place, rows then columns), TSTEPS
// sweeps. Cell (i, j) needs (i-1, *) and (i, j-1) of this sweep and (i, j+1), (i+1, *) of the last,
// so the cells with equal 2*i + j are independent: one launch per such wavefront, one thread per i.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef N
#define N 256
#endif
#ifndef TSTEPS
#define TSTEPS 2
#endif
#define THREADS 128

__device__ float avg9(const float *A, int n, int i, int j)
{
    return (A[(i - 1) * n + j - 1] + A[(i - 1) * n + j] + A[(i - 1) * n + j + 1] +
            A[i * n + j - 1] + A[i * n + j] + A[i * n + j + 1] +
            A[(i + 1) * n + j - 1] + A[(i + 1) * n + j] + A[(i + 1) * n + j + 1]) / 9.0f;
}

__global__ void seidel_wavefront(float *A, int n, int t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int j;

    if (i > n - 2)
        return;
    j = t - 2 * i;
    if (j < 1 || j > n - 2)
        return;
    A[i * n + j] = avg9(A, n, i, j);
}

int main(void)
{
    int n = N;
    int i, j, t, step, fails = 0;
    float *A = (float *)malloc(sizeof(float) * n * n);
    float *R = (float *)malloc(sizeof(float) * n * n);
    float *dA;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            A[i * n + j] = (float)((i * i + 3 * j * j + i * j) % 17) / 4.0f;
            R[i * n + j] = A[i * n + j];
        }

    cudaMalloc((void **)&dA, sizeof(float) * n * n);
    cudaMemcpy(dA, A, sizeof(float) * n * n, cudaMemcpyHostToDevice);
    for (step = 0; step < TSTEPS; step++)
        for (t = 3; t <= 3 * (n - 2); t++)
            seidel_wavefront<<<(n - 2 + THREADS - 1) / THREADS, THREADS>>>(dA, n, t);
    cudaMemcpy(A, dA, sizeof(float) * n * n, cudaMemcpyDeviceToHost);

    for (step = 0; step < TSTEPS; step++)
        for (i = 1; i <= n - 2; i++)
            for (j = 1; j <= n - 2; j++)
                R[i * n + j] = (R[(i - 1) * n + j - 1] + R[(i - 1) * n + j] + R[(i - 1) * n + j + 1] +
                                R[i * n + j - 1] + R[i * n + j] + R[i * n + j + 1] +
                                R[(i + 1) * n + j - 1] + R[(i + 1) * n + j] + R[(i + 1) * n + j + 1]) / 9.0f;

    for (i = 0; i < n * n; i++)
        if (fabsf(A[i] - R[i]) > 1e-4f * fmaxf(fabsf(R[i]), 1.0f)) {
            if (fails < 5)
                printf("A[%d] = %f, want %f\n", i, A[i], R[i]);
            fails++;
        }
    cudaFree(dA);
    free(A);
    free(R);
    if (fails != 0) {
        printf("seidel2d: FAILED\n");
        return 1;
    }
    printf("seidel2d: PASSED\n");
    return 0;
}
