// fdtd2d: 2-D finite-difference time domain (Yee), TMAX steps of three kernels:
//   ey update from hz, ex update from hz, hz update from ex and ey.
// 2-D grid, x over columns (j), y over rows (i).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef NX
#define NX 256
#endif
#ifndef NY
#define NY 256
#endif
#ifndef TMAX
#define TMAX 10
#endif
#define BX 32
#define BY 8

__global__ void fdtd_step1(float *ey, const float *hz, const float *fict, int t)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < NX && j < NY) {
        if (i == 0)
            ey[0 * NY + j] = fict[t];
        else
            ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
    }
}

__global__ void fdtd_step2(float *ex, const float *hz)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < NX && j < NY && j > 0)
        ex[i * NY + j] = ex[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
}

__global__ void fdtd_step3(float *hz, const float *ex, const float *ey)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i <= NX - 2 && j <= NY - 2)
        hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * NY + (j + 1)] - ex[i * NY + j] +
                                                  ey[(i + 1) * NY + j] - ey[i * NY + j]);
}

static void fdtd_cpu(float *ex, float *ey, float *hz, const float *fict)
{
    int t, i, j;
    for (t = 0; t < TMAX; t++) {
        for (j = 0; j < NY; j++)
            ey[j] = fict[t];
        for (i = 1; i < NX; i++)
            for (j = 0; j < NY; j++)
                ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
        for (i = 0; i < NX; i++)
            for (j = 1; j < NY; j++)
                ex[i * NY + j] = ex[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
        for (i = 0; i < NX - 1; i++)
            for (j = 0; j < NY - 1; j++)
                hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * NY + (j + 1)] - ex[i * NY + j] +
                                                          ey[(i + 1) * NY + j] - ey[i * NY + j]);
    }
}

int main(void)
{
    int i, j, t, bad = 0;
    size_t sz = (size_t)NX * NY * sizeof(float);
    float *ex = (float *)malloc(sz), *ey = (float *)malloc(sz), *hz = (float *)malloc(sz);
    float *gex = (float *)malloc(sz), *gey = (float *)malloc(sz), *ghz = (float *)malloc(sz);
    float *fict = (float *)malloc(TMAX * sizeof(float));
    float *d_ex, *d_ey, *d_hz, *d_fict;

    for (t = 0; t < TMAX; t++)
        fict[t] = (float)t;
    for (i = 0; i < NX; i++)
        for (j = 0; j < NY; j++) {
            ex[i * NY + j] = ((float)i * (j + 1)) / NX;
            ey[i * NY + j] = ((float)(i - 1) * (j + 2)) / NY;
            hz[i * NY + j] = ((float)(i + 9) * (j + 3)) / NX;
        }

    cudaMalloc((void **)&d_ex, sz);
    cudaMalloc((void **)&d_ey, sz);
    cudaMalloc((void **)&d_hz, sz);
    cudaMalloc((void **)&d_fict, TMAX * sizeof(float));
    cudaMemcpy(d_ex, ex, sz, cudaMemcpyHostToDevice);
    cudaMemcpy(d_ey, ey, sz, cudaMemcpyHostToDevice);
    cudaMemcpy(d_hz, hz, sz, cudaMemcpyHostToDevice);
    cudaMemcpy(d_fict, fict, TMAX * sizeof(float), cudaMemcpyHostToDevice);

    dim3 block(BX, BY);
    dim3 grid((NY + BX - 1) / BX, (NX + BY - 1) / BY);
    for (t = 0; t < TMAX; t++) {
        fdtd_step1<<<grid, block>>>(d_ey, d_hz, d_fict, t);
        fdtd_step2<<<grid, block>>>(d_ex, d_hz);
        fdtd_step3<<<grid, block>>>(d_hz, d_ex, d_ey);
    }
    cudaMemcpy(gex, d_ex, sz, cudaMemcpyDeviceToHost);
    cudaMemcpy(gey, d_ey, sz, cudaMemcpyDeviceToHost);
    cudaMemcpy(ghz, d_hz, sz, cudaMemcpyDeviceToHost);

    fdtd_cpu(ex, ey, hz, fict);
    for (i = 0; i < NX * NY; i++) {
        if (fabsf(ghz[i] - hz[i]) > 1e-3f * fabsf(hz[i]) + 1e-2f) bad++;
        if (fabsf(gex[i] - ex[i]) > 1e-3f * fabsf(ex[i]) + 1e-2f) bad++;
        if (fabsf(gey[i] - ey[i]) > 1e-3f * fabsf(ey[i]) + 1e-2f) bad++;
    }
    cudaFree(d_ex); cudaFree(d_ey); cudaFree(d_hz); cudaFree(d_fict);
    free(ex); free(ey); free(hz); free(gex); free(gey); free(ghz); free(fict);
    if (bad) {
        printf("fdtd2d: %d mismatches\nfdtd2d: FAILED\n", bad);
        return 1;
    }
    printf("fdtd2d: PASSED\n");
    return 0;
}
