// expect: split applies as row walks: an integer min by min() and a max by a comparison, the
// range written by lane 0 after the walks (exact: no tolerance)
#ifndef ROWS
#define ROWS 300
#endif
#ifndef COLS
#define COLS 70
#endif
#pragma carve launch rowrange grid((ROWS+63)/64) block(64)
#pragma carve arg a = int[ROWS*COLS] : random(1, -1000, 1000)
#pragma carve arg lo = int[ROWS] : zeros out
#pragma carve arg span = int[ROWS] : zeros out
#pragma carve arg rows = ROWS
#pragma carve arg cols = COLS
__global__ void rowrange(const int *a, int *lo, int *span, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        int mn = a[r * cols], mx = a[r * cols];
        for (int c = 1; c < cols; c++) {
            mn = min(mn, a[r * cols + c]);
            mx = a[r * cols + c] > mx ? a[r * cols + c] : mx;
        }
        lo[r] = mn;
        span[r] = mx - mn;
    }
}
