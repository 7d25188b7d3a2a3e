// scan: prefix sums done naively. An inclusive scan by Hillis-Steele steps in global memory
// (log2 n launches, ping-pong buffers) and an exclusive scan where thread i sums in[0..i-1].
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#ifndef N
#define N 65536
#endif
#define TPB 256

__global__ void scan_step(const int *in, int *out, int n, int offset)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (i >= offset)
            out[i] = in[i] + in[i - offset];
        else
            out[i] = in[i];
    }
}

__global__ void scan_exclusive_naive(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j;
    int s = 0;
    if (i >= n)
        return;
    for (j = 0; j < i; j++)
        s += in[j];
    out[i] = s;
}

int main(int argc, char **argv)
{
    int n = N;
    if (argc > 1)
        n = atoi(argv[1]);
    int *h_in = (int *)malloc(n * sizeof(int));
    int *h_inc = (int *)malloc(n * sizeof(int));
    int *h_exc = (int *)malloc(n * sizeof(int));
    int *d_a, *d_b, *d_exc;
    int i, err = 0;

    for (i = 0; i < n; i++)
        h_in[i] = (i * 7 + 3) % 10 - 2;

    cudaMalloc((void **)&d_a, n * sizeof(int));
    cudaMalloc((void **)&d_b, n * sizeof(int));
    cudaMalloc((void **)&d_exc, n * sizeof(int));
    cudaMemcpy(d_a, h_in, n * sizeof(int), cudaMemcpyHostToDevice);

    int blocks = (n + TPB - 1) / TPB;
    scan_exclusive_naive<<<blocks, TPB>>>(d_a, d_exc, n);
    for (int offset = 1; offset < n; offset *= 2) {
        scan_step<<<blocks, TPB>>>(d_a, d_b, n, offset);
        int *tmp = d_a;
        d_a = d_b;
        d_b = tmp;
    }
    cudaMemcpy(h_inc, d_a, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(h_exc, d_exc, n * sizeof(int), cudaMemcpyDeviceToHost);

    long run = 0;
    for (i = 0; i < n; i++) {
        if (h_exc[i] != run) {
            if (err < 5)
                printf("exclusive[%d] = %d, expected %ld\n", i, h_exc[i], run);
            err++;
        }
        run += h_in[i];
        if (h_inc[i] != run) {
            if (err < 5)
                printf("inclusive[%d] = %d, expected %ld\n", i, h_inc[i], run);
            err++;
        }
    }
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_exc);
    free(h_in);
    free(h_inc);
    free(h_exc);
    if (err) {
        printf("scan: FAILED\n");
        return 1;
    }
    printf("scan: PASSED\n");
    return 0;
}
