// expect: run 1 6:22: error: out-of-bounds constant read of 4 bytes: element 4 of 'c' (4 elements)
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__constant__ int c[4];
__global__ void k(int *out) {
  out[threadIdx.x] = c[threadIdx.x];
}
