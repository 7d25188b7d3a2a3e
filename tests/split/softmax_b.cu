// expect: split applies as row walks: the max spelled `if (v > m) m = v;` from -FLT_MAX, the sum
// as `s = s + e`, an early return, the exp kept in a local, the inverse taken once between walks
#include <cfloat>
#ifndef ROWS
#define ROWS 200
#endif
#ifndef COLS
#define COLS 77
#endif
#pragma carve launch softmax2 grid((ROWS+63)/64) block(64)
#pragma carve arg x = float[ROWS*COLS] : random(1, -3, 3)
#pragma carve arg y = float[ROWS*COLS] : zeros out
#pragma carve arg rows = ROWS
#pragma carve arg cols = COLS
#pragma carve tol rel(1e-5)
__global__ void softmax2(const float *x, float *y, int rows, int cols)
{
    int r = threadIdx.x + blockDim.x * blockIdx.x;
    if (r >= rows)
        return;
    float m = -FLT_MAX;
    for (int c = 0; c < cols; c++) {
        float v = x[r * cols + c];
        if (v > m)
            m = v;
    }
    float s = 0.0f;
    for (int c = 0; c < cols; c++) {
        float e = expf(x[r * cols + c] - m);
        s = s + e;
    }
    float inv = 1.0f / s;
    for (int c = 0; c < cols; c++)
        y[r * cols + c] = expf(x[r * cols + c] - m) * inv;
}
