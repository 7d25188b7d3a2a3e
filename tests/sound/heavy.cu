/* A thread that runs a long loop (a thread-per-column kernel's shape): at the full size the
 * original's blocks take more warp-steps than verification's budget, at the reduced sizes not. */
#ifndef N
#define N 128
#endif
#pragma carve launch heavy grid(N / 64) block(64)
#pragma carve arg out = float[N] : zeros out
#pragma carve arg x = float[N] : random(1)
__global__ void heavy(float *out, const float *x) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int i = 0; i < N * 30000; i++) s += x[j] * 0.5f;
  out[j] = s;
}
