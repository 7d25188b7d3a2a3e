/*
 * syr2k.cu: symmetric rank-2k update, C = alpha * (A * B^T + B * A^T) + beta * C,
 * A and B are N x M, C is N x N. One thread per element of C (16x16 blocks),
 * unsigned indices, the dot products accumulated in a register.
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

#define DIM_THREAD_BLOCK_X 16
#define DIM_THREAD_BLOCK_Y 16

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

void init_arrays(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			A[i * M + j] = ((DATA_TYPE)((i * j + 1) % 11)) / N;
			B[i * M + j] = ((DATA_TYPE)((i * (j + 2)) % 17 + 1)) / M;
		}
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			C[i * N + j] = ((DATA_TYPE)((i + j) % 9 + 1)) / N;
}

void syr2k_cpu(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j, k;
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			DATA_TYPE acc = 0;
			for (k = 0; k < M; k++)
				acc += A[i * M + k] * B[j * M + k] + B[i * M + k] * A[j * M + k];
			C[i * N + j] = alpha * acc + beta * C[i * N + j];
		}
}

__global__ void syr2k_kernel(unsigned int n, unsigned int m, DATA_TYPE alpha, DATA_TYPE beta,
                             const DATA_TYPE *A, const DATA_TYPE *B, DATA_TYPE *C)
{
	unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;

	if (row < n && col < n) {
		DATA_TYPE acc = 0;
		for (unsigned int k = 0; k < m; k++)
			acc += A[row * m + k] * B[col * m + k] + B[row * m + k] * A[col * m + k];
		C[row * n + col] = alpha * acc + beta * C[row * n + col];
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

void syr2kCuda(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu, *B_gpu, *C_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * N * M);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * N * M);
	cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * N * M, cudaMemcpyHostToDevice);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * N * M, cudaMemcpyHostToDevice);
	cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * N * N, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil(((float)N) / ((float)block.x))), (size_t)(ceil(((float)N) / ((float)block.y))));

	t_start = rtclock();
	syr2k_kernel<<<grid, block>>>(N, M, alpha, beta, A_gpu, B_gpu, C_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(C_outputFromGpu, C_gpu, sizeof(DATA_TYPE) * N * N, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(C_gpu);
}

int main(int argc, char **argv)
{
	double t_start, t_end;
	DATA_TYPE alpha = 1.5f, beta = 0.75f;
	DATA_TYPE *A = (DATA_TYPE *)malloc(N * M * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(N * M * sizeof(DATA_TYPE));
	DATA_TYPE *C = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *C_outputFromGpu = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));

	init_arrays(A, B, C);
	syr2kCuda(alpha, beta, A, B, C, C_outputFromGpu);

	t_start = rtclock();
	syr2k_cpu(alpha, beta, A, B, C);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(C, C_outputFromGpu);
	if (fail)
		printf("syr2k: FAILED\n");
	else
		printf("syr2k: PASSED\n");

	free(A);
	free(B);
	free(C);
	free(C_outputFromGpu);
	return fail != 0;
}
