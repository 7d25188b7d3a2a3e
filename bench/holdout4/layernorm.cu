// layernorm: y = (x - mean) / sqrt(var + eps) * gamma + beta over each row of a
// BATCH x HIDDEN matrix; one thread per row, two passes over the row.  new/delete on the host.
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>

#ifndef BATCH
#define BATCH 512
#endif
#ifndef HIDDEN
#define HIDDEN 256
#endif
#define EPS 1e-5f
#define THREADS_PER_BLOCK 64

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

int main()
{
    const int batch = BATCH, hidden = HIDDEN;
    float *x = new float[batch * hidden];
    float *y = new float[batch * hidden];
    float *gamma = new float[hidden];
    float *beta = new float[hidden];
    for (int i = 0; i < batch * hidden; i++)
        x[i] = (float)((i * 7919) % 1000) / 250.0f - 2.0f;
    for (int h = 0; h < hidden; h++) {
        gamma[h] = 1.0f + 0.01f * (h % 10);
        beta[h] = 0.05f * (h % 3);
    }

    float *dx, *dg, *db, *dy;
    cudaMalloc(&dx, sizeof(float) * batch * hidden);
    cudaMalloc(&dy, sizeof(float) * batch * hidden);
    cudaMalloc(&dg, sizeof(float) * hidden);
    cudaMalloc(&db, sizeof(float) * hidden);
    cudaMemcpy(dx, x, sizeof(float) * batch * hidden, cudaMemcpyHostToDevice);
    cudaMemcpy(dg, gamma, sizeof(float) * hidden, cudaMemcpyHostToDevice);
    cudaMemcpy(db, beta, sizeof(float) * hidden, cudaMemcpyHostToDevice);

    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0);
    int blocks = (batch + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    layernorm_kernel<<<blocks, THREADS_PER_BLOCK>>>(dx, dg, db, dy, batch, hidden);
    cudaEventRecord(t1);
    cudaEventSynchronize(t1);
    float ms;
    cudaEventElapsedTime(&ms, t0, t1);
    printf("layernorm: kernel %.3f ms\n", ms);
    cudaMemcpy(y, dy, sizeof(float) * batch * hidden, cudaMemcpyDeviceToHost);

    int errors = 0;
    for (int r = 0; r < batch; r++) {
        double mean = 0.0, var = 0.0;
        for (int h = 0; h < hidden; h++)
            mean += x[r * hidden + h];
        mean /= hidden;
        for (int h = 0; h < hidden; h++)
            var += (x[r * hidden + h] - mean) * (x[r * hidden + h] - mean);
        var /= hidden;
        for (int h = 0; h < hidden; h++) {
            double want = (x[r * hidden + h] - mean) / sqrt(var + 1e-5) * gamma[h] + beta[h];
            if (fabs(y[r * hidden + h] - want) > 1e-3 * fabs(want) + 1e-4)
                errors++;
        }
    }
    cudaFree(dx); cudaFree(dy); cudaFree(dg); cudaFree(db);
    delete[] x;
    delete[] y;
    delete[] gamma;
    delete[] beta;
    if (errors) {
        printf("layernorm: %d errors\nlayernorm: FAILED\n", errors);
        return 1;
    }
    printf("layernorm: PASSED\n");
    return 0;
}
