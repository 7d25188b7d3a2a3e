// expect: check 2 5:19: error: a second '#pragma carve arg' for parameter 'n'
// stderr: (the first is at line 4)
#pragma carve launch k grid(1) block(32)
#pragma carve arg n = 16
#pragma carve arg n = 32
#pragma carve arg a = float[32] : zeros out
__global__ void k(float *a, int n) { int i = threadIdx.x; if (i < n) a[i] = 1.0f; }
