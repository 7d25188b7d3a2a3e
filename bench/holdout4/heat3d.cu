// heat3d: TSTEPS steps of the 7-point heat stencil on an N^3 grid, A -> B then B -> A.
// 3-D launch: x over the fastest index k, y over j, z over i; a __device__ index helper.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef N
#define N 64
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

__device__ __host__ inline int idx3(int i, int j, int k)
{
    return (i * N + j) * N + k;
}

__global__ void heat_step(const float *__restrict__ in, float *__restrict__ out)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    int i = blockIdx.z * blockDim.z + threadIdx.z;
    if (i < 1 || i > N - 2 || j < 1 || j > N - 2 || k < 1 || k > N - 2)
        return;
    float c = in[idx3(i, j, k)];
    out[idx3(i, j, k)] = 0.125f * (in[idx3(i + 1, j, k)] - 2.0f * c + in[idx3(i - 1, j, k)]) +
                         0.125f * (in[idx3(i, j + 1, k)] - 2.0f * c + in[idx3(i, j - 1, k)]) +
                         0.125f * (in[idx3(i, j, k + 1)] - 2.0f * c + in[idx3(i, j, k - 1)]) + c;
}

static void heat_cpu(float *A, float *B)
{
    for (int t = 0; t < TSTEPS; t++) {
        for (int pass = 0; pass < 2; pass++) {
            const float *in = pass == 0 ? A : B;
            float *out = pass == 0 ? B : A;
            for (int i = 1; i < N - 1; i++)
                for (int j = 1; j < N - 1; j++)
                    for (int k = 1; k < N - 1; k++) {
                        float c = in[idx3(i, j, k)];
                        out[idx3(i, j, k)] =
                            0.125f * (in[idx3(i + 1, j, k)] - 2.0f * c + in[idx3(i - 1, j, k)]) +
                            0.125f * (in[idx3(i, j + 1, k)] - 2.0f * c + in[idx3(i, j - 1, k)]) +
                            0.125f * (in[idx3(i, j, k + 1)] - 2.0f * c + in[idx3(i, j, k - 1)]) + c;
                    }
        }
    }
}

int main(void)
{
    const int total = N * N * N;
    float *A = (float *)malloc(total * sizeof(float));
    float *B = (float *)malloc(total * sizeof(float));
    float *out = (float *)malloc(total * sizeof(float));
    float *dA, *dB;
    int errs = 0;

    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++) {
                A[idx3(i, j, k)] = (float)((i * i + 3 * j * k + 7 * k) % 23) / 4.0f;
                B[idx3(i, j, k)] = A[idx3(i, j, k)];
            }

    cudaMalloc((void **)&dA, total * sizeof(float));
    cudaMalloc((void **)&dB, total * sizeof(float));
    cudaMemcpy(dA, A, total * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, total * sizeof(float), cudaMemcpyHostToDevice);

    dim3 threads(32, 4, 2);
    dim3 blocks((N + 31) / 32, (N + 3) / 4, (N + 1) / 2);
    for (int t = 0; t < TSTEPS; t++) {
        heat_step<<<blocks, threads>>>(dA, dB);
        heat_step<<<blocks, threads>>>(dB, dA);
    }
    cudaMemcpy(out, dA, total * sizeof(float), cudaMemcpyDeviceToHost);

    heat_cpu(A, B);
    for (int n = 0; n < total; n++) {
        float ref = A[n];
        if (fabsf(out[n] - ref) > 1e-4f * fabsf(ref) + 1e-5f)
            errs++;
    }
    cudaFree(dA);
    cudaFree(dB);
    free(A);
    free(B);
    free(out);
    printf("heat3d: %d errors\n", errs);
    if (errs > 0) {
        printf("heat3d: FAILED\n");
        return 1;
    }
    printf("heat3d: PASSED\n");
    return 0;
}
