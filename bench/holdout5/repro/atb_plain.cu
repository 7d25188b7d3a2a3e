// atb_plain: atb.cu with the kernels written for float instead of as templates (one change).
// atb: C = A^float * B, computed the way one often does it first: transpose A explicitly, then a
// plain row-times-column product. A is K x M, B is K x N, C is M x N (row-major).
// Templated kernels instantiated for float; C++ host with new/delete.
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>

#ifndef M
#define M 384
#endif
#ifndef N
#define N 256
#endif
#ifndef K
#define K 320
#endif


__global__ void transpose_kernel(const float *__restrict__ in, float *__restrict__ out, unsigned rows,
                                 unsigned cols)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[c * rows + r] = in[r * cols + c];
}


__global__ void matmul_kernel(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                              unsigned m, unsigned n, unsigned k)
{
    unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    const float *arow = a + row * k;
    float sum = 0;
    for (unsigned p = 0; p < k; ++p)
        sum += arow[p] * b[p * n + col];
    c[row * n + col] = sum;
}

int main()
{
    const unsigned m = M, n = N, k = K;
    float *A = new float[k * m];
    float *B = new float[k * n];
    float *C = new float[m * n];

    for (unsigned i = 0; i < k * m; ++i)
        A[i] = (float)((i * 13) % 17) / 17.0f - 0.5f;
    for (unsigned i = 0; i < k * n; ++i)
        B[i] = (float)((i * 7 + 5) % 23) / 23.0f;

    float *dA, *dAt, *dB, *dC;
    cudaMalloc(&dA, sizeof(float) * k * m);
    cudaMalloc(&dAt, sizeof(float) * m * k);
    cudaMalloc(&dB, sizeof(float) * k * n);
    cudaMalloc(&dC, sizeof(float) * m * n);
    cudaMemcpy(dA, A, sizeof(float) * k * m, cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B, sizeof(float) * k * n, cudaMemcpyHostToDevice);

    dim3 tb(16, 16);
    dim3 gt((m + tb.x - 1) / tb.x, (k + tb.y - 1) / tb.y);
    transpose_kernel<<<gt, tb>>>(dA, dAt, k, m);
    dim3 gm((n + tb.x - 1) / tb.x, (m + tb.y - 1) / tb.y);
    matmul_kernel<<<gm, tb>>>(dAt, dB, dC, m, n, k);
    cudaMemcpy(C, dC, sizeof(float) * m * n, cudaMemcpyDeviceToHost);

    unsigned bad = 0;
    for (unsigned i = 0; i < m; ++i)
        for (unsigned j = 0; j < n; ++j) {
            double ref = 0.0;
            for (unsigned p = 0; p < k; ++p)
                ref += (double)A[p * m + i] * B[p * n + j];
            double got = C[i * n + j];
            if (std::fabs(got - ref) > 1e-4 * std::fmax(std::fabs(ref), 1.0)) {
                if (bad < 5)
                    std::printf("C(%u,%u) = %f, reference %f\n", i, j, got, ref);
                ++bad;
            }
        }
    cudaFree(dA);
    cudaFree(dAt);
    cudaFree(dB);
    cudaFree(dC);
    delete[] A;
    delete[] B;
    delete[] C;
    std::printf("atb: %s\n", bad == 0 ? "PASSED" : "FAILED");
    return bad == 0 ? 0 : 1;
}
