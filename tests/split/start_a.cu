// expect: split applies as row walks: an integer sum that starts at an element (each lane from 0,
// the start added once), then the row less the sum written
#ifndef ROWS
#define ROWS 200
#endif
#ifndef COLS
#define COLS 50
#endif
#pragma carve launch centre grid((ROWS+63)/64) block(64)
#pragma carve arg a = int[ROWS*COLS] : random(1, -100, 100)
#pragma carve arg base = int[ROWS] : random(2, -100, 100)
#pragma carve arg b = int[ROWS*COLS] : zeros out
#pragma carve arg rows = ROWS
#pragma carve arg cols = COLS
__global__ void centre(const int *a, const int *base, int *b, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        int s = base[r];
        for (int c = 0; c < cols; c++)
            s += a[r * cols + c];
        for (int c = 0; c < cols; c++)
            b[r * cols + c] = a[r * cols + c] * 3 - s;
    }
}
