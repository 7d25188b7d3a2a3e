/* A lambda in device code as shfl_scan's shfl_intimage_rows writes one: `auto f = [&x](params)
 * -> T { ... };` capturing locals by reference (a write after the declaration is seen by a later
 * call; the lambda's own writes reach the local), a switch returning from its cases and
 * `return {};` (value-initialized) for the rest. Printed as written. Every value checked by assert. */
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = unsigned[128] : random(7, 0, 1000)
#pragma carve arg b = unsigned[32] : zeros out
struct packed { uint4 x, y; };
__global__ void k(const unsigned *a, unsigned *b) {
  unsigned t = threadIdx.x;
  packed r;
  r.x = make_uint4(a[4 * t], a[4 * t + 1], a[4 * t + 2], a[4 * t + 3]);
  r.y = make_uint4(1, 2, 3, 4);
  int calls = 0;
  auto pick = [&r, &calls](unsigned int i) -> const uint4 {
    calls++;
    switch (i) {
    case 0: return r.x;
    case 1: return r.y;
    }
    return {};
  };
  uint4 p = pick(0), q = pick(1), z = pick(7);
  r.y.w = 40;
  assert(p.x == a[4 * t] && p.w == a[4 * t + 3]);
  assert(q.z == 3 && q.w == 4);
  assert(z.x == 0 && z.y == 0 && z.z == 0 && z.w == 0);
  assert(pick(1).w == 40 && calls == 4);
  b[t] = p.x + q.y;
}
