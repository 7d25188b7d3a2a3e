// expect: run 1 7:5: error: out-of-bounds local write of 4 bytes: element 4 of 'tmp' (4 elements)
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__global__ void k(int *out) {
  int tmp[4];
  for (int i = 0; i <= 4; i++)
    tmp[i] = i;
  out[threadIdx.x] = tmp[0] + tmp[3];
}
