// expect: check 2 2:14: error: '##' cannot appear at either end of a macro expansion
#define P(x) ## x
__global__ void k(int *a) {
  a[0] = 1;
}
