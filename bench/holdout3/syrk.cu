/*
 * syrk.cu: symmetric rank-k update, C = alpha * A * A^T + beta * C,
 * A is N x M, C is N x N (the full matrix is computed, both triangles).
 * One thread per element of C; the sum is kept in C itself (global memory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef N
#define N 128
#endif
#ifndef M
#define M 128
#endif

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

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

void init_arrays(DATA_TYPE *alpha, DATA_TYPE *beta, DATA_TYPE *A, DATA_TYPE *C)
{
	int i, j;
	*alpha = 32412;
	*beta = 2123;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			A[i * M + j] = ((DATA_TYPE)((i * j) % 13 + 1)) / N;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			C[i * N + j] = ((DATA_TYPE)((i * j) % 7 + 2)) / N;
}

void syrk_cpu(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A, DATA_TYPE *C)
{
	int i, j, k;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			C[i * N + j] *= beta;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			for (k = 0; k < M; k++)
				C[i * N + j] += alpha * A[i * M + k] * A[j * M + k];
}

__global__ void syrk_kernel(DATA_TYPE ALPHA, DATA_TYPE BETA, DATA_TYPE *a, DATA_TYPE *c)
{
	int i, j, k;

	j = blockIdx.x * blockDim.x + threadIdx.x;
	i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i >= N || j >= N)
		return;

	c[i * N + j] *= BETA;
	for (k = 0; k < M; k++) {
		c[i * N + j] += ALPHA * a[i * M + k] * a[j * M + k];
	}
}

int compareResults(DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	int i, j, fail = 0;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			if (percentDiff(C[i * N + j], C_outputFromGpu[i * N + j]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void syrkCuda(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A, DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	DATA_TYPE *C_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N * M);
	cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N * M, cudaMemcpyHostToDevice);
	cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X))), (size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_Y)));

	t_start = rtclock();
	syrk_kernel<<<grid, block>>>(alpha, beta, A_gpu, C_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(C_outputFromGpu, C_gpu, sizeof(DATA_TYPE) * N * N, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(C_gpu);
}

int main()
{
	double t_start, t_end;
	DATA_TYPE alpha, beta;
	DATA_TYPE *A = (DATA_TYPE *)malloc(N * M * sizeof(DATA_TYPE));
	DATA_TYPE *C = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *C_outputFromGpu = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));

	init_arrays(&alpha, &beta, A, C);
	syrkCuda(alpha, beta, A, C, C_outputFromGpu);

	t_start = rtclock();
	syrk_cpu(alpha, beta, A, C);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(C, C_outputFromGpu);
	printf(fail ? "syrk: FAILED\n" : "syrk: PASSED\n");

	free(A);
	free(C);
	free(C_outputFromGpu);
	return fail ? 1 : 0;
}
