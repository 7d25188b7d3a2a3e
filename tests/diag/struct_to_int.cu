// expect: check 2 5:10: error: cannot convert 'struct P' to 'int'
struct P { int x; };
__global__ void k(struct P *p, int *a) {
  struct P q = p[0];
  a[0] = q;
}
