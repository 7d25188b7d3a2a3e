/* pass remap: the thread mapping transposed, so that a warp's lanes walk the fast dimension of
 * the kernel's accesses (Yang et al., PLDI 2010, Sec. 3.3 coalesce by choosing which thread reads
 * which element; here no element moves through shared memory: which thread computes which output
 * changes, and every thread computes what one thread of the original computed). Two spellings:
 *
 *   2-D: a grid with x over rows (`row = blockIdx.x*BS + threadIdx.x; col = blockIdx.y*BS +
 *        threadIdx.y; in[row*w + col]`: a warp's lanes w elements apart). threadIdx, blockIdx,
 *        blockDim and gridDim exchange x and y everywhere in the kernel, and the launch's grid
 *        and block are transposed: new thread (b, t) computes what the original's ((b.y, b.x),
 *        (t.y, t.x)) did.
 *   1-D: one index split by a divisor E (`idx = blockIdx.x*blockDim.x + threadIdx.x; row = idx %
 *        h; col = idx / h`: neighbouring lanes on neighbouring rows). The index is transposed as
 *        an F x E grid of T threads (F = ceil(T / E)): the new global index v computes the
 *        original's (v % F)*E + v/F, with threads outside the original's T stopping at once;
 *        neighbouring lanes then take neighbouring values of idx / E.
 *
 * Which mapping reaches fewer sectors is computed, not guessed: every global access's index is
 * re-materialized (remat.c, loop counters at their first value) and evaluated at a warp's lanes of
 * the first and a middle block under both mappings, its distinct 32-byte sectors weighted by the
 * trip counts of the loops around it; the pass applies when the transposed mapping needs at most
 * 3/4 of the sectors and the access that gains most becomes unit-stride across the lanes; the
 * estimate then decides whether it is kept (the reshape must save 5%).
 *
 * Legal when the threads cannot see each other (rw_threads_separable: no barrier, shared memory,
 * warp operation, fence, impure call, gridDim.x), no atomic (their order would change), and, 2-D,
 * the transposed grid within CUDA's limits (grid.y <= 65535); 1-D, a 1-D launch whose global
 * index is one declaration `idx = blockIdx.x*blockDim.x + threadIdx.x` at the top level, the only
 * place threadIdx.x, blockIdx.x and blockDim.x are read, preceded by pure declarations only, and
 * divided (or taken modulo) by a value the launch's arguments give. Every thread computes what one
 * original thread computed and every original thread is computed once, so each output is written
 * by exactly the one thread that wrote it before. The mapping is for the recorded grid and
 * arguments (OPT_SPEC_GRID | OPT_SPEC_ARGS: a host program's launch wrapper tests both). */
#include "opt.h"
#include "../analysis/analysis.h"
#include <stdlib.h>
#include <string.h>

enum { REMAP_ACCESSES = 64 };

/* one global access: its index at another thread, and how often it runs per thread */
typedef struct {
  Node *node;
  Node *index; /* re-materialized, loop counters at their first value */
  int esize;
  double weight;
} RAccess;

typedef struct {
  int mode;      /* 2: x and y exchanged; 1: the 1-D index transposed */
  Node **idecl;  /* 1-D: the slot of idx's declaration */
  Node *divisor; /* 1-D: E as written */
  int64_t E, F, T;
  RAccess a[REMAP_ACCESSES];
  int n;
  double before, after; /* weighted sectors per warp, summed over accesses and sampled warps */
} Remap;

/* the original thread (tid, bid) that lane `lane` of sampled warp `w` runs under the mapping
 * (mode 0: the original's own); false when that lane computes nothing */
static bool thread_of(const Remap *r, const Launch *L, int mode, int w, int lane, int64_t tid[3],
                      int64_t bid[3]) {
  int64_t b[3], g[3];
  for (int d = 0; d < 3; d++) b[d] = L->block[d], g[d] = L->grid[d];
  if (mode == 2) b[0] = L->block[1], b[1] = L->block[0], g[0] = L->grid[1], g[1] = L->grid[0];
  int64_t nb = b[0] * b[1] * b[2];
  /* warp 0 of block 0, then warp 0 of the middle block */
  int64_t blin = w ? (g[0] * g[1] * g[2]) / 2 : 0, t = lane;
  if (t >= nb) return false;
  int64_t nt[3] = {t % b[0], (t / b[0]) % b[1], t / (b[0] * b[1])};
  int64_t nbid[3] = {blin % g[0], (blin / g[0]) % g[1], blin / (g[0] * g[1])};
  memcpy(tid, nt, sizeof nt);
  memcpy(bid, nbid, sizeof nbid);
  if (mode == 2) {
    tid[0] = nt[1], tid[1] = nt[0];
    bid[0] = nbid[1], bid[1] = nbid[0];
  } else if (mode == 1) {
    int64_t v = nbid[0] * b[0] + nt[0];
    if (v >= r->E * r->F) return false;
    int64_t u = (v % r->F) * r->E + v / r->F;
    if (u >= r->T) return false;
    tid[0] = u % L->block[0];
    bid[0] = u / L->block[0];
  }
  return true;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* weighted distinct sectors of every access over the sampled warps, under a mapping */
static double sectors(const Remap *r, const Launch *L, int mode) {
  double sum = 0;
  for (int i = 0; i < r->n; i++)
    for (int w = 0; w < 2; w++) {
      int64_t sec[32];
      int ns = 0;
      for (int lane = 0; lane < 32; lane++) {
        int64_t tid[3], bid[3], v;
        if (!thread_of(r, L, mode, w, lane, tid, bid)) continue;
        if (!remat_eval(r->a[i].index, L, tid, bid, &v)) continue;
        __int128 byte = (__int128)v * r->a[i].esize;
        sec[ns++] = (int64_t)(byte >= 0 ? byte / 32 : -((-byte + 31) / 32));
      }
      qsort(sec, (size_t)ns, sizeof *sec, cmp_i64);
      int distinct = 0;
      for (int k = 0; k < ns; k++) distinct += !k || sec[k] != sec[k - 1];
      sum += r->a[i].weight * distinct;
    }
  return sum;
}

/* the kernel's global accesses with indices computable at another thread */
static void collect(PassCtx *c, Remap *r) {
  Facts *f = facts_new(c->p, c->k);
  for (int k = 0; k < facts_naccesses(f) && r->n < REMAP_ACCESSES; k++) {
    const Access *a = facts_access(f, k);
    if (a->space != SPACE_GLOBAL || a->fn != c->k || a->node->kind != ND_INDEX || !a->node->ty ||
        a->indirect)
      continue;
    Subst s = {0};
    double weight = 1;
    bool ok = true;
    for (int l = a->loop; l >= 0 && ok; l = facts_loop(f, l)->parent) {
      const Loop *lp = facts_loop(f, l);
      weight *= lp->trip > 0 ? (double)lp->trip : 4;
      if (!lp->iv) continue;
      if (s.nv == 4) ok = false;
      else {
        s.vfrom[s.nv] = lp->iv;
        s.vto[s.nv++] = rw_num(a->node->tok, lp->start_known ? lp->start : 0);
      }
    }
    char why[128] = "";
    Node *e = ok ? remat(c->k, a->node->rhs, &s, why, sizeof why) : NULL;
    if (!e) continue;
    r->a[r->n++] = (RAccess){a->node, e, (int)a->node->ty->size, weight};
  }
  facts_free(f);
}

typedef struct {
  int n[4][3]; /* uses of threadIdx, blockIdx, blockDim, gridDim per dimension */
} Uses;
static bool uses_pre(Node *n, void *ctx) {
  Uses *u = ctx;
  if (n->kind == ND_SPECIAL && n->sreg <= SR_NCTAID && n->dim < 3) u->n[n->sreg][n->dim]++;
  return true;
}

/* an atomic anywhere in the kernel (from the facts) */
static bool has_atomic(PassCtx *c) {
  Facts *f = facts_new(c->p, c->k);
  bool any = false;
  for (int k = 0; k < facts_naccesses(f) && !any; k++) any = facts_access(f, k)->atomic;
  facts_free(f);
  return any;
}

/* 1-D: the first `idx / E` or `idx % E` in a list */
typedef struct {
  Obj *idx;
  Node *found;
} DivFind;
static bool div_pre(Node *n, void *ctx) {
  DivFind *f = ctx;
  if (!f->found && (n->kind == ND_DIV || n->kind == ND_MOD) && rw_strip(n->lhs)->kind == ND_VAR &&
      rw_strip(n->lhs)->var == f->idx)
    f->found = n;
  return !f->found;
}

static Legality facts_1d(PassCtx *c, Remap *r, const Uses *u) {
  const Launch *L = c->L;
  if (L->block[1] != 1 || L->block[2] != 1 || L->grid[1] != 1 || L->grid[2] != 1) {
    snprintf(c->why, sizeof c->why, "the launch is neither 2-D nor 1-D");
    return NOT_APPLICABLE;
  }
  Node **slot = &c->k->body->stmts;
  for (; *slot; slot = &(*slot)->next) {
    Node *s = *slot;
    if (s->kind != ND_DECL) break;
    if (s->decl_init && rw_global_index_dim(s->decl_init, 1) == 0) break;
    if (s->decl_init && !rw_pure(s->decl_init)) break;
  }
  Node *d = *slot;
  if (!d || d->kind != ND_DECL || !d->decl_init || rw_global_index_dim(d->decl_init, 1) != 0 ||
      !is_integer(d->var->ty) || u->n[SR_TID][0] != 1 || u->n[SR_CTAID][0] != 1 ||
      u->n[SR_NTID][0] != 1 || rw_writes_var(d->next, d->var)) {
    snprintf(c->why, sizeof c->why,
             "no one declaration `idx = blockIdx.x*blockDim.x + threadIdx.x` at the top, read "
             "nowhere else and never assigned, holds the thread's index");
    return NOT_APPLICABLE;
  }
  DivFind df = {d->var, NULL};
  walk(d->next, div_pre, NULL, &df);
  Node *dv = df.found;
  int64_t zero[3] = {0, 0, 0}, E = 0;
  if (!dv || !rw_pure(dv->rhs) || !remat_eval(dv->rhs, L, zero, zero, &E) || E < 2) {
    snprintf(c->why, sizeof c->why,
             "the thread's index '%s' is not divided by a value the launch gives (`%s %% E`, "
             "`%s / E`)",
             d->var->name, d->var->name, d->var->name);
    return NOT_APPLICABLE;
  }
  r->mode = 1;
  r->idecl = slot;
  r->divisor = dv->rhs;
  r->E = E;
  r->T = L->grid[0] * L->block[0];
  r->F = (r->T + E - 1) / E;
  if (r->F < 2 || r->E * r->F > (int64_t)1 << 31) {
    snprintf(c->why, sizeof c->why, "'%s' / %lld takes %lld value%s: nothing to transpose",
             d->var->name, (long long)E, (long long)r->F, r->F == 1 ? "" : "s");
    return NOT_APPLICABLE;
  }
  return LEGAL;
}

static Legality remap_facts(PassCtx *c, Remap *r) {
  char no[256];
  if (!rw_threads_separable(c->k->body, NULL, no, sizeof no)) {
    snprintf(c->why, sizeof c->why, "threads cannot be remapped: %s", no);
    return NOT_APPLICABLE;
  }
  Uses u = {{{0}}};
  walk(c->k->body, uses_pre, NULL, &u);
  if (has_atomic(c)) {
    snprintf(c->why, sizeof c->why, "it uses atomics, whose order the mapping would change");
    return NOT_APPLICABLE;
  }
  const Launch *L = c->L;
  Legality lg;
  if (L->block[1] > 1 || L->grid[1] > 1) {
    r->mode = 2;
    if (L->grid[0] > 65535) {
      snprintf(c->why, sizeof c->why, "the transposed grid's y (%lld) exceeds 65535",
               (long long)L->grid[0]);
      return NOT_APPLICABLE;
    }
    lg = LEGAL;
  } else lg = facts_1d(c, r, &u);
  if (lg != LEGAL) return lg;
  collect(c, r);
  if (!r->n) {
    snprintf(c->why, sizeof c->why, "no global access whose index is computable per thread");
    return NOT_APPLICABLE;
  }
  r->before = sectors(r, L, 0);
  r->after = sectors(r, L, r->mode);
  if (!(r->after <= 0.75 * r->before)) {
    snprintf(c->why, sizeof c->why,
             "the x thread index already walks the fast dimension (%.1f sectors a warp, weighted, "
             "%.1f transposed)",
             r->before / 2, r->after / 2);
    return NOT_APPLICABLE;
  }
  /* the access that gains most is the site; it must become unit-stride across the lanes (a
   * warp's neighbours on neighbouring elements): a transposition that only makes a warp's
   * footprint squarer (syrk's a[j*M + k], whose fast dimension is the loop's) is not what remap
   * is for, and it would leave the passes after it a transposed kernel (tile then wrote C's
   * tiles along columns) */
  double best = -1;
  int bi = 0;
  for (int i = 0; i < r->n; i++) {
    Remap one = *r;
    one.a[0] = r->a[i];
    one.n = 1;
    double g = sectors(&one, L, 0) - sectors(&one, L, r->mode);
    if (g > best) best = g, bi = i;
  }
  c->site = r->a[bi].node;
  int64_t t0[3], b0[3], t1[3], b1[3], v0, v1;
  if (!thread_of(r, L, r->mode, 0, 0, t0, b0) || !thread_of(r, L, r->mode, 0, 1, t1, b1) ||
      !remat_eval(r->a[bi].index, L, t0, b0, &v0) || !remat_eval(r->a[bi].index, L, t1, b1, &v1) ||
      (v1 - v0 != 1 && v1 - v0 != -1)) {
    snprintf(c->why, sizeof c->why,
             "transposed, the access that gains most (line %d) is still not unit-stride across "
             "a warp's lanes: its fast dimension is neither thread index's",
             r->a[bi].node->tok->line);
    return NOT_APPLICABLE;
  }
  return LEGAL;
}

static Legality legal(PassCtx *c) {
  Remap r = {0};
  Legality lg = remap_facts(c, &r);
  if (lg != LEGAL) return lg;
  if (r.mode == 2)
    snprintf(c->why, sizeof c->why,
             "a warp's lanes walk the slow dimension: x and y exchanged, %.1f -> %.1f sectors a "
             "warp (weighted)",
             r.before / 2, r.after / 2);
  else
    snprintf(c->why, sizeof c->why,
             "a warp's lanes take neighbouring values of %s %% %lld: the index transposed, %.1f -> "
             "%.1f sectors a warp (weighted)",
             (*r.idecl)->var->name, (long long)r.E, r.before / 2, r.after / 2);
  return LEGAL;
}

/* ---- apply ---- */
static bool swap_pre(Node *n, void *ctx) {
  int *mut = ctx;
  if (n->kind == ND_SPECIAL && n->sreg <= SR_NCTAID && n->dim < 2) {
    n->dim = 1 - n->dim;
    if (*mut == 1 && n->sreg == SR_TID) {
      *mut = 0; /* broken: the first threadIdx stays unswapped */
      n->dim = 1 - n->dim;
    }
  }
  return true;
}

static bool apply(PassCtx *c) {
  Remap r = {0};
  if (remap_facts(c, &r) != LEGAL) return false;
  const Launch *L = c->L;
  c->spec |= OPT_SPEC_GRID | OPT_SPEC_ARGS; /* the mapping was chosen at the recorded launch */
  if (r.mode == 2) {
    int mut = c->mutation == 1;
    walk(c->k->body, swap_pre, NULL, &mut);
    c->changes_launch = true;
    c->new_grid[0] = L->grid[1], c->new_grid[1] = L->grid[0], c->new_grid[2] = L->grid[2];
    c->new_block[0] = L->block[1], c->new_block[1] = L->block[0], c->new_block[2] = L->block[2];
    if (c->mutation == 2) /* broken: the grid not transposed */
      c->new_grid[0] = L->grid[0], c->new_grid[1] = L->grid[1];
    for (int d = 0; d < 3; d++) c->cover[d] = c->new_block[d];
    c->grid_generic = false;
    snprintf(c->did, sizeof c->did,
             "threadIdx, blockIdx, blockDim and gridDim exchange x and y; block %lldx%lld -> "
             "%lldx%lld, grid %lldx%lld -> %lldx%lld (%.1f -> %.1f sectors a warp, weighted)",
             (long long)L->block[0], (long long)L->block[1], (long long)c->new_block[0],
             (long long)c->new_block[1], (long long)L->grid[0], (long long)L->grid[1],
             (long long)c->new_grid[0], (long long)c->new_grid[1], r.before / 2, r.after / 2);
    return true;
  }
  /* 1-D: `T v = <global index>; [if (v >= E*F || idx >= T) return;]` before idx, whose
   * initializer becomes (v % F) * E + v / F */
  Node *d = *r.idecl;
  Token *at = d->tok;
  Type *it = unqual(d->var->ty);
  Obj *v = rw_new_var(c->p, c->k, fmt("%s_t", d->var->name), it, SC_LOCAL, at);
  Node *dv = rw_decl(v, d->decl_init);
  int64_t F = c->mutation == 3 ? r.F + 1 : r.F; /* broken: the wrong number of columns */
  Node *E = clone_nodes(r.divisor);
  if (!same_type(E->ty, it)) E = rw_cast(E, it);
  d->decl_init = rw_bin(ND_ADD, rw_bin(ND_MUL, rw_bin(ND_MOD, rw_var(at, v), rw_num(at, F)), E),
                        rw_bin(ND_DIV, rw_var(at, v), rw_num(at, F)));
  if (!same_type(d->decl_init->ty, it)) d->decl_init = rw_cast(d->decl_init, it);
  dv->next = d;
  *r.idecl = dv;
  int64_t total = r.E * r.F;
  if (total != r.T) {
    Node *stop = rw_bin(ND_LOGOR, rw_bin(ND_GE, rw_var(at, v), rw_num(at, total)),
                        rw_bin(ND_GE, rw_var(at, d->var), rw_num(at, r.T)));
    Node *ret = new_node(ND_RETURN, at);
    Node *g = rw_if(stop, ret, NULL);
    g->next = d->next;
    d->next = g;
  }
  int64_t bx = L->block[0];
  if ((total + bx - 1) / bx != L->grid[0]) {
    c->changes_launch = true;
    c->new_grid[0] = (total + bx - 1) / bx, c->new_grid[1] = c->new_grid[2] = 1;
    memcpy(c->new_block, L->block, sizeof c->new_block);
    for (int k = 0; k < 3; k++) c->cover[k] = c->new_block[k];
    c->grid_generic = false;
  }
  snprintf(c->did, sizeof c->did,
           "the index '%s' transposed as %lld x %lld threads: thread v computes (v %% %lld) * %lld "
           "+ v / %lld%s (%.1f -> %.1f sectors a warp, weighted)",
           d->var->name, (long long)r.F, (long long)r.E, (long long)r.F, (long long)r.E,
           (long long)r.F, total != r.T ? fmt(", threads past %lld stop", (long long)r.T) : "",
           r.before / 2, r.after / 2);
  return true;
}

const Pass pass_remap = {
  .name = "remap",
  .summary = "the thread mapping transposed so a warp's lanes walk the fast dimension of its "
             "accesses (x and y exchanged, or a 1-D index split transposed)",
  .source = "Yang et al., PLDI 2010, Sec. 3.3 (coalescing by the thread-to-data mapping)",
  .nparams = 0,
  .motivation = "coalescing",
  .remaps_blocks = true,
  .new_launch = true,
  .legal = legal,
  .apply = apply,
  .nmutations = 3,
  .mutation_names = {"the first threadIdx left unswapped", "the grid not transposed",
                     "the 1-D index transposed with one column too many"},
};
