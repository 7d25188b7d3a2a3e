// expect: check 2 4:17: error: unsupported: designated initializers
struct P { int x, y; };
__global__ void k(int *a) {
  struct P p = {.y = 1, .x = 2};
  a[0] = p.x;
}
