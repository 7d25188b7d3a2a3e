// expect: run 2 5:19: error: cannot read
// A buffer whose file cannot be read: the launch fails, and the buffer it had allocated is freed
// (fuzz_cli: LeakSanitizer found 4 MB lost in launch_prepare).
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = float[1048576] : file("no-such-file.bin")
#pragma carve arg c = float[32] : zeros out
__global__ void k(const float *a, float *c) { c[threadIdx.x] = a[threadIdx.x]; }
