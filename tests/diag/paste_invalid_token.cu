// expect: check 2 4:14: error: pasting '+' and '-' does not give a valid
#define CAT(x, y) x ## y
__global__ void k(int *a) {
  a[0] = CAT(+, -) 1;
}
