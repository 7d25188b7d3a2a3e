// expect: run 1 8:12: error: shuffle reads lane 16, which is not active
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = float[32] : zeros out
__global__ void k(float *a) {
  float v = threadIdx.x;
  /* lanes 16-31 skip the shuffle: lane 0 would read lane 16's undefined value */
  if (threadIdx.x < 16)
    a[0] = __shfl_down_sync(0xffffu, v, 16);
}
