// expect: run 1 6:26: error: integer division by zero
#pragma carve launch k grid(1) block(32)
#pragma carve arg d = int[32] : zeros
#pragma carve arg out = int[32] : zeros out
__global__ void k(const int *d, int *out) {
  out[threadIdx.x] = 100 / d[threadIdx.x];
}
