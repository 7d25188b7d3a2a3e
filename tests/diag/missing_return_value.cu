// expect: check 2 3:3: error: non-void function 'f' should return a value
__device__ int f(int x) {
  return;
}
__global__ void k(int *a) {
  a[0] = f(1);
}
