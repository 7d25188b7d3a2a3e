/* bench/holdout3/repro/alias.cu: canon's register lift assumes __restrict__ pointers, but the
 * optimized program does not test that the pointers differ at each launch.
 *   ./carve run repro/alias.cu                                  -> a[0] = 0 a[63] = 0
 *   ./carve optimize repro/alias.cu --skip scalar -o /tmp/a.cu   (canon's lift alone is kept)
 *   ./carve run /tmp/a.cu                                       -> a[0] = 64 a[63] = 64 (wrong)
 * The second launch passes one buffer twice; every thread touches only its own element, so the
 * original is race-free: E[i] = 0, then E[i] += E[i] n times, stays 0. */
#include <stdio.h>
#include <cuda_runtime.h>
#define N 64
__global__ void colsum(float *E, float *A, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		E[i] = 0;
		for (int k = 0; k < n; k++)
			E[i] += A[i];
	}
}
int main()
{
	float h[N], e[N], *a_d, *e_d;
	for (int i = 0; i < N; i++) h[i] = 1.0f;
	cudaMalloc((void **)&a_d, sizeof h);
	cudaMalloc((void **)&e_d, sizeof h);
	cudaMemcpy(a_d, h, sizeof h, cudaMemcpyHostToDevice);
	colsum<<<2, 32>>>(e_d, a_d, N);          /* distinct buffers: the launch carve records */
	colsum<<<2, 32>>>(a_d, a_d, N);          /* the same buffer twice: in place */
	cudaMemcpy(e, a_d, sizeof e, cudaMemcpyDeviceToHost);
	printf("a[0] = %g a[63] = %g\n", e[0], e[63]);
	return 0;
}
