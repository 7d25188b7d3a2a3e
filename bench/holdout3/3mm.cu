/*
 * 3mm.cu: three matrix products, E = A*B, F = C*D, G = E*F.
 * Naive CUDA version, one thread per output element, global memory only.
 * Sizes: A is NI x NK, B is NK x NJ, C is NJ x NM, D is NM x NL,
 *        E is NI x NJ, F is NJ x NL, G is NI x NL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <sys/time.h>
#include <cuda_runtime.h>

/* Percent of relative difference above which two outputs are a mismatch. */
#define PERCENT_DIFF_ERROR_THRESHOLD 0.05

#ifndef NI
#define NI 128
#endif
#ifndef NJ
#define NJ 128
#endif
#ifndef NK
#define NK 128
#endif
#ifndef NL
#define NL 128
#endif
#ifndef NM
#define NM 128
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

void init_array(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D)
{
	int i, j;
	for (i = 0; i < NI; i++)
		for (j = 0; j < NK; j++)
			A[i * NK + j] = ((DATA_TYPE)((i * j) % 19 + 1)) / NI;
	for (i = 0; i < NK; i++)
		for (j = 0; j < NJ; j++)
			B[i * NJ + j] = ((DATA_TYPE)((i * (j + 1)) % 23 + 1)) / NJ;
	for (i = 0; i < NJ; i++)
		for (j = 0; j < NM; j++)
			C[i * NM + j] = ((DATA_TYPE)((i * (j + 3)) % 17 + 1)) / NL;
	for (i = 0; i < NM; i++)
		for (j = 0; j < NL; j++)
			D[i * NL + j] = ((DATA_TYPE)((i * (j + 2)) % 29 + 2)) / NK;
}

void mm3_cpu(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G)
{
	int i, j, k;
	/* E := A*B */
	for (i = 0; i < NI; i++)
		for (j = 0; j < NJ; j++) {
			E[i * NJ + j] = 0;
			for (k = 0; k < NK; ++k)
				E[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
		}
	/* F := C*D */
	for (i = 0; i < NJ; i++)
		for (j = 0; j < NL; j++) {
			F[i * NL + j] = 0;
			for (k = 0; k < NM; ++k)
				F[i * NL + j] += C[i * NM + k] * D[k * NL + j];
		}
	/* G := E*F */
	for (i = 0; i < NI; i++)
		for (j = 0; j < NL; j++) {
			G[i * NL + j] = 0;
			for (k = 0; k < NJ; ++k)
				G[i * NL + j] += E[i * NJ + k] * F[k * NL + j];
		}
}

/* E := A*B, summed in place in global memory */
__global__ void mm3_kernel1(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *E)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ)) {
		int k;
		E[i * NJ + j] = 0;
		for (k = 0; k < NK; k++)
			E[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
	}
}

/* F := C*D */
__global__ void mm3_kernel2(DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *F)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NJ) && (j < NL)) {
		int k;
		F[i * NL + j] = 0;
		for (k = 0; k < NM; k++)
			F[i * NL + j] += C[i * NM + k] * D[k * NL + j];
	}
}

/* G := E*F */
__global__ void mm3_kernel3(DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NL)) {
		int k;
		G[i * NL + j] = 0;
		for (k = 0; k < NJ; k++)
			G[i * NL + j] += E[i * NJ + k] * F[k * NL + j];
	}
}

int compareResults(DATA_TYPE *G, DATA_TYPE *G_outputFromGpu)
{
	int i, j, fail = 0;
	for (i = 0; i < NI; i++)
		for (j = 0; j < NL; j++)
			if (percentDiff(G[i * NL + j], G_outputFromGpu[i * NL + j]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void mm3Cuda(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *G_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *A_gpu, *B_gpu, *C_gpu, *D_gpu, *E_gpu, *F_gpu, *G_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NK);
	cudaMalloc((void **)&B_gpu, sizeof(DATA_TYPE) * NK * NJ);
	cudaMalloc((void **)&C_gpu, sizeof(DATA_TYPE) * NJ * NM);
	cudaMalloc((void **)&D_gpu, sizeof(DATA_TYPE) * NM * NL);
	cudaMalloc((void **)&E_gpu, sizeof(DATA_TYPE) * NI * NJ);
	cudaMalloc((void **)&F_gpu, sizeof(DATA_TYPE) * NJ * NL);
	cudaMalloc((void **)&G_gpu, sizeof(DATA_TYPE) * NI * NL);

	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * NI * NK, cudaMemcpyHostToDevice);
	cudaMemcpy(B_gpu, B, sizeof(DATA_TYPE) * NK * NJ, cudaMemcpyHostToDevice);
	cudaMemcpy(C_gpu, C, sizeof(DATA_TYPE) * NJ * NM, cudaMemcpyHostToDevice);
	cudaMemcpy(D_gpu, D, sizeof(DATA_TYPE) * NM * NL, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid1((size_t)(ceil(((float)NJ) / ((float)DIM_THREAD_BLOCK_X))), (size_t)(ceil((float)NI / ((float)DIM_THREAD_BLOCK_Y))));
	dim3 grid2((size_t)(ceil(((float)NL) / ((float)DIM_THREAD_BLOCK_X))), (size_t)(ceil((float)NJ / ((float)DIM_THREAD_BLOCK_Y))));
	dim3 grid3((size_t)(ceil(((float)NL) / ((float)DIM_THREAD_BLOCK_X))), (size_t)(ceil((float)NI / ((float)DIM_THREAD_BLOCK_Y))));

	t_start = rtclock();
	mm3_kernel1<<<grid1, block>>>(A_gpu, B_gpu, E_gpu);
	cudaDeviceSynchronize();
	mm3_kernel2<<<grid2, block>>>(C_gpu, D_gpu, F_gpu);
	cudaDeviceSynchronize();
	mm3_kernel3<<<grid3, block>>>(E_gpu, F_gpu, G_gpu);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(G_outputFromGpu, G_gpu, sizeof(DATA_TYPE) * NI * NL, cudaMemcpyDeviceToHost);

	cudaFree(A_gpu);
	cudaFree(B_gpu);
	cudaFree(C_gpu);
	cudaFree(D_gpu);
	cudaFree(E_gpu);
	cudaFree(F_gpu);
	cudaFree(G_gpu);
}

int main(int argc, char **argv)
{
	double t_start, t_end;
	int fail;
	DATA_TYPE *A = (DATA_TYPE *)malloc(NI * NK * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(NK * NJ * sizeof(DATA_TYPE));
	DATA_TYPE *C = (DATA_TYPE *)malloc(NJ * NM * sizeof(DATA_TYPE));
	DATA_TYPE *D = (DATA_TYPE *)malloc(NM * NL * sizeof(DATA_TYPE));
	DATA_TYPE *E = (DATA_TYPE *)malloc(NI * NJ * sizeof(DATA_TYPE));
	DATA_TYPE *F = (DATA_TYPE *)malloc(NJ * NL * sizeof(DATA_TYPE));
	DATA_TYPE *G = (DATA_TYPE *)malloc(NI * NL * sizeof(DATA_TYPE));
	DATA_TYPE *G_outputFromGpu = (DATA_TYPE *)malloc(NI * NL * sizeof(DATA_TYPE));

	init_array(A, B, C, D);
	mm3Cuda(A, B, C, D, G_outputFromGpu);

	t_start = rtclock();
	mm3_cpu(A, B, C, D, E, F, G);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	fail = compareResults(G, G_outputFromGpu);
	printf("%s\n", fail ? "3mm: FAILED" : "3mm: PASSED");

	free(A);
	free(B);
	free(C);
	free(D);
	free(E);
	free(F);
	free(G);
	free(G_outputFromGpu);
	return fail ? 1 : 0;
}
