// expect: check 2 4:22: error: a second launch specification for 'k'
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
#pragma carve launch k grid(2) block(32)
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
