// symm_for: symm.cu with int indices, one for loop and the symmetric element chosen by a conditional (one
// change of spelling: the two while loops over long indices).
/* symm: C = alpha * A * B + beta * C in double precision, A symmetric (M x M) with only its lower
 * triangle stored (the upper one holds garbage), B and C M x N. One thread per C element. */
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#ifndef M
#define M 256
#endif
#ifndef N
#define N 384
#endif

__global__ void symm_kernel(int m, int n, double alpha, double beta, const double *A,
                            const double *B, double *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < m && col < n) {
        double acc = 0.0;
        for (int k = 0; k < m; k++) {
            double a = (k <= row) ? A[row * m + k] : A[k * m + row];
            acc += a * B[k * n + col];
        }
        C[row * n + col] = alpha * acc + beta * C[row * n + col];
    }
}

int main()
{
    const int m = M, n = N;
    const double alpha = 1.25, beta = -0.5;
    double *A = (double *)malloc(sizeof(double) * m * m);
    double *B = (double *)malloc(sizeof(double) * m * n);
    double *C = (double *)malloc(sizeof(double) * m * n);
    double *gpu = (double *)malloc(sizeof(double) * m * n);

    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            A[i * m + j] = (j <= i) ? (double)((i + j) % 100) / m : -1.0e9;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            B[i * n + j] = (double)((n + i - j) % 100) / n;
            C[i * n + j] = (double)((i + j) % 100) / m;
        }

    double *dA, *dB, *dC;
    cudaMalloc(&dA, sizeof(double) * m * m);
    cudaMalloc(&dB, sizeof(double) * m * n);
    cudaMalloc(&dC, sizeof(double) * m * n);
    cudaMemcpy(dA, A, sizeof(double) * m * m, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sizeof(double) * m * n, cudaMemcpyHostToDevice);
    cudaMemcpy(dC, C, sizeof(double) * m * n, cudaMemcpyHostToDevice);

    dim3 threads(32, 8);
    dim3 blocks((n + threads.x - 1) / threads.x, (m + threads.y - 1) / threads.y);
    symm_kernel<<<blocks, threads>>>(m, n, alpha, beta, dA, dB, dC);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        printf("launch failed: %s\n", cudaGetErrorString(err));
        return 1;
    }
    cudaMemcpy(gpu, dC, sizeof(double) * m * n, cudaMemcpyDeviceToHost);

    int bad = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double acc = 0.0;
            for (int k = 0; k < m; k++) {
                double a = (k <= i) ? A[i * m + k] : A[k * m + i];
                acc += a * B[k * n + j];
            }
            double want = alpha * acc + beta * C[i * n + j];
            double got = gpu[i * n + j];
            if (fabs(got - want) > 1e-9 * fmax(fabs(want), 1.0)) {
                if (bad < 5)
                    printf("C[%d][%d] = %.12f, expected %.12f\n", i, j, got, want);
                bad++;
            }
        }
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    free(A);
    free(B);
    free(C);
    free(gpu);
    printf("symm: %s\n", bad ? "FAILED" : "PASSED");
    return bad ? 1 : 0;
}
