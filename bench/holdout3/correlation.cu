/*
 * correlation.cu: correlation matrix of M variables observed N times.
 * data is N x M (row i = one observation). Four kernels:
 *   mean_kernel:   mean[j]   (one thread per column j, sum kept in mean[j])
 *   std_kernel:    stddev[j] (one thread per column j)
 *   reduce_kernel: data[i][j] = (data[i][j] - mean[j]) / (sqrt(N) * stddev[j])  (32x8 blocks)
 *   corr_kernel:   symmat[j1][j2] = symmat[j2][j1] = sum_i data[i][j1] * data[i][j2]
 *                  for j2 > j1, symmat[j1][j1] = 1 (one thread per column j1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef M
#define M 128
#endif
#ifndef N
#define N 128
#endif

#define FLOAT_N ((DATA_TYPE)N)
#define EPS 0.005f

#define DIM_THREAD_BLOCK_KERNEL_1_X 256
#define DIM_THREAD_BLOCK_KERNEL_1_Y 1
#define DIM_THREAD_BLOCK_KERNEL_2_X 256
#define DIM_THREAD_BLOCK_KERNEL_2_Y 1
#define DIM_THREAD_BLOCK_KERNEL_3_X 32
#define DIM_THREAD_BLOCK_KERNEL_3_Y 8
#define DIM_THREAD_BLOCK_KERNEL_4_X 256
#define DIM_THREAD_BLOCK_KERNEL_4_Y 1

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

void init_arrays(DATA_TYPE *data)
{
	int i, j;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++)
			data[i * M + j] = ((DATA_TYPE)((i * (j + 1)) % 31)) / 31.0f + ((DATA_TYPE)i) / N * (DATA_TYPE)(j % 3 + 1);
}

void correlation_cpu(DATA_TYPE *data, DATA_TYPE *mean, DATA_TYPE *stddev, DATA_TYPE *symmat)
{
	int i, j, j1, j2;

	for (j = 0; j < M; j++) {
		mean[j] = 0.0f;
		for (i = 0; i < N; i++)
			mean[j] += data[i * M + j];
		mean[j] /= FLOAT_N;
	}
	for (j = 0; j < M; j++) {
		stddev[j] = 0.0f;
		for (i = 0; i < N; i++)
			stddev[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
		stddev[j] /= FLOAT_N;
		stddev[j] = sqrtf(stddev[j]);
		stddev[j] = stddev[j] <= EPS ? 1.0f : stddev[j];
	}
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			data[i * M + j] -= mean[j];
			data[i * M + j] /= sqrtf(FLOAT_N) * stddev[j];
		}
	for (j1 = 0; j1 < M; j1++) {
		symmat[j1 * M + j1] = 1.0f;
		for (j2 = j1 + 1; j2 < M; j2++) {
			symmat[j1 * M + j2] = 0.0f;
			for (i = 0; i < N; i++)
				symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
			symmat[j2 * M + j1] = symmat[j1 * M + j2];
		}
	}
}

__global__ void mean_kernel(DATA_TYPE *mean, DATA_TYPE *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < M) {
		mean[j] = 0.0f;
		int i;
		for (i = 0; i < N; i++)
			mean[j] += data[i * M + j];
		mean[j] /= FLOAT_N;
	}
}

__global__ void std_kernel(DATA_TYPE *mean, DATA_TYPE *std, DATA_TYPE *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if (j < M) {
		std[j] = 0.0f;
		int i;
		for (i = 0; i < N; i++)
			std[j] += (data[i * M + j] - mean[j]) * (data[i * M + j] - mean[j]);
		std[j] /= FLOAT_N;
		std[j] = sqrtf(std[j]);
		if (std[j] <= EPS)
			std[j] = 1.0f;
	}
}

__global__ void reduce_kernel(DATA_TYPE *mean, DATA_TYPE *std, DATA_TYPE *data)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < N) && (j < M)) {
		data[i * M + j] -= mean[j];
		data[i * M + j] /= sqrtf(FLOAT_N) * std[j];
	}
}

__global__ void corr_kernel(DATA_TYPE *symmat, DATA_TYPE *data)
{
	int i, j1, j2;

	j1 = blockIdx.x * blockDim.x + threadIdx.x;
	if (j1 >= M)
		return;

	symmat[j1 * M + j1] = 1.0f;
	for (j2 = j1 + 1; j2 < M; j2++) {
		symmat[j1 * M + j2] = 0.0f;
		for (i = 0; i < N; i++)
			symmat[j1 * M + j2] += data[i * M + j1] * data[i * M + j2];
		symmat[j2 * M + j1] = symmat[j1 * M + j2];
	}
}

int compareResults(DATA_TYPE *symmat, DATA_TYPE *symmat_outputFromGpu)
{
	int i, j, fail = 0;
	for (i = 0; i < M; i++)
		for (j = 0; j < M; j++)
			if (percentDiff(symmat[i * M + j], symmat_outputFromGpu[i * M + j]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void correlationCuda(DATA_TYPE *data, DATA_TYPE *symmat_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *data_gpu, *stddev_gpu, *mean_gpu, *symmat_gpu;

	cudaMalloc((void **)&data_gpu, sizeof(DATA_TYPE) * N * M);
	cudaMalloc((void **)&symmat_gpu, sizeof(DATA_TYPE) * M * M);
	cudaMalloc((void **)&stddev_gpu, sizeof(DATA_TYPE) * M);
	cudaMalloc((void **)&mean_gpu, sizeof(DATA_TYPE) * M);
	cudaMemcpy(data_gpu, data, sizeof(DATA_TYPE) * N * M, cudaMemcpyHostToDevice);
	cudaMemset(symmat_gpu, 0, sizeof(DATA_TYPE) * M * M);

	dim3 block1(DIM_THREAD_BLOCK_KERNEL_1_X, DIM_THREAD_BLOCK_KERNEL_1_Y);
	dim3 grid1((size_t)(ceil(((float)M) / ((float)DIM_THREAD_BLOCK_KERNEL_1_X))), 1);
	dim3 block2(DIM_THREAD_BLOCK_KERNEL_2_X, DIM_THREAD_BLOCK_KERNEL_2_Y);
	dim3 grid2((size_t)(ceil(((float)M) / ((float)DIM_THREAD_BLOCK_KERNEL_2_X))), 1);
	dim3 block3(DIM_THREAD_BLOCK_KERNEL_3_X, DIM_THREAD_BLOCK_KERNEL_3_Y);
	dim3 grid3((size_t)(ceil(((float)M) / ((float)DIM_THREAD_BLOCK_KERNEL_3_X))), (size_t)(ceil(((float)N) / ((float)DIM_THREAD_BLOCK_KERNEL_3_Y))));
	dim3 block4(DIM_THREAD_BLOCK_KERNEL_4_X, DIM_THREAD_BLOCK_KERNEL_4_Y);
	dim3 grid4((size_t)(ceil(((float)M) / ((float)DIM_THREAD_BLOCK_KERNEL_4_X))), 1);

	t_start = rtclock();
	mean_kernel<<<grid1, block1>>>(mean_gpu, data_gpu);
	cudaDeviceSynchronize();
	std_kernel<<<grid2, block2>>>(mean_gpu, stddev_gpu, data_gpu);
	cudaDeviceSynchronize();
	reduce_kernel<<<grid3, block3>>>(mean_gpu, stddev_gpu, data_gpu);
	cudaDeviceSynchronize();
	corr_kernel<<<grid4, block4>>>(symmat_gpu, data_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(symmat_outputFromGpu, symmat_gpu, sizeof(DATA_TYPE) * M * M, cudaMemcpyDeviceToHost);
	cudaFree(data_gpu);
	cudaFree(symmat_gpu);
	cudaFree(stddev_gpu);
	cudaFree(mean_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *data = (DATA_TYPE *)malloc(N * M * sizeof(DATA_TYPE));
	DATA_TYPE *mean = (DATA_TYPE *)malloc(M * sizeof(DATA_TYPE));
	DATA_TYPE *stddev = (DATA_TYPE *)malloc(M * sizeof(DATA_TYPE));
	DATA_TYPE *symmat = (DATA_TYPE *)malloc(M * M * sizeof(DATA_TYPE));
	DATA_TYPE *symmat_outputFromGpu = (DATA_TYPE *)malloc(M * M * sizeof(DATA_TYPE));

	init_arrays(data);
	correlationCuda(data, symmat_outputFromGpu);

	t_start = rtclock();
	correlation_cpu(data, mean, stddev, symmat);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(symmat, symmat_outputFromGpu);
	printf("correlation: %s\n", fail ? "FAILED" : "PASSED");

	free(data);
	free(mean);
	free(stddev);
	free(symmat);
	free(symmat_outputFromGpu);
	return fail ? 1 : 0;
}
