// expect: check 2 5:10: error: calling a __host__ function 'twice' from device code
int twice(int x) { return 2 * x; }

__global__ void k(int *a) {
  a[0] = twice(a[0]);
}
