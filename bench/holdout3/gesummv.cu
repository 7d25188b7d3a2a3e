/*
 * gesummv.cu: scalar, vector and matrix multiplication,
 * y = alpha * A * x + beta * B * x, with A and B N x N.
 * One thread per row (1-D grid), the row sums kept in registers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef N
#define N 1024
#endif

#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

#define ALPHA 43532.0f
#define BETA 12313.0f

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

void init(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *x)
{
	int i, j;
	for (i = 0; i < N; i++) {
		x[i] = ((DATA_TYPE)(i % 37)) / N + 0.5f;
		for (j = 0; j < N; j++) {
			A[i * N + j] = ((DATA_TYPE)((i * j) % 41)) / N;
			B[i * N + j] = ((DATA_TYPE)((i + 2 * j) % 31)) / N;
		}
	}
}

void gesummv_cpu(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *x, DATA_TYPE *y, DATA_TYPE *tmp)
{
	int i, j;
	for (i = 0; i < N; i++) {
		tmp[i] = 0;
		y[i] = 0;
		for (j = 0; j < N; j++) {
			tmp[i] = A[i * N + j] * x[j] + tmp[i];
			y[i] = B[i * N + j] * x[j] + y[i];
		}
		y[i] = ALPHA * tmp[i] + BETA * y[i];
	}
}

__global__ void gesummv_kernel(const DATA_TYPE *__restrict__ a, const DATA_TYPE *__restrict__ b,
                               const DATA_TYPE *__restrict__ x, DATA_TYPE *__restrict__ y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;

	DATA_TYPE sumA = 0.0f;
	DATA_TYPE sumB = 0.0f;
	for (int j = 0; j < n; j++) {
		sumA += a[i * n + j] * x[j];
		sumB += b[i * n + j] * x[j];
	}
	y[i] = ALPHA * sumA + BETA * sumB;
}

int compareResults(DATA_TYPE *y, DATA_TYPE *y_outputFromGpu)
{
	int i, fail = 0;
	for (i = 0; i < N; i++)
		if (percentDiff(y[i], y_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void gesummvCuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *x, DATA_TYPE *y_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu, *B_gpu, *x_gpu, *y_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMalloc((void **)&x_gpu, sizeof(DATA_TYPE) * N);
	cudaMalloc((void **)&y_gpu, sizeof(DATA_TYPE) * N);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);
	cudaMemcpy(x_gpu, x, sizeof(DATA_TYPE) * N, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((unsigned int)ceil(((float)N) / ((float)block.x)), 1);

	t_start = rtclock();
	gesummv_kernel<<<grid, block>>>(A_gpu, B_gpu, x_gpu, y_gpu, N);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(y_outputFromGpu, y_gpu, sizeof(DATA_TYPE) * N, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(x_gpu);
	cudaFree(y_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *x = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *y = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *tmp = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *y_outputFromGpu = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));

	init(A, B, x);
	gesummvCuda(A, B, x, y_outputFromGpu);

	t_start = rtclock();
	gesummv_cpu(A, B, x, y, tmp);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(y, y_outputFromGpu);
	if (fail == 0)
		printf("gesummv: PASSED\n");
	else
		printf("gesummv: FAILED (%d mismatches)\n", fail);

	free(A);
	free(B);
	free(x);
	free(y);
	free(tmp);
	free(y_outputFromGpu);
	return fail == 0 ? 0 : 1;
}
