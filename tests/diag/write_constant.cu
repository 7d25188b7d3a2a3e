// expect: run 1 7:3: error: write to __constant__ memory
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = float[32] : zeros out
__constant__ float coef[32];
__global__ void k(float *out) {
  float *p = (float *)coef;
  p[threadIdx.x] = 2.0f;
  out[threadIdx.x] = coef[threadIdx.x];
}
