// expect: run 1 6:3: error: shared-memory race
#pragma carve launch k grid(1) block(64)
#pragma carve arg out = float[64] : zeros out
__global__ void k(float *out) {
  __shared__ float s[64];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[63 - threadIdx.x];
}
