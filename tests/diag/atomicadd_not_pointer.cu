// expect: check 2 4:13: error: first argument of 'atomicAdd' must be a pointer
__global__ void k(int *a) {
  int x = 0;
  atomicAdd(x, 1);
  a[0] = x;
}
