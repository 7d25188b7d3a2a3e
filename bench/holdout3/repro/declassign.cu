/* bench/holdout3/repro/declassign.cu: one product, C = A * A^T, in two spellings.
 *   ./carve optimize repro/declassign.cu -o /tmp/d.cu
 * aat_decl (indices declared with their values, the counter in its loop): canon lifts the sum
 * out of global memory and the passes apply. aat_assign (`int i, j, k;` at the top, assigned
 * later, as many people write): canon applies only the guard; scalar: "the loop is not
 * 'for (T i = START; COND; ...)'", tile: "a declaration the pass does not move ('i')". */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#define N 128
__global__ void aat_decl(float *a, float *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i >= N || j >= N)
		return;
	c[i * N + j] = 0.0f;
	for (int k = 0; k < N; k++)
		c[i * N + j] += a[i * N + k] * a[j * N + k];
}
__global__ void aat_assign(float *a, float *c)
{
	int i, j, k;
	j = blockIdx.x * blockDim.x + threadIdx.x;
	i = blockIdx.y * blockDim.y + threadIdx.y;
	if (i >= N || j >= N)
		return;
	c[i * N + j] = 0.0f;
	for (k = 0; k < N; k++)
		c[i * N + j] += a[i * N + k] * a[j * N + k];
}
int main()
{
	size_t bytes = N * N * sizeof(float);
	float *h = (float *)malloc(bytes), *r1 = (float *)malloc(bytes), *r2 = (float *)malloc(bytes);
	float *a, *c;
	for (int i = 0; i < N * N; i++) h[i] = (float)(i % 7) / 7.0f;
	cudaMalloc((void **)&a, bytes);
	cudaMalloc((void **)&c, bytes);
	cudaMemcpy(a, h, bytes, cudaMemcpyHostToDevice);
	dim3 block(32, 8), grid(N / 32, N / 8);
	aat_decl<<<grid, block>>>(a, c);
	cudaMemcpy(r1, c, bytes, cudaMemcpyDeviceToHost);
	aat_assign<<<grid, block>>>(a, c);
	cudaMemcpy(r2, c, bytes, cudaMemcpyDeviceToHost);
	int bad = 0;
	for (int i = 0; i < N * N; i++) bad += r1[i] != r2[i];
	printf("%s\n", bad ? "differ" : "same");
	return bad != 0;
}
