// expect: check 2 4:3: error: a __global__ function cannot be called from device code
__global__ void inner(int *a) { a[0] = 1; }
__global__ void k(int *a) {
  inner(a);
}
