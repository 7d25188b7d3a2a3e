// expect: check 2 2:25: error: unsupported C++: references
__device__ void inc(int &x) { x++; }
__global__ void k(int *a) {
  inc(a[0]);
}
