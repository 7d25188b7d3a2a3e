/* pass parallel: loop-to-thread parallelization. A kernel whose threads each run a loop whose
 * iterations are independent (a thread per column running `for (j2 = j1; j2 < M; j2++) { sym[j1*M
 * + j2] = sum over i; sym[j2*M + j1] = ... }`: covariance, correlation, symmetric products) gets
 * that loop mapped onto a new thread dimension y: the block becomes (x, y), the grid grows along y
 * to cover the loop's largest range at the launch, the counter is a per-thread value
 *   j2 = BASE + (blockIdx.y * blockDim.y + threadIdx.y)
 * (BASE the loop's start when every thread starts at the same value, else the smallest start
 * over the launch's threads) and the loop becomes `if (j2 >= lo && j2 < hi) BODY` (the first test
 * left out when BASE is the start itself): triangular bounds stay guards. PPCG parallelizes the
 * same loop of the C version (issue 28). Legality comes from the facts: depend.c evaluates the
 * affine forms of every access to an array the loop writes, and no element an iteration writes
 * may be touched by another iteration of its thread. Statements beside the loop (inside the
 * guard) are declarations with pure initializers, repeated in every new thread, and stores, run
 * by the y-thread 0 only; depend.c counts them as one more iteration (their order with the loop
 * is not kept), so they may not touch what an iteration writes. The kernel's other statements
 * run in every new thread as before: they must be declarations with pure initializers. */
#include "opt.h"

#include "../analysis/analysis.h"
#include "../analysis/match.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_BESIDE = 16, DEPEND_BUDGET = 1 << 24 };

typedef struct Site {
  Node **top;  /* the kernel's statement list */
  Node *guard; /* `if (G) { ... }` holding the loop, or NULL (the loop at the top) */
  Node **list; /* the list holding the loop */
  Node *loop;
  Node *lo, *hi; /* the loop's start and bound expressions */
  Obj *iv;
  Node *beside[MAX_BESIDE];
  int nbeside;   /* the statements of *list other than the loop */
  Node *iv_decl; /* a declaration of the counter outside the loop (`int j2;`), or NULL */
} Site;

typedef struct {
  bool bad;
  char what[64];
} Dims;

/* threadIdx/blockIdx/blockDim along y or z, or gridDim (the new grid changes it) */
static bool dims_pre(Node *n, void *ctx) {
  Dims *d = ctx;
  if (n->kind == ND_SPECIAL && !d->bad) {
    if (n->sreg == SR_NCTAID) {
      d->bad = true;
      snprintf(d->what, sizeof d->what, "gridDim");
    } else if (n->sreg != SR_WARPSIZE && n->dim > 0) {
      d->bad = true;
      snprintf(d->what, sizeof d->what, "a y or z thread/block index or dimension");
    }
  }
  return true;
}

static bool decl_ok(Node *s) {
  return s->kind == ND_DECL &&
         (!s->decl_init || (s->decl_init->kind != ND_INIT_LIST && rw_pure(s->decl_init)));
}

/* a store `E[i] = e` or `E[i] op= e` (no local written, no call) */
static bool store_stmt(Node *s) {
  if (s->kind != ND_EXPR_STMT || !s->lhs || !rw_pure(s->lhs->rhs ? s->lhs->rhs : s->lhs) ||
      rw_has_call(s))
    return false;
  Node *e = s->lhs;
  switch (e->kind) {
  case ND_ASSIGN:
  case ND_ASSIGN_OP: break;
  default: return false;
  }
  Node *t = rw_strip(e->lhs);
  return t->kind == ND_INDEX || t->kind == ND_DEREF;
}

/* the declaration of v in list (its own statement), or NULL */
static Node *decl_in(Node *list, Obj *v) {
  for (Node *s = list; s; s = s->next)
    if (s->kind == ND_DECL && s->var == v) return s;
  return NULL;
}

typedef struct {
  Node *loop;
  Obj **vars;
  int n;
} DeclScan;
static bool collect_decls(Node *n, void *ctx) {
  DeclScan *d = ctx;
  if (n->kind == ND_DECL && d->n < 64) d->vars[d->n++] = n->var;
  return true;
}

/* v is the counter of a loop nested in loop li, set by that loop's init, and used nowhere
 * outside loop li: each iteration sets it before reading it (an inner loop's counter declared
 * at the top, `int i;`) */
static bool private_counter(Facts *f, int li, Node *stmts, Node *loop, Obj *v) {
  bool counter = false;
  for (int i = 0; i < facts_nloops(f); i++) {
    const Loop *l = facts_loop(f, i);
    if (i == li || l->iv != v || !facts_loop_within(f, i, li)) continue;
    Node *init = l->node->init;
    counter = init && init->kind == ND_EXPR_STMT && init->lhs->kind == ND_ASSIGN &&
              rw_strip(init->lhs->lhs)->kind == ND_VAR && rw_strip(init->lhs->lhs)->var == v;
    if (!counter) return false;
  }
  if (!counter) return false;
  int uses = 0;
  for (Node *st = stmts; st; st = st->next) {
    uses += m_uses(st, v);
    if (m_addr_taken(st, v)) return false;
  }
  return uses == m_uses(loop, v);
}

static bool find_site(PassCtx *c, Site *s, Facts *f) {
  memset(s, 0, sizeof *s);
  Node *body = c->k->body;
  s->top = &body->stmts;
  s->list = s->top;
  for (Node *st = body->stmts; st; st = st->next) {
    if (st->kind == ND_IF && !st->els && !st->next && st->then->kind == ND_BLOCK && !s->guard) {
      s->guard = st;
      s->list = &st->then->stmts;
      break;
    }
    if (st->kind == ND_FOR) break;
    if (!decl_ok(st)) {
      snprintf(
        c->why, sizeof c->why,
        "line %d: a statement before the loop other than a declaration with a pure initializer",
        tok_loc(st->tok).line);
      return false;
    }
  }
  for (Node *st = *s->list; st; st = st->next) {
    if (st->kind == ND_FOR && !s->loop) {
      s->loop = st;
      continue;
    }
    if (s->guard || s->loop) { /* in the guard, or after the loop at the top */
      if (st->kind == ND_FOR) {
        snprintf(c->why, sizeof c->why, "line %d: a second loop beside the first",
                 tok_loc(st->tok).line);
        return false;
      }
      if (s->nbeside == MAX_BESIDE) {
        snprintf(c->why, sizeof c->why, "more than %d statements beside the loop", MAX_BESIDE);
        return false;
      }
      if (!decl_ok(st) && !store_stmt(st)) {
        snprintf(
          c->why, sizeof c->why,
          "line %d: a statement beside the loop other than a declaration with a pure initializer or a store",
          tok_loc(st->tok).line);
        return false;
      }
      s->beside[s->nbeside++] = st;
    }
  }
  if (!s->loop) {
    snprintf(c->why, sizeof c->why,
             "no loop in the kernel's threads (a loop at the top or in its one guard)");
    return false;
  }
  int li = facts_loop_index(f, s->loop);
  const Loop *l = li >= 0 ? facts_loop(f, li) : NULL;
  int line = tok_loc(s->loop->tok).line;
  if (!l || !l->iv || l->step_op != ND_ADD || l->step != 1 || l->cmp != ND_LT) {
    snprintf(c->why, sizeof c->why, "line %d: the loop is not `for (i = lo; i < hi; i++)`", line);
    return false;
  }
  if (l->has_exit || l->barriers) {
    snprintf(c->why, sizeof c->why, "line %d: the loop leaves early or synchronizes", line);
    return false;
  }
  s->iv = l->iv;
  Node *init = s->loop->init;
  if (init && init->kind == ND_DECL && init->var == s->iv) s->lo = init->decl_init;
  else if (init && init->kind == ND_EXPR_STMT && init->lhs->kind == ND_ASSIGN &&
           rw_strip(init->lhs->lhs)->kind == ND_VAR && rw_strip(init->lhs->lhs)->var == s->iv)
    s->lo = init->lhs->rhs;
  s->hi = l->bound;
  if (!s->lo || !rw_pure(s->lo) || !rw_pure(s->hi)) {
    snprintf(c->why, sizeof c->why, "line %d: the loop's start or bound is not pure", line);
    return false;
  }
  /* the counter lives only in the loop */
  int uses = 0;
  bool addr = false;
  for (Node *st = body->stmts; st; st = st->next) {
    uses += m_uses(st, s->iv);
    addr |= m_addr_taken(st, s->iv);
  }
  if (uses != m_uses(s->loop, s->iv) || addr) {
    snprintf(c->why, sizeof c->why, "line %d: the counter '%s' is used outside the loop", line,
             s->iv->name);
    return false;
  }
  s->iv_decl = decl_in(*s->top, s->iv);
  if (!s->iv_decl && s->guard) s->iv_decl = decl_in(*s->list, s->iv);
  /* every variable the loop writes is its counter or declared in it (no value carried between
   * iterations); the statements beside it write no local */
  Obj *vars[64];
  DeclScan ds = {s->loop, vars, 0};
  walk_one(s->loop->then, collect_decls, NULL, &ds);
  for (int i = 0; i < l->nassigned; i++) {
    Obj *v = l->assigned[i];
    bool inside = v == s->iv;
    for (int k = 0; k < ds.n; k++) inside |= vars[k] == v;
    if (!inside && private_counter(f, li, body->stmts, s->loop, v)) inside = true;
    if (!inside) {
      snprintf(c->why, sizeof c->why,
               "line %d: the loop carries '%s' from one iteration to the next", line, v->name);
      return false;
    }
  }
  for (int i = 0; i < s->nbeside; i++) {
    if (s->beside[i]->kind == ND_DECL) {
      if (s->beside[i]->var == s->iv) continue;
      for (Node *st = *s->list; st; st = st->next)
        if (st != s->beside[i] && m_writes(st, s->beside[i]->var)) {
          snprintf(c->why, sizeof c->why, "line %d: '%s' is written after its declaration",
                   tok_loc(st->tok).line, s->beside[i]->var->name);
          return false;
        }
    }
  }
  return true;
}

typedef struct Check {
  Site s;
  DependResult dr;
  bool base_is_lo; /* every thread starts at the same value: the counter is lo + y */
  int64_t base;    /* otherwise the smallest start over the launch's threads */
  int64_t gx, gy;
} Check;

static Legality check(PassCtx *c, Check *k) {
  const Launch *L = c->L;
  memset(k, 0, sizeof *k);
  if (L->block[1] != 1 || L->block[2] != 1 || L->grid[1] != 1 || L->grid[2] != 1) {
    snprintf(c->why, sizeof c->why,
             "the launch is not 1-D (block %lldx%lldx%lld, grid %lldx%lldx%lld)",
             (long long)L->block[0], (long long)L->block[1], (long long)L->block[2],
             (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2]);
    return NOT_APPLICABLE;
  }
  /* a host program's launch (or --grid/--block): the program writer launches reshaped kernels
   * over grids that cover the original's threads block by block (emit.c), which a grid grown
   * along y does not; the launch must be the file's own `#pragma carve launch` */
  /* a host program's launch (or --grid/--block): the output launches the grown grid only where
   * the grid and the scalar arguments are the recorded ones (OPT_SPEC_GRID by the driver, ARGS
   * here: the trip counts that sized y came from them); emit.c's carve_grid_K is that grid */
  Dims d = {false, ""};
  walk(c->k->body, dims_pre, NULL, &d);
  if (d.bad) {
    snprintf(c->why, sizeof c->why, "the kernel reads %s", d.what);
    return NOT_APPLICABLE;
  }
  char why[256];
  if (!rw_threads_separable(c->k->body, NULL, why, sizeof why)) {
    snprintf(c->why, sizeof c->why, "%s", why);
    return NOT_APPLICABLE;
  }
  Facts *f = facts_new(c->p, c->k);
  if (!find_site(c, &k->s, f)) {
    facts_free(f);
    return NOT_APPLICABLE;
  }
  /* what runs outside the loop's order now: the statements beside it (stores in y-thread 0,
   * declarations in every new thread) and the top's declarations before it (every new thread),
   * counted as one more iteration: none may touch what an iteration writes */
  Node *out[MAX_BESIDE * 2];
  int n = 0;
  for (int i = 0; i < k->s.nbeside; i++)
    if (!(k->s.beside[i]->kind == ND_DECL && k->s.beside[i]->var == k->s.iv))
      out[n++] = k->s.beside[i];
  for (Node *st = *k->s.top; st && st != k->s.guard && st != k->s.loop && n < MAX_BESIDE * 2;
       st = st->next)
    if (st->kind == ND_DECL && st->decl_init && st->var != k->s.iv) out[n++] = st;
  int li = facts_loop_index(f, k->s.loop);
  bool ok = depend_loop(f, li, L, out, n, DEPEND_BUDGET, &k->dr);
  k->base_is_lo = ok && !facts_thread_dependent(f, k->s.lo);
  facts_free(f);
  int line = tok_loc(k->s.loop->tok).line;
  if (!ok) {
    snprintf(c->why, sizeof c->why, "line %d: %s%s", line,
             k->dr.dependent ? "iterations depend on each other: " : "", k->dr.why);
    return k->dr.dependent ? ILLEGAL : NOT_APPLICABLE;
  }
  int64_t bx = c->param[0], by = c->param[1];
  int64_t span = L->grid[0] * L->block[0];
  if (bx * by > c->m->max_threads_per_block || span % bx) {
    snprintf(c->why, sizeof c->why, "block %lldx%lld: %s", (long long)bx, (long long)by,
             span % bx ? "x does not divide the original's threads along x"
                       : "more threads than a block may have");
    return ILLEGAL;
  }
  k->base = k->dr.lo_min;
  /* a start below one block's height (corr's j2 from j1 + 1: 1) is dropped: the counter is then
   * the global y index itself, the form tile takes, and the rows below the start fail its test */
  if (!k->base_is_lo && k->base > 0 && k->base < by) k->base = 0;
  k->gx = span / bx;
  k->gy = (k->dr.hi_max - k->base + by - 1) / by;
  if (k->gy > 65535) {
    snprintf(c->why, sizeof c->why, "grid.y %lld beyond CUDA's 65535", (long long)k->gy);
    return ILLEGAL;
  }
  snprintf(
    c->why, sizeof c->why,
    "line %d: the loop over '%s' (%lld iterations at most) has independent iterations (%s, %lld threads%s)",
    line, k->s.iv->name, (long long)k->dr.max_trip,
    k->dr.exact ? "every thread checked" : "sampled", (long long)k->dr.threads_checked,
    k->dr.exact ? "" : fmt(" of %lld", (long long)k->dr.threads));
  c->site = k->s.loop;
  return LEGAL;
}

static Legality legal(PassCtx *c) {
  Check k;
  return check(c, &k);
}

/* blockIdx.y * blockDim.y + threadIdx.y */
static Node *global_y(Token *at) {
  return rw_bin(ND_ADD, rw_bin(ND_MUL, rw_special(at, SR_CTAID, 1), rw_special(at, SR_NTID, 1)),
                rw_special(at, SR_TID, 1));
}

typedef struct {
  Obj *v;
  Node *loop;
  int n;
} CounterScan;
static bool counter_pre(Node *n, void *ctx) {
  CounterScan *cs = ctx;
  Node *init = n->kind == ND_FOR ? n->init : NULL;
  if (init && init->kind == ND_EXPR_STMT && init->lhs->kind == ND_ASSIGN &&
      rw_strip(init->lhs->lhs)->kind == ND_VAR && rw_strip(init->lhs->lhs)->var == cs->v) {
    cs->loop = n;
    cs->n++;
  }
  return true;
}

/* an inner loop's counter declared at the top (`int i;` ... `for (i = 0; ...)`), used by that
 * one loop only, declared in the loop instead (`for (int i = 0; ...)`), as canon's loops rule
 * writes it: each new thread's iteration owns it */
static void own_counters(PassCtx *c, Site *s) {
  Node **lists[2] = {s->top, s->guard ? s->list : NULL};
  for (int l = 0; l < 2; l++) {
    if (!lists[l]) continue;
    for (Node **slot = lists[l]; *slot;) {
      Node *d = *slot;
      if (d->kind != ND_DECL || d->decl_init || !is_integer(d->var->ty)) {
        slot = &d->next;
        continue;
      }
      CounterScan cs = {d->var, NULL, 0};
      int uses = 0;
      for (Node *st = *s->top; st; st = st->next) {
        uses += m_uses(st, d->var);
        if (m_addr_taken(st, d->var)) uses = -1;
      }
      walk(*s->top, counter_pre, NULL, &cs);
      if (cs.n != 1 || uses < 0 || uses != m_uses(cs.loop, d->var)) {
        slot = &d->next;
        continue;
      }
      Node *init = cs.loop->init;
      Node *nd = rw_decl(d->var, init->lhs->rhs);
      nd->next = init->next;
      cs.loop->init = nd;
      *slot = d->next;
    }
  }
  (void)c;
}

static bool apply(PassCtx *c) {
  Check k;
  if (check(c, &k) != LEGAL) return false;
  Site *s = &k.s;
  Token *at = s->loop->tok;
  int line = tok_loc(at).line;
  char why[256];
  /* the counter's value: BASE + the global y index (mutation 2: one too far) */
  Node *gy = global_y(at);
  if (c->mutation == 2) gy = rw_bin(ND_ADD, gy, rw_num(at, 1));
  Node *base = NULL;
  if (k.base_is_lo) {
    base = remat(c->k, s->lo, NULL, why, sizeof why);
    if (!base) k.base_is_lo = false;
  }
  if (!base && k.base) base = rw_num(at, k.base);
  Node *val = base ? rw_bin(ND_ADD, base, gy) : gy;
  /* remove the counter's own declaration; declare it at the top with its value */
  if (s->iv_decl) {
    Node **slot = rw_slot_of(s->top, s->iv_decl);
    if (slot) *slot = s->iv_decl->next;
  }
  Node *decl = rw_decl(s->iv, val);
  Node **gslot = rw_slot_of(s->top, s->guard ? s->guard : s->loop);
  if (!gslot) {
    snprintf(c->why, sizeof c->why, "internal: the loop's statement not found");
    return false;
  }
  /* the loop becomes a guard (mutation 1: the lower bound's test dropped) */
  Node *ge =
    !k.base_is_lo && c->mutation != 1 ? rw_bin(ND_GE, rw_var(at, s->iv), clone_node(s->lo)) : NULL;
  Node *lt = rw_bin(ND_LT, rw_var(at, s->iv), clone_node(s->hi));
  Node *cond = ge ? rw_bin(ND_LOGAND, ge, lt) : lt;
  Node *lslot_owner = s->loop;
  Node **lslot = rw_slot_of(s->list, lslot_owner);
  if (!lslot) {
    snprintf(c->why, sizeof c->why, "internal: the loop's slot not found");
    return false;
  }
  Node *g = rw_if(cond, s->loop->then, NULL);
  g->next = s->loop->next;
  *lslot = g;
  /* statements beside the loop that store run in the y-thread 0 only */
  int nonce = 0;
  for (int i = 0; i < s->nbeside; i++) {
    Node *st = s->beside[i];
    if (st->kind == ND_DECL) continue;
    Node **sl = rw_slot_of(s->list, st);
    if (!sl) continue;
    Node *next = st->next;
    st->next = NULL;
    /* y-thread 0: the counter at its base where that is a number (`j2 == 0`, a row test tile
     * takes), else the global y index 0 */
    Node *y0 = k.base_is_lo ? rw_bin(ND_EQ, global_y(st->tok), rw_num(st->tok, 0))
                            : rw_bin(ND_EQ, rw_var(st->tok, s->iv), rw_num(st->tok, k.base));
    Node *w = rw_if(y0, rw_block(st->tok, st), NULL);
    w->next = next;
    *sl = w;
    nonce++;
  }
  /* the loop alone in its guard: one guard `if (G && j2 >= lo && j2 < hi)` (the form tile takes) */
  if (s->guard && *s->list == g && !g->next) {
    s->guard->cond = ge ? rw_bin(ND_LOGAND, rw_bin(ND_LOGAND, s->guard->cond, ge), lt)
                        : rw_bin(ND_LOGAND, s->guard->cond, lt);
    s->guard->then = g->then->kind == ND_BLOCK ? g->then : rw_block(at, g->then);
    g = s->guard;
  }
  gslot = rw_slot_of(s->top, s->guard ? s->guard : g);
  if (!gslot) {
    snprintf(c->why, sizeof c->why, "internal: the guard's statement not found");
    return false;
  }
  rw_insert_before(gslot, decl);
  own_counters(c, s);
  int64_t bx = c->param[0], by = c->param[1];
  c->changes_launch = true;
  c->spec |= OPT_SPEC_ARGS; /* y's extent is the loop's trip count at the recorded arguments */
  c->new_block[0] = bx;
  c->new_block[1] = by;
  c->new_block[2] = 1;
  c->new_grid[0] = k.gx;
  c->new_grid[1] = k.gy;
  c->new_grid[2] = 1;
  c->cover[0] = bx;
  c->cover[1] = 0;
  c->cover[2] = 0; /* y: every new y block covers the original's one row of threads */
  c->grid_generic = false;
  snprintf(
    c->did, sizeof c->did,
    "the loop over '%s' (line %d, %lld iterations at most) mapped to y: %s = %sblockIdx.y*blockDim.y + threadIdx.y, its bounds kept as a guard%s; "
    "block %lldx%lld, grid %lldx%lld (independence: %s)%s",
    s->iv->name, line, (long long)k.dr.max_trip, s->iv->name,
    k.base_is_lo ? "its start + "
    : k.base     ? fmt("%lld + ", (long long)k.base)
                 : "",
    k.base_is_lo ? "" : " (the start's test included)", (long long)bx, (long long)by,
    (long long)k.gx, (long long)k.gy,
    k.dr.exact ? "every thread's iterations checked"
               : fmt("%lld of %lld threads sampled", (long long)k.dr.threads_checked,
                     (long long)k.dr.threads),
    nonce ? fmt("; %d statement%s beside the loop run by y-thread 0", nonce, nonce > 1 ? "s" : "")
          : "");
  return true;
}

const Pass pass_parallel = {
  .name = "parallel",
  .summary =
    "a thread's loop with independent iterations mapped onto a new thread dimension y (triangular bounds kept as guards)",
  .source =
    "loop-to-thread mapping as PPCG does for the C version (Verdoolaege et al., TACO 2013); issue 28, item 1",
  .params =
    {{"x", "block width (the original's threads along x, regrouped)", {32, 64, 128, 256}, 32},
     {"y", "block height: iterations of the loop per block", {8, 4, 16, 32, 2, 1}, 8}},
  .nparams = 2,
  .model_chooses = true,
  .model_params = 2,
  .new_launch = true,
  .motivation = NULL,
  .legal = legal,
  .apply = apply,
  .nmutations = 2,
  .mutation_names = {"the loop's lower-bound test dropped", "the y index off by one"},
};
