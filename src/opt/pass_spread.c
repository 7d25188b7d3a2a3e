/* pass spread: a launch of fewer blocks than the GPU has SMs gets smaller blocks, so that its
 * warps spread over more SMs (issue 28 item 5: the sweeps of ADI and other factorizations run a
 * thread per row or column, N threads in blocks of 256: at N = 1024, 4 blocks on 4 of the
 * H100's 132 SMs, each SM's load/store units and L1 serving 8 warps of uncoalesced row walks
 * while 128 SMs idle). The block becomes the fewest whole warps that still give every SM a
 * block where the threads allow (x = 32 * ceil(threads / (32 * SMs)), at least one warp, at
 * most the launch's own), the grid covering the same threads. The reshape itself is the launch
 * pass's (pass_launch.c: its legality, the grid's cover, __launch_bounds__), run with that
 * shape; this pass only decides when and which, so it needs no opt-in: it applies to launches
 * that leave SMs without a block, where launch's measured slowdowns (full grids,
 * docs/results.md) do not apply, and the estimate must still clear OPT_RESHAPE_GAIN.
 *
 * Legal when the launch's blocks are fewer than the machine's SMs, its block is 1-D along x
 * (y and z of 1) with more than one warp, each thread runs a loop (a sweep: the work a block
 * holds is worth spreading; a kernel without one is a launch's overhead whatever its shape),
 * and the launch pass is legal at the chosen shape. */
#include "opt.h"
#include "../analysis/analysis.h"
#include <string.h>

extern const Pass pass_launch;

/* the block's new x extent, or 0 when the launch fills the SMs or cannot shrink */
static int spread_x(const PassCtx *c) {
  const Launch *L = c->L;
  int64_t blocks = L->grid[0] * L->grid[1] * L->grid[2];
  if (!c->m || c->m->sm_count <= 0 || blocks >= c->m->sm_count) return 0;
  if (L->block[1] != 1 || L->block[2] != 1 || L->block[0] <= 32) return 0;
  int64_t threads = blocks * L->block[0];
  int64_t warps = (threads + 32 * c->m->sm_count - 1) / (32 * c->m->sm_count);
  int64_t x = 32 * (warps > 0 ? warps : 1);
  /* the launch pass's values are powers of two from 16 to 1024: the next one up */
  int64_t p = 32;
  while (p < x) p *= 2;
  return p < L->block[0] ? (int)p : 0;
}

static Legality legal(PassCtx *c) {
  const Launch *L = c->L;
  int64_t blocks = L->grid[0] * L->grid[1] * L->grid[2];
  int x = spread_x(c);
  if (!x) {
    if (!c->m || blocks >= c->m->sm_count)
      snprintf(c->why, sizeof c->why, "the launch has %lld blocks, no fewer than the %d SMs",
               (long long)blocks, c->m ? c->m->sm_count : 0);
    else
      snprintf(c->why, sizeof c->why, "the block (%lldx%lldx%lld) is not 1-D with more than a warp",
               (long long)L->block[0], (long long)L->block[1], (long long)L->block[2]);
    return NOT_APPLICABLE;
  }
  Facts *f = facts_new(c->p, c->k);
  int nloops = 0;
  for (int i = 0; i < facts_nloops(f); i++) nloops += facts_loop(f, i)->fn == c->k;
  facts_free(f);
  if (!nloops) {
    snprintf(c->why, sizeof c->why, "no loop in the kernel: not a sweep");
    return NOT_APPLICABLE;
  }
  c->param[0] = x;
  c->param[1] = 1;
  c->param[2] = 0;
  char why[400];
  Legality r = pass_launch.legal(c);
  if (r != LEGAL) {
    snprintf(why, sizeof why, "%.399s", c->why);
    snprintf(c->why, sizeof c->why, "the launch pass at %dx1: %.400s", x, why);
    return r;
  }
  snprintf(c->why, sizeof c->why, "%lld blocks on %d SMs: blocks of %d threads instead of %lld",
           (long long)blocks, c->m->sm_count, x, (long long)L->block[0]);
  return LEGAL;
}

static bool apply(PassCtx *c) {
  int x = spread_x(c);
  if (!x) return false;
  c->param[0] = x;
  c->param[1] = 1;
  c->param[2] = 0;
  int64_t blocks = c->L->grid[0] * c->L->grid[1] * c->L->grid[2];
  if (!pass_launch.apply(c)) return false;
  char did[400];
  snprintf(did, sizeof did, "%.399s", c->did);
  snprintf(c->did, sizeof c->did, "%lld blocks on %d SMs spread: %.400s", (long long)blocks,
           c->m->sm_count, did);
  return true;
}

const Pass pass_spread = {
  .name = "spread",
  .summary =
    "a launch of fewer blocks than SMs gets smaller blocks, its warps spread over more SMs",
  .source = "Yang et al., PLDI 2010, Sec. 3.8 (the block sized for the machine); issue 28 item 5 "
            "(sweeps whose launches leave the GPU idle)",
  .nparams = 0,
  .motivation = "launch",
  .legal = legal,
  .apply = apply,
};
