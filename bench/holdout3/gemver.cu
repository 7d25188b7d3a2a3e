/*
 * gemver.cu: vector multiplication and matrix addition (BLAS-like GEMVER):
 *   A = A + u1 * v1^T + u2 * v2^T      (kernel1, one thread per element, 32x8 blocks)
 *   x = x + beta * A^T * y + z         (kernel2, one thread per i, sum kept in x[i])
 *   w = w + alpha * A * x              (kernel3, one thread per i, size_t indices,
 *                                       sum in a register)
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef N
#define N 256
#endif

#define DIM_THREAD_BLOCK_KERNEL_1_X 32
#define DIM_THREAD_BLOCK_KERNEL_1_Y 8
#define DIM_THREAD_BLOCK_KERNEL_2_X 256
#define DIM_THREAD_BLOCK_KERNEL_2_Y 1
#define DIM_THREAD_BLOCK_KERNEL_3_X 256
#define DIM_THREAD_BLOCK_KERNEL_3_Y 1

typedef float DATA_TYPE;

double rtclock()
{
	struct timeval Tp;
	int stat = gettimeofday(&Tp, NULL);
	if (stat != 0) printf("Error return from gettimeofday: %d", stat);
	return (Tp.tv_sec + Tp.tv_usec * 1.0e-6);
}

float absVal(float a)
{
	if (a < 0) return (a * -1);
	return a;
}

float percentDiff(double val1, double val2)
{
	if ((absVal(val1) < 0.01) && (absVal(val2) < 0.01)) return 0.0f;
	return 100.0f * (absVal(absVal(val1 - val2) / absVal(val1 + 0.00000001f)));
}

void init(DATA_TYPE *A, DATA_TYPE *u1, DATA_TYPE *u2, DATA_TYPE *v1, DATA_TYPE *v2,
          DATA_TYPE *w, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *z)
{
	int i, j;
	for (i = 0; i < N; i++) {
		u1[i] = (DATA_TYPE)(i % 5 + 1) / 5.0f;
		u2[i] = (DATA_TYPE)(i % 7 + 1) / 14.0f;
		v1[i] = (DATA_TYPE)(i % 3 + 1) / 6.0f;
		v2[i] = (DATA_TYPE)(i % 11 + 1) / 22.0f;
		y[i] = (DATA_TYPE)(i % 13 + 1) / 13.0f;
		z[i] = (DATA_TYPE)(i % 9 + 1) / 9.0f;
		x[i] = 0.0f;
		w[i] = 0.0f;
		for (j = 0; j < N; j++)
			A[i * N + j] = ((DATA_TYPE)((i * j) % 17)) / N;
	}
}

void gemver_cpu(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A, DATA_TYPE *u1, DATA_TYPE *u2, DATA_TYPE *v1,
                DATA_TYPE *v2, DATA_TYPE *w, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *z)
{
	int i, j;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			A[i * N + j] = A[i * N + j] + u1[i] * v1[j] + u2[i] * v2[j];
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			x[i] = x[i] + beta * A[j * N + i] * y[j];
	for (i = 0; i < N; i++)
		x[i] = x[i] + z[i];
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			w[i] = w[i] + alpha * A[i * N + j] * x[j];
}

__global__ void gemver_kernel1(DATA_TYPE *a, DATA_TYPE *v1, DATA_TYPE *v2, DATA_TYPE *u1, DATA_TYPE *u2)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < N) && (j < N))
		a[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

__global__ void gemver_kernel2(DATA_TYPE beta, DATA_TYPE *a, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *z)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N) {
		int j;
		for (j = 0; j < N; j++)
			x[i] += beta * a[j * N + i] * y[j];
		x[i] += z[i];
	}
}

__global__ void gemver_kernel3(DATA_TYPE alpha, const DATA_TYPE *a, const DATA_TYPE *x, DATA_TYPE *w)
{
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N) {
		DATA_TYPE acc = w[i];
		for (size_t j = 0; j < N; j++)
			acc += alpha * a[i * N + j] * x[j];
		w[i] = acc;
	}
}

int compareResults(DATA_TYPE *w1, DATA_TYPE *w2, DATA_TYPE *x1, DATA_TYPE *x2)
{
	int i, fail = 0;
	for (i = 0; i < N; i++) {
		if (percentDiff(w1[i], w2[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
		if (percentDiff(x1[i], x2[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void gemverCuda(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A, DATA_TYPE *u1, DATA_TYPE *u2, DATA_TYPE *v1,
                DATA_TYPE *v2, DATA_TYPE *w, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *z,
                DATA_TYPE *w_outputFromGpu, DATA_TYPE *x_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu, *x_gpu, *y_gpu, *z_gpu, *v1_gpu, *v2_gpu, *u1_gpu, *u2_gpu, *w_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMalloc((void **)&x_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&y_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&z_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&w_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&v1_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&v2_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&u1_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&u2_gpu, sizeof(DATA_TYPE) * N);

	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);
	cudaMemcpy(x_gpu, x, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);
	cudaMemcpy(y_gpu, y, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);
	cudaMemcpy(z_gpu, z, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);
	cudaMemcpy(w_gpu, w, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);
	cudaMemcpy(v1_gpu, v1, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);
	cudaMemcpy(v2_gpu, v2, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);
	cudaMemcpy(u1_gpu, u1, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);
	cudaMemcpy(u2_gpu, u2, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);

	dim3 block1(DIM_THREAD_BLOCK_KERNEL_1_X, DIM_THREAD_BLOCK_KERNEL_1_Y);
	dim3 grid1((size_t)(ceil(((float)N) / ((float)DIM_THREAD_BLOCK_KERNEL_1_X))), (size_t)(ceil(((float)N) / ((float)DIM_THREAD_BLOCK_KERNEL_1_Y))));
	dim3 block2(DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y);
	dim3 grid2((size_t)(ceil(((float)N) / ((float)DIM_THREAD_BLOCK_KERNEL_2_X))), 1);
	dim3 block3(DIM_THREAD_BLOCK_KERNEL_3_X, DIM_THREAD_BLOCK_KERNEL_3_Y);
	dim3 grid3((size_t)(ceil(((float)N) / ((float)DIM_THREAD_BLOCK_KERNEL_3_X))), 1);

	t_start = rtclock();
	gemver_kernel1<<<grid1, block1>>>(A_gpu, v1_gpu, v2_gpu, u1_gpu, u2_gpu);
	cudaDeviceSynchronize();
	gemver_kernel2<<<grid2, block2>>>(beta, A_gpu, x_gpu, y_gpu, z_gpu);
	cudaDeviceSynchronize();
	gemver_kernel3<<<grid3, block3>>>(alpha, A_gpu, x_gpu, w_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(w_outputFromGpu, w_gpu, sizeof(DATA_TYPE) * N, cudaMemcpyDeviceToHost);
	cudaMemcpy(x_outputFromGpu, x_gpu, sizeof(DATA_TYPE) * N, cudaMemcpyDeviceToHost);

	cudaFree(A_gpu);
	cudaFree(x_gpu);
	cudaFree(y_gpu);
	cudaFree(z_gpu);
	cudaFree(w_gpu);
	cudaFree(v1_gpu);
	cudaFree(v2_gpu);
	cudaFree(u1_gpu);
	cudaFree(u2_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE alpha = 43532.0f / N;
	DATA_TYPE beta = 12313.0f / N;
	DATA_TYPE *A = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *u1 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *u2 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *v1 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *v2 = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *w = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *x = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *y = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *z = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *w_outputFromGpu = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *x_outputFromGpu = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));

	init(A, u1, u2, v1, v2, w, x, y, z);
	gemverCuda(alpha, beta, A, u1, u2, v1, v2, w, x, y, z, w_outputFromGpu, x_outputFromGpu);

	t_start = rtclock();
	gemver_cpu(alpha, beta, A, u1, u2, v1, v2, w, x, y, z);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(w, w_outputFromGpu, x, x_outputFromGpu);
	printf("gemver: %s\n", fail ? "FAILED" : "PASSED");

	free(A);
	free(u1);
	free(u2);
	free(v1);
	free(v2);
	free(w);
	free(x);
	free(y);
	free(z);
	free(w_outputFromGpu);
	free(x_outputFromGpu);
	return fail ? 1 : 0;
}
