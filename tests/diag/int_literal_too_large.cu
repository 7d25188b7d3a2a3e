// expect: check 2 4:10: error: integer literal is too large to be represented in any integer type
// No C type holds it; it was silently -1.
__global__ void k(long long *a) {
  a[0] = 99999999999999999999;
}
