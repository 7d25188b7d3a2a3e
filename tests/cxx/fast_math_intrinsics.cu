/* fast_math.cu written with the intrinsics */
#pragma carve launch k grid(1) block(64)
#pragma carve arg a = float[64] : iota(-4, 0.125) out
__global__ void k(float *a) {
  float v = a[threadIdx.x];
  a[threadIdx.x] = __expf(v) * __sinf(v);
}
