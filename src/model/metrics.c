/* metrics: dynamic counts from the interpreter (instructions by class, barriers, stalling
 * points, per thread), Ryoo's Efficiency and Utilization (eqs. 5.1, 5.2), and carve's
 * bottleneck time estimate from the counts, the analyzer's traffic, the occupancy and the
 * machine's measured ceilings. */
#include "../json.h"
#include "../hash.h"
#include "metrics.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

double ryoo_efficiency(double instr, double threads) {
  return instr > 0 && threads > 0 ? 1.0 / (instr * threads) : 0;
}

double ryoo_utilization(double instr, double regions, int w_tb, int b_sm) {
  if (regions <= 0) return 0;
  return instr / regions * ((w_tb - 1) / 2.0 + (b_sm - 1) * (double)w_tb);
}

double ryoo_utilization_simple(double instr, double long_regions, int w_tb, int b_sm) {
  if (long_regions <= 0) return 0;
  return instr / long_regions * ((double)b_sm * w_tb - 1);
}

/* Utilization for a machine of several warp schedulers per SM (Hopper), after eq. 5.2. Ryoo's
 * Utilization counts the instructions other warps can issue while one warp waits at the end of a
 * stall region: Instr/Regions per warp times (W_TB-1)/2 warps of its own block (half of them, on
 * average, are held at a barrier with it) plus (B_SM-1) x W_TB warps of the other blocks. On the
 * G80 one issue unit served the SM; an H100 SM has sub_partitions (4) schedulers, each issuing
 * one warp instruction a clock, with the resident warps dealt among them, so a stalled warp is
 * covered only by the warps of its own scheduler: the other-warp term is divided by the
 * schedulers. Four more facts of the machine enter:
 *   - barriers: Ryoo's half of the block's own warps holds where the warps meet at barriers
 *     (regions > long_regions); without barriers the warps of a block drift apart and every other
 *     resident warp covers the stall (B_SM x W_TB - 1);
 *   - the warp's own work: a register tile issues its region's independent instructions (Instr /
 *     Regions of them) while its own loads are in flight, so the warp covers part of its stall
 *     itself (the "1 +" below), which counts where a scheduler holds one warp only;
 *   - the grid: the busiest SM runs ceil(blocks / SMs) blocks (the tail of the last wave: the
 *     grid's share of the busiest SM's work, (blocks / SMs) / ceil(blocks / SMs), multiplies the
 *     result), and holds at most that many at once (a grid smaller than the GPU does not fill
 *     B_SM);
 *   - schedulers left idle: fewer resident warps than schedulers leave the others without work
 *     (resident warps / sub_partitions, at most 1).
 * The register file and shared memory per SM enter through B_SM (occupancy, from NVRTC's counts).
 * The result is in units of the machine's global latency (dram_latency_cycles): 1 means a
 * scheduler has about one latency's worth of other work for each stall. It is not capped (as
 * eq. 5.2 is not): only the order matters. grid_blocks <= 0: the tail and the grid's fill are not
 * known and not applied. */
double hopper_utilization(double instr, double regions, double long_regions, int threads_per_block,
                          int b_sm, double grid_blocks, const Machine *m) {
  if (regions <= 0 || instr <= 0 || b_sm <= 0 || threads_per_block <= 0) return 0;
  int ws = m && m->warp_size > 0 ? m->warp_size : 32;
  double sched = m && m->sub_partitions > 0 ? m->sub_partitions : 1;
  double sms = m && m->sm_count > 0 ? m->sm_count : 1;
  double lat = m && m->dram_latency_cycles > 0 ? m->dram_latency_cycles : 1;
  double w_tb = (double)((threads_per_block + ws - 1) / ws);
  double blocks = b_sm, tail = 1;
  if (grid_blocks > 0) {
    /* a grid from a stored Efficiency carries its 9 digits: a whole number of blocks per SM stays whole */
    double per_sm = grid_blocks / sms, busiest = ceil(per_sm * (1 - 1e-6));
    if (busiest < 1) busiest = 1;
    tail = per_sm / busiest;
    if (busiest < blocks) blocks = busiest;
  }
  double warps = blocks * w_tb;
  bool barriers = regions > long_regions * (1 + 1e-9);
  double others = barriers ? (w_tb - 1) / 2.0 + (blocks - 1) * w_tb : warps - 1;
  double fill = warps < sched ? warps / sched : 1;
  return instr / regions * (1 + others / sched) / lat * fill * tail;
}

/* what the hooks share: the counts, whether a global load awaits its consumer, the sampled blocks,
 * the cost model, lanes entering each loop, and the lanes of hoisted nodes (counted at the end,
 * once per entry of the loop they leave) */
typedef struct {
  Counts *c;
  bool pending_load, pending_shared, pending_store;
  int64_t *blocks;
  int nblocks;
  bool pending_async; /* async copies issued since the last wait (metrics: async_wait) */
  const CostModel *cm;
  double *entries, *entries_warps, *iterations;
  double *hoisted_node, *hoisted_access, *hoisted_node_warps, *hoisted_access_warps;
  Node **hnode;
  int *hclass;
  int nnodes;
  int *line_of; /* node id -> source line in the kernel's file; 0 not looked up, -1 elsewhere */
  /* loads the unrolled copies share: the address sets this warp loaded since the nest began */
  uint64_t *seen;
  int nseen, capseen;
  int64_t seen_blk;
  int seen_warp;
  double *share_all, *share_free;
  double ticks;  /* warp instructions issued so far (a warp runs until a barrier or its end) */
  double t_load; /* ticks when pending_load was set */
  struct {
    Obj *v;
    double t0;
  } pend[16];
  int npend; /* register variables holding loads in flight */
  int64_t pend_blk;
  int pend_warp; /* the warp they belong to (another warp's accesses start afresh) */
} CountCtx;

enum { STALL_BIN = 64 };

static void add_stall(CountCtx *x, double w, double dist) {
  int b = (int)(dist / STALL_BIN);
  if (b > 31) b = 31;
  if (b < 0) b = 0;
  x->c->stall_w[b] += w;
  x->c->stall_wd[b] += w * dist;
}

static uint64_t access_hash(int size, const uint64_t *addr, Mask m) {
  uint64_t h = FNV64_BASIS ^ (uint64_t)size ^ ((uint64_t)m << 8);
  for (int l = 0; l < 32; l++)
    if (m >> l & 1) h = fnv1a64_word(h, addr[l] + (uint64_t)l);
  return h;
}

/* true when this warp already loaded exactly these addresses in the current copies of the nest */
static bool seen_before(CountCtx *x, uint64_t h) {
  for (int i = 0; i < x->nseen; i++)
    if (x->seen[i] == h) return true;
  if (x->nseen == x->capseen) {
    x->capseen = x->capseen ? 2 * x->capseen : 64;
    x->seen = xrealloc(x->seen, sizeof(uint64_t) * (size_t)x->capseen);
  }
  x->seen[x->nseen++] = h;
  return false;
}

static int ins_class(Node *n) {
  switch (n->kind) {
  case ND_ADD:
  case ND_SUB:
  case ND_MUL:
  case ND_DIV:
  case ND_MOD:
  case ND_NEG:
  case ND_EQ:
  case ND_NE:
  case ND_LT:
  case ND_LE:
  case ND_GT:
  case ND_GE:
    if (n->kind >= ND_EQ)
      return is_flonum(n->lhs->ty) ? (n->lhs->ty->kind == TY_DOUBLE ? CL_FP64 : CL_FP32) : CL_INT;
    if (n->ty->kind == TY_FLOAT) return n->kind == ND_DIV ? CL_SFU : CL_FP32;
    if (n->ty->kind == TY_DOUBLE) return CL_FP64;
    return CL_INT;
  case ND_BITAND:
  case ND_BITOR:
  case ND_BITXOR:
  case ND_SHL:
  case ND_SHR:
  case ND_BITNOT:
  case ND_NOT:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC:
  case ND_ASSIGN_OP:
    return is_flonum(n->ty) ? (n->ty->kind == TY_DOUBLE ? CL_FP64 : CL_FP32) : CL_INT;
  case ND_INDEX: return CL_INT; /* address arithmetic */
  case ND_CAST:
    if (n->implicit && is_integer(n->ty) == is_integer(n->lhs->ty) &&
        n->ty->size == n->lhs->ty->size)
      return -1;
    return is_flonum(n->ty) || is_flonum(n->lhs->ty) ? CL_CVT : -1;
  case ND_CALL:
    if (n->builtin == BI_MATH) {
      const char *s = n->math->name;
      if (n->ty->kind == TY_DOUBLE) return CL_FP64;
      if (!strcmp(s, "fabsf") || !strcmp(s, "fminf") || !strcmp(s, "fmaxf") || !strcmp(s, "fmaf") ||
          !strncmp(s, "__f", 3) || !strcmp(s, "floorf") || !strcmp(s, "ceilf") ||
          !strcmp(s, "truncf") || !strcmp(s, "rintf"))
        return CL_FP32;
      return CL_SFU;
    }
    if (n->builtin == BI_MIN || n->builtin == BI_MAX || n->builtin == BI_ABS)
      return is_flonum(n->ty) ? CL_FP32 : CL_INT;
    if (n->builtin >= BI_SHFL && n->builtin <= BI_ALL) return CL_INT;
    if (n->builtin >= BI_SYNCTHREADS && n->builtin <= BI_SYNCTHREADS_OR) return CL_BAR;
    if (n->builtin == BI_PIPE_COMMIT || n->builtin == BI_PIPE_WAIT)
      return CL_INT; /* LDGDEPBAR, DEPBAR */
    return -1;
  case ND_COND:
  case ND_LOGAND:
  case ND_LOGOR: return CL_BRANCH;
  default: return -1;
  }
}

/* SASS instructions one source operation becomes, where it is more than one: precise float
 * transcendentals are software sequences around the SFU (CUDA Programming Guide, "Mathematical
 * Functions" ulp tables; counted in nvcc -O3 sm_90 output), division is a reciprocal and fixup */
static double weight(const CostModel *cm, Node *n) {
  if (n->kind == ND_DIV && is_flonum(n->ty)) return 8;
  if ((n->kind == ND_DIV || n->kind == ND_MOD) && is_integer(n->ty)) {
    /* by a constant: a shift or mask for powers of two, else a multiply-high and shifts */
    if (cm && cost_copy_constant(cm, n->rhs)) {
      int64_t d;
      bool pow2 = node_int_constant(n->rhs, &d) && d > 0 && (d & (d - 1)) == 0;
      return pow2 ? (n->ty->is_unsigned ? 1 : 3) : 5;
    }
    return 20;
  }
  if (n->kind == ND_DIV || n->kind == ND_MOD) return 8;
  if (n->kind != ND_CALL || n->builtin != BI_MATH) return 1;
  const char *s = n->math->name;
  if (!strncmp(s, "__", 2)) return 2; /* fast intrinsics: the SFU op and a scale */
  if (!strcmp(s, "sinf") || !strcmp(s, "cosf") || !strcmp(s, "tanf")) return 24;
  if (!strcmp(s, "expf") || !strcmp(s, "exp2f") || !strcmp(s, "logf") || !strcmp(s, "log2f") ||
      !strcmp(s, "log10f"))
    return 12;
  if (!strcmp(s, "powf")) return 40;
  if (!strcmp(s, "sqrtf") || !strcmp(s, "rsqrtf")) return 4;
  if (n->ty->kind == TY_DOUBLE) return 30;
  return 1;
}

/* w instructions of class cl for `lanes` threads in `warps` warp-executions */
static void add_class(Counts *c, int cl, double w, double lanes, double warps) {
  if (w > 1 && cl == CL_SFU) {
    /* one SFU operation; the rest of the sequence issues on the FP32 pipes */
    c->lanes[CL_SFU] += lanes;
    c->lanes[CL_FP32] += lanes * (w - 1);
    c->warp_ins[CL_SFU] += warps;
    c->warp_ins[CL_FP32] += warps * (w - 1);
  } else {
    c->lanes[cl] += lanes * w;
    c->warp_ins[cl] += warps * w;
  }
}

/* the line of the kernel's file that node n is on, or -1 */
static int line_of(CountCtx *x, Node *n) {
  if (!x->line_of || n->id < 0 || n->id >= x->nnodes) return -1;
  if (!x->line_of[n->id]) {
    SrcLoc l = tok_loc(n->tok);
    x->line_of[n->id] = l.file == x->c->file && l.line > 0 ? l.line : -1;
  }
  return x->line_of[n->id];
}

static void charge_line(CountCtx *x, Node *n, double warp_ins, double stall_lanes) {
  int line = line_of(x, n);
  if (line < 0) return;
  if (line >= x->c->nlines) {
    int nl = line + 64;
    x->c->line_ins = xrealloc(x->c->line_ins, sizeof(double) * (size_t)nl);
    x->c->line_stalls = xrealloc(x->c->line_stalls, sizeof(double) * (size_t)nl);
    for (int i = x->c->nlines; i < nl; i++) x->c->line_ins[i] = x->c->line_stalls[i] = 0;
    x->c->nlines = nl;
  }
  x->c->line_ins[line] += warp_ins;
  x->c->line_stalls[line] += stall_lanes;
}

void counts_free(Counts *c) {
  free(c->line_ins);
  free(c->line_stalls);
  free(c->load_fresh);
  c->load_fresh = NULL;
  c->nload_fresh = 0;
  c->line_ins = c->line_stalls = NULL;
  c->nlines = 0;
}

/* a computation after loads consumes them: the end of a stalling region (Ryoo's Regions); the
 * loads of one unrolled step issue together and wait once */
static void consume(CountCtx *x, Node *n, double lanes) {
  double share = x->cm ? cost_stall_share(x->cm, n) : 1;
  if (x->pending_load) {
    x->c->regions_lanes += lanes * share;
    add_stall(x, lanes * share, x->ticks - x->t_load);
    x->pending_load = false;
    charge_line(x, n, 0, lanes * share);
  }
  if (x->pending_shared) {
    x->c->shared_regions_lanes += lanes * share;
    x->pending_shared = false;
  }
}

/* the loads in registers are used (or the warp leaves at a barrier): one wait, as far from the
 * newest of them as the warp has issued since */
static void consume_registers(CountCtx *x, Node *n, double lanes) {
  if (!x->npend) return;
  double share = x->cm ? cost_stall_share(x->cm, n) : 1, t0 = 0;
  for (int i = 0; i < x->npend; i++)
    if (x->pend[i].t0 > t0) t0 = x->pend[i].t0;
  x->c->regions_lanes += lanes * share;
  add_stall(x, lanes * share, x->ticks - t0);
  charge_line(x, n, 0, lanes * share);
  x->npend = 0;
}

/* a read of register variable v: a copy moves the loaded value on; anything else waits for it
 * (and so for every load issued before it, which has arrived by then: loads return in order) */
static void register_read(CountCtx *x, Node *n, Obj *v, double lanes) {
  int i = 0;
  while (i < x->npend && x->pend[i].v != v) i++;
  if (i == x->npend) return;
  Obj *t = x->cm ? cost_copy_to(x->cm, n) : NULL;
  if (t) {
    x->pend[i].v = t;
    return;
  }
  double t0 = x->pend[i].t0, share = x->cm ? cost_stall_share(x->cm, n) : 1;
  x->c->regions_lanes += lanes * share;
  add_stall(x, lanes * share, x->ticks - t0);
  charge_line(x, n, 0, lanes * share);
  int k = 0;
  for (int j = 0; j < x->npend; j++)
    if (x->pend[j].t0 > t0) x->pend[k++] = x->pend[j];
  x->npend = k;
}

/* __pipeline_wait_prior(N): the warp stalls on its async copies only when it waits for the
 * newest group (N = 0); with N > 0 the copies waited for were issued a stage or more earlier and
 * their latency overlapped that stage's work (the pipeline's purpose) */
static void async_wait(CountCtx *x, Node *n, double lanes) {
  int64_t prior;
  if (!x->pending_async) return;
  x->pending_async = false;
  if (node_int_constant(n->args, &prior) && prior > 0) return;
  x->pending_load = true;
  x->t_load = x->ticks;
  consume(x, n, lanes);
}

static void on_node(void *ctx, Node *n, Mask m) {
  CountCtx *x = ctx;
  double lanes = __builtin_popcount(m);
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) { /* a loop entered */
    if (x->cm && cost_share_root(x->cm, n)) x->nseen = 0;
    int li = x->cm ? cost_loop_index(x->cm, n) : -1;
    if (li >= 0) {
      x->entries[li] += lanes;
      x->entries_warps[li] += 1;
    }
    return;
  }
  if (n->kind == ND_VAR && x->npend && !n->var->in_memory)
    register_read(x, n, n->var, lanes); /* aggregates: by element (on_access) */
  int cl = ins_class(n);
  if (cl < 0) return;
  double w = weight(x->cm, n);
  if (x->cm) {
    if (cost_hoisted_from(x->cm, n) >= 0) {
      x->hoisted_node[n->id] += lanes;
      x->hoisted_node_warps[n->id] += 1;
      x->hnode[n->id] = n;
      return;
    }
    w *= cost_factor(x->cm, n);
    if (w == 0) return;
  }
  add_class(x->c, cl, w, lanes, 1);
  x->ticks += w;
  charge_line(x, n, w, 0);
  if (n->kind == ND_CALL && n->builtin == BI_PIPE_WAIT) {
    async_wait(x, n, lanes);
    return;
  }
  if (cl == CL_BAR) {
    /* __syncthreads makes the block's memory operations visible: it waits for this warp's
     * outstanding loads and global stores */
    if (x->pending_store) {
      x->pending_load = true;
      x->t_load = x->ticks;
    }
    consume(x, n, lanes);
    consume_registers(x, n, lanes);
    x->pending_store = false;
    return;
  }
  if (cl != CL_INT) consume(x, n, lanes);
}

static void on_access(void *ctx, Node *at, int space, AccessKind kind, int size,
                      const uint64_t *addr, Mask m, int64_t blk, int warp) {
  CountCtx *x = ctx;
  double lanes = __builtin_popcount(m);
  int cl = space == SPACE_GLOBAL   ? (kind == ACC_LOAD    ? CL_GLD
                                      : kind == ACC_STORE ? CL_GST
                                                          : CL_ATOM)
           : space == SPACE_SHARED ? (kind == ACC_LOAD ? CL_SLD : CL_SST)
                                   : CL_LOCAL;
  if (blk != x->pend_blk || warp != x->pend_warp) {
    x->npend = 0;
    x->pend_blk = blk;
    x->pend_warp = warp;
  }
  if (cl == CL_LOCAL && x->cm && cost_in_registers(x->cm, at)) { /* a register, not memory */
    if (kind == ACC_LOAD && x->npend) register_read(x, at, cost_reg_base(at), lanes);
    return;
  }
  /* an async copy (LDGSTS) is one instruction: its load writes shared memory with no register
   * round-trip, and the warp does not wait for it until __pipeline_wait_prior */
  bool async = at->kind == ND_CALL && at->builtin == BI_PIPE_COPY;
  if (async && kind == ACC_STORE) return;
  if (x->cm && cost_hoisted_from(x->cm, at) >= 0) { /* a load moved out of its loop */
    x->hoisted_access[at->id] += lanes;
    x->hoisted_access_warps[at->id] += 1;
    x->hnode[at->id] = at;
    x->hclass[at->id] = cl;
    return;
  }
  if (x->cm && space == SPACE_GLOBAL) {
    if (blk != x->seen_blk || warp != x->seen_warp) {
      x->nseen = 0;
      x->seen_blk = blk;
      x->seen_warp = warp;
    }
    if (kind != ACC_LOAD) x->nseen = 0;
    else if (cost_share_region(x->cm, at) >= 0 && at->id >= 0 && at->id < x->nnodes) {
      x->share_all[at->id] += 1;
      if (seen_before(x, access_hash(size, addr, m))) {
        x->share_free[at->id] += 1;
        return;
      } /* the value is in a register */
    }
  }
  double v = x->cm ? cost_vector_width(x->cm, at) : 1; /* merged into wider accesses */
  x->c->lanes[cl] += lanes / v;
  x->c->warp_ins[cl] += 1 / v;
  x->ticks += 1 / v;
  charge_line(x, at, 1 / v, 0);
  if (kind != ACC_LOAD) consume(x, at, lanes);
  if (async) {
    x->pending_async = true;
    return;
  }
  Obj *dest = space == SPACE_GLOBAL && kind == ACC_LOAD && x->cm ? cost_load_dest(x->cm, at) : NULL;
  if (dest) { /* in flight until its register is used */
    int i = 0;
    while (i < x->npend && x->pend[i].v != dest) i++;
    if (i == x->npend && x->npend < 16) x->npend++;
    if (i < x->npend) x->pend[i].v = dest, x->pend[i].t0 = x->ticks;
    return;
  }
  if (space == SPACE_GLOBAL && kind == ACC_LOAD) {
    x->t_load = x->ticks;
    x->pending_load = true;
  } /* the wait is for the newest */
  if (space == SPACE_SHARED && kind == ACC_LOAD) x->pending_shared = true;
  if (space == SPACE_GLOBAL && kind != ACC_LOAD) x->pending_store = true;
}

/* the instructions one execution of a small statement issues (a predicated if body), counted
 * as the hooks count them: nodes by class, one per access. A store's target costs its address
 * operands and the store (and the load of op=), not a load of its own. */
typedef struct {
  const CostModel *cm;
  double c;
  const Node *target;
} StaticCost;

static bool static_pre(Node *n, void *ctx) {
  StaticCost *x = ctx;
  if (n->kind == ND_BLOCK || n->kind == ND_EXPR_STMT) return true;
  if (n == x->target) return true; /* a store's address: its operands only */
  int cl = ins_class(n);
  if (cl >= 0) x->c += weight(x->cm, n) * cost_factor(x->cm, n);
  Node *lhs = n->lhs;
  if ((n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP) && lhs &&
      (lhs->kind == ND_INDEX || lhs->kind == ND_DEREF)) {
    x->c += 1 + (n->kind == ND_ASSIGN_OP);
    x->target = lhs; /* small bodies hold one store (predicable) */
  } else if ((n->kind == ND_INDEX || n->kind == ND_DEREF) && n->ty && n->ty->kind != TY_ARRAY)
    x->c += 1; /* the load */
  return true;
}

static double static_cost(const CostModel *cm, Node *n) {
  StaticCost x = {cm, 0, NULL};
  walk_one(n, static_pre, NULL, &x);
  return x.c;
}

static void on_branch(void *ctx, Node *at, Mask active, Mask taken, int64_t blk, int warp) {
  CountCtx *x = ctx;
  if (at->kind == ND_LOGAND || at->kind == ND_LOGOR || at->kind == ND_COND)
    return; /* counted as nodes */
  /* a loop's branch goes with its control: once per unrolled step, none when fully unrolled;
   * an if whose test is known per copy or whose body is predicated has none */
  double f = !x->cm ? 1
             : (at->kind == ND_FOR || at->kind == ND_WHILE || at->kind == ND_DO)
               ? (at->cond ? cost_factor(x->cm, at->cond) : 1)
               : cost_factor(x->cm, at);
  if (x->cm && (at->kind == ND_FOR || at->kind == ND_WHILE || at->kind == ND_DO)) {
    int li = cost_loop_index(x->cm, at);
    if (li >= 0) x->iterations[li] += __builtin_popcount(taken);
  }
  if (f == 0) {
    /* a predicated if issues its body for the whole warp, taken or not; the interpreter ran it
     * only where some lane took it */
    if (x->cm && at->kind == ND_IF && cost_if_predicated(x->cm, at)) {
      double body = (!taken ? static_cost(x->cm, at->then) : 0) +
                    (at->els && taken == active ? static_cost(x->cm, at->els) : 0);
      x->c->warp_ins[CL_INT] += body;
      charge_line(x, at, body, 0);
    }
    return;
  }
  x->c->lanes[CL_BRANCH] += __builtin_popcount(active) * f;
  x->c->warp_ins[CL_BRANCH] += f;
  charge_line(x, at, f, 0);
  (void)taken;
  (void)blk;
  (void)warp;
}

static bool first_warp(void *ctx, int64_t b, int w, int nwarps) {
  (void)ctx;
  (void)b;
  return w == 0 || w == nwarps - 1;
}

static bool want_block(void *ctx, int64_t b) {
  CountCtx *x = ctx;
  for (int i = 0; i < x->nblocks; i++)
    if (x->blocks[i] == b) return true;
  return false;
}

/* Blocks that leave at once: the sampled blocks (first, last, middle) are all working ones when
 * a tiled triangular product skips the empty tiles of the triangle (`if (corners outside) return;`
 * of tile), so the time counted every block's work and spread it over every block (covar at 1024
 * on 64x64 tiles: 136 of 256 blocks work, 2 warps each, about one block an SM; the estimate said
 * 0.070 ms, the H100 ran 0.151 ms). The probe runs up to IDLE_PROBE blocks spread over the grid,
 * each warp at most IDLE_STEPS warp-steps; where the sampled warps ran IDLE_RATIO times longer,
 * a block none of whose warps reached the cap is idle, and idle_share their share (sampled). */
enum { IDLE_PROBE = 512, IDLE_STEPS = 1000, IDLE_RATIO = 16 };
typedef struct {
  int64_t *blocks;
  int n;
} IdleProbe;
static bool idle_want(void *ctx, int64_t b) {
  IdleProbe *p = ctx;
  int lo = 0, hi = p->n - 1; /* launch_sample_blocks gives them ascending */
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (p->blocks[mid] == b) return true;
    if (p->blocks[mid] < b) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
static bool probe_warp(void *ctx, int64_t b, int w, int nwarps) {
  (void)ctx;
  (void)b;
  (void)nwarps;
  return w == 0;
}
static void idle_probe(Launch *L, Counts *c, int64_t total) {
  if (c->steps_per_warp < (double)IDLE_STEPS * IDLE_RATIO || c->warps_per_block <= 0) return;
  IdleProbe p = {xmalloc(sizeof(int64_t) * (IDLE_PROBE + 1)), 0};
  p.n = launch_sample_blocks(total, total < IDLE_PROBE ? (int)total : IDLE_PROBE, p.blocks);
  for (int i = 1; i < p.n; i++)
    if (p.blocks[i] <= p.blocks[i - 1]) {
      free(p.blocks);
      return;
    } /* not ascending: no probe */
  /* a kernel without barriers: its first warp stands for the block (its warps run apart) */
  bool plain = !L->kernel->uses_barrier;
  Hooks h = {.ctx = &p, .want_block = idle_want, .want_warp = plain ? probe_warp : NULL};
  FILE *null = fopen("/dev/null", "w");
  RunOptions ro = {.hooks = &h, .warp_step_cap = IDLE_STEPS, .printf_out = null};
  RunStats st;
  int rc = interp_run(L, &ro, &st);
  if (null) fclose(null);
  /* a working block's warps all reach the cap: the blocks that worked are the capped warps
   * over the warps of a block */
  if (!rc && st.blocks_run > 0) {
    double working = (double)st.warps_truncated / (plain ? 1 : c->warps_per_block);
    double idle = (double)st.blocks_run - working;
    if (idle >= 1) c->idle_share = idle / (double)st.blocks_run;
  }
  free(p.blocks);
}

/* The blocks a vote splits (pass_halo.c's output: `int all = __syncthreads_and(G); if (all)
 * tiled else original`) take one path inside the grid's border and another on it. The sampled
 * first and last blocks are corners, on the border, so two of the three sampled blocks priced
 * the border's path, where at 2048^2 on 32x8 blocks 4% of the blocks take it (conv2d_a: the
 * tiled kernel estimated 0.0257 ms with that sample, 0.0219 ms from the middle block alone; this
 * 2-core CPU machine, h100 description, 2026-11-28). For such a kernel (a top-level declaration
 * initialized by __syncthreads_and), the sample keeps as many border blocks as the border's share
 * of the grid gives (1 - prod (g_d - 2)/g_d over the dimensions with g_d > 1, rounded, of the
 * blocks sampled; a block on the border is taken as one where the vote fails, which a guard
 * like `i > 0 && i < N - 1` on a grid covering N makes so), the rest interior blocks around the
 * middle. Other kernels keep the sample as it is. */
static void vote_sample(const Launch *L, int64_t *blocks, int *n) {
  bool vote = false;
  for (Node *s = L->kernel->body ? L->kernel->body->stmts : NULL; s && !vote; s = s->next)
    vote = s->kind == ND_DECL && s->decl_init && s->decl_init->kind == ND_CALL &&
           s->decl_init->builtin == BI_SYNCTHREADS_AND;
  if (!vote || *n < 2) return;
  double inner = 1;
  for (int d = 0; d < 3; d++)
    if (L->grid[d] > 1) inner *= L->grid[d] > 2 ? (double)(L->grid[d] - 2) / (double)L->grid[d] : 0;
  int nb = (int)lround((double)*n * (1 - inner)), want = *n, k = 0;
  int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  for (int i = 0; i < nb && k < want; i++) blocks[k++] = i % 2 ? total - 1 : 0;
  /* interior blocks: the middle of every dimension, then its neighbours along x */
  int64_t mid[3];
  for (int d = 0; d < 3; d++) mid[d] = L->grid[d] / 2;
  for (int64_t off = 0; k < want && off < L->grid[0]; off++)
    for (int sgn = 0; sgn < 2 && k < want; sgn++) {
      int64_t x = mid[0] + (sgn ? -off : off);
      if ((sgn && !off) || x < 1 || x > L->grid[0] - 2) continue;
      blocks[k++] = x + L->grid[0] * (mid[1] + L->grid[1] * mid[2]);
    }
  *n = k > 0 ? k : *n;
}

int count_instructions(Launch *L, Counts *c, int max_blocks) {
  memset(c, 0, sizeof *c);
  CountCtx b = {.c = c};
  Facts *facts = L->prog ? facts_new(L->prog, L->kernel) : NULL;
  CostModel *cm = facts ? cost_model_new(facts) : NULL;
  if (cm) {
    b.cm = cm;
    b.nnodes = L->prog->nodes > 0 ? L->prog->nodes : 1;
    b.entries = xmalloc((size_t)(cost_loops(cm) + 1) * sizeof(double));
    b.entries_warps = xmalloc((size_t)(cost_loops(cm) + 1) * sizeof(double));
    b.iterations = xmalloc((size_t)(cost_loops(cm) + 1) * sizeof(double));
    b.hoisted_node_warps = xmalloc((size_t)b.nnodes * sizeof(double));
    b.hoisted_access_warps = xmalloc((size_t)b.nnodes * sizeof(double));
    b.hoisted_node = xmalloc((size_t)b.nnodes * sizeof(double));
    b.hoisted_access = xmalloc((size_t)b.nnodes * sizeof(double));
    b.hnode = xmalloc((size_t)b.nnodes * sizeof(Node *));
    b.hclass = xmalloc((size_t)b.nnodes * sizeof(int));
    b.line_of = xmalloc((size_t)b.nnodes * sizeof(int));
    b.share_all = xmalloc((size_t)b.nnodes * sizeof(double));
    b.share_free = xmalloc((size_t)b.nnodes * sizeof(double));
    for (int i = 0; i < b.nnodes; i++) b.share_all[i] = b.share_free[i] = 0;
    b.seen_blk = -1;
  }
  c->file = L->kernel && L->kernel->tok ? tok_loc(L->kernel->tok).file : NULL;
  int64_t total = L->grid[0] * L->grid[1] * L->grid[2];
  int want = max_blocks > 0 ? max_blocks : 2;
  if (total > want) {
    b.blocks = xmalloc(sizeof(int64_t) * (size_t)(want + 1));
    b.nblocks = launch_sample_blocks(total, want, b.blocks);
    /* and the block at the middle of every dimension: the first and last blocks of a 2-D grid
     * hold its border rows, where a stencil's guard idles whole warps (conv2d at 2048: all four
     * warps of those two blocks run border rows, half their loads skipped) */
    int64_t mid = L->grid[0] / 2 + L->grid[0] * (L->grid[1] / 2 + L->grid[1] * (L->grid[2] / 2));
    bool have = false;
    for (int i = 0; i < b.nblocks; i++) have |= b.blocks[i] == mid;
    if (!have && mid < total) b.blocks[b.nblocks++] = mid;
    vote_sample(L, b.blocks, &b.nblocks);
  }
  Hooks h = {.ctx = &b,
             .access = on_access,
             .branch = on_branch,
             .node = on_node,
             .want_block = b.nblocks ? want_block : NULL,
             .want_warp = first_warp};
  /* device printf of sampled warps is not the command's output (it would break JSON) */
  FILE *null = fopen("/dev/null", "w");
  RunOptions ro = {.hooks = &h, .warp_step_cap = 20000000, .printf_out = null};
  RunStats st;
  int rc = interp_run(L, &ro, &st);
  if (null) fclose(null);
  free(b.blocks);
  /* hoisted nodes: once per entry of the loop they leave (no more often than they ran) */
  for (int id = 0; cm && id < b.nnodes; id++) {
    Node *n = b.hnode[id];
    if (!n) continue;
    int h = cost_hoisted_from(cm, n);
    double copies = cost_hoist_copies(cm, n);
    double entered = b.entries[h] * copies, entered_warps = b.entries_warps[h] * copies;
    if (b.hoisted_node[id] > 0) {
      add_class(c, ins_class(n), weight(cm, n), fmin(b.hoisted_node[id], entered),
                fmin(b.hoisted_node_warps[id], entered_warps));
      charge_line(&b, n, weight(cm, n) * fmin(b.hoisted_node_warps[id], entered_warps), 0);
    }
    if (b.hoisted_access[id] > 0) {
      c->lanes[b.hclass[id]] += fmin(b.hoisted_access[id], entered);
      c->warp_ins[b.hclass[id]] += fmin(b.hoisted_access_warps[id], entered_warps);
      charge_line(&b, n, fmin(b.hoisted_access_warps[id], entered_warps), 0);
    }
  }
  c->prologue = cm ? cost_prologue(cm) : 0;
  for (int i = 0; cm && i < cost_loops(cm) && c->nloops < 32; i++) {
    if (b.entries[i] <= 0) continue;
    /* a do-while tests after each body: one more iteration per entry than its taken tests */
    double it = b.iterations[i] + (cost_loop_node(cm, i)->kind == ND_DO ? b.entries[i] : 0);
    c->loops[c->nloops++] = (struct LoopCount){cost_loop_node(cm, i), b.entries[i], it,
                                               cost_loop_unroll(cm, i), cost_loop_trip(cm, i)};
  }
  /* loads the unrolled copies shared: the share of each node's executions that loaded */
  for (int id = 0; cm && id < b.nnodes; id++) {
    if (b.share_free[id] <= 0) continue;
    if (!c->load_fresh) {
      c->load_fresh = xmalloc(sizeof(double) * (size_t)b.nnodes);
      for (int k = 0; k < b.nnodes; k++) c->load_fresh[k] = 1;
      c->nload_fresh = b.nnodes;
    }
    c->load_fresh[id] = 1 - b.share_free[id] / b.share_all[id];
  }
  free(b.share_all);
  free(b.share_free);
  free(b.seen);
  cost_model_free(cm);
  facts_free(facts);
  free(b.line_of);
  free(b.entries);
  free(b.entries_warps);
  free(b.iterations);
  free(b.hoisted_node_warps);
  free(b.hoisted_access_warps);
  free(b.hoisted_node);
  free(b.hoisted_access);
  free(b.hnode);
  free(b.hclass);
  int64_t threads_per_block = L->block[0] * L->block[1] * L->block[2];
  int warps_per_block = (int)((threads_per_block + 31) / 32);
  int warps_run =
    L->kernel->uses_barrier ? warps_per_block : (warps_per_block > 2 ? 2 : warps_per_block);
  /* the lanes that ran: all of a block, or its first warp and its last (which may be partial) */
  double lanes_per_block = warps_run == warps_per_block
                             ? (double)threads_per_block
                             : 32.0 + (double)(threads_per_block - 32 * (warps_per_block - 1));
  c->threads_sampled = (double)st.blocks_run * lanes_per_block;
  c->warps_sampled = (double)st.blocks_run * warps_run;
  c->lanes[CL_INT] += c->prologue * c->threads_sampled;
  c->warp_ins[CL_INT] += c->prologue * c->warps_sampled;
  c->steps_per_warp = c->warps_sampled > 0 ? (double)st.warp_steps / c->warps_sampled : 0;
  if (c->threads_sampled > (double)st.blocks_run * (double)threads_per_block)
    c->threads_sampled = (double)st.blocks_run * (double)threads_per_block;
  c->truncated = st.warps_truncated > 0;
  c->blocks_run = st.blocks_run;
  c->warps_per_block = warps_per_block;
  c->warps_run_per_block = warps_run;
  c->faults = st.faults;
  /* barriers: the lanes of a thread that reached them are counted from the node hook via calls */
  if (!rc && total > want) idle_probe(L, c, total);
  return rc;
}

/* ---------------- the time estimate ---------------- */
static bool footprint_fits_l2(Launch *L, const Machine *m) {
  double f = 0;
  for (int i = 1; i < L->nbufs; i++) f += (double)L->bufs[i].bytes;
  return m->l2_bytes > 0 && f <= (double)m->l2_bytes;
}

/* the limits overlap, but not perfectly: a warp stalled on memory is not issuing, barriers
 * separate phases. The total is their OVERLAP_NORM-norm, between the largest (perfect overlap)
 * and the sum (none); 3 fits the suite and the families on the H200 (any of 2.5-6 is within 3
 * points of mean error: docs/validation.md); plus the launch overhead. The L1 data pipe and L2
 * bandwidth enter as one term, the larger: the SM's L1TEX unit and the L2 slices are separate
 * units that stream at once (Nsight Compute's memory throughput is the largest of its units',
 * not their sum), and measured so on the H100 (docs/data/l1-check-h100-2026-11-24.jsonl, mm at
 * n=2048): 32x2 blocks move 18.6 GB from L2 (7.6 TB/s) in 2.453 ms, 32x4 blocks 9.5 GB in 2.449
 * ms, both at the L1's request rate; in the 3-norm the L2-heavy shapes of a product estimated
 * 20% slower (tests/test_model.c) */
double limits_overlap(const double t[B_N]) {
  const double OVERLAP_NORM = 3.0;
  double top = 0, sum = 0;
  for (int b = 0; b < B_LAUNCH; b++)
    if (t[b] > top) top = t[b];
  for (int b = 0; b < B_LAUNCH; b++) {
    if ((b == B_L1 && t[B_L2] >= t[B_L1]) || (b == B_L2 && t[B_L1] > t[B_L2])) continue;
    if (top > 0) sum += pow(t[b] / top, OVERLAP_NORM);
  }
  return (top > 0 ? top * pow(sum, 1.0 / OVERLAP_NORM) : 0) + t[B_LAUNCH];
}

Ceilings ceilings_for(const Machine *m, const char *path) {
  Ceilings c = {m->dram_copy_gbps > 0 ? m->dram_copy_gbps : m->dram_peak_gbps * 0.85,
                m->l2_read_gbps,
                m->smem_read_gbps,
                m->fp32_measured_gflops > 0 ? m->fp32_measured_gflops : m->fp32_peak_gflops,
                0,
                m->launch_overhead_us,
                m->clock_mhz,
                0,
                0,
                0,
                m->l1_latency_cycles,
                "machine description"};
  if (m->dram_latency_cycles > 0 && m->clock_mhz > 0)
    c.latency_ns = m->dram_latency_cycles / m->clock_mhz * 1e3;
  size_t n;
  char *text = path ? read_file(path, &n) : NULL;
  char why[160];
  Json *js = text ? json_parse(text, n, why, sizeof why)
                  : NULL; /* not JSON: the description's ceilings (check_calibration says why) */
  free(text);
  if (js && m->cc_major >= 7) {
    double v = 0;
    if (json_get_number(js, "copy_gbps", &v) && v > 0) c.dram_gbps = v;
    if (json_get_number(js, "l2_gbps", &v) && v > 0) c.l2_gbps = v;
    if (json_get_number(js, "shared_gbps", &v) && v > 0) c.shared_gbps = v;
    if (json_get_number(js, "fp32_gflops", &v) && v > 0) c.fp32_gflops = v;
    if (json_get_number(js, "global_latency_ns", &v) && v > 0) c.latency_ns = v;
    if (json_get_number(js, "l2_latency_ns", &v) && v > 0) c.l2_latency_ns = v;
    if (json_get_number(js, "launch_overhead_us", &v) && v > 0) c.launch_us = v;
    if (json_get_number(js, "barrier_cycles", &v) && v > 0) c.barrier_cycles = v;
    if (json_get_number(js, "shared_latency_cycles", &v) && v > 0) c.shared_latency_cycles = v;
    if (json_get_number(js, "l1_latency_cycles", &v) && v > 0 && m->l1_smem_bytes > 0)
      c.l1_latency_cycles = v;
    if (json_get_number(js, "clock_mhz", &v) && v > 0) c.clock_mhz = v;
    c.source = "calibration file";
  }
  json_free(js);
  if (c.l2_gbps <= 0) c.l2_gbps = c.dram_gbps * 2.5;
  if (c.shared_gbps <= 0) c.shared_gbps = m->sm_count * 128.0 * c.clock_mhz * 1e-3;
  if (c.latency_ns <= 0) c.latency_ns = 500;
  if (c.launch_us <= 0) c.launch_us = 4;
  if (c.barrier_cycles <= 0) c.barrier_cycles = m->barrier_cycles > 0 ? m->barrier_cycles : 20;
  /* older calibration files lack it: `carve calibrate` measured 29.0 cycles (LDS to use, one-thread
   * chase) on the H200, 2026-11-22 (docs/data/calibration-h200-2026-11-22-b.json) */
  if (c.shared_latency_cycles <= 0) c.shared_latency_cycles = 29;
  return c;
}

const char *bottleneck_name(int b) {
  static const char *n[] = {"instruction issue",
                            "special-function units",
                            "DRAM bandwidth",
                            "L2 bandwidth",
                            "L1/shared-memory wavefronts",
                            "memory latency (too little parallelism to hide it)",
                            "atomics on one cache line (serialized at its L2 slice)",
                            "block dispatch (many short blocks per SM)",
                            "launch overhead"};
  return n[b];
}

/* the three largest entries of v[0..n) as shares of their sum: source lines when a is NULL (v is
 * indexed by line), else the analyzer's accesses */
static void hotspots(Estimate *e, const double *v, int n, const Analysis *a, const char *measure) {
  double total = 0;
  for (int i = 0; i < n; i++) total += v[i];
  e->nhot = 0;
  if (!v || total <= 0) return;
  int taken[3];
  for (int k = 0; k < 3; k++) {
    int best = -1;
    for (int i = 0; i < n; i++) {
      bool seen = false;
      for (int j = 0; j < k; j++) seen |= taken[j] == i;
      if (!seen && v[i] > 0 && (best < 0 || v[i] > v[best])) best = i;
    }
    if (best < 0 || v[best] < 0.05 * total) break;
    taken[k] = best;
    struct Hotspot *h = &e->hot[e->nhot++];
    h->share = v[best] / total;
    h->measure = measure;
    if (a) {
      const AccessStat *s = &a->acc[best];
      SrcLoc l = tok_loc(s->node->tok);
      h->line = l.line;
      h->col = l.col;
      h->what = fmt("%s %s of '%s'", s->space == SPACE_GLOBAL ? "global" : "shared",
                    s->kind == ACC_LOAD    ? "load"
                    : s->kind == ACC_STORE ? "store"
                                           : "atomic",
                    s->array);
    } else {
      h->line = best;
      h->col = 0;
      h->what = NULL;
    }
  }
}
/* the sectors of store i that other stores to the same array fill in as the same requests run
 * (the vector pass's two float4 halves of 32 bytes per thread: each alone writes half of every
 * sector it touches, together they write all of them, and L2 merges them without reading DRAM):
 * the larger of its ideal sectors and the siblings' ideal sectors together, at most its own */
static Obj *store_base(Node *n) {
  while (n) {
    if (n->kind == ND_VAR) return n->ty && n->ty->kind == TY_PTR ? n->var : NULL;
    if (n->kind == ND_DEREF || n->kind == ND_CAST || n->kind == ND_ADDR || n->kind == ND_INDEX)
      n = n->lhs;
    else if (n->kind == ND_ADD || n->kind == ND_SUB)
      n = n->lhs && n->lhs->ty && n->lhs->ty->kind == TY_PTR ? n->lhs : n->rhs;
    else return NULL;
  }
  return NULL;
}

static double completed_by_siblings(const Analysis *a, int i) {
  const AccessStat *s = &a->acc[i];
  Obj *base = s->node ? store_base(s->node) : NULL;
  uint64_t ideal = 0;
  for (int j = 0; base && j < a->nacc; j++) {
    const AccessStat *t = &a->acc[j];
    if (t->space == SPACE_GLOBAL && t->kind == ACC_STORE && t->requests == s->requests && t->node &&
        store_base(t->node) == base)
      ideal += t->ideal_sectors;
  }
  if (ideal < s->ideal_sectors) ideal = s->ideal_sectors;
  return (double)(ideal < s->sectors ? ideal : s->sectors);
}

/* The L1 the shared-memory carveout leaves on an SM: the driver sizes the carveout to the
 * resident blocks' shared memory (NVIDIA Hopper Tuning Guide, "Unified Shared Memory/L1/Texture
 * Cache": 256 KB per SM, carveouts of 0-228 KB); 0 where global loads are not cached (cc 1.x) */
static double l1_bytes(const Machine *m, Occupancy oc) {
  if (m->l1_smem_bytes <= 0) return 0;
  int carve = m->n_smem_carveouts > 0 ? m->smem_carveouts_kb[m->n_smem_carveouts - 1] * 1024 : 0;
  for (int i = 0; i < m->n_smem_carveouts; i++)
    if (m->smem_carveouts_kb[i] * 1024 >= oc.smem_per_sm) {
      carve = m->smem_carveouts_kb[i] * 1024;
      break;
    }
  return m->l1_smem_bytes > carve ? (double)(m->l1_smem_bytes - carve) : 0;
}

/* The L1 misses of the whole blocks the analysis ran: the cold loads and the loads whose stack
 * distance, times the blocks resident on the SM (each moves as much), exceeds the L1; *per_load
 * the share of all their sector loads, the result the ratio to the warps' distinct sectors (the
 * basis of warp_sectors). 1 and 1 where L1 does not cache global loads or nothing was measured. */
double l1_miss_ratio(const Analysis *a, const Machine *m, Occupancy oc, double *per_load) {
  double l1 = l1_bytes(m, oc);
  if (per_load) *per_load = 1;
  if (!a || a->l1_first <= 0 || a->l1_loads <= 0 || l1 <= 0 || oc.blocks_per_sm <= 0) return 1;
  double miss = a->l1_cold;
  for (int k = 0; k < L1_SHARE_BUCKETS; k++)
    if ((double)(1ull << k) * oc.blocks_per_sm > l1) miss += a->l1_reuse[k];
  if (per_load) *per_load = miss / a->l1_loads;
  return miss / a->l1_first;
}

/* Issue-bound kernels keep the schedulers busy 74-84% of cycles on the H200 (ncu
 * smsp__issue_active over the suite's issue-bound kernels): the rest are fixed-latency
 * dependencies ("wait") that independent warps do not cover. */
static const double ISSUE_EFFICIENCY = 0.8;

Estimate estimate_time(Launch *L, const Machine *m, const Counts *c, const Analysis *a,
                       Occupancy oc, Ceilings ce) {
  Estimate e = {0};
  e.warps_per_sm = oc.warps_per_sm;
  e.occ_limit = oc.limit;
  int64_t tpb = L->block[0] * L->block[1] * L->block[2];
  int64_t blocks = L->grid[0] * L->grid[1] * L->grid[2];
  /* blocks that leave at once (count_instructions' probe) do none of the work the sampled ones
   * do: the work, its spread over the SMs and the waves are those of the working blocks */
  if (c->idle_share > 0 && blocks > 1) {
    int64_t working = (int64_t)llround((double)blocks * (1 - c->idle_share));
    blocks = working < 1 ? 1 : working;
  }
  double threads = (double)tpb * (double)blocks;
  double warps = (double)((tpb + 31) / 32) * (double)blocks;
  e.threads = threads;
  double ts = c->threads_sampled > 0 ? c->threads_sampled : 1;
  double ws = c->warps_sampled > 0 ? c->warps_sampled : 1;
  double instr = 0, warp_instr = 0;
  for (int k = 0; k < CL_N; k++) {
    instr += c->lanes[k] / ts;
    warp_instr += c->warp_ins[k] / ws;
  }
  e.instr_per_thread = instr;
  e.warp_instructions = warp_instr * warps;
  double load_regions = c->regions_lanes / ts, shared_regions = c->shared_regions_lanes / ts,
         barriers = c->lanes[CL_BAR] / ts;
  e.regions_per_thread = 1 + load_regions + barriers; /* Ryoo: stalls on memory and barriers */
  e.long_regions_per_thread = 1 + load_regions;
  e.efficiency = ryoo_efficiency(instr, threads);
  int w_tb = (int)(tpb / 32 > 0 ? tpb / 32 : 1);
  e.utilization = ryoo_utilization(instr, e.regions_per_thread, w_tb, oc.blocks_per_sm);
  e.utilization_simple =
    ryoo_utilization_simple(instr, e.long_regions_per_thread, w_tb, oc.blocks_per_sm);
  double clock = ce.clock_mhz * 1e6;
  int per_wave = oc.blocks_per_sm * m->sm_count;
  e.waves = per_wave ? ceil((double)blocks / per_wave) : 0;
  /* issue: 4 warp-instructions per clock per SM (one per scheduler); a grid smaller than the GPU
   * issues on its SMs only, and fewer than 4 resident warps leave schedulers idle */
  double sms = blocks < m->sm_count ? (double)blocks : (double)m->sm_count;
  double resident =
    oc.warps_per_sm > 0
      ? (blocks < per_wave ? (double)oc.warps_per_sm * blocks / per_wave * m->sm_count / sms
                           : oc.warps_per_sm)
      : 4;
  double sched = resident < 4 ? resident : 4;
  /* per-SM pipes: the busiest SM runs ceil(blocks / SMs) blocks' work */
  double busiest = blocks > 0 ? ceil((double)blocks / m->sm_count) / (double)blocks : 0;
  e.t[B_ISSUE] = e.warp_instructions * busiest / (sched * ISSUE_EFFICIENCY * clock);
  double sfu_lanes = c->lanes[CL_SFU] / ts * threads;
  e.t[B_SFU] = sfu_lanes * busiest / ((double)(m->sfu_per_sm > 0 ? m->sfu_per_sm : 16) * clock);
  /* traffic: the analyzer's sectors and wavefronts, scaled from the threads it ran to the grid */
  double scale = a && a->threads_run > 0 ? threads / a->threads_run : 0;
  /* the analyzer's budget stops long loops early: its traffic covers part of each warp's run */
  double truncation = 1;
  if (a && a->warps_truncated > 0 && a->warp_steps > 0 && c->steps_per_warp > 0 && !c->truncated) {
    double analyzed = (double)a->warp_steps / (a->threads_run / 32.0);
    if (c->steps_per_warp > analyzed) truncation = c->steps_per_warp / analyzed;
  }
  scale *= truncation;
  double partial_writes = 0;
  /* the analysis's facts when they describe this kernel as it is now */
  bool reuse = a && a->facts && facts_current(a->facts) && facts_program(a->facts) == L->prog &&
               facts_kernel(a->facts) == L->kernel;
  Facts *facts = reuse ? a->facts : L->prog ? facts_new(L->prog, L->kernel) : NULL;
  CostModel *cm = facts ? cost_model_new(facts) : NULL;
  /* a loop whose trip count differs by thread (triangular: j2 from j1 to M) makes the longest
   * warp's chain longer than the sampled threads' average: the longest thread's count (depend.c,
   * every thread's bounds from their affine forms) over the sampled threads' mean (issue 28: on 8
   * blocks of a 2048-column covariance, the sampled first and last warps of two blocks average 260
   * iterations of the column loop, the longest warp runs 2048) */
  double imbalance = 1;
  for (int i = 0; facts && cm && i < facts_nloops(facts); i++) {
    const Loop *l = facts_loop(facts, i);
    int64_t max_trip;
    if (l->fn != L->kernel || l->depth != 0 || !depend_trip_max(facts, i, L, &max_trip)) continue;
    for (int k = 0; k < c->nloops; k++)
      if (c->loops[k].loop == l->node && c->loops[k].entries > 0 && c->loops[k].iterations > 0) {
        double r = (double)max_trip / (c->loops[k].iterations / c->loops[k].entries);
        if (r > imbalance) imbalance = r;
      }
  }
  int nacc = a ? a->nacc : 0;
  double *acc_l1 = xmalloc(sizeof(double) * (size_t)(nacc + 1)),
         *acc_traffic = xmalloc(sizeof(double) * (size_t)(nacc + 1));
  double *acc_atomic = xmalloc(sizeof(double) * (size_t)(nacc + 1));
  for (int i = 0; a && i < a->nacc; i++) {
    const AccessStat *s = &a->acc[i];
    double l1_before = e.l1_wavefronts;
    acc_traffic[i] = s->space == SPACE_GLOBAL ? (double)s->sectors : 0;
    acc_atomic[i] = s->space == SPACE_GLOBAL && s->kind == ACC_ATOMIC ? (double)s->requests : 0;
    if (s->space == SPACE_SHARED) {
      double wf = (double)s->wavefronts;
      int v = cm && s->node ? cost_vector_width(cm, s->node) : 1;
      if (v > 1 && s->requests > 0) {
        /* v accesses become one of v x 4 bytes: the data in 128-byte wavefronts, and at least
         * v/2 of them (ncu: a broadcast LDS.128 takes 2 on sm_90) */
        double per = ceil((double)s->used / (double)s->requests * v / 128.0);
        if (per < v / 2.0) per = v / 2.0;
        wf = (double)s->requests / v * per;
      }
      e.shared_bytes += wf * 128.0 * scale;
      e.l1_wavefronts += wf * scale;
    }
    /* a load the unrolled copies share runs only where its addresses are new (cost_share_region) */
    double fresh = s->node && c->load_fresh && s->node->id >= 0 && s->node->id < c->nload_fresh
                     ? c->load_fresh[s->node->id]
                     : 1;
    if (s->space == SPACE_GLOBAL)
      e.l1_wavefronts += (double)(s->lines ? s->lines : s->requests) * fresh * scale;
    acc_l1[i] = e.l1_wavefronts - l1_before;
    /* scattered stores leave sectors partly written: L2 must fetch each from DRAM to merge it */
    if (s->space == SPACE_GLOBAL && s->kind == ACC_STORE && s->sectors > s->ideal_sectors)
      partial_writes += (double)(s->sectors - completed_by_siblings(a, i)) * 32.0 * scale;
  }
  cost_model_free(cm);
  if (!reuse) facts_free(facts);
  /* L1 keeps what the warps of the SM touched recently: L2 serves each warp's distinct sectors
   * (once each) times the L1 miss ratio of the block's stack distances */
  double l1_miss = 1;
  if (a) e.l2_bytes = a->warp_sectors * 32.0 * scale * l1_miss_ratio(a, m, oc, &l1_miss);
  /* L1 writes through: every stored sector reaches L2 */
  for (int i = 0; a && i < a->nacc; i++)
    if (a->acc[i].space == SPACE_GLOBAL && a->acc[i].kind == ACC_STORE)
      e.l2_bytes += (double)a->acc[i].sectors * 32.0 * scale;
  /* DRAM: every buffer once (the first touch), or all the traffic when the footprint exceeds L2
   * (footprint_fits_l2 sums the footprint where the latency needs it) */
  double dram_min = 0;
  for (int i = 1; i < L->nbufs; i++) {
    /* an output that is also read (C += ...) crosses the DRAM bus twice */
    bool rmw = L->bufs[i].out && L->bufs[i].spec && L->bufs[i].spec->init != INIT_ZEROS;
    dram_min += (double)L->bufs[i].bytes * (rmw ? 2 : 1);
  }
  /* neighbouring warps reuse the rest of each sector through L2, so DRAM sees about the footprint */
  e.dram_min_bytes = dram_min;
  e.dram_bytes = dram_min;
  if (e.dram_bytes > e.l2_bytes && e.l2_bytes > 0) e.dram_bytes = e.l2_bytes;
  e.dram_bytes += 2 * partial_writes;
  /* memory ceilings are shared by the SMs in use: a grid smaller than the GPU gets its share */
  double active = blocks < m->sm_count ? (double)blocks / m->sm_count : 1.0;
  e.t[B_DRAM] = e.dram_bytes / (ce.dram_gbps * 1e9 * active);
  e.t[B_L2] = e.l2_bytes / (ce.l2_gbps * 1e9 * active);
  /* the L1/shared data pipe moves one 128-byte wavefront per clock per SM (the calibrated
   * conflict-free shared bandwidth is 97% of that): shared wavefronts and global lines share it */
  e.t[B_L1] = e.l1_wavefronts * busiest * m->sm_count * 128.0 / (ce.shared_gbps * 1e9);
  /* latency: one warp's critical path is its stalls in sequence (global loads at the DRAM or L2
   * latency, shared loads, barriers) plus its own issue at one instruction per clock; the busiest
   * SM runs ceil(blocks / SMs) blocks, blocks_per_sm of them at a time, each round taking at
   * least one chain. Loads of one unrolled step count as one stall (cost.c). */
  double lat = footprint_fits_l2(L, m) && ce.l2_latency_ns > 0 ? ce.l2_latency_ns : ce.latency_ns;
  /* loads that hit L1 wait the L1's latency: the stall is the average over the sector loads
   * (l1_miss_ratio's miss rate of the whole blocks analyzed) */
  double l1_ns =
    ce.l1_latency_cycles > 0 && ce.clock_mhz > 0 ? ce.l1_latency_cycles / ce.clock_mhz * 1e3 : 0;
  if (l1_ns > 0 && l1_ns < lat) lat = l1_ns + l1_miss * (lat - l1_ns);
  /* a stall is the latency less what the warp issued between the load and the use (a prefetch
   * that is used a step later waits for little or nothing) */
  double stall_s = 0;
  for (int b = 0; b < 32; b++) {
    if (c->stall_w[b] <= 0) continue;
    double hidden = c->stall_wd[b] / c->stall_w[b] / clock;
    if (hidden < lat * 1e-9) stall_s += c->stall_w[b] / ts * (lat * 1e-9 - hidden);
  }
  /* a warp issues at most one instruction a clock, and its block's warps share the SM's four
   * schedulers: where barriers hold a block's warps together, a warp of a block of w_tb warps
   * advances no faster than w_tb / 4 of its instructions a clock (so one block alone on an SM
   * pays its stalls on top of its issue); without barriers the warps drift apart and one
   * warp's stalls are covered by the others' issue. Measured on the H100 (2026-11-24, stored
   * launch-shape times, bench/launch-rank.py): charging it without barriers ranked cp's and
   * mri-q's block shapes backwards (Spearman -0.35 and -0.77; +0.89 and +0.83 without it) */
  double own_issue = warp_instr * (w_tb > 4 && L->kernel->uses_barrier ? w_tb / 4.0 : 1.0);
  e.chain_s =
    stall_s +
    (shared_regions * ce.shared_latency_cycles + barriers * ce.barrier_cycles + own_issue) / clock;
  /* the busiest SM runs its blocks in rounds of blocks_per_sm; a last, partial round still
   * takes a whole chain */
  double rounds =
    oc.blocks_per_sm > 0 ? ceil(ceil((double)blocks / m->sm_count) / oc.blocks_per_sm) : 1;
  if (rounds < 1) rounds = 1;
  /* the longest warp's chain once, the other rounds' the sampled average (imbalance above: one
   * round, as the few blocks of a thread-per-column kernel, waits for the longest warp whole) */
  e.t[B_LATENCY] = rounds * e.chain_s * (1 + (imbalance - 1) / rounds);
  /* atomics: the L2 slice that owns a 128-byte line applies the atomic warp-requests on it one
   * after another. ATOMIC_LINE_NS, the time per request, is fitted on examples/histogram (H200:
   * 524,288 requests on each of its 8 lines in 4.32 ms); holdout round 2 checks it. */
  const double ATOMIC_LINE_NS = 8.2;
  if (a) e.t[B_ATOMIC] = a->atomic_line_requests * truncation * ATOMIC_LINE_NS * 1e-9;
  /* block dispatch: the block scheduler hands each SM its blocks one after another, a fixed
   * number of cycles apart, so the busiest SM's ceil(blocks / SMs) blocks take at least that many
   * dispatches whatever their occupancy; it binds where blocks are many and short. Measured on
   * the H100 (machines.c, block_dispatch_cycles): sad's blocks of 32 threads run 1680 blocks per
   * SM in 0.144 ms, twice its 64-thread blocks (816, 0.076 ms), and 64 vs 128 threads at equal
   * occupancy differ by the blocks alone (0.076 vs 0.054 ms); tests/tune/dispatch.cu (one store
   * a thread) at 32 vs 128 threads, 1680 vs 420 blocks per SM: 0.1388 vs 0.0393 ms. The cycles
   * are fitted on both in the 3-norm below, where this limit overlaps the others */
  if (m->block_dispatch_cycles > 0 && clock > 0)
    e.t[B_BLOCKS] = ceil((double)blocks / m->sm_count) * m->block_dispatch_cycles / clock;
  e.t[B_LAUNCH] = ce.launch_us * 1e-6;
  e.bottleneck = B_ISSUE;
  for (int b = 0; b < B_LAUNCH; b++)
    if (e.t[b] > e.t[e.bottleneck]) e.bottleneck = b;
  e.total = limits_overlap(e.t);
  /* where the bottleneck's work comes from: source lines for instructions and stalls, memory
   * accesses for traffic */
  switch (e.bottleneck) {
  case B_ISSUE:
  case B_SFU: hotspots(&e, c->line_ins, c->nlines, NULL, "warp instructions"); break;
  case B_LATENCY: hotspots(&e, c->line_stalls, c->nlines, NULL, "memory stalls"); break;
  case B_L1: hotspots(&e, acc_l1, nacc, a, "L1/shared wavefronts"); break;
  case B_L2:
  case B_DRAM: hotspots(&e, acc_traffic, nacc, a, "global sectors"); break;
  case B_ATOMIC: hotspots(&e, acc_atomic, nacc, a, "atomic requests"); break;
  default: break;
  }
  free(acc_l1);
  free(acc_traffic);
  free(acc_atomic);
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
        if (s->part[p]) {
          used_ch++;
          if (s->part[p] < mn) mn = s->part[p];
        }
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
  f.lat_hiding = (100 * oc.occupancy < 50 ? 100 * oc.occupancy : 50) / 50.0 *
                 sqrt(shm_loads > 0 ? shm_loads : 1);
  f.bw_util = moved > 0 ? used / moved : 1;               /* eq. 3 */
  f.shm_eff = shared_wf > 0 ? shared_req / shared_wf : 1; /* eq. 6, normalized */
  double evals = 0, div = 0;
  for (int i = 0; i < a->nbr; i++) {
    evals += (double)a->br[i].evals;
    div += (double)a->br[i].divergent;
  }
  f.branch_eff = evals > 0 ? evals / (evals + div) : 1; /* eq. 7: warps / paths */
  f.mpe = f.data_reuse * f.lat_hiding * (f.bw_util / f.ch_skew) * f.branch_eff *
          sqrt(f.shm_eff); /* eq. 8 */
  return f;
}
