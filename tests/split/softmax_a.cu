// expect: split applies as row walks: a max by fmaxf from the row's first element, a sum of exp,
// the write (bench/holdout4/softmax.cu's kernel with its helper inline, pointer rows)
#ifndef ROWS
#define ROWS 200
#endif
#ifndef COLS
#define COLS 77
#endif
#pragma carve launch softmax_rows grid((ROWS+127)/128) block(128)
#pragma carve arg x = float[ROWS*COLS] : random(1, -3, 3)
#pragma carve arg y = float[ROWS*COLS] : zeros out
#pragma carve arg rows = ROWS
#pragma carve arg cols = COLS
#pragma carve tol rel(1e-5)
__global__ void softmax_rows(const float *x, float *y, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        const float *in = x + (size_t)r * cols;
        float *out = y + (size_t)r * cols;
        float m = in[0];
        for (int c = 1; c < cols; ++c)
            m = fmaxf(m, in[c]);
        float sum = 0.0f;
        for (int c = 0; c < cols; ++c)
            sum += expf(in[c] - m);
        for (int c = 0; c < cols; ++c)
            out[c] = expf(in[c] - m) / sum;
    }
}
