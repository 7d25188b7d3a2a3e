// expect: run 2 3:19: error: parameter 'a' is a pointer ('int *'); give it a buffer
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = 32
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
