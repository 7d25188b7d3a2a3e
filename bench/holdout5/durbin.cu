// durbin: Levinson-Durbin recursion for a Toeplitz system (PolyBench's durbin), double precision.
// The recursion over k is serial; each step is three launches: the scalar part in one thread
// (alpha, beta kept in device memory), the update of z in parallel, the copy back into y.
#include <cstdio>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#ifndef N
#define N 512
#endif

// ab[0] = alpha, ab[1] = beta
__global__ void durbin_scalar(const double *r, const double *y, double *ab, int k)
{
    double alpha = ab[0];
    double beta = (1.0 - alpha * alpha) * ab[1];
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += r[k - i - 1] * y[i];
    ab[0] = -(r[k] + sum) / beta;
    ab[1] = beta;
}

__global__ void durbin_update(const double *y, double *z, const double *ab, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < k)
        z[i] = y[i] + ab[0] * y[k - i - 1];
}

__global__ void durbin_copy(double *y, const double *z, const double *ab, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < k)
        y[i] = z[i];
    else if (i == k)
        y[k] = ab[0];
}

static void durbin_ref(int n, const std::vector<double> &r, std::vector<double> &y)
{
    std::vector<double> z(n);
    double alpha = -r[0], beta = 1.0;
    y[0] = -r[0];
    for (int k = 1; k < n; k++) {
        beta = (1.0 - alpha * alpha) * beta;
        double sum = 0.0;
        for (int i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (int i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1];
        for (int i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }
}

int main()
{
    const int n = N;
    const int threads = 256;
    std::vector<double> r(n), y(n, 0.0), ref(n, 0.0);
    // autocorrelations of a mixture of two AR(1) processes: the Toeplitz matrix is positive definite
    for (int i = 0; i < n; i++)
        r[i] = 0.6 * std::pow(0.7, i + 1) + 0.4 * std::pow(-0.5, i + 1);

    double *d_r, *d_y, *d_z, *d_ab;
    cudaMalloc(&d_r, n * sizeof(double));
    cudaMalloc(&d_y, n * sizeof(double));
    cudaMalloc(&d_z, n * sizeof(double));
    cudaMalloc(&d_ab, 2 * sizeof(double));
    y[0] = -r[0];
    double ab[2] = {-r[0], 1.0};
    cudaMemcpy(d_r, r.data(), n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(d_y, y.data(), n * sizeof(double), cudaMemcpyHostToDevice);
    cudaMemcpy(d_ab, ab, 2 * sizeof(double), cudaMemcpyHostToDevice);

    for (int k = 1; k < n; k++) {
        int blocks = (k + 1 + threads - 1) / threads;
        durbin_scalar<<<1, 1>>>(d_r, d_y, d_ab, k);
        durbin_update<<<blocks, threads>>>(d_y, d_z, d_ab, k);
        durbin_copy<<<blocks, threads>>>(d_y, d_z, d_ab, k);
    }
    cudaMemcpy(y.data(), d_y, n * sizeof(double), cudaMemcpyDeviceToHost);

    durbin_ref(n, r, ref);
    int wrong = 0;
    for (int i = 0; i < n; i++) {
        if (std::fabs(y[i] - ref[i]) > 1e-9 * std::fmax(std::fabs(ref[i]), 1e-3)) {
            if (wrong < 5)
                std::printf("y[%d] = %.15g, expected %.15g\n", i, y[i], ref[i]);
            wrong++;
        }
    }
    cudaFree(d_r);
    cudaFree(d_y);
    cudaFree(d_z);
    cudaFree(d_ab);
    if (wrong) {
        std::printf("durbin: FAILED (%d of %d)\n", wrong, n);
        return 1;
    }
    std::printf("durbin: PASSED\n");
    return 0;
}
