// softmax: row-wise softmax of a ROWS x COLS matrix, one thread per row,
// numerically stable (subtract the row max).  C++ host: a small struct describes the problem.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#ifndef ROWS
#define ROWS 1024
#endif
#ifndef COLS
#define COLS 256
#endif

struct Problem {
    int rows;
    int cols;
    size_t bytes() const { return (size_t)rows * cols * sizeof(float); }
};

__device__ float row_max(const float *row, int cols)
{
    float m = row[0];
    for (int c = 1; c < cols; ++c)
        m = fmaxf(m, row[c]);
    return m;
}

__global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float *in = x + (size_t)r * cols;
        float *out = y + (size_t)r * cols;
        float m = row_max(in, cols);
        float sum = 0.0f;
        for (int c = 0; c < cols; ++c)
            sum += expf(in[c] - m);
        for (int c = 0; c < cols; ++c)
            out[c] = expf(in[c] - m) / sum;
    }
}

int main()
{
    Problem p;
    p.rows = ROWS;
    p.cols = COLS;
    float *x = (float *)malloc(p.bytes());
    float *y = (float *)malloc(p.bytes());
    for (int r = 0; r < p.rows; ++r)
        for (int c = 0; c < p.cols; ++c)
            x[r * p.cols + c] = (float)((r * 37 + c * 11) % 101) / 20.0f - 2.5f;

    float *dx, *dy;
    cudaMalloc(&dx, p.bytes());
    cudaMalloc(&dy, p.bytes());
    cudaMemcpy(dx, x, p.bytes(), cudaMemcpyHostToDevice);
    const int threads = 128;
    softmax_rows<<<(p.rows + threads - 1) / threads, threads>>>(dx, dy, p.rows, p.cols);
    cudaMemcpy(y, dy, p.bytes(), cudaMemcpyDeviceToHost);

    int bad = 0;
    for (int r = 0; r < p.rows; ++r) {
        double m = x[r * p.cols];
        for (int c = 1; c < p.cols; ++c)
            m = fmax(m, (double)x[r * p.cols + c]);
        double s = 0.0;
        for (int c = 0; c < p.cols; ++c)
            s += exp((double)x[r * p.cols + c] - m);
        for (int c = 0; c < p.cols; ++c) {
            double want = exp((double)x[r * p.cols + c] - m) / s;
            if (fabs(y[r * p.cols + c] - want) > 1e-4 * want + 1e-7)
                bad++;
        }
    }
    cudaFree(dx);
    cudaFree(dy);
    free(x);
    free(y);
    if (bad != 0) {
        printf("softmax: %d wrong\nsoftmax: FAILED\n", bad);
        return 1;
    }
    printf("softmax: PASSED\n");
    return 0;
}
