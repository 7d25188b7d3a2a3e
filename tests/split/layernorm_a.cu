// expect: split applies as row walks: a mean, a variance, the write with gamma and beta
// (bench/holdout4/layernorm.cu's kernel)
#ifndef BATCH
#define BATCH 160
#endif
#ifndef HIDDEN
#define HIDDEN 96
#endif
#define EPS 1e-5f
#define THREADS_PER_BLOCK 64
#pragma carve launch layernorm_kernel grid((BATCH+63)/64) block(64)
#pragma carve arg x = float[BATCH*HIDDEN] : random(1, -2, 2)
#pragma carve arg gamma = float[HIDDEN] : random(2, 1, 1.1)
#pragma carve arg beta = float[HIDDEN] : random(3, 0, 0.1)
#pragma carve arg y = float[BATCH*HIDDEN] : zeros out
#pragma carve arg batch = BATCH
#pragma carve arg hidden = HIDDEN
__global__ void layernorm_kernel(const float *__restrict__ x, const float *__restrict__ gamma,
                                 const float *__restrict__ beta, float *__restrict__ y,
                                 int batch, int hidden)
{
    int row = blockIdx.x * THREADS_PER_BLOCK + threadIdx.x;
    if (row >= batch)
        return;
    float mean = 0.0f;
    for (int h = 0; h < hidden; h++)
        mean += x[row * hidden + h];
    mean /= hidden;
    float var = 0.0f;
    for (int h = 0; h < hidden; h++) {
        float d = x[row * hidden + h] - mean;
        var += d * d;
    }
    var /= hidden;
    float inv = rsqrtf(var + EPS);
    for (int h = 0; h < hidden; h++)
        y[row * hidden + h] = (x[row * hidden + h] - mean) * inv * gamma[h] + beta[h];
}
