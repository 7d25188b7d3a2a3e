/*
 * jacobi1d.cu: 1-D Jacobi stencil, TSTEPS time steps of
 *   B[i] = (A[i-1] + A[i] + A[i+1]) / 3  for 0 < i < N-1,  then A[i] = B[i].
 * Two kernels per time step (256x1 blocks), the host loops over the steps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef TSTEPS
#define TSTEPS 20
#endif
#ifndef N
#define N 2048
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

void init_array(DATA_TYPE *A, DATA_TYPE *B)
{
	int i;
	for (i = 0; i < N; i++) {
		A[i] = ((DATA_TYPE)(i % 97) + 2.0f) / 10.0f;
		B[i] = ((DATA_TYPE)(i % 89) + 3.0f) / 10.0f;
	}
}

void runJacobi1DCpu(DATA_TYPE *A, DATA_TYPE *B)
{
	int t, i, j;
	for (t = 0; t < TSTEPS; t++) {
		for (i = 1; i < N - 1; i++)
			B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
		for (j = 1; j < N - 1; j++)
			A[j] = B[j];
	}
}

__global__ void runJacobiCUDA_kernel1(int n, DATA_TYPE *A, DATA_TYPE *B)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < 1 || i >= n - 1)
		return;
	B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
}

__global__ void runJacobiCUDA_kernel2(int n, DATA_TYPE *A, DATA_TYPE *B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	if (j < 1 || j >= n - 1)
		return;
	A[j] = B[j];
}

int compareResults(DATA_TYPE *a, DATA_TYPE *a_outputFromGpu, DATA_TYPE *b, DATA_TYPE *b_outputFromGpu)
{
	int i, fail = 0;
	for (i = 0; i < N; i++) {
		if (percentDiff(a[i], a_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
		if (percentDiff(b[i], b_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	}
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void runJacobi1DCUDA(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *A_outputFromGpu, DATA_TYPE *B_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *Agpu, *Bgpu;

	cudaMalloc(&Agpu, N * sizeof(DATA_TYPE));
	cudaMalloc(&Bgpu, N * sizeof(DATA_TYPE));
	cudaMemcpy(Agpu, A, N * sizeof(DATA_TYPE), cudaMemcpyHostToDevice);
	cudaMemcpy(Bgpu, B, N * sizeof(DATA_TYPE), cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((unsigned int)ceil(((float)N) / ((float)block.x)), 1);

	t_start = rtclock();
	for (int t = 0; t < TSTEPS; t++) {
		runJacobiCUDA_kernel1<<<grid, block>>>(N, Agpu, Bgpu);
		cudaDeviceSynchronize();
		runJacobiCUDA_kernel2<<<grid, block>>>(N, Agpu, Bgpu);
		cudaDeviceSynchronize();
	}
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(A_outputFromGpu, Agpu, sizeof(DATA_TYPE) * N, cudaMemcpyDeviceToHost);
	cudaMemcpy(B_outputFromGpu, Bgpu, sizeof(DATA_TYPE) * N, cudaMemcpyDeviceToHost);
	cudaFree(Agpu);
	cudaFree(Bgpu);
}

int main(int argc, char **argv)
{
	double t_start, t_end;
	DATA_TYPE *a = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *b = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *a_outputFromGpu = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));
	DATA_TYPE *b_outputFromGpu = (DATA_TYPE *)malloc(N * sizeof(DATA_TYPE));

	init_array(a, b);
	runJacobi1DCUDA(a, b, a_outputFromGpu, b_outputFromGpu);

	t_start = rtclock();
	runJacobi1DCpu(a, b);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(a, a_outputFromGpu, b, b_outputFromGpu);
	printf("jacobi1d: %s\n", fail ? "FAILED" : "PASSED");

	free(a);
	free(b);
	free(a_outputFromGpu);
	free(b_outputFromGpu);
	return fail ? 1 : 0;
}
