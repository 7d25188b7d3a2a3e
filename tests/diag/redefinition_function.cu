// expect: check 2 3:16: error: redefinition of 'f'
__device__ int f(int x) { return x; }
__device__ int f(int x) { return x + 1; }
__global__ void k(int *a) {
  a[0] = f(1);
}
