// expect: run 1 11:8: error: grid-wide sync not reached by every block: block (1,0,0) ended while 1 blocks wait here
// grid.sync() across blocks runs the blocks together (every block must reach it, as on the GPU);
// a block that returns before it while the others wait would hang the GPU: a fault that says so,
// never a barrier silently missing
#pragma carve launch k grid(2) block(32)
#pragma carve arg a = int[64] : zeros out
namespace cg = cooperative_groups;
__global__ void k(int *a) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 1) return;
  grid.sync();
  a[grid.thread_rank()] = 1;
}
