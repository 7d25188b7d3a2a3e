// expect: run 1 7:14: error: step limit exceeded
// flags: --max-steps 100000
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__global__ void k(int *out) {
  int i = 0;
  while (out[0] == 0)
    i++;
  out[threadIdx.x] = i;
}
