// expect: run 2 4:19: error: parameter 'n' is a scalar ('int'), not a pointer
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
#pragma carve arg n = int[4] : zeros
__global__ void k(int *a, int n) {
  if (threadIdx.x < n) a[threadIdx.x] = 1;
}
