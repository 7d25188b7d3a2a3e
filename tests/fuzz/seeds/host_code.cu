#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>
#include <sys/time.h>

#define GPU_DEVICE 0
#define IDX2(i, j, n) ((i) * (n) + (j))

void init(DATA_TYPE *A, DATA_TYPE *B) {
  int i, j;
  for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) A[i*NJ + j] = ((DATA_TYPE) i*j) / NI;
}
template <typename T> T host_max(T a, T b) { return a > b ? a : b; }
namespace util { int f() { return 1; } }
using namespace std;
class Timer { public: void start(); };
static double rtclock() { struct timeval Tp; gettimeofday(&Tp, NULL); return Tp.tv_sec + Tp.tv_usec * 1.0e-6; }

__global__ void gemm_kernel(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if ((i < NI) && (j < NJ)) {
		c[IDX2(i, j, NJ)] *= ALPHA;
		int k;
		for(k=0; k < NJ; k++) c[i * NJ + j] += ALPHA * a[i * NJ + k] * b[k * NJ +j];
	}
}

template <int B> __global__ void templ(float *x) { x[threadIdx.x] = B; }

extern "C" __global__ void other(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = float(i) * static_cast<float>(2); }

void gemmCuda(DATA_TYPE* A, DATA_TYPE* B, DATA_TYPE* C) {
	DATA_TYPE *A_gpu;
	cudaMalloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NJ);
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)(ceil( ((float)NI)/ ((float)block.x) )),(size_t)(ceil( ((float)NJ)/ ((float)block.y) )));
	gemm_kernel<<< grid, block >>>(A_gpu, A_gpu, A_gpu);
	cudaThreadSynchronize();
}
int main(int argc, char *argv[]) {
	DATA_TYPE* A = (DATA_TYPE*)malloc(NI*NJ*sizeof(DATA_TYPE));
	std::vector<int> v;
	auto l = [](int x) { return x; };
	gemmCuda(A, A, A);
	return 0;
}
