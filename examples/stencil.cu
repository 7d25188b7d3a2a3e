/* stencil: 1-D 7-point weighted stencil through dynamic shared memory with a halo; weights in
 * __constant__ memory. Written on the spot to check carve on a kernel its tests did not contain. */
#ifndef N
#define N 1000
#endif
#define R 3
#pragma carve launch stencil1d grid((N + 255) / 256) block(256) shared((256 + 2 * R) * sizeof(float))
#pragma carve arg in = float[N + 2 * R] : random(5, -1, 1)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg n = N
__constant__ float w[2 * R + 1] = {0.05f, 0.1f, 0.2f, 0.3f, 0.2f, 0.1f, 0.05f};
__global__ void stencil1d(const float *in, float *out, int n) {
  extern __shared__ float s[];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + R;
  if (g < n + 2 * R) s[l - R] = in[g];
  if (threadIdx.x < 2 * R && g + blockDim.x < n + 2 * R) s[l - R + blockDim.x] = in[g + blockDim.x];
  __syncthreads();
  if (g < n) {
    float acc = 0.0f;
#pragma unroll
    for (int k = -R; k <= R; k++) acc += w[k + R] * s[l + k];
    out[g] = acc;
  }
}
