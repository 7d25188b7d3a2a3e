// expect: check 2 5:1: error: unterminated comment
__global__ void k(int *a) {
  a[0] = 1;
}
/* this comment never ends
__global__ void k2(int *a) { a[0] = 2; }
