// expect: run 2 carve: error: kernel 'k' has no parameter named 'm'
// flags: --arg m=3
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
