// expect: check 2 3:15: error: expected an expression before ';'
// a broken host constant is reported, not skipped as C++ carve does not take
const int N = ;
__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }
