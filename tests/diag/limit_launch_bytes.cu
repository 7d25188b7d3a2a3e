// expect: run 2 5:19: error: buffer 'b' takes the launch's buffers past the limit of 8589934592 bytes (LIMIT_LAUNCH_BYTES
// The launch's buffers together are bounded before any is allocated (fuzz_cli filled 16 GiB).
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[1073741824] : zeros
#pragma carve arg b = int[1073741825] : iota(1)
#pragma carve arg c = int[32] : zeros out
__global__ void k(const int *a, const int *b, int *c) { c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x]; }
