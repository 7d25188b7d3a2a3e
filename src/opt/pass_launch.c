/* pass launch: the block shape and __launch_bounds__ (Yang et al., PLDI 2010, Sec. 3.8 and 4:
 * after the memory passes, the thread block is sized for the machine's resources). A naive
 * kernel keeps the block its launch gives (16x16, 256); where its threads cannot tell which
 * block or warp they are in, any other shape computes the same outputs, and which one is faster
 * is the model's question: the pass reshapes the block to `x` by `y` threads, grows or shrinks
 * the grid to cover the original's threads, and writes __launch_bounds__(threads[, minblocks])
 * so that ptxas keeps the registers a block of that size can launch with.
 *
 * Legal when: the kernel reads threadIdx, blockIdx and blockDim only inside global indices
 * blockIdx.d*blockDim.d + threadIdx.d (either order of either operator), never gridDim; no
 * shared memory, barrier, warp-level operation (shuffle, vote, __syncwarp, cooperative group),
 * fence or volatile variable, in the kernel or a device function it calls (which may not read
 * the special registers at all); along a dimension without a global index the block keeps its
 * extent; the new grid covers exactly the original's threads along each dimension, or the
 * threads beyond them do nothing: before anything that is not a safe declaration they meet a
 * guard on the global index (`if (g >= B ...) return;` or a final `if (g < B && ...) S`, nested
 * ifs alike) whose bound B is at most the original's extent; everything they run before it is
 * free of side effects, memory reads and integer divisions that may trap. Resource limits: the
 * block is a whole number of warps and at most the machine's threads a block; the grid within
 * CUDA's limits; with the registers NVRTC reports for the kernel, a block fits an SM; minblocks
 * blocks of that size fit an SM. The launch is written back as the file's `#pragma carve
 * launch`; one from host code as the program's launches, wrapped (emit.c: carve_grid_K, the
 * verified block); one from --grid/--block flags as the output's `#pragma carve launch` line
 * (main.c). --grid/--block over a file's spec are refused, and so is a launch another pass
 * already reshaped (the shape tuned is the original's). */
#include "opt.h"
#include "../model/model.h"
#include <string.h>

enum { MAX_CALLEES = 32 };

/* ---- what the kernel reads of its place in the launch ---- */
typedef struct {
  bool gi[3];    /* a global index along the dimension */
  char why[256]; /* the first obstacle ("" none) */
  Obj *seen[MAX_CALLEES];
  int nseen;
  int callee; /* > 0: inside a device function */
} Use;

static int global_index_dim(Node *e) { return rw_global_index_dim(e, 3); }

static void obstacle(Use *u, Node *n, const char *what) {
  if (!u->why[0]) snprintf(u->why, sizeof u->why, "line %d: %s", tok_loc(n->tok).line, what);
}

static const char *const reg_name[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};

static bool use_pre(Node *n, void *ctx);
static void scan_callee(Use *u, Node *call) {
  Obj *fn = call->fn;
  for (int i = 0; i < u->nseen; i++)
    if (u->seen[i] == fn) return;
  if (u->nseen == MAX_CALLEES) {
    obstacle(u, call, "more device functions than the pass follows");
    return;
  }
  if (!fn->body) {
    obstacle(u, call, fmt("it calls '%s', whose body is not in the file", fn->name));
    return;
  }
  u->seen[u->nseen++] = fn;
  u->callee++;
  walk(fn->body, use_pre, NULL, u);
  u->callee--;
}

static bool use_pre(Node *n, void *ctx) {
  Use *u = ctx;
  if (u->why[0]) return false;
  int d;
  switch (n->kind) {
  case ND_ADD:
    if ((d = global_index_dim(n)) < 0) break;
    if (u->callee) {
      obstacle(u, n, "a device function reads the thread's global index");
      return false;
    }
    u->gi[d] = true;
    return false;
  case ND_SPECIAL:
    if (n->sreg == SR_WARPSIZE) break;
    if (n->sreg == SR_NCTAID)
      obstacle(u, n, fmt("it reads gridDim.%c, which the new grid changes", "xyz"[n->dim]));
    else if (u->callee)
      obstacle(u, n, fmt("a device function reads %s.%c", reg_name[n->sreg], "xyz"[n->dim]));
    else
      obstacle(u, n,
               fmt("%s.%c is read outside a global index blockIdx.%c*blockDim.%c + threadIdx.%c",
                   reg_name[n->sreg], "xyz"[n->dim], "xyz"[n->dim], "xyz"[n->dim], "xyz"[n->dim]));
    return false;
  case ND_VAR:
    if (n->var->sc == SC_SHARED || n->var->sc == SC_EXTERN_SHARED)
      obstacle(u, n, fmt("it uses shared memory ('%s'), which is per block", n->var->name));
    else if (n->var->is_volatile)
      obstacle(u, n, fmt("it uses a volatile variable ('%s')", n->var->name));
    break;
  case ND_CALL:
    switch (n->builtin) {
    case BI_SYNCTHREADS:
    case BI_SYNCTHREADS_COUNT:
    case BI_SYNCTHREADS_AND:
    case BI_SYNCTHREADS_OR: obstacle(u, n, "it synchronizes the block (__syncthreads)"); break;
    case BI_SYNCWARP:
    case BI_SHFL:
    case BI_SHFL_UP:
    case BI_SHFL_DOWN:
    case BI_SHFL_XOR:
    case BI_BALLOT:
    case BI_ANY:
    case BI_ALL:
    case BI_ACTIVEMASK:
      obstacle(
        u, n,
        "it uses warp-level operations (shuffles, votes, __syncwarp): a warp's threads change with the block");
      break;
    case BI_CG:
      obstacle(u, n, "it uses cooperative groups, whose groups change with the block");
      break;
    case BI_THREADFENCE:
    case BI_THREADFENCE_BLOCK:
      obstacle(u, n, "it uses memory fences (threads that communicate)");
      break;
    case BI_PIPE_COPY:
    case BI_PIPE_COMMIT:
    case BI_PIPE_WAIT: obstacle(u, n, "it copies asynchronously into shared memory"); break;
    default: break;
    }
    if (!u->why[0] && n->fn) scan_callee(u, n);
    break;
  default: break;
  }
  return !u->why[0];
}

/* ---- the guard that stops threads beyond the original's ---- */
typedef struct {
  Obj *var[3]; /* locals holding a global index (defined once) */
  bool has[3];
  int64_t bound[3]; /* threads with global index >= bound[d] do nothing */
  char text[3][96]; /* the guard term, for the plan */
} Guard;

/* an expression threads beyond the original may evaluate: no side effects, memory reads, or
 * integer division by anything but a nonzero constant */
static bool unsafe_pre(Node *n, void *ctx) {
  bool *bad = ctx;
  int64_t v;
  switch (n->kind) {
  case ND_INDEX:
  case ND_DEREF: *bad = true; break;
  case ND_DIV:
  case ND_MOD:
    if (n->ty && is_integer(n->ty) && !(node_int_constant(n->rhs, &v) && v != 0)) *bad = true;
    break;
  default: break;
  }
  return !*bad;
}
static bool safe(Node *e) {
  bool bad = false;
  if (!e) return true;
  walk_one(e, unsafe_pre, NULL, &bad);
  return !bad && rw_pure(e);
}

/* e is global index d (the expression or a local holding it): d, else -1 */
static int index_of(const Guard *g, Node *e) {
  e = rw_strip(e);
  for (int d = 0; d < 3; d++)
    if (e->kind == ND_VAR && g->var[d] && e->var == g->var[d]) return d;
  return global_index_dim(e);
}

static bool special_pre(Node *n, void *ctx) {
  if (n->kind == ND_SPECIAL && n->sreg != SR_WARPSIZE) *(bool *)ctx = true;
  return true;
}

/* B's value at this launch, if it is the same for every thread */
static bool invariant_value(PassCtx *c, Node *B, int64_t *v) {
  Subst none = {0};
  char why[128] = "";
  Node *e = safe(B) ? remat(c->k, B, &none, why, sizeof why) : NULL;
  bool thread = false;
  if (e) walk_one(e, special_pre, NULL, &thread);
  int64_t z[3] = {0, 0, 0};
  return e && !thread && remat_eval(e, c->L, z, z, v);
}

/* a term that keeps threads with a large global index out: `g < B` (below) or `g >= B`
 * (!below, in an early return), either operand order, `<=`/`>` counting B + 1 */
static bool bound_term(PassCtx *c, Guard *g, Node *t, bool below) {
  t = rw_strip(t);
  NodeKind lt = below ? ND_LT : ND_GE, le = below ? ND_LE : ND_GT, gt = below ? ND_GT : ND_LE,
           ge = below ? ND_GE : ND_LT;
  int d = -1, plus = 0;
  Node *B = NULL;
  if (t->kind == lt || t->kind == le) {
    d = index_of(g, t->lhs);
    B = t->rhs;
    plus = t->kind == le;
  } else if (t->kind == gt || t->kind == ge) {
    d = index_of(g, t->rhs);
    B = t->lhs;
    plus = t->kind == ge;
  }
  int64_t v;
  if (d < 0 || !invariant_value(c, B, &v)) return false;
  if (!g->has[d] || v + plus < g->bound[d]) {
    g->has[d] = true;
    g->bound[d] = v + plus;
    Buf b = {0};
    print_expr_with(&b, t, NULL, NULL);
    snprintf(g->text[d], sizeof g->text[d], "%s", b.s ? b.s : "");
    buf_free(&b);
  }
  return true;
}

/* the terms of a && (below) or || (!below) chain, left to right: false at the first term that
 * is neither a bound nor safe to evaluate (what follows it may not be reached safely) */
static bool terms(PassCtx *c, Guard *g, Node *e, bool below) {
  Node *s = rw_strip(e);
  if (s->kind == (below ? ND_LOGAND : ND_LOGOR))
    return terms(c, g, s->lhs, below) && terms(c, g, s->rhs, below);
  return bound_term(c, g, s, below) || safe(s);
}

static bool is_return(Node *s) {
  if (s->kind == ND_BLOCK) s = s->stmts && !s->stmts->next ? s->stmts : NULL;
  return s && s->kind == ND_RETURN && !s->lhs;
}

/* a local defined once as a global index, with an integer type of 32 bits or more */
static void note_index_var(Guard *g, Node *decl) {
  int d = decl->decl_init ? global_index_dim(decl->decl_init) : -1;
  Obj *v = decl->var;
  if (d < 0 || g->var[d] || !is_integer(v->ty) || v->ty->size < 4) return;
  for (Node *s = decl->next; s; s = s->next)
    if (rw_writes_var(s, v)) return;
  g->var[d] = v;
}

/* safe declarations, early returns, and a last `if` without else (nested ifs alike) */
static void find_guards(PassCtx *c, Guard *g) {
  memset(g, 0, sizeof *g);
  for (Node *st = c->k->body->stmts; st; st = st->next) {
    if (st->kind == ND_DECL) {
      if (!safe(st->decl_init)) return;
      note_index_var(g, st);
      continue;
    }
    if (st->kind != ND_IF || st->els) return;
    if (is_return(st->then)) {
      if (!terms(c, g, st->cond, false)) return;
      continue;
    }
    if (st->next) return;
    for (Node *in = st; in && in->kind == ND_IF && !in->els;) {
      if (!terms(c, g, in->cond, true)) return;
      in = in->then->kind == ND_BLOCK
             ? (in->then->stmts && !in->then->stmts->next ? in->then->stmts : NULL)
             : in->then;
    }
    return;
  }
}

/* ---- the shape ---- */
typedef struct {
  int64_t block[3], grid[3], span[3];
  int threads, minblocks;
  bool reshaped;
  Guard g;
} Shape;

static bool same_dims(const int64_t a[3], const int64_t b[3]) {
  return !memcmp(a, b, sizeof(int64_t) * 3);
}

/* the launch is the file's own, as the original has it: what the output can write back */
static Legality launch_origin(PassCtx *c) {
  const char *name = c->k->name;
  const Launch *L = c->L;
  LaunchSpec *os = L->prog ? find_spec(L->prog, name) : NULL, *cs = find_spec(c->p, name);
  if (!os) {
    /* host code's launch or flags': the output writes the new one (a host program's launches
     * wrapped, carve_grid_K; a kernel-only output's #pragma carve launch). A spec in the variant
     * is an earlier pass's reshape (set_launch) */
    if (cs) {
      snprintf(
        c->why, sizeof c->why,
        "an earlier pass reshaped the launch (grid %lldx%lld, block %lldx%lld): the pass tunes the original's shape only",
        (long long)cs->grid[0], (long long)cs->grid[1], (long long)cs->block[0],
        (long long)cs->block[1]);
      return NOT_APPLICABLE;
    }
    return LEGAL;
  }
  if (!os->has_grid || !os->has_block) {
    snprintf(
      c->why, sizeof c->why,
      "the file's `#pragma carve launch %s` line has no grid or block: the new launch could not be written back",
      name);
    return NOT_APPLICABLE;
  }
  if (!same_dims(os->grid, L->grid) || !same_dims(os->block, L->block)) {
    snprintf(
      c->why, sizeof c->why,
      "--grid/--block override the file's `#pragma carve launch`: the new launch could not be written back");
    return NOT_APPLICABLE;
  }
  if (!cs || !same_dims(cs->grid, L->grid) || !same_dims(cs->block, L->block)) {
    snprintf(
      c->why, sizeof c->why,
      "an earlier pass reshaped the launch (grid %lldx%lld, block %lldx%lld): the pass tunes the original's shape only",
      cs ? (long long)cs->grid[0] : 0, cs ? (long long)cs->grid[1] : 0,
      cs ? (long long)cs->block[0] : 0, cs ? (long long)cs->block[1] : 0);
    return NOT_APPLICABLE;
  }
  return LEGAL;
}

/* registers x threads within an SM (NVRTC's count for the kernel as it is, when there is one) */
static Legality fits_registers(PassCtx *c, const Shape *s) {
  const Machine *m = c->m;
  if (m->cc_major < 7) return LEGAL;
  Resources r = kernel_resources(c->p, c->k, fmt("sm_%d%d", m->cc_major, m->cc_minor));
  if (!r.known) return LEGAL; /* __launch_bounds__(threads) makes ptxas keep what fits */
  Occupancy oc = occupancy(m, s->threads, r.regs, r.smem + (int)c->L->dyn_shared);
  if (oc.blocks_per_sm > 0) return LEGAL;
  snprintf(c->why, sizeof c->why,
           "a block of %d threads with %d registers each (ptxas) does not fit an SM of %s (%s)",
           s->threads, r.regs, m->name, occ_limit_name(oc.limit));
  return ILLEGAL;
}

static Legality limits(PassCtx *c, const Shape *s) {
  const Machine *m = c->m;
  if (s->threads > m->max_threads_per_block || s->threads % m->warp_size) {
    snprintf(c->why, sizeof c->why,
             "a block of %lldx%lld = %d threads: %s allows whole warps of %d up to %d",
             (long long)s->block[0], (long long)s->block[1], s->threads, m->name, m->warp_size,
             m->max_threads_per_block);
    return ILLEGAL;
  }
  /* CUDA C++ Programming Guide, "Technical Specifications per Compute Capability": grid x up to
   * 2^31-1, y and z up to 65535 */
  if (s->grid[0] > 2147483647 || s->grid[1] > 65535) {
    snprintf(c->why, sizeof c->why, "the grid %lldx%lld exceeds CUDA's limits",
             (long long)s->grid[0], (long long)s->grid[1]);
    return ILLEGAL;
  }
  for (int d = 0; d < 2; d++)
    if (s->grid[d] * s->block[d] > 2147483647) {
      snprintf(c->why, sizeof c->why,
               "%lld threads along %c: the global index would overflow an int",
               (long long)(s->grid[d] * s->block[d]), "xy"[d]);
      return ILLEGAL;
    }
  if (s->minblocks && ((int64_t)s->minblocks * s->threads > m->max_threads_per_sm ||
                       s->minblocks > m->max_blocks_per_sm)) {
    snprintf(c->why, sizeof c->why,
             "%d blocks of %d threads do not fit an SM of %s (%d threads, %d blocks)", s->minblocks,
             s->threads, m->name, m->max_threads_per_sm, m->max_blocks_per_sm);
    return ILLEGAL;
  }
  return fits_registers(c, s);
}

/* threads past the original's extent along d: none, or stopped by a guard within it */
static Legality coverage(PassCtx *c, Shape *s) {
  find_guards(c, &s->g);
  for (int d = 0; d < 2; d++) {
    if (s->grid[d] * s->block[d] == s->span[d]) continue;
    if (!s->g.has[d] || s->g.bound[d] > s->span[d]) {
      snprintf(c->why, sizeof c->why,
               "the block's %lld along %c does not divide the original's %lld threads, and %s",
               (long long)s->block[d], "xy"[d], (long long)s -> span[d],
               s -> g.has[d] ? fmt("the guard %s lets threads up to %lld through", s->g.text[d],
                                   (long long)s->g.bound[d] - 1)
                             : "no guard on the global index stops the threads beyond them");
      return ILLEGAL;
    }
  }
  return LEGAL;
}

static Legality decide(PassCtx *c, Shape *s) {
  memset(s, 0, sizeof *s);
  const Launch *L = c->L;
  Legality l = launch_origin(c);
  if (l != LEGAL) return l;
  Use u;
  memset(&u, 0, sizeof u);
  walk(c->k->body, use_pre, NULL, &u);
  if (u.why[0]) {
    snprintf(c->why, sizeof c->why, "%s", u.why);
    return NOT_APPLICABLE;
  }
  if (!u.gi[0] && !u.gi[1]) {
    snprintf(c->why, sizeof c->why, "the kernel reads no global index along x or y");
    return NOT_APPLICABLE;
  }
  s->block[0] = c->param[0] ? c->param[0] : L->block[0];
  s->block[1] = c->param[1] ? c->param[1] : L->block[1];
  s->block[2] = L->block[2];
  for (int d = 0; d < 2; d++)
    if (!u.gi[d] && s->block[d] != L->block[d]) {
      snprintf(c->why, sizeof c->why,
               "the kernel has no global index along %c: the block keeps its %lld there", "xy"[d],
               (long long)L -> block[d]);
      return NOT_APPLICABLE;
    }
  for (int d = 0; d < 3; d++) {
    s->span[d] = L->grid[d] * L->block[d];
    s->grid[d] = d < 2 ? (s->span[d] + s->block[d] - 1) / s->block[d] : L->grid[d];
  }
  s->threads = (int)(s->block[0] * s->block[1] * s->block[2]);
  s->minblocks = c->param[2] ? c->param[2] : c->k->launch_bounds[1];
  s->reshaped = !same_dims(s->block, L->block);
  if (!s->reshaped && s->minblocks == c->k->launch_bounds[1]) {
    snprintf(c->why, sizeof c->why, "block %lldx%lld is the launch's own", (long long)L->block[0],
             (long long)L->block[1]);
    return NOT_APPLICABLE;
  }
  if ((l = limits(c, s)) != LEGAL || (l = coverage(c, s)) != LEGAL) return l;
  c->site = c->k->body;
  snprintf(c->why, sizeof c->why, "block %lldx%lld -> %lldx%lld", (long long)L->block[0],
           (long long)L->block[1], (long long)s->block[0], (long long)s->block[1]);
  return LEGAL;
}

static Legality legal(PassCtx *c) {
  ProgramScope sc = program_enter(c->p);
  Shape s;
  Legality l = decide(c, &s);
  program_leave(sc);
  return l;
}

static bool apply(PassCtx *c) {
  c->spec |= OPT_SPEC_ARGS; /* the guard's bound was evaluated at the recorded arguments */
  Shape s;
  if (decide(c, &s) != LEGAL) return false;
  const Launch *L = c->L;
  c->k->launch_bounds[0] = s.threads;
  c->k->launch_bounds[1] = s.minblocks;
  Buf how = {0};
  for (int d = 0; d < 2; d++) {
    if (s.grid[d] * s.block[d] == s.span[d]) continue;
    buf_printf(&how, "%s%s", how.len ? ", " : "", s.g.text[d]);
  }
  const char *bounds = s.minblocks ? fmt("__launch_bounds__(%d, %d)", s.threads, s.minblocks)
                                   : fmt("__launch_bounds__(%d)", s.threads);
  if (!s.reshaped) {
    snprintf(c->did, sizeof c->did, "block %lldx%lld kept, %s", (long long)s.block[0],
             (long long)s.block[1], bounds);
    buf_free(&how);
    return true;
  }
  c->changes_launch = true;
  memcpy(c->new_grid, s.grid, sizeof c->new_grid);
  memcpy(c->new_block, s.block, sizeof c->new_block);
  memcpy(c->cover, s.block, sizeof c->cover); /* each thread keeps its global index */
  if (c->mutation == 1) c->new_grid[0]--;     /* broken: the grid one block short along x */
  if (c->mutation == 2) {
    c->new_block[0] = s.block[1];
    c->new_block[1] = s.block[0];
  } /* broken: x and y swapped */
  snprintf(c->did, sizeof c->did,
           "block %lldx%lld -> %lldx%lld (%d threads), grid %lldx%lld -> %lldx%lld, %s; %s",
           (long long)L->block[0], (long long)L->block[1], (long long)s.block[0],
           (long long)s.block[1], s.threads, (long long)L->grid[0], (long long)L->grid[1],
           (long long)s.grid[0], (long long)s.grid[1], bounds,
           how.len ? fmt("threads past the original's stop at %s", how.s)
                   : "the grid covers exactly the original's threads");
  buf_free(&how);
  return true;
}

const Pass pass_launch = {
  .name = "launch",
  .summary =
    "the block shape chosen by the model (the grid covering the same threads) and __launch_bounds__",
  .source =
    "Yang et al., PLDI 2010, Sec. 3.8 and 4 (thread-block size for the machine's resources); CUDA C++ Programming Guide, __launch_bounds__",
  .params =
    {{"x",
      "threads a block along x (the launch's own without it)",
      {16, 32, 64, 128, 256, 512, 1024},
      0},
     {"y",
      "threads a block along y (the launch's own without it; 1 for a kernel without a y index)",
      {1, 2, 4, 8, 16, 32},
      0},
     {"minblocks",
      "__launch_bounds__'s minimum resident blocks an SM (caps registers; 0: the kernel's own, or none)",
      {0, 2, 4, 8},
      0}},
  .nparams = 3,
  .model_chooses = true,
  .opt_in =
    true, /* on the H100/H200 its kept shapes ran 0.49x-0.98x of the naive kernels (docs/results.md, 2026-11-27) */
  .model_params = 3, /* x and y jointly, then minblocks with them fixed */
  .motivation = "launch",
  .legal = legal,
  .apply = apply,
  .nmutations = 2,
  .mutation_names = {"the grid one block short along x", "the block's x and y swapped"},
};
