// expect: run 2 4:31: error: no value for parameter 'n' of 'k'
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a, int n) {
  if (threadIdx.x < n) a[threadIdx.x] = 1;
}
