/* A program that spends long in host code before its first launch (an input generated point by
 * point, as benchmark programs do at their own size): interpreted, the host code runs past a
 * small --max-seconds before any launch, and the commands that want only the launches run it
 * again built by nvcc, its host code native (tests/host/run.sh). Its own check: the sum. */
#include <stdio.h>
#include <stdlib.h>

#define N 4096
#define REPS 20000

__global__ void scale(float *x, float s, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) x[i] = x[i] * s;
}

int main()
{
	float *h = (float *)malloc(N * sizeof(float));
	/* a slow generator: REPS rounds over the input */
	unsigned int seed = 7;
	for (int r = 0; r < REPS; r++)
		for (int i = 0; i < N; i++) {
			seed = seed * 1103515245u + 12345u;
			if (r == REPS - 1) h[i] = (float)((seed >> 16) % 100);
		}
	float *d;
	cudaMalloc(&d, N * sizeof(float));
	cudaMemcpy(d, h, N * sizeof(float), cudaMemcpyHostToDevice);
	scale<<<(N + 255) / 256, 256>>>(d, 0.5f, N);
	float *out = (float *)malloc(N * sizeof(float));
	cudaMemcpy(out, d, N * sizeof(float), cudaMemcpyDeviceToHost);
	double a = 0, b = 0;
	for (int i = 0; i < N; i++) { a += out[i]; b += h[i] * 0.5f; }
	printf("late_launch: sum %.1f, %s\n", a, a == b ? "PASS" : "FAIL");
	cudaFree(d);
	free(h); free(out);
	return a == b ? 0 : 1;
}
