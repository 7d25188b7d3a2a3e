// expect: run 2 7:14: note: warp 0 of block (0,0,0) thread (0,0,0) was here, after 0 of 1 blocks
// flags: --max-steps 100000
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__global__ void k(int *out) {
  int i = 0;
  while (out[0] == 0)
    i++;
  out[threadIdx.x] = i;
}
