/* sm_80's __reduce_add_sync, as the reduction sample's warpReduceSum<int> specialization calls it:
 * the int sum of the lanes of the mask (a full warp, and two interleaved half masks), and the
 * unsigned overload (its type kept: the sum wraps as unsigned). Every value checked by assert. */
#pragma carve launch k grid(1) block(64)
#pragma carve arg a = int[64] : random(1, -100, 100)
#pragma carve arg u = unsigned[64] : zeros out
__global__ void k(int *a, unsigned *u) {
  int t = threadIdx.x;
  int s = __reduce_add_sync(0xffffffffu, a[t]);
  int e = 0;
  for (int i = t / 32 * 32; i < t / 32 * 32 + 32; i++) e += a[i];
  assert(s == e);
  unsigned m = t % 2 ? 0xaaaaaaaau : 0x55555555u;
  unsigned v = __reduce_add_sync(m, 3000000000u);
  assert(v == 16u * 3000000000u && v > 0u);
  u[t] = v;
}
