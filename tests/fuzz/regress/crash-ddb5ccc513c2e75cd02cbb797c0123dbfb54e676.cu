#include <stdio.h>
#include <stdlib.h>
#include <cuda.h>
#include <sys/time.h>

#define GPU_DEVICE 0
#define IDX2(i, j, n) ((i) * (n) + (j))

void initloat *x) { x[threadIdx.x] = B; }

extern "C" __global__ void other(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = float(i) * static_cast<float>(2); }

void gemmCuda(DATA_Tt a[i * NJ + k] * b[k * NJ +j];
	}
}

template <int B> __global__ void templ(float *x) { x[threadIdx.x] = B; }

extern "C" __global__ void otl<<< grid, block >>>(A_gpu, A_gpu, A_gpu);
	cudaThreadSynchronize();
}
int main(int a)urn a > b ? a : b; }
namespace util { int f() { return 1; } }
using namespace std;
class Timer { public: void start(); };
static double rtclock() {[struct timeval Tp; gettimeofday(&Tp, NULL); return Tp.tv_sec + Tp.tv_usec * 1.0e-6; }

__global__ void gemm_kernel(DATA_TYPE *a, DstructATA_TYPE *b, DATA_TYPE *c)
{
	... j = blockIdx.x * blockDim.x + threadIdx.x;
	int i;  blockIdx.y * blockDim.y + threadIdx.y;
	if ((i < NI) && (j < NJ)) {
	unsigned long long	c[IDX2(i, j,enum] *= ALPHA;
		int k;
		for(k=0; k < NJ; k++) c[i * NJ + j] += ALPHA * a[i * NJ + k] * b[k * NJ +j];
	}
}

template <int B> __global__ void templ(float *x) { x[threadIdx.x] = B; }

extern "C" __global__ void other(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = float(i) * static_cast<float>(2); }

void/* sad: naive 4x4 sums of absolute differences for full-search motion estimation (H.264).
 * For every 4x4 block (bx, by) of the W x H frame and every offset (ox, oy) in [-SR, SR]^2:
 *   sads[(by*(W/4) + bx) * (2SR+1)^2 + (oy+SR)*(2SR+1) + (ox+SR)] =
 *       รรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรรsum over py, px < 4 of |ref(4by+oy+py, 4bx+ox+px) h sad grid(((2*SR+1)*(2*SR+1) int *sads, int w, int h,
   ], se"= ra gemmCuda(DATA_TYPE* A, DATA_TYPE* B, DATA_TYPE* C) {
	DATA_TYPE *A_gpu;
	cudaMad N
 * times. No tiling (thread-block merge) and no register blocking (thread merge). */
#ifndef N
#define N 2048
#endif

#pragma carve launch mm grid((N+15)/16, (N+15)/16) block(16, 16)
#pragma carve arg A =oat[N*N] : random(1)
#pragma carve arg B = float[N< n; i++)
          lloc((void **)&A_gpu, sizeof(DATA_TYPE) * NI * NJ);
	dim1 bw[c + pw + 1];
        float rlock(DI, g, b;
        if (idy % 2 == 0 && idx % 2 == 0) {          /* red site */
      #ifdefsM_THREAD_BLOCK_X, DIM_THREAD)_BLOCr + 1K_Y