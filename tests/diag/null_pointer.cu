// expect: run 1 6:3: error: write of 4 bytes through a null pointer
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__global__ void k(int *out) {
  int *p = 0;
  *p = 1;
  out[threadIdx.x] = 1;
}
