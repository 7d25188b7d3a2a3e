// expect: check 2 2:32: error: unknown launch setting 'threads' (expected grid, block or shared)
#pragma carve launch k grid(1) threads(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
