// expect: check 2 3:9: error: expected an expression before ';'
// stdout: __global__ void k(float *a, int n)
int x = ;
__global__ void k(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] = 1.0f; }
