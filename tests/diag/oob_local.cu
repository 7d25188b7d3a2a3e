// expect: run 1 7:5: error: out-of-bounds local write
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__global__ void k(int *out) {
  int tmp[4];
  for (int i = 0; i <= 4 + 10000; i++)
    tmp[i] = i;
  out[threadIdx.x] = tmp[0];
}
