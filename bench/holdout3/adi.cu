/*
 * adi.cu: alternating direction implicit sweeps on an N x N grid.
 * Each time step first walks the rows (one thread per row i1, a sequential
 * forward elimination along i2, the last element, then back-substitution),
 * then the columns (one thread per column i2, walking i1). Six kernels per
 * step, the host loops over TSTEPS. X and B are updated in place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef TSTEPS
#define TSTEPS 4
#endif
#ifndef N
#define N 128
#endif

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

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

/* A small off-diagonal, B a dominant diagonal near 1, X the right-hand side. */
void init_array(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i, j;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			A[i * N + j] = ((DATA_TYPE)((i * (j + 1) + 1) % 11)) / 100.0f;
			B[i * N + j] = 1.0f + ((DATA_TYPE)((i * (j + 2) + 2) % 7)) / 14.0f;
			X[i * N + j] = 1.0f + ((DATA_TYPE)((i * (j + 3) + 3) % 13)) / 13.0f;
		}
}

void adi_cpu(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int t, i1, i2;
	for (t = 0; t < TSTEPS; t++) {
		for (i1 = 0; i1 < N; i1++) {
			for (i2 = 1; i2 < N; i2++) {
				X[i1 * N + i2] = X[i1 * N + i2] - X[i1 * N + (i2 - 1)] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
				B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
			}
			X[i1 * N + (N - 1)] = X[i1 * N + (N - 1)] / B[i1 * N + (N - 1)];
			for (i2 = N - 2; i2 >= 0; i2--)
				X[i1 * N + i2] = (X[i1 * N + i2] - X[i1 * N + (i2 + 1)] * A[i1 * N + (i2 + 1)]) / B[i1 * N + i2];
		}
		for (i2 = 0; i2 < N; i2++) {
			for (i1 = 1; i1 < N; i1++) {
				X[i1 * N + i2] = X[i1 * N + i2] - X[(i1 - 1) * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
				B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
			}
			X[(N - 1) * N + i2] = X[(N - 1) * N + i2] / B[(N - 1) * N + i2];
			for (i1 = N - 2; i1 >= 0; i1--)
				X[i1 * N + i2] = (X[i1 * N + i2] - X[(i1 + 1) * N + i2] * A[(i1 + 1) * N + i2]) / B[i1 * N + i2];
		}
	}
}

/* rows: forward elimination along i2, one thread per row i1 */
__global__ void adi_kernel1(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1, i2;
	i1 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i1 < N) {
		for (i2 = 1; i2 < N; i2++) {
			X[i1 * N + i2] = X[i1 * N + i2] - X[i1 * N + (i2 - 1)] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
			B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[i1 * N + (i2 - 1)];
		}
	}
}

/* rows: the last element */
__global__ void adi_kernel2(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i1 < N)
		X[i1 * N + (N - 1)] = X[i1 * N + (N - 1)] / B[i1 * N + (N - 1)];
}

/* rows: back-substitution along i2 */
__global__ void adi_kernel3(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1, i2;
	i1 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i1 < N) {
		for (i2 = N - 2; i2 >= 0; i2--)
			X[i1 * N + i2] = (X[i1 * N + i2] - X[i1 * N + (i2 + 1)] * A[i1 * N + (i2 + 1)]) / B[i1 * N + i2];
	}
}

/* columns: forward elimination along i1, one thread per column i2 */
__global__ void adi_kernel4(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1, i2;
	i2 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i2 < N) {
		for (i1 = 1; i1 < N; i1++) {
			X[i1 * N + i2] = X[i1 * N + i2] - X[(i1 - 1) * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
			B[i1 * N + i2] = B[i1 * N + i2] - A[i1 * N + i2] * A[i1 * N + i2] / B[(i1 - 1) * N + i2];
		}
	}
}

/* columns: the last element */
__global__ void adi_kernel5(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i2 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i2 < N)
		X[(N - 1) * N + i2] = X[(N - 1) * N + i2] / B[(N - 1) * N + i2];
}

/* columns: back-substitution along i1 */
__global__ void adi_kernel6(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X)
{
	int i1, i2;
	i2 = blockIdx.x * blockDim.x + threadIdx.x;

	if (i2 < N) {
		for (i1 = N - 2; i1 >= 0; i1--)
			X[i1 * N + i2] = (X[i1 * N + i2] - X[(i1 + 1) * N + i2] * A[(i1 + 1) * N + i2]) / B[i1 * N + i2];
	}
}

int compareResults(DATA_TYPE *B_cpu, DATA_TYPE *B_fromGpu, DATA_TYPE *X_cpu, DATA_TYPE *X_fromGpu)
{
	int i, j, fail = 0;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			if (percentDiff(B_cpu[i * N + j], B_fromGpu[i * N + j]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
			if (percentDiff(X_cpu[i * N + j], X_fromGpu[i * N + j]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
		}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void adiCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *X, DATA_TYPE *B_outputFromGpu, DATA_TYPE *X_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu, *B_gpu, *X_gpu;
	int t;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMalloc((void **)&X_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);
	cudaMemcpy(X_gpu, X, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)ceil(((float)N) / ((float)block.x)), 1);

	t_start = rtclock();
	for (t = 0; t < TSTEPS; t++) {
		adi_kernel1<<<grid, block>>>(A_gpu, B_gpu, X_gpu);
		adi_kernel2<<<grid, block>>>(A_gpu, B_gpu, X_gpu);
		adi_kernel3<<<grid, block>>>(A_gpu, B_gpu, X_gpu);
		adi_kernel4<<<grid, block>>>(A_gpu, B_gpu, X_gpu);
		adi_kernel5<<<grid, block>>>(A_gpu, B_gpu, X_gpu);
		adi_kernel6<<<grid, block>>>(A_gpu, B_gpu, X_gpu);
	}
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(B_outputFromGpu, B_gpu, sizeof(DATA_TYPE) * N * N, cudaMemcpyDeviceToHost);
	cudaMemcpy(X_outputFromGpu, X_gpu, sizeof(DATA_TYPE) * N * N, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(X_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *X = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *B_outputFromGpu = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *X_outputFromGpu = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));

	init_array(A, B, X);
	adiCuda(A, B, X, B_outputFromGpu, X_outputFromGpu);

	t_start = rtclock();
	adi_cpu(A, B, X);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(B, B_outputFromGpu, X, X_outputFromGpu);
	printf("adi: %s\n", fail ? "FAILED" : "PASSED");

	free(A);
	free(B);
	free(X);
	free(B_outputFromGpu);
	free(X_outputFromGpu);
	return fail ? 1 : 0;
}
