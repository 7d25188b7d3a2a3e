// expect: run 1 5:22: error: lane calls a shuffle with a mask (0x0000ffff) that excludes itself
#pragma carve launch k grid(1) block(32)
#pragma carve arg out = int[32] : zeros out
__global__ void k(int *out) {
  out[threadIdx.x] = __shfl_sync(0xffff, (int)threadIdx.x, 0);
}
