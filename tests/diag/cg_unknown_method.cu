// expect: check 2 5:12: error: unsupported: cooperative groups method 'group_dim' on a thread_block
namespace cg = cooperative_groups;
__global__ void k(int *a) {
  cg::thread_block b = cg::this_thread_block();
  a[0] = b.group_dim().x;
}
