// expect: check 2 2:7: error: no declaration of 'nowhere::f' to use
using nowhere::f;
__global__ void k(float *a) { a[0] = 1.0f; }
