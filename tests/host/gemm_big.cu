/* A matrix product at a size the interpreter would take seconds over and the native engine runs
 * in a fraction of one (512 x 512 threads, 512 iterations each), in a benchmark suite's style:
 * fixed sizes, legacy runtime calls, grids from ceil of floats; the host checks a sample of the
 * elements against its own sums. tests/host/run.sh runs it with --engine auto and interp. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>

#include "common/benchutil.h"

# define NI 512
# define NJ 512
# define NK 512

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8

typedef float DATA_TYPE;

void init_array(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j;
	for (i = 0; i < NI; i++)
		for (j = 0; j < NK; j++)
			A[i * NK + j] = ((DATA_TYPE)((i * j) % 17)) / NI;
	for (i = 0; i < NK; i++)
		for (j = 0; j < NJ; j++)
			B[i * NJ + j] = ((DATA_TYPE)((i + 2 * j) % 13)) / NJ;
	for (i = 0; i < NI; i++)
		for (j = 0; j < NJ; j++)
			C[i * NJ + j] = 1.0f;
}

__global__ void gemm_kernel(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if ((i < NI) && (j < NJ))
	{
		int k;
		for (k = 0; k < NK; k++)
			C[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
	}
}

int main(int argc, char **argv)
{
	DATA_TYPE *A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE));
	DATA_TYPE *C = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
	init_array(A, B, C);
	DATA_TYPE *A_gpu, *B_gpu, *C_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ);
	cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NI * NJ);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice);
	cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyHostToDevice);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)ceil(((float)NJ) / ((float)block.x)), (size_t)ceil(((float)NI) / ((float)block.y)));
	gemm_kernel<<<grid, block>>>(A_gpu, B_gpu, C_gpu);
	cudaThreadSynchronize();
	DATA_TYPE *out = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
	cudaMemcpy(out, C_gpu, sizeof(DATA_TYPE) * NI * NJ, cudaMemcpyDeviceToHost);
	/* a sample of the elements against the host's own sums: 61 rows by 7 columns */
	int fail = 0, checked = 0;
	double sum = 0;
	for (int i = 0; i < NI; i += 61)
		for (int j = 3; j < NJ; j += 73) {
			DATA_TYPE c = 1.0f;
			for (int k = 0; k < NK; k++) c += A[i * NK + k] * B[k * NJ + j];
			if (relDiff(c, out[i * NJ + j]) > 0.05) fail++;
			checked++;
		}
	for (int i = 0; i < NI * NJ; i += 4099) sum += out[i];
	printf("gemm %dx%dx%d: %d of %d sampled elements differ, checksum %.3f\n", NI, NJ, NK, fail, checked, sum);
	cudaFree(A_gpu); cudaFree(B_gpu); cudaFree(C_gpu);
	free(A); free(B); free(C); free(out);
	return fail != 0;
}
