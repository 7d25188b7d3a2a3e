// expect: run 1 12:7: error: unsupported: a cuda::barrier whose expected count (init's) is not the block's thread count
// carve runs a cuda::barrier's phase as __syncthreads: a barrier expecting fewer threads than the
// block has is refused where it is waited on, never a phase silently ended at the wrong count
#pragma carve launch k grid(1) block(64)
#pragma carve arg a = int[64] : zeros out
#include <cuda/barrier>
__global__ void k(int *a) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, 32);
  __syncthreads();
  auto token = bar.arrive();
  bar.wait(std::move(token));
  a[threadIdx.x] = 1;
}
