// expect: split applies as row walks: a float min spelled `m = v < m ? v : m`, then each element
// less the min written (a walk that reads the reduction of the one before)
#ifndef ROWS
#define ROWS 300
#endif
#ifndef COLS
#define COLS 70
#endif
#pragma carve launch shift grid((ROWS+127)/128) block(128)
#pragma carve arg x = float[ROWS*COLS] : random(2, -5, 5)
#pragma carve arg y = float[ROWS*COLS] : zeros out
#pragma carve arg rows = ROWS
#pragma carve arg cols = COLS
__global__ void shift(const float *x, float *y, int rows, int cols)
{
    int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r >= rows)
        return;
    float m = INFINITY;
    for (int c = 0; c < cols; c++) {
        float v = x[r * cols + c];
        m = v < m ? v : m;
    }
    for (int c = 0; c < cols; c++)
        y[r * cols + c] = x[r * cols + c] - m;
}
