// expect: check 2 2:38: error: grid has at most 3 dimensions
#pragma carve launch k grid(1, 1, 1, 1) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
