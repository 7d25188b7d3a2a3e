// expect: run 1 9:46: error: call to 'helper', whose definition carve could not read: tests/diag/device_body_unread.cu:8:32: use of undeclared identifier 'undefined_thing'
// stderr: 8:32: error: use of undeclared identifier 'undefined_thing'
// A device function whose body does not parse: the kernel still loads (a call may never be
// reached), and a call that is reached names the cause (issue 29; warpAggregatedAtomicsCG's
// atomicAggInc), never "declared but never defined".
#pragma carve launch k grid(1) block(32)
#pragma carve arg a = int[32] : zeros out
__device__ int helper(int x) { undefined_thing y; return x; }
__global__ void k(int *a) { a[threadIdx.x] = helper(threadIdx.x); }
