/* A program in the style of the CUDA ports of a benchmark suite: fixed sizes, a common header
 * with gettimeofday and struct timezone, the legacy runtime calls CUDA 13 removed
 * (cudaThreadSynchronize, cudaThreadSetLimit, ...), grids from ceil of floats, a CPU reference
 * and a compare. carve runs it on both routes (tests/host/run.sh, tests/cudart/run.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <cuda.h>

#include "common/benchutil.h"

# define NX 80
# define NY 72

#define DIM_X 32
#define DIM_Y 8

typedef float DATA_TYPE;

void init(DATA_TYPE *A, DATA_TYPE *x)
{
	int i, j;
	for (i = 0; i < NX; i++)
		for (j = 0; j < NY; j++)
			A[i * NY + j] = ((DATA_TYPE) i * (j + 1)) / NX;
	for (j = 0; j < NY; j++)
		x[j] = j * 0.5f;
}

__global__ void scale_kernel(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *B)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i < NX && j < NY)
		B[i * NY + j] = A[i * NY + j] * x[j] + 1.0f;
}

int main(int argc, char **argv)
{
	DATA_TYPE *A = (DATA_TYPE *)malloc(NX * NY * sizeof(DATA_TYPE));
	DATA_TYPE *x = (DATA_TYPE *)malloc(NY * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(NX * NY * sizeof(DATA_TYPE));
	init(A, x);
	cudaDeviceProp prop;
	cudaGetDeviceProperties(&prop, 0);
	cudaSetDevice(0);
	size_t stack = 0;
	cudaThreadSetLimit(cudaLimitStackSize, 4096);
	cudaThreadGetLimit(&stack, cudaLimitStackSize);
	cudaThreadSetCacheConfig(cudaFuncCachePreferL1);
	DATA_TYPE *A_gpu, *x_gpu, *B_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NX * NY);
	cudaMalloc((void **)&x_gpu, sizeof(DATA_TYPE) * NY);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NX * NY);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NX * NY, cudaMemcpyHostToDevice);
	cudaMemcpy(x_gpu, x, sizeof(DATA_TYPE) * NY, cudaMemcpyHostToDevice);
	dim3 block(DIM_X, DIM_Y);
	dim3 grid((size_t)ceil(((float)NY) / ((float)block.x)), (size_t)ceil(((float)NX) / ((float)block.y)));
	double t0 = wallclock();
	scale_kernel<<<grid, block>>>(A_gpu, x_gpu, B_gpu);
	cudaThreadSynchronize();
	double t1 = wallclock();
	cudaMemcpy(B, B_gpu, sizeof(DATA_TYPE) * NX * NY, cudaMemcpyDeviceToHost);
	int fail = 0;
	for (int i = 0; i < NX; i++)
		for (int j = 0; j < NY; j++)
			if (relDiff(A[i * NY + j] * x[j] + 1.0f, B[i * NY + j]) > 0.05) fail++;
	printf("legacy: grid (%d,%d), stack limit %d, time %s, %d mismatches\n", grid.x, grid.y, (int)stack, t1 >= t0 ? "ok" : "negative", fail);
	cudaFree(A_gpu); cudaFree(x_gpu); cudaFree(B_gpu);
	cudaThreadExit();
	free(A); free(x); free(B);
	return fail != 0;
}
