// expect: check 2 2:22: error: no kernel named 'kk'
#pragma carve launch kk grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
}
