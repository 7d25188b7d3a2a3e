// expect: split applies as row walks: a float sum assigned its start between the walks (`t =
// base[r];` after the max), stepping by 2, the write with a local
#ifndef ROWS
#define ROWS 200
#endif
#ifndef COLS
#define COLS 50
#endif
#pragma carve launch centre2 grid((ROWS+63)/64) block(64)
#pragma carve arg a = float[ROWS*COLS] : random(1, -1, 1)
#pragma carve arg base = float[ROWS] : random(2, -1, 1)
#pragma carve arg b = float[ROWS*COLS] : zeros out
#pragma carve arg rows = ROWS
#pragma carve arg cols = COLS
#pragma carve tol rel(1e-5)
__global__ void centre2(const float *a, const float *base, float *b, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float mx = fabsf(a[r * cols]);
    for (int c = 0; c < cols; c++)
        mx = fmaxf(fabsf(a[r * cols + c]), mx);
    float t = 0.0f;
    t = base[r];
    for (int c = 0; c < cols; c += 2)
        t += a[r * cols + c];
    for (int c = 0; c < cols; c++) {
        float v = a[r * cols + c] / mx;
        b[r * cols + c] = v - t;
    }
}
