// expect: check 2 5:1: error: expected ',' before '__global__'
// stdout: __global__ void k(float *a, int n)
// a host variable missing its ';' must not swallow the kernel after it (reported, kernel kept)
int x = 1
__global__ void k(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] = 1.0f; }
