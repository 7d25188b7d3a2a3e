/*
 * gramschmidt.cu: QR decomposition by modified Gram-Schmidt, A (M x N, M >= N)
 * becomes Q (M x N, orthonormal columns) and R (N x N, upper triangular).
 * Three kernels per column k, launched from a host loop over k:
 *   kernel1: R[k][k] = ||A[:,k]||      (a single thread)
 *   kernel2: Q[i][k] = A[i][k] / R[k][k] (one thread per row i)
 *   kernel3: for every column j > k: R[k][j] = Q[:,k] . A[:,j];
 *            A[:,j] -= Q[:,k] * R[k][j]  (one thread per column j)
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

/* A well-conditioned matrix: a strong diagonal plus a small pattern. */
void init_array(DATA_TYPE *A)
{
	int i, j;
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			A[i * N + j] = ((DATA_TYPE)((i * (j + 1)) % 13)) / 13.0f + (i == j ? 4.0f : 0.0f);
}

void gramschmidt_cpu(DATA_TYPE *A, DATA_TYPE *R, DATA_TYPE *Q)
{
	int i, j, k;
	DATA_TYPE nrm;
	for (k = 0; k < N; k++) {
		nrm = 0;
		for (i = 0; i < M; i++)
			nrm += A[i * N + k] * A[i * N + k];
		R[k * N + k] = sqrtf(nrm);
		for (i = 0; i < M; i++)
			Q[i * N + k] = A[i * N + k] / R[k * N + k];
		for (j = k + 1; j < N; j++) {
			R[k * N + j] = 0;
			for (i = 0; i < M; i++)
				R[k * N + j] += Q[i * N + k] * A[i * N + j];
			for (i = 0; i < M; i++)
				A[i * N + j] = A[i * N + j] - Q[i * N + k] * R[k * N + j];
		}
	}
}

__global__ void gramschmidt_kernel1(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
	int tid = blockIdx.x * blockDim.x + threadIdx.x;

	if (tid == 0) {
		DATA_TYPE nrm = 0.0;
		int i;
		for (i = 0; i < M; i++)
			nrm += a[i * N + k] * a[i * N + k];
		r[k * N + k] = sqrtf(nrm);
	}
}

__global__ void gramschmidt_kernel2(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < M)
		q[i * N + k] = a[i * N + k] / r[k * N + k];
}

__global__ void gramschmidt_kernel3(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;

	if ((j > k) && (j < N)) {
		int i;
		r[k * N + j] = 0.0;
		for (i = 0; i < M; i++)
			r[k * N + j] += q[i * N + k] * a[i * N + j];
		for (i = 0; i < M; i++)
			a[i * N + j] -= q[i * N + k] * r[k * N + j];
	}
}

int compareResults(DATA_TYPE *R, DATA_TYPE *R_outputFromGpu, DATA_TYPE *Q, DATA_TYPE *Q_outputFromGpu)
{
	int i, j, fail = 0;
	for (i = 0; i < N; i++)
		for (j = i; j < N; j++)
			if (percentDiff(R[i * N + j], R_outputFromGpu[i * N + j]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++)
			if (percentDiff(Q[i * N + j], Q_outputFromGpu[i * N + j]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void gramschmidtCuda(DATA_TYPE *A, DATA_TYPE *R_outputFromGpu, DATA_TYPE *Q_outputFromGpu)
{
	double t_start, t_end;
	int k;
	DATA_TYPE *A_gpu, *R_gpu, *Q_gpu;

	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * M * N);
	cudaMalloc((void **)&R_gpu, sizeof(DATA_TYPE) * N * N);
	cudaMalloc((void **)&Q_gpu, sizeof(DATA_TYPE) * M * N);
	cudaMemcpy(A_gpu, A, sizeof(DATA_TYPE) * M * N, cudaMemcpyHostToDevice);
	cudaMemset(R_gpu, 0, sizeof(DATA_TYPE) * N * N);
	cudaMemset(Q_gpu, 0, sizeof(DATA_TYPE) * M * N);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 gridKernel1(1, 1);
	dim3 gridKernel2((size_t)ceil(((float)M) / ((float)DIM_THREAD_BLOCK_X)), 1);
	dim3 gridKernel3((size_t)ceil(((float)N) / ((float)DIM_THREAD_BLOCK_X)), 1);

	t_start = rtclock();
	for (k = 0; k < N; k++) {
		gramschmidt_kernel1<<<gridKernel1, block>>>(A_gpu, R_gpu, Q_gpu, k);
		cudaDeviceSynchronize();
		gramschmidt_kernel2<<<gridKernel2, block>>>(A_gpu, R_gpu, Q_gpu, k);
		cudaDeviceSynchronize();
		gramschmidt_kernel3<<<gridKernel3, block>>>(A_gpu, R_gpu, Q_gpu, k);
		cudaDeviceSynchronize();
	}
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(R_outputFromGpu, R_gpu, sizeof(DATA_TYPE) * N * N, cudaMemcpyDeviceToHost);
	cudaMemcpy(Q_outputFromGpu, Q_gpu, sizeof(DATA_TYPE) * M * N, cudaMemcpyDeviceToHost);
	cudaFree(A_gpu);
	cudaFree(R_gpu);
	cudaFree(Q_gpu);
}

int main(int argc, char *argv[])
{
	double t_start, t_end;
	int fail;
	DATA_TYPE *A = (DATA_TYPE *)malloc(M * N * sizeof(DATA_TYPE));
	DATA_TYPE *R = (DATA_TYPE *)calloc(N * N, sizeof(DATA_TYPE));
	DATA_TYPE *Q = (DATA_TYPE *)calloc(M * N, sizeof(DATA_TYPE));
	DATA_TYPE *R_outputFromGpu = (DATA_TYPE *)malloc(N * N * sizeof(DATA_TYPE));
	DATA_TYPE *Q_outputFromGpu = (DATA_TYPE *)malloc(M * N * sizeof(DATA_TYPE));

	init_array(A);
	gramschmidtCuda(A, R_outputFromGpu, Q_outputFromGpu);

	t_start = rtclock();
	gramschmidt_cpu(A, R, Q);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	fail = compareResults(R, R_outputFromGpu, Q, Q_outputFromGpu);
	printf("gramschmidt: %s\n", fail == 0 ? "PASSED" : "FAILED");

	free(A);
	free(R);
	free(Q);
	free(R_outputFromGpu);
	free(Q_outputFromGpu);
	return fail == 0 ? 0 : 1;
}
