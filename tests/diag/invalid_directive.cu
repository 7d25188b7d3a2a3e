// expect: check 2 2:2: error: invalid preprocessing directive '#defien'
#defien N 4
__global__ void k(int *a) {
  a[0] = 1;
}
