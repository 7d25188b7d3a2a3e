/*
 * doitgen.cu: multiresolution analysis kernel (MADNESS):
 *   sum[r][q][p] = sum_s A[r][q][s] * C4[s][p];  then A[r][q][p] = sum[r][q][p].
 * A is NR x NQ x NP, C4 is NP x NP. The (r,q) pair is flattened into the grid's
 * y dimension, p is x. size_t indices, the dot product in a register.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef NR
#define NR 32
#endif
#ifndef NQ
#define NQ 32
#endif
#ifndef NP
#define NP 64
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

void init_array(DATA_TYPE *A, DATA_TYPE *C4)
{
	int r, q, p, s;
	for (r = 0; r < NR; r++)
		for (q = 0; q < NQ; q++)
			for (p = 0; p < NP; p++)
				A[(r * NQ + q) * NP + p] = ((DATA_TYPE)((r * q + p) % 15 + 1)) / NP;
	for (s = 0; s < NP; s++)
		for (p = 0; p < NP; p++)
			C4[s * NP + p] = ((DATA_TYPE)((s * p) % 21 + 1)) / NP;
}

void doitgen_cpu(DATA_TYPE *A, DATA_TYPE *C4, DATA_TYPE *sum)
{
	int r, q, p, s;
	for (r = 0; r < NR; r++)
		for (q = 0; q < NQ; q++) {
			for (p = 0; p < NP; p++) {
				sum[(r * NQ + q) * NP + p] = 0;
				for (s = 0; s < NP; s++)
					sum[(r * NQ + q) * NP + p] += A[(r * NQ + q) * NP + s] * C4[s * NP + p];
			}
			for (p = 0; p < NP; p++)
				A[(r * NQ + q) * NP + p] = sum[(r * NQ + q) * NP + p];
		}
}

/* thread (p, rq): sum[rq][p] = A[rq][:] . C4[:][p] */
__global__ void doitgen_kernel1(const DATA_TYPE *A, const DATA_TYPE *C4, DATA_TYPE *sum)
{
	size_t p = blockIdx.x * blockDim.x + threadIdx.x;
	size_t rq = blockIdx.y * blockDim.y + threadIdx.y;

	if (p < NP && rq < (size_t)NR * NQ) {
		DATA_TYPE acc = 0.0f;
		for (size_t s = 0; s < NP; s++)
			acc += A[rq * NP + s] * C4[s * NP + p];
		sum[rq * NP + p] = acc;
	}
}

/* A := sum */
__global__ void doitgen_kernel2(DATA_TYPE *A, const DATA_TYPE *sum)
{
	size_t p = blockIdx.x * blockDim.x + threadIdx.x;
	size_t rq = blockIdx.y * blockDim.y + threadIdx.y;

	if (p < NP && rq < (size_t)NR * NQ)
		A[rq * NP + p] = sum[rq * NP + p];
}

int compareResults(DATA_TYPE *A, DATA_TYPE *A_outputFromGpu)
{
	int i, fail = 0;
	for (i = 0; i < NR * NQ * NP; i++)
		if (percentDiff(A[i], A_outputFromGpu[i]) > PERCENT_DIFF_ERROR_THRESHOLD)
			fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void doitgenCuda(DATA_TYPE *A, DATA_TYPE *C4, DATA_TYPE *A_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu, *C4_gpu, *sum_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NR * NQ * NP);
	cudaMalloc((void **)&C4_gpu, sizeof(DATA_TYPE) * NP * NP);
	cudaMalloc((void **)&sum_gpu, sizeof(DATA_TYPE) * NR * NQ * NP);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NR * NQ * NP, cudaMemcpyHostToDevice);
	cudaMemcpy(C4_gpu, C4, sizeof(DATA_TYPE) * NP * NP, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil(((float)NP) / ((float)block.x))), (size_t)(ceil(((float)(NR * NQ)) / ((float)block.y))));

	t_start = rtclock();
	doitgen_kernel1<<<grid, block>>>(A_gpu, C4_gpu, sum_gpu);
	cudaDeviceSynchronize();
	doitgen_kernel2<<<grid, block>>>(A_gpu, sum_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(A_outputFromGpu, A_gpu, sizeof(DATA_TYPE) * NR * NQ * NP, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(C4_gpu);
	cudaFree(sum_gpu);
}

int main(int argc, char **argv)
{
	double t_start, t_end;
	DATA_TYPE *A = (DATA_TYPE *)malloc(NR * NQ * NP * sizeof(DATA_TYPE));
	DATA_TYPE *C4 = (DATA_TYPE *)malloc(NP * NP * sizeof(DATA_TYPE));
	DATA_TYPE *sum = (DATA_TYPE *)malloc(NR * NQ * NP * sizeof(DATA_TYPE));
	DATA_TYPE *A_outputFromGpu = (DATA_TYPE *)malloc(NR * NQ * NP * sizeof(DATA_TYPE));

	init_array(A, C4);
	doitgenCuda(A, C4, A_outputFromGpu);

	t_start = rtclock();
	doitgen_cpu(A, C4, sum);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	int fail = compareResults(A, A_outputFromGpu);
	printf("doitgen: %s\n", fail ? "FAILED" : "PASSED");

	free(A);
	free(C4);
	free(sum);
	free(A_outputFromGpu);
	return fail ? 1 : 0;
}
