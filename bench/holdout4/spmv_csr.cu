// spmv_csr: y = A x with A in CSR form (NROWS x NROWS, a band plus scattered entries,
// so rows have different lengths); one thread per row.  Rows may be given as argv[1].
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef NROWS
#define NROWS 4096
#endif
#define BLOCKSIZE 256

__global__ void spmv_csr_scalar(int num_rows, const int *row_ptr, const int *col_idx,
                                const float *vals, const float *x, float *y)
{
    int row = blockIdx.x * BLOCKSIZE + threadIdx.x;
    if (row < num_rows) {
        float dot = 0.0f;
        int begin = row_ptr[row];
        int end = row_ptr[row + 1];
        for (int jj = begin; jj < end; jj++)
            dot += vals[jj] * x[col_idx[jj]];
        y[row] = dot;
    }
}

int main(int argc, char *argv[])
{
    int n = NROWS;
    if (argc > 1)
        n = atoi(argv[1]);
    int i, jj, nnz = 0, cap = n * 12, wrong = 0;
    int *row_ptr = (int *)malloc((n + 1) * sizeof(int));
    int *col_idx = (int *)malloc(cap * sizeof(int));
    float *vals = (float *)malloc(cap * sizeof(float));
    float *x = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    unsigned seed = 12345u;

    // band of width 3 plus 0..7 pseudo-random extra entries per row (LCG), columns ascending
    // in the band only; duplicates are allowed (they just add).
    for (i = 0; i < n; i++) {
        row_ptr[i] = nnz;
        for (int d = -1; d <= 1; d++) {
            if (i + d >= 0 && i + d < n) {
                col_idx[nnz] = i + d;
                vals[nnz] = d == 0 ? 4.0f : -1.0f;
                nnz++;
            }
        }
        seed = seed * 1103515245u + 12345u;
        int extra = (seed >> 16) % 8;
        while (extra-- > 0) {
            seed = seed * 1103515245u + 12345u;
            col_idx[nnz] = (int)((seed >> 8) % (unsigned)n);
            vals[nnz] = 0.125f * (float)((seed >> 4) % 9);
            nnz++;
        }
    }
    row_ptr[n] = nnz;
    for (i = 0; i < n; i++)
        x[i] = 1.0f + (float)(i % 17) / 17.0f;

    int *d_ptr, *d_col;
    float *d_val, *d_x, *d_y;
    cudaMalloc((void **)&d_ptr, (n + 1) * sizeof(int));
    cudaMalloc((void **)&d_col, nnz * sizeof(int));
    cudaMalloc((void **)&d_val, nnz * sizeof(float));
    cudaMalloc((void **)&d_x, n * sizeof(float));
    cudaMalloc((void **)&d_y, n * sizeof(float));
    cudaMemcpy(d_ptr, row_ptr, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_col, col_idx, nnz * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_val, vals, nnz * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice);

    spmv_csr_scalar<<<(n + BLOCKSIZE - 1) / BLOCKSIZE, BLOCKSIZE>>>(n, d_ptr, d_col, d_val, d_x, d_y);
    cudaMemcpy(y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost);

    for (i = 0; i < n; i++) {
        float ref = 0.0f;
        for (jj = row_ptr[i]; jj < row_ptr[i + 1]; jj++)
            ref += vals[jj] * x[col_idx[jj]];
        if (fabsf(y[i] - ref) > 1e-5f * fabsf(ref) + 1e-5f)
            wrong++;
    }
    printf("spmv_csr: n = %d, nnz = %d\n", n, nnz);
    cudaFree(d_ptr); cudaFree(d_col); cudaFree(d_val); cudaFree(d_x); cudaFree(d_y);
    free(row_ptr); free(col_idx); free(vals); free(x); free(y);
    if (wrong) {
        printf("spmv_csr: %d rows wrong\nspmv_csr: FAILED\n", wrong);
        return 1;
    }
    printf("spmv_csr: PASSED\n");
    return 0;
}
