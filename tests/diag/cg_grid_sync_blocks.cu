// expect: run 1 10:8: error: unsupported: grid-wide sync
// stderr: carve runs the blocks one after another
// grid.sync() across more than one block cannot run in carve's engines (blocks run one after
// another): a fault that says so, never a barrier silently missing
#pragma carve launch k grid(2) block(32)
#pragma carve arg a = int[64] : zeros out
namespace cg = cooperative_groups;
__global__ void k(int *a) {
  cg::grid_group grid = cg::this_grid();
  grid.sync();
  a[grid.thread_rank()] = 1;
}
