/*
 * conv3d.cu: 3-D convolution with a 3x3x3 stencil, its 27 weights written out
 * as constants. B[i][j][k] for the interior points; the border of B stays 0.
 * The kernel computes one i-plane (one thread per (j,k) point, 32x4 blocks);
 * the host loops over the planes i = 1 .. NI-2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef NI
#define NI 64
#endif
#ifndef NJ
#define NJ 64
#endif
#ifndef NK
#define NK 64
#endif

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 4

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

void init(DATA_TYPE *A)
{
	int i, j, k;
	for (i = 0; i < NI; ++i)
		for (j = 0; j < NJ; ++j)
			for (k = 0; k < NK; ++k)
				A[i * (NJ * NK) + j * NK + k] = (DATA_TYPE)((i % 12 + 2 * (j % 7) + 3 * (k % 13))) / 10.0f;
}

void conv3D(DATA_TYPE *A, DATA_TYPE *B)
{
	int i, j, k;
	for (i = 1; i < NI - 1; ++i)
		for (j = 1; j < NJ - 1; ++j)
			for (k = 1; k < NK - 1; ++k)
				B[i * (NJ * NK) + j * NK + k] =
					  0.01f * A[(i - 1) * (NJ * NK) + (j - 1) * NK + (k - 1)]
					+ 0.02f * A[(i - 1) * (NJ * NK) + (j - 1) * NK + (k)]
					+ 0.03f * A[(i - 1) * (NJ * NK) + (j - 1) * NK + (k + 1)]
					+ 0.04f * A[(i - 1) * (NJ * NK) + (j) * NK + (k - 1)]
					+ 0.05f * A[(i - 1) * (NJ * NK) + (j) * NK + (k)]
					+ 0.06f * A[(i - 1) * (NJ * NK) + (j) * NK + (k + 1)]
					+ 0.07f * A[(i - 1) * (NJ * NK) + (j + 1) * NK + (k - 1)]
					+ 0.08f * A[(i - 1) * (NJ * NK) + (j + 1) * NK + (k)]
					+ 0.09f * A[(i - 1) * (NJ * NK) + (j + 1) * NK + (k + 1)]
					+ 0.10f * A[(i) * (NJ * NK) + (j - 1) * NK + (k - 1)]
					+ 0.11f * A[(i) * (NJ * NK) + (j - 1) * NK + (k)]
					+ 0.12f * A[(i) * (NJ * NK) + (j - 1) * NK + (k + 1)]
					+ 0.13f * A[(i) * (NJ * NK) + (j) * NK + (k - 1)]
					+ 0.14f * A[(i) * (NJ * NK) + (j) * NK + (k)]
					+ 0.15f * A[(i) * (NJ * NK) + (j) * NK + (k + 1)]
					+ 0.16f * A[(i) * (NJ * NK) + (j + 1) * NK + (k - 1)]
					+ 0.17f * A[(i) * (NJ * NK) + (j + 1) * NK + (k)]
					+ 0.18f * A[(i) * (NJ * NK) + (j + 1) * NK + (k + 1)]
					+ 0.19f * A[(i + 1) * (NJ * NK) + (j - 1) * NK + (k - 1)]
					+ 0.20f * A[(i + 1) * (NJ * NK) + (j - 1) * NK + (k)]
					+ 0.21f * A[(i + 1) * (NJ * NK) + (j - 1) * NK + (k + 1)]
					+ 0.22f * A[(i + 1) * (NJ * NK) + (j) * NK + (k - 1)]
					+ 0.23f * A[(i + 1) * (NJ * NK) + (j) * NK + (k)]
					+ 0.24f * A[(i + 1) * (NJ * NK) + (j) * NK + (k + 1)]
					+ 0.25f * A[(i + 1) * (NJ * NK) + (j + 1) * NK + (k - 1)]
					+ 0.26f * A[(i + 1) * (NJ * NK) + (j + 1) * NK + (k)]
					+ 0.27f * A[(i + 1) * (NJ * NK) + (j + 1) * NK + (k + 1)];
}

/* One i-plane: thread (k, j), interior points only. */
__global__ void convolution3D_kernel(DATA_TYPE *A, DATA_TYPE *B, int i)
{
	int k = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < (NI - 1)) && (j < (NJ - 1)) && (k < (NK - 1)) && (i > 0) && (j > 0) && (k > 0)) {
		B[i * (NJ * NK) + j * NK + k] =
			  0.01f * A[(i - 1) * (NJ * NK) + (j - 1) * NK + (k - 1)]
			+ 0.02f * A[(i - 1) * (NJ * NK) + (j - 1) * NK + (k)]
			+ 0.03f * A[(i - 1) * (NJ * NK) + (j - 1) * NK + (k + 1)]
			+ 0.04f * A[(i - 1) * (NJ * NK) + (j) * NK + (k - 1)]
			+ 0.05f * A[(i - 1) * (NJ * NK) + (j) * NK + (k)]
			+ 0.06f * A[(i - 1) * (NJ * NK) + (j) * NK + (k + 1)]
			+ 0.07f * A[(i - 1) * (NJ * NK) + (j + 1) * NK + (k - 1)]
			+ 0.08f * A[(i - 1) * (NJ * NK) + (j + 1) * NK + (k)]
			+ 0.09f * A[(i - 1) * (NJ * NK) + (j + 1) * NK + (k + 1)]
			+ 0.10f * A[(i) * (NJ * NK) + (j - 1) * NK + (k - 1)]
			+ 0.11f * A[(i) * (NJ * NK) + (j - 1) * NK + (k)]
			+ 0.12f * A[(i) * (NJ * NK) + (j - 1) * NK + (k + 1)]
			+ 0.13f * A[(i) * (NJ * NK) + (j) * NK + (k - 1)]
			+ 0.14f * A[(i) * (NJ * NK) + (j) * NK + (k)]
			+ 0.15f * A[(i) * (NJ * NK) + (j) * NK + (k + 1)]
			+ 0.16f * A[(i) * (NJ * NK) + (j + 1) * NK + (k - 1)]
			+ 0.17f * A[(i) * (NJ * NK) + (j + 1) * NK + (k)]
			+ 0.18f * A[(i) * (NJ * NK) + (j + 1) * NK + (k + 1)]
			+ 0.19f * A[(i + 1) * (NJ * NK) + (j - 1) * NK + (k - 1)]
			+ 0.20f * A[(i + 1) * (NJ * NK) + (j - 1) * NK + (k)]
			+ 0.21f * A[(i + 1) * (NJ * NK) + (j - 1) * NK + (k + 1)]
			+ 0.22f * A[(i + 1) * (NJ * NK) + (j) * NK + (k - 1)]
			+ 0.23f * A[(i + 1) * (NJ * NK) + (j) * NK + (k)]
			+ 0.24f * A[(i + 1) * (NJ * NK) + (j) * NK + (k + 1)]
			+ 0.25f * A[(i + 1) * (NJ * NK) + (j + 1) * NK + (k - 1)]
			+ 0.26f * A[(i + 1) * (NJ * NK) + (j + 1) * NK + (k)]
			+ 0.27f * A[(i + 1) * (NJ * NK) + (j + 1) * NK + (k + 1)];
	}
}

int compareResults(DATA_TYPE *B, DATA_TYPE *B_outputFromGpu)
{
	int i, j, k, fail = 0;
	for (i = 1; i < NI - 1; ++i)
		for (j = 1; j < NJ - 1; ++j)
			for (k = 1; k < NK - 1; ++k)
				if (percentDiff(B[i * (NJ * NK) + j * NK + k], B_outputFromGpu[i * (NJ * NK) + j * NK + k]) > PERCENT_DIFF_ERROR_THRESHOLD)
					fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void convolution3DCuda(DATA_TYPE *A, DATA_TYPE *B_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu;
	DATA_TYPE *B_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NJ * NK);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NI * NJ * NK);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NJ * NK, cudaMemcpyHostToDevice);
	cudaMemset(B_gpu, 0, sizeof(DATA_TYPE) * NI * NJ * NK);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil(((float)NK) / ((float)block.x))), (size_t)(ceil(((float)NJ) / ((float)block.y))));

	t_start = rtclock();
	int i;
	for (i = 1; i < NI - 1; ++i)
		convolution3D_kernel<<<grid, block>>>(A_gpu, B_gpu, i);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(B_outputFromGpu, B_gpu, sizeof(DATA_TYPE) * NI * NJ * NK, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(B_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(NI * NJ * NK * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(NI * NJ * NK * sizeof(DATA_TYPE));
	DATA_TYPE *B_outputFromGpu = (DATA_TYPE *)malloc(NI * NJ * NK * sizeof(DATA_TYPE));

	memset(B, 0, NI * NJ * NK * sizeof(DATA_TYPE));
	init(A);
	convolution3DCuda(A, B_outputFromGpu);

	t_start = rtclock();
	conv3D(A, B);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(B, B_outputFromGpu);
	printf("conv3d: %s\n", fail ? "FAILED" : "PASSED");

	free(A);
	free(B);
	free(B_outputFromGpu);
	return fail ? 1 : 0;
}
