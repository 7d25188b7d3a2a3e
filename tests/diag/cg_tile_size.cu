// expect: check 2 5:32: error: tile size 3: a thread_block_tile has 1, 2, 4, 8, 16 or 32 threads
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *a) {
  auto t = cg::tiled_partition<3>(cg::this_thread_block());
  a[t.thread_rank()] = 1;
}
