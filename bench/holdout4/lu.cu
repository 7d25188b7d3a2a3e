// lu: in-place LU decomposition without pivoting (Doolittle, L has a unit diagonal).
// For each k: scale the column below the pivot, then update the trailing submatrix.
// 2 launches per k, 2*(N-1) launches in all.  C++ host code with std::vector.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#ifndef N
#define N 128
#endif
#define TPB 128
#define TILE 16

__global__ void lu_scale(float *a, int n, int k)
{
    int i = k + 1 + blockIdx.x * TPB + threadIdx.x;
    if (i < n)
        a[i * n + k] = a[i * n + k] / a[k * n + k];
}

__global__ void lu_update(float *a, int n, int k)
{
    int j = k + 1 + blockIdx.x * TILE + threadIdx.x;
    int i = k + 1 + blockIdx.y * TILE + threadIdx.y;
    if (i < n && j < n)
        a[i * n + j] -= a[i * n + k] * a[k * n + j];
}

int main()
{
    const int n = N;
    std::vector<float> a(n * n), ref(n * n), out(n * n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            a[i * n + j] = (i == j) ? (float)n + 1.0f : (float)((i * 7 + j * 3) % 10) / 10.0f;
    ref = a;

    float *d_a;
    cudaMalloc(&d_a, n * n * sizeof(float));
    cudaMemcpy(d_a, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
    for (int k = 0; k < n - 1; k++) {
        int rest = n - k - 1;
        lu_scale<<<(rest + TPB - 1) / TPB, TPB>>>(d_a, n, k);
        dim3 grid((rest + TILE - 1) / TILE, (rest + TILE - 1) / TILE);
        lu_update<<<grid, dim3(TILE, TILE)>>>(d_a, n, k);
    }
    cudaMemcpy(out.data(), d_a, n * n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_a);

    for (int k = 0; k < n - 1; k++) {
        for (int i = k + 1; i < n; i++)
            ref[i * n + k] /= ref[k * n + k];
        for (int i = k + 1; i < n; i++)
            for (int j = k + 1; j < n; j++)
                ref[i * n + j] -= ref[i * n + k] * ref[k * n + j];
    }
    int wrong = 0;
    for (int e = 0; e < n * n; e++)
        if (std::fabs(out[e] - ref[e]) > 1e-3f * std::fabs(ref[e]) + 1e-5f)
            wrong++;
    if (wrong) {
        std::printf("lu: %d of %d entries wrong\nlu: FAILED\n", wrong, n * n);
        return 1;
    }
    std::printf("lu: PASSED\n");
    return 0;
}
