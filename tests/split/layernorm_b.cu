// expect: split applies as row walks: the sum and the sum of squares in one walk (two
// accumulators), then the write; a guard block instead of a return, the row as a pointer
#ifndef BATCH
#define BATCH 160
#endif
#ifndef HIDDEN
#define HIDDEN 96
#endif
#pragma carve launch ln2 grid((BATCH+127)/128) block(128)
#pragma carve arg x = float[BATCH*HIDDEN] : random(4, -2, 2)
#pragma carve arg y = float[BATCH*HIDDEN] : zeros out
#pragma carve arg batch = BATCH
#pragma carve arg hidden = HIDDEN
#pragma carve tol rel(1e-4)
__global__ void ln2(const float *x, float *y, int batch, int hidden)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < batch) {
        const float *xr = x + row * hidden;
        float s = 0.0f, sq = 0.0f;
        for (int h = 0; h < hidden; ++h) {
            float t = xr[h];
            s += t;
            sq += t * t;
        }
        float mean = s / hidden;
        float var = sq / hidden - mean * mean;
        float inv = 1.0f / sqrtf(var + 1e-5f);
        for (int h = 0; h < hidden; ++h)
            y[row * hidden + h] = (xr[h] - mean) * inv;
    }
}
