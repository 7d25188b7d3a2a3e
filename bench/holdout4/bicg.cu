// bicg: the BiCG sub-kernel.  s = A^T r (s[j] = sum_i r[i] A[i][j]) and q = A p.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#ifndef NX
#define NX 512
#endif
#ifndef NY
#define NY 512
#endif
#define THREADS 128

// s[j] = sum over rows of r[i] * A[i][j]: one thread per column j
__global__ void bicg_s(const float *__restrict__ A, const float *__restrict__ r,
                       float *__restrict__ s, size_t nx, size_t ny)
{
    size_t j = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        float acc = 0.0f;
        for (size_t i = 0; i < nx; i++) {
            acc += r[i] * A[i * ny + j];
        }
        s[j] = acc;
    }
}

// q[i] = sum over columns of A[i][j] * p[j]: one thread per row i
__global__ void bicg_q(const float *__restrict__ A, const float *__restrict__ p,
                       float *__restrict__ q, size_t nx, size_t ny)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        float acc = 0.0f;
        for (size_t j = 0; j < ny; j++) {
            acc += A[i * ny + j] * p[j];
        }
        q[i] = acc;
    }
}

static int check(const char *name, const float *got, const float *want, size_t n)
{
    int bad = 0;
    for (size_t k = 0; k < n; k++) {
        double d = fabs((double)got[k] - (double)want[k]);
        if (d > 1e-4 * fabs((double)want[k]) + 1e-4) {
            if (bad < 4)
                printf("%s[%zu] = %g, expected %g\n", name, k, got[k], want[k]);
            bad++;
        }
    }
    return bad;
}

int main()
{
    const size_t nx = NX, ny = NY;
    float *A = (float *)malloc(nx * ny * sizeof(float));
    float *r = (float *)malloc(nx * sizeof(float));
    float *p = (float *)malloc(ny * sizeof(float));
    float *s = (float *)malloc(ny * sizeof(float));
    float *q = (float *)malloc(nx * sizeof(float));
    float *s_ref = (float *)calloc(ny, sizeof(float));
    float *q_ref = (float *)calloc(nx, sizeof(float));

    for (size_t i = 0; i < nx; i++) {
        r[i] = (float)(i % 7) * 0.25f - 0.5f;
        for (size_t j = 0; j < ny; j++)
            A[i * ny + j] = (float)((i + 3 * j) % 11) * 0.1f;
    }
    for (size_t j = 0; j < ny; j++)
        p[j] = (float)(j % 5) * 0.2f + 0.1f;

    float *dA, *dr, *dp, *ds, *dq;
    cudaMalloc(&dA, nx * ny * sizeof(float));
    cudaMalloc(&dr, nx * sizeof(float));
    cudaMalloc(&dp, ny * sizeof(float));
    cudaMalloc(&ds, ny * sizeof(float));
    cudaMalloc(&dq, nx * sizeof(float));
    cudaMemcpy(dA, A, nx * ny * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dr, r, nx * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dp, p, ny * sizeof(float), cudaMemcpyHostToDevice);

    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    bicg_s<<<(unsigned)((ny + THREADS - 1) / THREADS), THREADS>>>(dA, dr, ds, nx, ny);
    bicg_q<<<(unsigned)((nx + THREADS - 1) / THREADS), THREADS>>>(dA, dp, dq, nx, ny);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, start, stop);
    printf("bicg: GPU time %.3f ms\n", ms);

    cudaMemcpy(s, ds, ny * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(q, dq, nx * sizeof(float), cudaMemcpyDeviceToHost);

    for (size_t i = 0; i < nx; i++) {
        for (size_t j = 0; j < ny; j++) {
            s_ref[j] += r[i] * A[i * ny + j];
            q_ref[i] += A[i * ny + j] * p[j];
        }
    }
    int bad = check("s", s, s_ref, ny) + check("q", q, q_ref, nx);

    cudaFree(dA); cudaFree(dr); cudaFree(dp); cudaFree(ds); cudaFree(dq);
    free(A); free(r); free(p); free(s); free(q); free(s_ref); free(q_ref);
    if (bad != 0) {
        printf("bicg: FAILED\n");
        return 1;
    }
    printf("bicg: PASSED\n");
    return 0;
}
