/* dgemv: y = alpha * A * x + beta * y in double precision, one thread per row, on managed
 * memory; then the squared norm of y summed into one scalar with atomicAdd.
 * usage: dgemv [rows [cols]] (defaults ROWS x COLS) */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#ifndef ROWS
#define ROWS 1024
#endif
#ifndef COLS
#define COLS 768
#endif

__global__ void dgemv_rows(size_t rows, size_t cols, double alpha, const double *A, const double *x,
                           double beta, double *y)
{
    size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t c;
    double dot = 0.0;

    if (r < rows) {
        for (c = 0; c < cols; c++)
            dot += A[r * cols + c] * x[c];
        y[r] = alpha * dot + beta * y[r];
    }
}

__global__ void sum_squares(const double *v, size_t n, double *result)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(result, v[i] * v[i]);
}

int main(int argc, char *argv[])
{
    size_t rows = ROWS, cols = COLS;
    size_t i, j;
    double alpha = 0.75, beta = 2.0;
    double *A, *x, *y, *norm2;
    double *y0;
    int errs = 0;

    if (argc > 1)
        rows = (size_t)atol(argv[1]);
    if (argc > 2)
        cols = (size_t)atol(argv[2]);

    cudaMallocManaged((void **)&A, rows * cols * sizeof(double), cudaMemAttachGlobal);
    cudaMallocManaged((void **)&x, cols * sizeof(double), cudaMemAttachGlobal);
    cudaMallocManaged((void **)&y, rows * sizeof(double), cudaMemAttachGlobal);
    cudaMallocManaged((void **)&norm2, sizeof(double), cudaMemAttachGlobal);
    y0 = (double *)malloc(rows * sizeof(double));

    for (i = 0; i < rows; i++) {
        for (j = 0; j < cols; j++)
            A[i * cols + j] = sin((double)(i * cols + j) * 0.001);
        y[i] = y0[i] = 1.0 / (double)(i + 1);
    }
    for (j = 0; j < cols; j++)
        x[j] = cos((double)j * 0.01);
    *norm2 = 0.0;

    unsigned threads = 128;
    unsigned blocks = (unsigned)((rows + threads - 1) / threads);
    dgemv_rows<<<blocks, threads>>>(rows, cols, alpha, A, x, beta, y);
    sum_squares<<<blocks, threads>>>(y, rows, norm2);
    cudaDeviceSynchronize();

    double nref = 0.0;
    for (i = 0; i < rows; i++) {
        double s = 0.0;
        for (j = 0; j < cols; j++)
            s += A[i * cols + j] * x[j];
        s = alpha * s + beta * y0[i];
        nref += s * s;
        if (fabs(y[i] - s) > 1e-10 * (fabs(s) + 1.0)) {
            if (errs < 5)
                printf("y[%zu] = %.15f, expected %.15f\n", i, y[i], s);
            errs++;
        }
    }
    if (fabs(*norm2 - nref) > 1e-9 * nref) {
        printf("norm2 = %.15f, expected %.15f\n", *norm2, nref);
        errs++;
    }
    cudaFree(A);
    cudaFree(x);
    cudaFree(y);
    cudaFree(norm2);
    free(y0);
    if (errs) {
        printf("dgemv: FAILED\n");
        return 1;
    }
    printf("dgemv: PASSED\n");
    return 0;
}
