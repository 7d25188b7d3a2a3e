/* metrics: dynamic counts from the interpreter (instructions by class, barriers, stalling
 * points, per thread), Ryoo's Efficiency and Utilization (eqs. 5.1, 5.2), and carve's
 * bottleneck time estimate from the counts, the analyzer's traffic, the occupancy and the
 * machine's measured ceilings. */
#include "metrics.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

double ryoo_efficiency(double instr, double threads) { return instr > 0 && threads > 0 ? 1.0 / (instr * threads) : 0; }

double ryoo_utilization(double instr, double regions, int w_tb, int b_sm) {
  if (regions <= 0) return 0;
  return instr / regions * ((w_tb - 1) / 2.0 + (b_sm - 1) * (double)w_tb);
}

/* what the hooks share: the counts, whether a global load awaits its consumer, the sampled blocks */
typedef struct { Counts *c; bool pending_load; int64_t *blocks; int nblocks; } CountCtx;

static int ins_class(Node *n) {
  switch (n->kind) {
  case ND_ADD: case ND_SUB: case ND_MUL: case ND_DIV: case ND_MOD: case ND_NEG:
  case ND_EQ: case ND_NE: case ND_LT: case ND_LE: case ND_GT: case ND_GE:
    if (n->kind >= ND_EQ) return is_flonum(n->lhs->ty) ? (n->lhs->ty->kind == TY_DOUBLE ? CL_FP64 : CL_FP32) : CL_INT;
    if (n->ty->kind == TY_FLOAT) return n->kind == ND_DIV ? CL_SFU : CL_FP32;
    if (n->ty->kind == TY_DOUBLE) return CL_FP64;
    return CL_INT;
  case ND_BITAND: case ND_BITOR: case ND_BITXOR: case ND_SHL: case ND_SHR: case ND_BITNOT: case ND_NOT:
  case ND_PREINC: case ND_PREDEC: case ND_POSTINC: case ND_POSTDEC: case ND_ASSIGN_OP:
    return is_flonum(n->ty) ? (n->ty->kind == TY_DOUBLE ? CL_FP64 : CL_FP32) : CL_INT;
  case ND_INDEX: return CL_INT;   /* address arithmetic */
  case ND_CAST:
    if (n->implicit && is_integer(n->ty) == is_integer(n->lhs->ty) && n->ty->size == n->lhs->ty->size) return -1;
    return is_flonum(n->ty) || is_flonum(n->lhs->ty) ? CL_CVT : -1;
  case ND_CALL:
    if (n->builtin == BI_MATH) {
      const char *s = n->math->name;
      if (n->ty->kind == TY_DOUBLE) return CL_FP64;
      if (!strcmp(s, "fabsf") || !strcmp(s, "fminf") || !strcmp(s, "fmaxf") || !strcmp(s, "fmaf") || !strncmp(s, "__f", 3) ||
          !strcmp(s, "floorf") || !strcmp(s, "ceilf") || !strcmp(s, "truncf") || !strcmp(s, "rintf"))
        return CL_FP32;
      return CL_SFU;
    }
    if (n->builtin == BI_MIN || n->builtin == BI_MAX || n->builtin == BI_ABS) return is_flonum(n->ty) ? CL_FP32 : CL_INT;
    if (n->builtin >= BI_SHFL && n->builtin <= BI_ALL) return CL_INT;
    if (n->builtin >= BI_SYNCTHREADS && n->builtin <= BI_SYNCTHREADS_OR) return CL_BAR;
    return -1;
  case ND_COND: case ND_LOGAND: case ND_LOGOR: return CL_BRANCH;
  default: return -1;
  }
}

/* SASS instructions one source operation becomes, where it is more than one: precise float
 * transcendentals are software sequences around the SFU (CUDA Programming Guide, "Mathematical
 * Functions" ulp tables; counted in nvcc -O3 sm_90 output), division is a reciprocal and fixup */
static double weight(Node *n) {
  if (n->kind == ND_DIV && is_flonum(n->ty)) return 8;
  if (n->kind == ND_DIV || n->kind == ND_MOD) return is_integer(n->ty) ? 20 : 8;
  if (n->kind != ND_CALL || n->builtin != BI_MATH) return 1;
  const char *s = n->math->name;
  if (!strncmp(s, "__", 2)) return 2;                       /* fast intrinsics: the SFU op and a scale */
  if (!strcmp(s, "sinf") || !strcmp(s, "cosf") || !strcmp(s, "tanf")) return 24;
  if (!strcmp(s, "expf") || !strcmp(s, "exp2f") || !strcmp(s, "logf") || !strcmp(s, "log2f") || !strcmp(s, "log10f")) return 12;
  if (!strcmp(s, "powf")) return 40;
  if (!strcmp(s, "sqrtf") || !strcmp(s, "rsqrtf")) return 4;
  if (n->ty->kind == TY_DOUBLE) return 30;
  return 1;
}

static void on_node(void *ctx, Node *n, Mask m) {
  CountCtx *x = ctx;
  int cl = ins_class(n);
  if (cl < 0) return;
  double w = weight(n), lanes = __builtin_popcount(m);
  if (w > 1 && cl == CL_SFU) {
    /* one SFU operation; the rest of the sequence issues on the FP32 pipes */
    x->c->lanes[CL_SFU] += lanes;
    x->c->lanes[CL_FP32] += lanes * (w - 1);
  } else {
    x->c->lanes[cl] += lanes * w;
  }
  x->c->warp_ins[cl] += 1;
  /* a computation after loads consumes them: the end of a stalling region */
  if (cl == CL_BAR) { x->c->regions_lanes += lanes; x->pending_load = false; return; }
  if (x->pending_load && cl != CL_INT) { x->c->regions_lanes += lanes; x->pending_load = false; }
}

static void on_access(void *ctx, Node *at, int space, AccessKind kind, int size, const uint64_t *addr, Mask m, int64_t blk, int warp) {
  CountCtx *x = ctx;
  double lanes = __builtin_popcount(m);
  int cl = space == SPACE_GLOBAL ? (kind == ACC_LOAD ? CL_GLD : kind == ACC_STORE ? CL_GST : CL_ATOM)
                                 : space == SPACE_SHARED ? (kind == ACC_LOAD ? CL_SLD : CL_SST) : CL_LOCAL;
  x->c->lanes[cl] += lanes;
  x->c->warp_ins[cl] += 1;
  if (x->pending_load && kind != ACC_LOAD) { x->c->regions_lanes += lanes; x->pending_load = false; }
  if (space == SPACE_GLOBAL && kind == ACC_LOAD) x->pending_load = true;
  (void)at; (void)size; (void)addr; (void)blk; (void)warp;
}

static void on_branch(void *ctx, Node *at, Mask active, Mask taken, int64_t blk, int warp) {
  CountCtx *x = ctx;
  if (at->kind == ND_LOGAND || at->kind == ND_LOGOR || at->kind == ND_COND) return;   /* counted as nodes */
  x->c->lanes[CL_BRANCH] += __builtin_popcount(active);
  x->c->warp_ins[CL_BRANCH] += 1;
  (void)taken; (void)blk; (void)warp;
}

static bool first_warp(void *ctx, int64_t b, int w, int nwarps) { (void)ctx; (void)b; return w == 0 || w == nwarps - 1; }

static bool want_block(void *ctx, int64_t b) {
  CountCtx *x = ctx;
  for (int i = 0; i < x->nblocks; i++) if (x->blocks[i] == b) return true;
  return false;
}

int count_instructions(Launch *L, Counts *c, int max_blocks) {
  memset(c, 0, sizeof *c);
  CountCtx b = {c, false, NULL, 0};
  int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  int want = max_blocks > 0 ? max_blocks : 2;
  if (total > want) {
    b.blocks = xmalloc(sizeof(int64_t) * (size_t)want);
    for (int i = 0; i < want; i++) b.blocks[b.nblocks++] = want > 1 ? (int64_t)((double)i * (double)(total - 1) / (double)(want - 1)) : total / 2;
  }
  Hooks h = {.ctx = &b, .access = on_access, .branch = on_branch, .node = on_node, .want_block = b.nblocks ? want_block : NULL,
             .want_warp = first_warp};
  RunOptions ro = {.hooks = &h, .warp_step_cap = 20000000};
  RunStats st;
  int rc = interp_run(L, &ro, &st);
  free(b.blocks);
  int64_t threads_per_block = L->block[0] * L->block[1] * L->block[2];
  int warps_per_block = (int)((threads_per_block + 31) / 32);
  int warps_run = L->kernel->uses_barrier ? warps_per_block : (warps_per_block > 2 ? 2 : warps_per_block);
  c->threads_sampled = (double)st.blocks_run * warps_run * 32.0;
  if (c->threads_sampled > (double)st.blocks_run * (double)threads_per_block) c->threads_sampled = (double)st.blocks_run * (double)threads_per_block;
  c->truncated = st.warps_truncated > 0;
  /* barriers: the lanes of a thread that reached them are counted from the node hook via calls */
  return rc;
}

/* ---------------- the time estimate ---------------- */
static bool footprint_fits_l2(Launch *L, const Machine *m) {
  double f = 0;
  for (int i = 1; i < L->nbufs; i++) f += (double)L->bufs[i].bytes;
  return m->l2_bytes > 0 && f <= (double)m->l2_bytes;
}

Ceilings ceilings_for(const Machine *m, const char *path) {
  Ceilings c = {m->dram_copy_gbps > 0 ? m->dram_copy_gbps : m->dram_peak_gbps * 0.85, m->l2_read_gbps, m->smem_read_gbps,
                m->fp32_measured_gflops > 0 ? m->fp32_measured_gflops : m->fp32_peak_gflops, 0, m->launch_overhead_us, m->clock_mhz,
                0, "machine description"};
  if (m->dram_latency_cycles > 0 && m->clock_mhz > 0) c.latency_ns = m->dram_latency_cycles / m->clock_mhz * 1e3;
  size_t n;
  char *js = path ? read_file(path, &n) : NULL;
  if (js && m->cc_major >= 7) {
    double v = 0;
    if (json_number(js, "copy_gbps", &v) && v > 0) c.dram_gbps = v;
    if (json_number(js, "l2_gbps", &v) && v > 0) c.l2_gbps = v;
    if (json_number(js, "shared_gbps", &v) && v > 0) c.shared_gbps = v;
    if (json_number(js, "fp32_gflops", &v) && v > 0) c.fp32_gflops = v;
    if (json_number(js, "global_latency_ns", &v) && v > 0) c.latency_ns = v;
    if (json_number(js, "l2_latency_ns", &v) && v > 0) c.l2_latency_ns = v;
    if (json_number(js, "launch_overhead_us", &v) && v > 0) c.launch_us = v;
    if (json_number(js, "clock_mhz", &v) && v > 0) c.clock_mhz = v;
    c.source = "calibration file";
  }
  free(js);
  if (c.l2_gbps <= 0) c.l2_gbps = c.dram_gbps * 2.5;
  if (c.shared_gbps <= 0) c.shared_gbps = m->sm_count * 128.0 * c.clock_mhz * 1e-3;
  if (c.latency_ns <= 0) c.latency_ns = 500;
  if (c.launch_us <= 0) c.launch_us = 4;
  return c;
}

const char *bottleneck_name(int b) {
  static const char *n[] = {"instruction issue", "special-function units", "DRAM bandwidth", "L2 bandwidth", "shared-memory bandwidth",
                            "memory latency (too little parallelism to hide it)", "launch overhead"};
  return n[b];
}

Estimate estimate_time(Launch *L, const Machine *m, const Counts *c, const Analysis *a, Occupancy oc, Ceilings ce) {
  Estimate e = {0};
  int64_t tpb = L->block[0] * L->block[1] * L->block[2];
  int64_t blocks = L->grid[0] * L->grid[1] * L->grid[2];
  double threads = (double)tpb * (double)blocks;
  e.threads = threads;
  double ts = c->threads_sampled > 0 ? c->threads_sampled : 1;
  double instr = 0;
  for (int k = 0; k < CL_N; k++) instr += c->lanes[k] / ts;
  e.instr_per_thread = instr;
  e.regions_per_thread = 1 + c->regions_lanes / ts;
  e.efficiency = ryoo_efficiency(instr, threads);
  int w_tb = (int)(tpb / 32 > 0 ? tpb / 32 : 1);
  e.utilization = ryoo_utilization(instr, e.regions_per_thread, w_tb, oc.blocks_per_sm);
  double clock = ce.clock_mhz * 1e6;
  int per_wave = oc.blocks_per_sm * m->sm_count;
  e.waves = per_wave ? ceil((double)blocks / per_wave) : 0;
  double fill = per_wave ? (double)blocks / (e.waves * per_wave) : 1;   /* wave quantization */
  /* issue: 4 warp-instructions per clock per SM (one per scheduler) */
  double warp_instr = instr * threads / 32.0;
  /* issue: 4 warp-instructions per clock per SM; a grid smaller than the GPU issues on its SMs only,
   * and fewer than 4 resident warps leave schedulers idle */
  double sms = blocks < m->sm_count ? (double)blocks : (double)m->sm_count;
  double resident = oc.warps_per_sm > 0 ? (blocks < per_wave ? (double)oc.warps_per_sm * blocks / per_wave * m->sm_count / sms : oc.warps_per_sm) : 4;
  double sched = resident < 4 ? resident : 4;
  e.t[B_ISSUE] = warp_instr / (sms * sched * clock) / (blocks < per_wave ? 1.0 : fill);
  double sfu_lanes = c->lanes[CL_SFU] / ts * threads;
  e.t[B_SFU] = sfu_lanes / (m->sm_count * (double)(m->sfu_per_sm > 0 ? m->sfu_per_sm : 16) * clock) / fill;
  /* traffic: the analyzer's sectors and wavefronts, scaled from the threads it ran to the grid */
  double scale = a && a->threads_run > 0 ? threads / a->threads_run : 0;
  double partial_writes = 0;
  for (int i = 0; a && i < a->nacc; i++) {
    const AccessStat *s = &a->acc[i];
    if (s->space == SPACE_SHARED) e.shared_bytes += (double)s->wavefronts * 128.0 * scale;
    /* scattered stores leave sectors partly written: L2 must fetch each from DRAM to merge it */
    if (s->space == SPACE_GLOBAL && s->kind == ACC_STORE && s->sectors > s->ideal_sectors)
      partial_writes += (double)(s->sectors - s->ideal_sectors) * 32.0 * scale;
  }
  /* L1 keeps what a warp touched recently: L2 serves each warp's distinct sectors (once each) */
  if (a) e.l2_bytes = a->warp_sectors * 32.0 * scale;
  /* DRAM: every buffer once (the first touch), or all the traffic when the footprint exceeds L2 */
  double footprint = 0;
  for (int i = 1; i < L->nbufs; i++) footprint += (double)L->bufs[i].bytes;
  /* neighbouring warps reuse the rest of each sector through L2, so DRAM sees about the footprint */
  e.dram_bytes = footprint;
  if (e.dram_bytes > e.l2_bytes && e.l2_bytes > 0) e.dram_bytes = e.l2_bytes;
  e.dram_bytes += 2 * partial_writes;
  /* memory ceilings are shared by the SMs in use: a grid smaller than the GPU gets its share */
  double active = blocks < m->sm_count ? (double)blocks / m->sm_count : 1.0;
  e.t[B_DRAM] = e.dram_bytes / (ce.dram_gbps * 1e9 * active);
  e.t[B_L2] = e.l2_bytes / (ce.l2_gbps * 1e9 * active);
  e.t[B_SHARED] = e.shared_bytes / (ce.shared_gbps * 1e9 * active) / fill;
  /* latency: each wave's warps wait regions x latency, overlapped with the other resident warps'
   * issue (Ryoo's Utilization: enough independent work hides the stall) */
  double per_warp_issue = instr / 1.0 / clock;   /* one warp instruction per clock per scheduler */
  /* a load that the whole launch's footprint lets L2 hold waits for L2, not DRAM; nvcc unrolls and
   * hoists loads (it unrolls simple loops by 4), so about four loads overlap per stall
   * (MEMORY_OVERLAP: nvcc's unroll factor, checked against the suite on the H200) */
  const double MEMORY_OVERLAP = 4.0;
  double lat = footprint_fits_l2(L, m) && ce.l2_latency_ns > 0 ? ce.l2_latency_ns : ce.latency_ns;
  double stall = (e.regions_per_thread - 1) * lat * 1e-9 / MEMORY_OVERLAP;
  double hide = oc.warps_per_sm > 0 ? (double)oc.warps_per_sm / 4.0 : 1;   /* warps per scheduler */
  double per_wave_t = stall + per_warp_issue * hide;
  e.t[B_LATENCY] = e.waves * (stall > per_warp_issue * hide ? per_wave_t : 0);
  /* atomics: read-modify-writes serialize at L2; ATOMIC_RATE fitted on histogram (H200), an
   * approximation for contended bins */
  const double ATOMIC_RATE = 3.9e9;
  double atomics = c->lanes[CL_ATOM] / ts * threads;
  if (atomics / ATOMIC_RATE > e.t[B_L2]) e.t[B_L2] = atomics / ATOMIC_RATE;
  e.t[B_LAUNCH] = ce.launch_us * 1e-6;
  e.bottleneck = B_ISSUE;
  for (int b = 0; b < B_LAUNCH; b++) if (e.t[b] > e.t[e.bottleneck]) e.bottleneck = b;
  e.total = e.t[e.bottleneck] + e.t[B_LAUNCH];
  if (e.t[B_LAUNCH] > e.t[e.bottleneck]) e.bottleneck = B_LAUNCH;
  return e;
}

CuMAPz cumapz_factors(const Analysis *a, const Machine *m, Occupancy oc) {
  CuMAPz f = {1, 1, 1, 1, 1, 1, 1};
  double used = 0, moved = 0, shared_req = 0, shared_wf = 0, shared_bytes = 0, global_loads = 0;
  int shm_loads = 0;

  for (int i = 0; i < a->nacc; i++) {
    const AccessStat *s = &a->acc[i];
    if (s->space == SPACE_GLOBAL) {
      used += (double)s->used;
      moved += (double)s->moved;
      if (s->kind == ACC_LOAD) global_loads += (double)s->used;
      /* eq. 5 per instruction: busiest channel over the least busy used one; one channel only
       * counts as n_channels (the paper's special case); the worst instruction sets ch_skew */
      uint64_t mx = 0, mn = UINT64_MAX;
      int used_ch = 0;
      for (int p = 0; p < 16; p++) {
        if (s->part[p] > mx) mx = s->part[p];
        if (s->part[p]) { used_ch++; if (s->part[p] < mn) mn = s->part[p]; }
      }
      if (mx && m && m->mem_partitions > 0) {
        double sk = used_ch == 1 ? (double)m->mem_partitions : (double)mx / (double)mn;
        if (sk > f.ch_skew) f.ch_skew = sk;
      }
    } else if (s->space == SPACE_SHARED) {
      shared_req += (double)s->ideal;
      shared_wf += (double)s->wavefronts;
      shared_bytes += (double)s->used;
      if (s->kind == ACC_LOAD) shm_loads++;
    }
  }
  /* data_reuse: bytes served from shared memory per byte of global traffic (eq. 1); 1 without buffers */
  if (shared_bytes > 0 && global_loads > 0) f.data_reuse = shared_bytes / global_loads;
  /* lat_hiding (eq. 2): occupancy, capped at 50%, times the square root of the shared loads */
  f.lat_hiding = (100 * oc.occupancy < 50 ? 100 * oc.occupancy : 50) / 50.0 * sqrt(shm_loads > 0 ? shm_loads : 1);
  f.bw_util = moved > 0 ? used / moved : 1;                                    /* eq. 3 */
  f.shm_eff = shared_wf > 0 ? shared_req / shared_wf : 1;                        /* eq. 6, normalized */
  double evals = 0, div = 0;
  for (int i = 0; i < a->nbr; i++) { evals += (double)a->br[i].evals; div += (double)a->br[i].divergent; }
  f.branch_eff = evals > 0 ? evals / (evals + div) : 1;                          /* eq. 7: warps / paths */
  f.mpe = f.data_reuse * f.lat_hiding * (f.bw_util / f.ch_skew) * f.branch_eff * sqrt(f.shm_eff);   /* eq. 8 */
  return f;
}
