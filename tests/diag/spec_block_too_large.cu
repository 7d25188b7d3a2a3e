// expect: run 2 2:22: error: block of 2048 threads: CUDA allows 1 to 1024
#pragma carve launch k grid(1) block(2048)
#pragma carve arg a = int[2048] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
