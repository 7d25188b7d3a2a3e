// expect: check 2 4:10: error: unterminated argument list invoking macro 'ADD'
#define ADD(x, y) ((x) + (y))
__global__ void k(int *a) {
  a[0] = ADD(1, 2;
}
