/* What shfl_scan's get_prefix_sum does to return its 16 sums as a struct: memcpy (and memset) in
 * device code, from carve's device library (byte by byte; the print keeps memcpy, which nvcc
 * compiles). alignof, _Alignof and __alignof__ of a type are size_t constants (the CUDA samples'
 * globalToShmemAsyncCopy writes alignof in an expression). Every value checked by assert. */
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = unsigned[64] : random(4, 0, 1000)
#pragma carve arg b = unsigned[256] : zeros out
struct packed { uint4 x, y; };
__global__ void k(const unsigned *a, unsigned *b) {
  unsigned t = threadIdx.x, p = a[2 * t], q = a[2 * t + 1];
  unsigned r[8];
  for (int i = 0; i < 4; i++) { r[i] = p + i; r[4 + i] = q * 2 + i; }
  packed out;
  memset(&out, 0, sizeof(out));
  assert(out.x.x == 0 && out.y.w == 0);
  memset(&out.y, 0xff, sizeof(uint4));
  assert(out.y.z == 0xffffffffu && out.x.w == 0);
  memcpy(&out, r, sizeof(out));
  assert(out.x.x == p && out.x.w == p + 3 && out.y.z == q * 2 + 2);
  size_t al = alignof(packed) + __alignof__(float) + _Alignof(double);
  assert(al == 16 + 4 + 8);
  b[8 * t] = out.x.x;
  b[8 * t + 7] = out.y.w;
}
