// expect: run 2 carve: error: --arg n=
// flags: --arg n=
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a, int n) {
  a[threadIdx.x] = n;
}
