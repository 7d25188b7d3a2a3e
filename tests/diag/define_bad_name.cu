// expect: check 2 2:9: error: macro name must be an identifier
#define 3 x
__global__ void k(int *a) {
  a[0] = 1;
}
