// floyd_warshall: all-pairs shortest paths on a dense N x N distance matrix.
// One launch per intermediate vertex k (N launches).  The size may be given as argv[1].
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef N
#define N 256
#endif
#define BLOCK_X 16
#define BLOCK_Y 16

__global__ void fw_kernel(float *dist, unsigned n, unsigned k)
{
    unsigned col = blockIdx.x * BLOCK_X + threadIdx.x;
    unsigned row = blockIdx.y * BLOCK_Y + threadIdx.y;
    if (row < n && col < n) {
        float through = dist[row * n + k] + dist[k * n + col];
        if (through < dist[row * n + col])
            dist[row * n + col] = through;
    }
}

int main(int argc, char **argv)
{
    unsigned n = N;
    unsigned i, j, k;
    int bad = 0;
    if (argc > 1)
        n = (unsigned)atoi(argv[1]);
    float *d = (float *)malloc(sizeof(float) * n * n);
    float *ref = (float *)malloc(sizeof(float) * n * n);
    float *res = (float *)malloc(sizeof(float) * n * n);
    float *d_dist;

    // a sparse-ish directed graph: small integer weights, "no edge" = 1e6
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            if (i == j)
                d[i * n + j] = 0.0f;
            else if ((i * 13 + j * 7) % 5 == 0 || j == (i + 1) % n)
                d[i * n + j] = (float)(1 + (i + 2 * j) % 9);
            else
                d[i * n + j] = 1.0e6f;
            ref[i * n + j] = d[i * n + j];
        }

    cudaMalloc((void **)&d_dist, sizeof(float) * n * n);
    cudaMemcpy(d_dist, d, sizeof(float) * n * n, cudaMemcpyHostToDevice);
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid((n + BLOCK_X - 1) / BLOCK_X, (n + BLOCK_Y - 1) / BLOCK_Y);
    for (k = 0; k < n; k++)
        fw_kernel<<<grid, block>>>(d_dist, n, k);
    cudaMemcpy(res, d_dist, sizeof(float) * n * n, cudaMemcpyDeviceToHost);

    for (k = 0; k < n; k++)
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++)
                if (ref[i * n + k] + ref[k * n + j] < ref[i * n + j])
                    ref[i * n + j] = ref[i * n + k] + ref[k * n + j];
    for (i = 0; i < n * n; i++)
        if (fabsf(res[i] - ref[i]) > 1e-5f * fabsf(ref[i]))
            bad++;
    cudaFree(d_dist);
    free(d);
    free(ref);
    free(res);
    if (bad) {
        printf("floyd_warshall: %d wrong distances\nfloyd_warshall: FAILED\n", bad);
        return 1;
    }
    printf("floyd_warshall: PASSED\n");
    return 0;
}
