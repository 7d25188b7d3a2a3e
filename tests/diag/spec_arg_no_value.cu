// expect: check 2 4:22: error: expected a constant expression
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
#pragma carve arg n =
__global__ void k(int *a, int n) {
  if (threadIdx.x < n) a[threadIdx.x] = 1;
}
