/*
 * sgemm_colmajor.cu: C = alpha * A * B + beta * C in column-major (Fortran/BLAS)
 * storage, with leading dimensions lda, ldb, ldc passed to the kernel:
 *   A is M x K (lda >= M), B is K x N (ldb >= K), C is M x N (ldc >= M).
 * One thread per element of C: x runs over rows (contiguous in column-major),
 * y over columns; 16x16 blocks, the dot product in a register, __restrict__.
 * -D LD_PAD=p pads every leading dimension by p elements.
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
#ifndef K
#define K 128
#endif
#ifndef LD_PAD
#define LD_PAD 0
#endif

#define LDA (M + LD_PAD)
#define LDB (K + LD_PAD)
#define LDC (M + LD_PAD)

#define DIM_THREAD_BLOCK_X 16
#define DIM_THREAD_BLOCK_Y 16

/* element (i, j) of a column-major matrix with leading dimension ld */
#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

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

void init(DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
	int i, j;
	for (j = 0; j < K; j++)
		for (i = 0; i < LDA; i++)
			A[IDX2C(i, j, LDA)] = i < M ? ((DATA_TYPE)((i * (j + 1)) % 23 + 1)) / K : -1.0f;
	for (j = 0; j < N; j++)
		for (i = 0; i < LDB; i++)
			B[IDX2C(i, j, LDB)] = i < K ? ((DATA_TYPE)((i + 3 * j) % 19 + 1)) / K : -1.0f;
	for (j = 0; j < N; j++)
		for (i = 0; i < LDC; i++)
			C[IDX2C(i, j, LDC)] = i < M ? ((DATA_TYPE)((i * j) % 7 + 1)) / 7.0f : -1.0f;
}

void sgemm_cpu(int m, int n, int k, DATA_TYPE alpha, const DATA_TYPE *A, int lda, const DATA_TYPE *B, int ldb,
               DATA_TYPE beta, DATA_TYPE *C, int ldc)
{
	int i, j, l;
	for (j = 0; j < n; j++)
		for (i = 0; i < m; i++) {
			DATA_TYPE sum = 0.0f;
			for (l = 0; l < k; l++)
				sum += A[IDX2C(i, l, lda)] * B[IDX2C(l, j, ldb)];
			C[IDX2C(i, j, ldc)] = alpha * sum + beta * C[IDX2C(i, j, ldc)];
		}
}

__global__ void sgemm_nn(int m, int n, int k, DATA_TYPE alpha, const DATA_TYPE *__restrict__ A, int lda,
                         const DATA_TYPE *__restrict__ B, int ldb, DATA_TYPE beta, DATA_TYPE *__restrict__ C, int ldc)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int j = blockIdx.y * blockDim.y + threadIdx.y;

	if (i < m && j < n) {
		DATA_TYPE sum = 0.0f;
		for (int l = 0; l < k; ++l)
			sum += A[IDX2C(i, l, lda)] * B[IDX2C(l, j, ldb)];
		C[IDX2C(i, j, ldc)] = alpha * sum + beta * C[IDX2C(i, j, ldc)];
	}
}

int compareResults(DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	int i, j, fail = 0;
	for (j = 0; j < N; j++)
		for (i = 0; i < LDC; i++)
			if (percentDiff(C[IDX2C(i, j, LDC)], C_outputFromGpu[IDX2C(i, j, LDC)]) > PERCENT_DIFF_ERROR_THRESHOLD)
				fail++;
	printf("Non-Matching CPU-GPU Outputs Beyond Error Threshold of %4.2f Percent: %d\n", PERCENT_DIFF_ERROR_THRESHOLD, fail);
	return fail;
}

void sgemmCuda(DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C, DATA_TYPE *C_outputFromGpu)
{
	double t_start, t_end;
	DATA_TYPE *d_A, *d_B, *d_C;

	cudaMalloc((void **)&d_A, sizeof(DATA_TYPE) * LDA * K);
	cudaMalloc((void **)&d_B, sizeof(DATA_TYPE) * LDB * N);
	cudaMalloc((void **)&d_C, sizeof(DATA_TYPE) * LDC * N);
	cudaMemcpy(d_A, A, sizeof(DATA_TYPE) * LDA * K, cudaMemcpyHostToDevice);
	cudaMemcpy(d_B, B, sizeof(DATA_TYPE) * LDB * N, cudaMemcpyHostToDevice);
	cudaMemcpy(d_C, C, sizeof(DATA_TYPE) * LDC * N, cudaMemcpyHostToDevice);

	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil(((float)M) / ((float)block.x))), (size_t)(ceil(((float)N) / ((float)block.y))));

	t_start = rtclock();
	sgemm_nn<<<grid, block>>>(M, N, K, alpha, d_A, LDA, d_B, LDB, beta, d_C, LDC);
	cudaDeviceSynchronize();
	t_end = rtclock();
	fprintf(stdout, "GPU Runtime: %0.6lfs\n", t_end - t_start);

	cudaMemcpy(C_outputFromGpu, d_C, sizeof(DATA_TYPE) * LDC * N, cudaMemcpyDeviceToHost);
	cudaFree(d_A);
	cudaFree(d_B);
	cudaFree(d_C);
}

int main(int argc, char **argv)
{
	double t_start, t_end;
	DATA_TYPE alpha = 1.25f, beta = 0.5f;
	DATA_TYPE *A = (DATA_TYPE *)malloc(LDA * K * sizeof(DATA_TYPE));
	DATA_TYPE *B = (DATA_TYPE *)malloc(LDB * N * sizeof(DATA_TYPE));
	DATA_TYPE *C = (DATA_TYPE *)malloc(LDC * N * sizeof(DATA_TYPE));
	DATA_TYPE *C_outputFromGpu = (DATA_TYPE *)malloc(LDC * N * sizeof(DATA_TYPE));

	init(A, B, C);
	sgemmCuda(alpha, beta, A, B, C, C_outputFromGpu);

	t_start = rtclock();
	sgemm_cpu(M, N, K, alpha, A, LDA, B, LDB, beta, C, LDC);
	t_end = rtclock();
	fprintf(stdout, "CPU Runtime: %0.6lfs\n", t_end - t_start);

	/* the padding rows of C must be left alone: they compare as -1 on both sides */
	int fail = compareResults(C, C_outputFromGpu);
	printf("sgemm_colmajor: %s\n", fail ? "FAILED" : "PASSED");

	free(A);
	free(B);
	free(C);
	free(C_outputFromGpu);
	return fail ? 1 : 0;
}
