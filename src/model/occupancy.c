/* occupancy: blocks that fit on one SM, bounded by warps, blocks, registers and shared memory.
 * For cc >= 2 the register file is handed out per warp in units of reg_alloc_unit and split over
 * warp_alloc_gran sub-partitions (the rule of NVIDIA's cuda_occupancy.h, checked against it by
 * tests/test_model.c); for cc 1.x it is handed out per block (Ryoo, Table 2.2 and the CUDA
 * occupancy calculator spreadsheet). */
#include "model.h"
#include <limits.h>

static int round_up(int x, int unit) { return unit > 0 ? (x + unit - 1) / unit * unit : x; }

const char *occ_limit_name(OccLimit l) {
  static const char *n[] = {"none",      "warps per SM",  "blocks per SM",
                            "registers", "shared memory", "block size"};
  return n[l];
}

Occupancy occupancy(const Machine *m, int threads, int regs, int smem) {
  Occupancy o = {0};
  int warps = (threads + m->warp_size - 1) / m->warp_size;
  if (threads <= 0 || threads > m->max_threads_per_block) {
    o.limit = LIMIT_BLOCK_SIZE;
    return o;
  }
  o.by_warps = m->max_warps_per_sm / warps;
  o.by_blocks = m->max_blocks_per_sm;
  /* registers */
  if (regs <= 0) o.by_regs = INT_MAX;
  else if (regs > m->max_regs_per_thread) o.by_regs = 0;
  else if (m->reg_alloc == REGALLOC_PER_BLOCK) {
    int per_block =
      round_up(round_up(warps, m->warp_alloc_gran) * m->warp_size * regs, m->reg_alloc_unit);
    o.by_regs = per_block > m->max_regs_per_block ? 0 : m->regs_per_sm / per_block;
  } else {
    int per_warp = round_up(regs * m->warp_size, m->reg_alloc_unit);
    int parts = m->warp_alloc_gran > 0 ? m->warp_alloc_gran : 1;
    /* the hardware check assumes every sub-partition gets the block's warps rounded up */
    if (per_warp * round_up(warps, parts) > m->max_regs_per_block ||
        per_warp * warps > m->max_regs_per_block)
      o.by_regs = 0;
    else o.by_regs = (m->regs_per_sm / parts / per_warp) * parts / warps;
  }
  /* shared memory */
  int per_block = round_up(smem + m->smem_reserved_per_block, m->smem_alloc_unit);
  int limit_block = smem > m->smem_per_block ? m->smem_per_block_optin : m->smem_per_block;
  if (smem > m->smem_per_block_optin || smem > limit_block) o.by_smem = 0;
  else o.by_smem = per_block > 0 ? m->smem_per_sm / per_block : INT_MAX;
  int b = o.by_warps;
  o.limit = LIMIT_WARPS;
  if (o.by_blocks < b) {
    b = o.by_blocks;
    o.limit = LIMIT_BLOCKS;
  }
  if (o.by_regs < b) {
    b = o.by_regs;
    o.limit = LIMIT_REGISTERS;
  }
  if (o.by_smem < b) {
    b = o.by_smem;
    o.limit = LIMIT_SHARED;
  }
  o.blocks_per_sm = b;
  o.smem_per_sm = b * per_block;
  o.warps_per_sm = b * warps;
  o.occupancy = (double)o.warps_per_sm / m->max_warps_per_sm;
  return o;
}
