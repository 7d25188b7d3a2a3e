// expect: run 1 6:12: error: misaligned global read of 4 bytes
#pragma carve launch k grid(1) block(32)
#pragma carve arg in = int[64] : iota
#pragma carve arg out = int[32] : zeros out
__global__ void k(const int *in, int *out) {
  out[0] = *(const int *)((const char *)in + 2);
}
