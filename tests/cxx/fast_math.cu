/* --use_fast_math: expf and sinf are computed as __expf and __sinf (tests/cxx/run.sh compares
 * with fast_math_intrinsics.cu) */
#pragma carve launch k grid(1) block(64)
#pragma carve arg a = float[64] : iota(-4, 0.125) out
__global__ void k(float *a) {
  float v = a[threadIdx.x];
  a[threadIdx.x] = expf(v) * sinf(v);
}
