// expect: check 2 2:20: error: initializer of a file-scope variable must be a constant
__device__ int g = __syncthreads_count(1);
__global__ void k(int *a) { a[0] = 1; }
