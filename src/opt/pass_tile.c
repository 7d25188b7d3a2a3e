/* pass tile: thread-block merge and thread merge with 2-D register tiles (Yang et al., PLDI 2010,
 * Sec. 3.4 data sharing, 3.5.1 thread-block merge, 3.5.2 thread merge), as every fast SGEMM on
 * CUDA cores does it. The kernel shape it takes is the naive matrix multiply and its relatives:
 *
 *   col = blockIdx.x*blockDim.x + threadIdx.x;  row = blockIdx.y*blockDim.y + threadIdx.y;
 *   if (guard) { T s = init; for (k = lo; k < hi; k++) s = UPDATE(s, A[f(row,k)], B[g(k,col)]); POST }
 *
 * Data sharing: the load whose index depends on (row, k) only is the same for every thread of a
 * row (shared along x); the one on (k, col) only is shared along y. Both go through shared
 * memory: a block computes BM x BN outputs from a BM x BK tile of A (stored k-major, padded
 * against bank conflicts) and a BK x BN tile of B per step of k, loaded by all its threads along
 * each array's unit stride (coalesced); each thread computes TM x TN outputs in registers from
 * TM values of A and TN of B per k (thread merge: a loaded value serves TN or TM outputs).
 *
 * Exact for any UPDATE without conditional evaluation or integer division (which could load or
 * trap where the original does not): each output still folds k = lo, lo+1, ... in order; a
 * ragged last step of k runs only its valid k; tile elements outside the guard are zeros that no
 * kept output uses; an output is written (POST) only where the original thread existed and
 * passed the guard.
 *
 * Legal when: (an unsigned counter counts in a signed 64-bit copy, so k_end - BK cannot wrap); lo, hi, the initial value
 * and the declarations before the guard are pure and cannot trap (they move above the guard);
 * POST assigns no parameter (it runs once per output now); the tiles fit the 48 KB of static
 * shared memory a kernel may declare; the two loads come from parameters the kernel never stores to (so hoisting them
 * into tiles before any POST of another block cannot be observed; the pointers are then
 * assumed not to alias, and the output says so); hi, lo, init and the guard's conjuncts depend
 * only on parameters and invariant locals (a conjunct on row only or col only); POST uses row,
 * col, s, parameters and its own locals (no thread index, barrier, shared memory or return);
 * the launch is 2-D; the kernel is written anew as source (rw_replace_kernel), so it may not
 * use globals, device functions or typedefs. Staging the tiles with async copies (prefetch 3, 4)
 * also needs cp.async (sm_80 and newer) and elements of 4, 8 or 16 bytes. */
#include "opt.h"
#include "../analysis/analysis.h"
#include <stdlib.h>
#include <string.h>

/* a type's name spelled without the typedef it was written through (DATA_TYPE is float): the
 * vector types (float4) are made of it */
static const char *plain_type_name(Type *t) {
  Type tmp = *t;
  tmp.typedef_name = NULL;
  return type_name(&tmp);
}

enum { D_ROW = 1, D_COL = 2, D_K = 4, D_ACC = 8, D_MEM = 16, D_OTHER = 32 };
enum { MAX_PRE = 16, MAX_CONJ = 8, MAX_EARLY = 4 };

typedef struct {
  Obj *row, *col, *k, *acc;
  Node *pre[MAX_PRE];
  int npre; /* invariant declarations before the guard, printed as they are */
  Node *conj[MAX_CONJ];
  int nconj; /* the guard's && terms */
  Node *early[MAX_EARLY];
  int nearly; /* `if (C) { stores }` before a level's inner guard (parallel's y-thread 0 stores) */
  int early_conj[MAX_EARLY]; /* the guard's terms in force where each stands */
  int conj_dep[MAX_CONJ];    /* D_ROW, D_COL, both (a triangular bound: row >= col) or 0 */
  int ntri;                  /* terms on both the row and the column */
  Node *acc_decl, *loop, *lo, *hi, *upd, *post;
  Node *la, *lb; /* the loads shared along x (row, k) and along y (k, col) */
  Obj *pa, *pb;
  bool a_along_k, b_along_col; /* which index of the tile has unit stride in memory */
  bool a_unit_k,
    b_unit_col; /* proved: A's element index grows by exactly 1 with k, B's with the column */
} Shape;

/* ---- what an expression depends on ---- */
typedef struct {
  const Shape *s;
  int d;
  Node *skip[16];
  int nskip;
  Obj *own[32];
  int nown;
} Deps;

static bool deps_pre(Node *n, void *ctx) {
  Deps *d = ctx;
  for (int i = 0; i < d->nskip; i++)
    if (n == d->skip[i]) return false;
  switch (n->kind) {
  case ND_VAR: {
    Obj *v = n->var;
    if (v == d->s->row) d->d |= D_ROW;
    else if (v == d->s->col) d->d |= D_COL;
    else if (d->s->k && v == d->s->k) d->d |= D_K;
    else if (d->s->acc && v == d->s->acc) d->d |= D_ACC;
    else if (v->sc == SC_PARAM) break;
    else {
      bool known = false;
      for (int i = 0; i < d->s->npre; i++)
        if (d->s->pre[i]->var == v) known = true;
      for (int i = 0; i < d->nown; i++)
        if (d->own[i] == v) known = true;
      if (!known) d->d |= D_OTHER;
    }
    break;
  }
  case ND_DECL:
    if (d->nown < 32) d->own[d->nown++] = n->var;
    break;
  case ND_SPECIAL:
    /* a batch in blockIdx.z (block z = 1): the same for every thread of a block and every output
     * a tiled block computes, a uniform offset like a parameter (find checks the launch) */
    if (!((n->sreg == SR_CTAID || n->sreg == SR_NCTAID) && n->dim == 2)) d->d |= D_OTHER;
    break;
  case ND_DEREF:
  case ND_INDEX:
    if (n->kind == ND_DEREF || rw_strip(n->lhs)->ty->kind == TY_PTR) d->d |= D_MEM;
    break;
  case ND_CALL:
    if (n->fn || rw_has_barrier(n)) d->d |= D_OTHER;
    break;
  case ND_RETURN: d->d |= D_OTHER; break;
  default: break;
  }
  return true;
}

static int deps(const Shape *s, Node *e, Node *skip1, Node *skip2, bool list) {
  Deps d = {.s = s};
  if (skip1) d.skip[d.nskip++] = skip1;
  if (skip2) d.skip[d.nskip++] = skip2;
  if (list) walk(e, deps_pre, NULL, &d);
  else walk_one(e, deps_pre, NULL, &d);
  return d.d;
}

/* an integer division or remainder whose divisor is not a nonzero constant: moved above the
 * guard, or run for outputs the original never computes, it could trap where the original did not */
static bool trap_pre(Node *n, void *ctx) {
  int64_t d;
  if ((n->kind == ND_DIV || n->kind == ND_MOD) && n->ty && is_integer(n->ty) &&
      !(node_int_constant(n->rhs, &d) && d != 0))
    *(bool *)ctx = true;
  return true;
}
static bool may_trap(Node *e) {
  bool t = false;
  if (e) walk_one(e, trap_pre, NULL, &t);
  return t;
}
/* a conditional evaluation (?:, &&, ||): a load under it may be one the original skips */
static bool branch_pre(Node *n, void *ctx) {
  if (n->kind == ND_COND || n->kind == ND_LOGAND || n->kind == ND_LOGOR) *(bool *)ctx = true;
  return true;
}
static bool has_branching(Node *e) {
  bool b = false;
  walk_one(e, branch_pre, NULL, &b);
  return b;
}

/* blockIdx.D*blockDim.D + threadIdx.D, in any operand order */
static int global_index_dim(Node *e) { return rw_global_index_dim(e, 2); }

/* the loads of pointer parameters inside e */
typedef struct {
  Node *n[16];
  int k;
} Loads;
static bool loads_pre(Node *n, void *ctx) {
  Loads *l = ctx;
  if (n->kind == ND_INDEX && n->ty->kind != TY_ARRAY && rw_strip(n->lhs)->kind == ND_VAR &&
      rw_strip(n->lhs)->var->sc == SC_PARAM && rw_strip(n->lhs)->var->ty->kind == TY_PTR &&
      l->k < 16) {
    l->n[l->k++] = n;
    return false;
  }
  return true;
}

/* the index's change when row (or col) and k grow by one, at the launch's parameter values */
static bool strides(PassCtx *c, Node *idx, Obj *rc, Obj *k, int64_t *s_rc, int64_t *s_k) {
  int64_t v[3];
  static const int pts[3][2] = {{0, 0}, {1, 0}, {0, 1}};
  for (int i = 0; i < 3; i++) {
    Subst sb = {
      .nv = 2, .vfrom = {rc, k}, .vto = {rw_num(idx->tok, pts[i][0]), rw_num(idx->tok, pts[i][1])}};
    char why[128];
    Node *e = remat(c->k, idx, &sb, why, sizeof why);
    int64_t z[3] = {0, 0, 0};
    if (!e || !remat_eval(e, c->L, z, z, &v[i])) return false;
  }
  *s_rc = v[1] - v[0];
  *s_k = v[2] - v[0];
  return true;
}

/* 128-bit loads of the tiles need exact unit strides (strides() above only samples the index to
 * choose a loading order): the affine forms say A's index has coefficient 1 in k and B's grows
 * by 1 from one column (threadIdx.x) to the next; anything else keeps scalar loads */
static void unit_strides(PassCtx *c, Shape *s) {
  Facts *f = facts_new(c->p, c->k);
  bool ind = false;
  int64_t v;
  Affine fa = facts_index_form(f, s->la, &ind);
  s->a_unit_k = fa.ok && !ind && s->a_along_k && affine_var_coefficient(&fa, s->k, &v) && v == 1;
  ind = false;
  Affine fb = facts_index_form(f, s->lb, &ind);
  s->b_unit_col = fb.ok && !ind && s->b_along_col && affine_x_stride(&fb, &v) && v == 1;
  facts_free(f);
}

/* v is assigned in a statement of the list */
static bool list_writes(Node *list, Obj *v) {
  for (Node *n = list; n; n = n->next)
    if (rw_writes_var(n, v)) return true;
  return false;
}

/* e is linear in the row and the column: sums and differences of them, integer constants times
 * them, and terms on neither (parameters, invariants) */
static bool linear_rc(const Shape *s, Node *e) {
  e = rw_strip(e);
  if (!is_integer(e->ty)) return false;
  int d = deps(s, e, NULL, NULL, false);
  if (!(d & (D_ROW | D_COL))) return d == 0;
  switch (e->kind) {
  case ND_VAR: return e->var == s->row || e->var == s->col;
  case ND_ADD:
  case ND_SUB: return linear_rc(s, e->lhs) && linear_rc(s, e->rhs);
  case ND_NEG: return linear_rc(s, e->lhs);
  case ND_MUL: {
    int64_t v;
    return (node_int_constant(rw_strip(e->lhs), &v) && linear_rc(s, e->rhs)) ||
           (node_int_constant(rw_strip(e->rhs), &v) && linear_rc(s, e->lhs));
  }
  default: return false;
  }
}

/* a triangular bound: `a CMP b` (<, <=, >, >=) with a - b linear in the row and the column, so
 * that it holds somewhere in a rectangle of outputs exactly when it holds at one of its corners */
static bool linear_cmp(const Shape *s, Node *t) {
  t = rw_strip(t);
  if (t->kind != ND_LT && t->kind != ND_LE && t->kind != ND_GT && t->kind != ND_GE) return false;
  bool u = (t->lhs->ty && t->lhs->ty->is_unsigned) || (t->rhs->ty && t->rhs->ty->is_unsigned);
  return !u && linear_rc(s, t->lhs) && linear_rc(s, t->rhs);
}

/* an early statement: `if (C) { stores }`, C pure on the row, the column and parameters; each
 * store `E[i] = e` to memory with no call, barrier, thread index or local other than the row
 * and the column (they run once per output, where the original thread stood) */
static bool early_ok(const Shape *s, Node *n) {
  if (deps(s, n->cond, NULL, NULL, false) & ~(D_ROW | D_COL) || !rw_pure(n->cond) ||
      may_trap(n->cond))
    return false;
  Node *b = n->then->kind == ND_BLOCK ? n->then->stmts : n->then;
  if (!b) return false;
  for (; b; b = b->next) {
    if (b->kind != ND_EXPR_STMT || !b->lhs || b->lhs->kind != ND_ASSIGN || rw_has_call(b) ||
        rw_has_barrier(b))
      return false;
    Node *t = rw_strip(b->lhs->lhs);
    if (t->kind != ND_INDEX && t->kind != ND_DEREF) return false;
    if (deps(s, b->lhs, NULL, NULL, false) & ~(D_ROW | D_COL | D_MEM) || !rw_pure(b->lhs->rhs) ||
        may_trap(b->lhs))
      return false;
  }
  return true;
}

static Legality find(PassCtx *c, Shape *s) {
  memset(s, 0, sizeof *s);
  const Launch *L = c->L;
  if (L->block[2] != 1 || L->block[1] < 2) {
    snprintf(c->why, sizeof c->why,
             "the block is not 2-D (block %lldx%lldx%lld, grid %lldx%lldx%lld)",
             (long long)L->block[0], (long long)L->block[1], (long long)L->block[2],
             (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2]);
    return NOT_APPLICABLE;
  }
  /* a grid with depth over a 2-D block (bench/holdout4 batched_mm: a batch in blockIdx.z) is a
   * batch of independent products: blockIdx.z and gridDim.z count as block-uniform (deps), each
   * z-slice is tiled as a 2-D problem and the tiled launch keeps grid.z */
  Node *st = c->k->body->stmts;
  /* declarations: the two global indices and invariants */
  for (; st && st->kind == ND_DECL; st = st->next) {
    Obj *v = st->var;
    /* an unguarded kernel: the accumulator declared just before its loop ends the declarations */
    if (s->row && s->col && st->next && st->next->kind == ND_FOR && rw_writes_var(st->next, v))
      break;
    int dim = st->decl_init ? global_index_dim(st->decl_init) : -1;
    if (dim == 0 && !s->col && is_integer(v->ty)) {
      s->col = v;
      continue;
    }
    if (dim == 1 && !s->row && is_integer(v->ty)) {
      s->row = v;
      continue;
    }
    if (s->npre < MAX_PRE && st->decl_init && v->ty->kind != TY_ARRAY &&
        !deps(s, st->decl_init, NULL, NULL, false) && rw_pure(st->decl_init) &&
        !rw_has_call(st->decl_init) && !may_trap(st->decl_init) && !list_writes(st->next, v)) {
      s->pre[s->npre++] = st;
      continue;
    }
    snprintf(c->why, sizeof c->why, "line %d: a declaration the pass does not move ('%s')",
             tok_loc(st->tok).line, v->name);
    return NOT_APPLICABLE;
  }
  if (!s->row || !s->col) {
    snprintf(c->why, sizeof c->why,
             "no local holds blockIdx.x*blockDim.x+threadIdx.x and the same along y");
    return NOT_APPLICABLE;
  }
  if (list_writes(st, s->row) || list_writes(st, s->col)) {
    snprintf(c->why, sizeof c->why, "the row or column index is assigned again");
    return NOT_APPLICABLE;
  }
  /* the guard: nested ifs without else, each the last statement where it stands; before it,
   * early statements `if (C) { E[i] = e; }` on the row, the column, parameters and memory (a
   * store parallel left to its y-thread 0), run per output where the original thread passed the
   * outer terms, before that output's POST */
  Node *inner = st;
  for (;;) {
    while (inner && inner->next && inner->kind == ND_IF && !inner->els && s->nearly < MAX_EARLY &&
           early_ok(s, inner)) {
      s->early_conj[s->nearly] = s->nconj;
      s->early[s->nearly++] = inner;
      inner = inner->next;
    }
    if (!(inner && inner->kind == ND_IF && !inner->els && !inner->next)) break;
    Node *terms[MAX_CONJ];
    int nt = 0;
    for (Node *g = inner->cond; g;) {
      Node *t = rw_strip(g), *term = t;
      if (t->kind == ND_LOGAND) {
        term = t->rhs;
        g = t->lhs;
      } else g = NULL;
      if (s->nconj + nt == MAX_CONJ) {
        snprintf(c->why, sizeof c->why, "the guard has more than %d terms", MAX_CONJ);
        return NOT_APPLICABLE;
      }
      terms[nt++] = term;
    }
    for (int i = nt - 1; i >= 0; i--) { /* in source order */
      Node *term = terms[i];
      int d = deps(s, term, NULL, NULL, false);
      bool tri = (d & (D_ROW | D_COL)) == (D_ROW | D_COL) && linear_cmp(s, term);
      if (d & ~(D_ROW | D_COL) || ((d & (D_ROW | D_COL)) == (D_ROW | D_COL) && !tri) ||
          !rw_pure(term)) {
        snprintf(
          c->why, sizeof c->why,
          "line %d: a guard term on both the row and the column other than a linear comparison, or on more",
          tok_loc(term->tok).line);
        return NOT_APPLICABLE;
      }
      s->ntri += tri;
      s->conj_dep[s->nconj] = d;
      s->conj[s->nconj++] = term;
    }
    inner = inner->then->kind == ND_BLOCK ? inner->then->stmts : inner->then;
  }
  if (inner && inner->kind == ND_IF) {
    snprintf(c->why, sizeof c->why,
             "line %d: the guard is not the last statement where it stands, or has an else",
             tok_loc(inner->tok).line);
    return NOT_APPLICABLE;
  }
  /* T s = init; for (k = lo; k < hi; k++) UPDATE; POST */
  if (!inner || inner->kind != ND_DECL || !inner->decl_init || !is_numeric(inner->var->ty) ||
      !inner->next || inner->next->kind != ND_FOR) {
    snprintf(c->why, sizeof c->why, "no accumulator declared just before a loop");
    return NOT_APPLICABLE;
  }
  s->acc_decl = inner;
  s->acc = inner->var;
  s->loop = inner->next;
  s->post = s->loop->next;
  int di = deps(s, inner->decl_init, NULL, NULL, false);
  if (di & ~(D_ROW | D_COL | D_MEM) || !rw_pure(inner->decl_init) ||
      (!di && may_trap(inner->decl_init))) {
    snprintf(c->why, sizeof c->why,
             "the accumulator's initial value depends on more than the output's row and column");
    return NOT_APPLICABLE;
  }
  Node *lp = s->loop;
  if (!lp->init || lp->init->kind != ND_DECL || lp->init->next || !lp->init->decl_init ||
      !is_integer(lp->init->var->ty) || !lp->cond || !lp->inc) {
    snprintf(c->why, sizeof c->why, "line %d: the loop is not `for (int k = lo; k < hi; k++)`",
             tok_loc(lp->tok).line);
    return NOT_APPLICABLE;
  }
  s->k = lp->init->var;
  /* an unsigned counter (`size_t k`, `unsigned k`): the tiled loop counts in a signed 64-bit
   * copy (k_end - BK must not wrap), its bounds converted through the counter's own type first,
   * so they are the original's values; exact for bounds below 2^63 (any size memory holds) */
  s->lo = lp->init->decl_init;
  Node *cond = rw_strip(lp->cond), *inc = rw_strip(lp->inc);
  bool inc_ok = (inc->kind == ND_POSTINC || inc->kind == ND_PREINC) &&
                rw_strip(inc->lhs)->kind == ND_VAR && rw_strip(inc->lhs)->var == s->k;
  if (inc->kind == ND_ASSIGN_OP && inc->op == ND_ADD && rw_strip(inc->lhs)->kind == ND_VAR &&
      rw_strip(inc->lhs)->var == s->k) {
    int64_t one;
    inc_ok = node_int_constant(inc->rhs, &one) && one == 1;
  }
  if (cond->kind != ND_LT || rw_strip(cond->lhs)->kind != ND_VAR ||
      rw_strip(cond->lhs)->var != s->k || !inc_ok) {
    snprintf(c->why, sizeof c->why, "line %d: the loop is not `for (int k = lo; k < hi; k++)`",
             tok_loc(lp->tok).line);
    return NOT_APPLICABLE;
  }
  s->hi = cond->rhs;
  if (deps(s, s->lo, NULL, NULL, false) || deps(s, s->hi, NULL, NULL, false) || !rw_pure(s->lo) ||
      !rw_pure(s->hi) || may_trap(s->lo) || may_trap(s->hi)) {
    snprintf(c->why, sizeof c->why, "line %d: the loop's bounds are not invariant",
             tok_loc(lp->tok).line);
    return NOT_APPLICABLE;
  }
  Node *b = lp->then;
  if (b->kind == ND_BLOCK) b = b->stmts && !b->stmts->next ? b->stmts : NULL;
  if (!b || b->kind != ND_EXPR_STMT || rw_writes_var(b, s->k)) {
    snprintf(c->why, sizeof c->why, "line %d: the loop's body is not one update of the accumulator",
             tok_loc(lp->tok).line);
    return NOT_APPLICABLE;
  }
  Node *u = rw_strip(b->lhs);
  if ((u->kind != ND_ASSIGN && u->kind != ND_ASSIGN_OP) || rw_strip(u->lhs)->kind != ND_VAR ||
      rw_strip(u->lhs)->var != s->acc) {
    snprintf(c->why, sizeof c->why, "line %d: the loop's body is not one update of the accumulator",
             tok_loc(b->tok).line);
    return NOT_APPLICABLE;
  }
  s->upd = u;
  /* the loads: one shared along x (row, k), one shared along y (k, col) */
  Loads ld = {.k = 0};
  walk_one(u->rhs, loads_pre, NULL, &ld);
  for (int i = 0; i < ld.k; i++) {
    Node *x = ld.n[i];
    int d = deps(s, x->rhs, NULL, NULL, false);
    Node **slot = NULL;
    if (d == (D_ROW | D_K)) slot = &s->la;
    else if (d == (D_COL | D_K)) slot = &s->lb;
    if (!slot) {
      snprintf(c->why, sizeof c->why, "line %d: a load whose index is not (row, k) or (k, column)",
               tok_loc(x->tok).line);
      return NOT_APPLICABLE;
    }
    if (*slot && !(rw_same_expr(*slot, x))) {
      snprintf(c->why, sizeof c->why, "line %d: two different loads along one dimension",
               tok_loc(x->tok).line);
      return NOT_APPLICABLE;
    }
    if (!*slot) *slot = x;
  }
  if (!s->la || !s->lb) {
    snprintf(c->why, sizeof c->why,
             "the update does not load one operand along rows and one along columns");
    return NOT_APPLICABLE;
  }
  s->pa = rw_strip(s->la->lhs)->var;
  s->pb = rw_strip(s->lb->lhs)->var;
  /* the rest of the update: the accumulator, the loads, invariants */
  Deps du = {.s = s, .nskip = 0};
  for (int i = 0; i < ld.k; i++) du.skip[du.nskip++] = ld.n[i];
  walk_one(u->rhs, deps_pre, NULL, &du);
  if (has_branching(u->rhs) || may_trap(u->rhs)) {
    snprintf(
      c->why, sizeof c->why,
      "line %d: the update loads or divides under a condition (its tiles would read or trap where the original does not)",
      tok_loc(u->tok).line);
    return NOT_APPLICABLE;
  }
  if (!is_numeric(s->pa->ty->base) || !is_numeric(s->pb->ty->base)) {
    snprintf(c->why, sizeof c->why, "the loaded elements are not numbers (vector or struct types)");
    return NOT_APPLICABLE;
  }
  if (du.d & ~D_ACC || !rw_pure(u->rhs)) {
    snprintf(c->why, sizeof c->why,
             "line %d: the update uses more than the accumulator, the two loads and invariants",
             tok_loc(u->tok).line);
    return NOT_APPLICABLE;
  }
  if (!rw_read_only(c->k->body, s->pa) || !rw_read_only(c->k->body, s->pb)) {
    snprintf(c->why, sizeof c->why,
             "'%s' or '%s' is stored to in the kernel: its tile could go stale", s->pa->name,
             s->pb->name);
    return ILLEGAL;
  }
  /* POST: per output, as written */
  int dp = deps(s, s->post, NULL, NULL, true);
  if (dp & D_OTHER || rw_has_barrier(s->post)) {
    snprintf(
      c->why, sizeof c->why,
      "the statements after the loop use a thread index, a barrier, a global or a local of the loop");
    return NOT_APPLICABLE;
  }
  for (Obj *pv = c->k->params; pv; pv = pv->next)
    if (list_writes(s->post, pv)) {
      snprintf(
        c->why, sizeof c->why,
        "the statements after the loop assign the parameter '%s' (they now run once per output)",
        pv->name);
      return NOT_APPLICABLE;
    }
  for (Node *q = s->post; q; q = q->next)
    if (q->kind == ND_RETURN || q->kind == ND_BREAK || q->kind == ND_CONTINUE) {
      snprintf(c->why, sizeof c->why, "line %d: a jump after the loop", tok_loc(q->tok).line);
      return NOT_APPLICABLE;
    }
  int64_t sr, sk;
  s->a_along_k = !strides(c, s->la->rhs, s->row, s->k, &sr, &sk) || sk == 1 || sr != 1;
  s->b_along_col = !strides(c, s->lb->rhs, s->col, s->k, &sr, &sk) || sr == 1 || sk != 1;
  unit_strides(c, s);
  c->site = s->loop;
  return LEGAL;
}

/* ---- writing the kernel ---- */
typedef struct {
  const Shape *s;
  const char *row, *col, *k, *acc; /* text for each variable (NULL: its own name) */
  Node *la, *lb;
  const char *ta, *tb;
} Sub;

static const char *sub_fn(Node *n, void *ctx) {
  Sub *u = ctx;
  if (n == u->la) return u->ta;
  if (n == u->lb) return u->tb;
  if (u->la && n->kind == ND_INDEX && rw_same_expr(n, u->la)) return u->ta;
  if (u->lb && n->kind == ND_INDEX && rw_same_expr(n, u->lb)) return u->tb;
  if (n->kind != ND_VAR) return NULL;
  if (n->var == u->s->row) return u->row;
  if (n->var == u->s->col) return u->col;
  if (n->var == u->s->k) return u->k;
  if (n->var == u->s->acc) return u->acc;
  return NULL;
}

static char *expr_with(Node *e, Sub *u) {
  Buf b = {0};
  print_expr_with(&b, e, sub_fn, u);
  char *r = arena_strdup(b.s ? b.s : "");
  buf_free(&b);
  return r;
}

/* the guard terms of one kind (D_ROW, D_COL, or both) with the row/col written as given */
static void guard_terms(Buf *b, const Shape *s, int want, Sub *u) {
  for (int i = 0; i < s->nconj; i++) {
    if (s->conj_dep[i] & ~want)
      continue; /* a load's tile is guarded by its own dimension's terms only */
    buf_printf(b, " && %s", expr_with(s->conj[i], u));
  }
}

typedef struct {
  int BM, BN, BK, TM, TN, NT, TX, PA, PB, VW;
  int avec, bvec;       /* elements a thread loads at once from A and B in a full step (1 or 4) */
  const char *okv, *vt; /* a group passes the guard; the group's values */
  int prefetch;
  int stages;          /* prefetch 3, 4: shared stages filled by async copies (2, 3); else 0 */
  const char *ap, *bp; /* prefetch registers */
  const char *ok;      /* an element of an async copy passes the guard */
  const char *q, *v;   /* a 16-byte group of the B tile and an element in it */
  const char *As, *Bs, *tx, *ty, *tid, *row0, *col0, *accv, *kend, *k0, *e, *r, *kk, *av, *bv, *i,
    *j, *l;
  int64_t XT, YT;
  const char *XTs,
    *YTs; /* the extents as the kernel tests them: gridDim-based when the tiles divide them */
  const char *ta, *tb, *tacc; /* element types as declarations need them */
} Gen;

/* text standing for variable v: in v's own type where it is not int (a size_t row keeps its
 * 64-bit products, an unsigned one its wrap-around) */
static const char *typed(Obj *v, const char *text) {
  if (v->ty->kind == TY_INT && v->ty->size == 4 && !v->ty->is_unsigned) return text;
  return fmt("(%s)(%s)", type_name(v->ty), text);
}

/* the two tiles of one step of k starting at kbase: LOAD_SHARED straight into shared memory,
 * LOAD_REGS into the prefetch registers (the next step's, while this one computes), STORE_REGS
 * from them into shared memory. With vec > 1 (full steps only) a thread loads vec consecutive
 * elements along the operand's unit stride: one 128-bit load when all of them pass the guard and
 * the address is aligned, else each alone, so ragged edges and unaligned rows stay exact. */
enum { LOAD_SHARED, LOAD_REGS, STORE_REGS };

/* a thread's loop over its groups of one tile, opened: group e has r its row (A) or column (B)
 * in the tile and kk its k, consecutive threads on consecutive groups along the unit stride */
static void group_loop(Buf *o, const Gen *g, const char *in, bool along_k, int rows, int vw,
                       int per) {
  int span = along_k ? g->BK / vw : rows / vw;
  buf_printf(o, "%s#pragma unroll\n%sfor (int %s = 0; %s < %d; %s++) {\n", in, in, g->l, g->l, per,
             g->l);
  buf_printf(o, "%s  const int %s = %s + %s * %d, %s = %s %s %d%s, %s = %s %s %d%s;\n", in, g->e,
             g->tid, g->l, g->NT, g->r, g->e, along_k ? "/" : "%", span,
             along_k || vw == 1 ? "" : fmt(" * %d", vw), g->kk, g->e, along_k ? "%" : "/", span,
             along_k && vw > 1 ? fmt(" * %d", vw) : "");
}

static void tile_loads(Buf *o, PassCtx *c, const Shape *s, const Gen *g, bool tail, const char *in,
                       int mode, const char *kbase) {
  for (int which = 0; which < 2; which++) {
    bool isa = which == 0;
    int rows = isa ? g->BM : g->BN,
        vw = tail  ? 1
             : isa ? g->avec
                   : g->bvec,
        per = rows * g->BK / vw / g->NT;
    bool along_k = isa ? s->a_along_k : !s->b_along_col;
    const char *tile = isa ? g->As : g->Bs, *pre = isa ? g->ap : g->bp, *ty = isa ? g->ta : g->tb;
    group_loop(o, g, in, along_k, rows, vw, per);
    /* element v of the group: its tile row/column and k */
    const char *rv = along_k || vw == 1 ? g->r : fmt("%s + %s", g->r, g->v),
               *kv = along_k && vw > 1 ? fmt("%s + %s", g->kk, g->v) : g->kk;
    const char *dst = mode == LOAD_SHARED ? NULL
                      : vw > 1            ? fmt("%s[%s * %d + %s]", pre, g->l, vw, g->v)
                                          : fmt("%s[%s]", pre, g->l);
    if (mode == STORE_REGS) {
      if (vw > 1)
        buf_printf(o, "%s  #pragma unroll\n%s  for (int %s = 0; %s < %d; %s++) %s[%s][%s] = %s;\n",
                   in, in, g->v, g->v, vw, g->v, tile, kv, rv, dst);
      else buf_printf(o, "%s  %s[%s][%s] = %s;\n", in, tile, g->kk, g->r, dst);
      buf_printf(o, "%s}\n", in);
      continue;
    }
    Sub u = {.s = s,
             .row = typed(s->row, fmt("%s + %s", g->row0, rv)),
             .col = typed(s->col, fmt("%s + %s", g->col0, rv)),
             .k = typed(s->k, fmt("%s + %s", kbase, kv))};
    Buf cond = {0};
    buf_printf(&cond, "%s + %s < %s", isa ? g->row0 : g->col0, rv, isa ? g->YTs : g->XTs);
    guard_terms(&cond, s, isa ? D_ROW : D_COL, &u);
    if (tail) buf_printf(&cond, " && %s + %s < %s", kbase, kv, g->kend);
    char *load = expr_with(isa ? s->la : s->lb, &u);
    const char *to = mode == LOAD_REGS ? dst : fmt("%s[%s][%s]", tile, kv, rv);
    if (vw == 1) {
      buf_printf(o, "%s  %s = %s ? %s : (%s)0;\n%s}\n", in, to, cond.s, load, ty, in);
      buf_free(&cond);
      continue;
    }
    /* the group: every element passes the guard (one test when the guard is on the row of A
     * alone) and the first is 16-byte aligned: one vector load */
    const char *ok = g->okv, *vt = g->vt;
    if (along_k) buf_printf(o, "%s  const bool %s = %s;\n", in, ok, cond.s);
    else
      buf_printf(
        o,
        "%s  bool %s = true;\n%s  #pragma unroll\n%s  for (int %s = 0; %s < %d; %s++) %s = %s && %s;\n",
        in, ok, in, in, g->v, g->v, vw, g->v, ok, ok, cond.s);
    Sub u0 = u;
    u0.row = typed(s->row, fmt("%s + %s", g->row0, g->r));
    u0.col = typed(s->col, fmt("%s + %s", g->col0, g->r));
    u0.k = typed(s->k, fmt("%s + %s", kbase, g->kk));
    char *first = expr_with(isa ? s->la : s->lb, &u0);
    buf_printf(o, "%s  %s %s[%d];\n", in, ty, vt, vw);
    buf_printf(o, "%s  if (%s && ((unsigned long)&%s & 15) == 0) {\n", in, ok, first);
    buf_printf(o, "%s    const %s4 %s4 = *(const %s4 *)&%s;\n", in, ty, vt, ty, first);
    bool swap = c->mutation == 4; /* broken: two lanes of the vector swapped */
    buf_printf(o, "%s    %s[0] = %s4.x; %s[1] = %s4.%s; %s[2] = %s4.%s; %s[3] = %s4.w;\n", in, vt,
               vt, vt, vt, swap ? "z" : "y", vt, vt, swap ? "y" : "z", vt, vt);
    buf_printf(
      o,
      "%s  } else {\n%s    #pragma unroll\n%s    for (int %s = 0; %s < %d; %s++) %s[%s] = %s ? %s : (%s)0;\n%s  }\n",
      in, in, in, g->v, g->v, vw, g->v, vt, g->v, cond.s, load, ty, in);
    if (mode == LOAD_REGS)
      buf_printf(o, "%s  #pragma unroll\n%s  for (int %s = 0; %s < %d; %s++) %s = %s[%s];\n", in,
                 in, g->v, g->v, vw, g->v, dst, vt, g->v);
    else
      buf_printf(o,
                 "%s  #pragma unroll\n%s  for (int %s = 0; %s < %d; %s++) %s[%s][%s] = %s[%s];\n",
                 in, in, g->v, g->v, vw, g->v, tile, kv, rv, vt, g->v);
    buf_printf(o, "%s}\n", in);
    buf_free(&cond);
  }
}

/* the two tiles of one full step of k starting at kbase, as async copies (cp.async) into the
 * shared stage g->As/g->Bs name; they land while the block computes earlier stages. An element
 * outside the guard is a copy with zfill equal to its size from the operand's first element: it
 * reads nothing and writes the 0 the other modes store. A group of 4 consecutive elements stored
 * consecutively (B along columns with vec 4) is one 16-byte copy when all 4 pass the guard and
 * both addresses are 16-byte aligned, tested at run time (nvcc guarantees a __shared__ float
 * array only 4 bytes, whatever carve's layout gives it), else 4 element copies. A's tile is
 * stored k-major, so 4 consecutive k of a row cannot land in one copy: each element is its own
 * copy, in the order of scalar loads (8 lanes copy one row's 8 k: whole 32-byte sectors), as
 * CUTLASS's SIMT multistage mainloop does for a row-major A (default_mma_core_sm80.h:
 * kElementsPerAccess 1, SmemLayoutA ColumnMajor). The alternative, a row-major A tile filled by
 * 16-byte copies, must read its fragments along k (one 128-bit load: 4 k of one row, so TM x 4
 * registers of A), and the two rows of threads of a warp then read rows TM apart, on the same
 * banks with 16-byte rows unless a thread's rows are split in two groups half a tile apart; it
 * saves 3 of a thread's 5 copy instructions a step at 128x128, bk 8, against its 512 FMAs.
 * bench/probe/sgemm_cpasync.cu times both on the GPU. */
static void tile_copies(Buf *o, PassCtx *c, const Shape *s, const Gen *g, const char *in,
                        const char *kbase) {
  for (int which = 0; which < 2; which++) {
    bool isa = which == 0, along_k = isa ? s->a_along_k : !s->b_along_col;
    int rows = isa ? g->BM : g->BN,
        vw = along_k ? 1
             : isa   ? g->avec
                     : g->bvec,
        per = rows * g->BK / vw / g->NT;
    int el = (int)(isa ? s->pa : s->pb)->ty->base->size;
    const char *tile = isa ? g->As : g->Bs, *base = (isa ? s->pa : s->pb)->name;
    group_loop(o, g, in, along_k, rows, vw, per);
    const char *rv = vw == 1 ? g->r : fmt("%s + %s", g->r, g->v);
    Sub u = {.s = s,
             .row = typed(s->row, fmt("%s + %s", g->row0, rv)),
             .col = typed(s->col, fmt("%s + %s", g->col0, rv)),
             .k = typed(s->k, fmt("%s + %s", kbase, g->kk))};
    Buf cond = {0};
    buf_printf(&cond, "%s + %s < %s", isa ? g->row0 : g->col0, rv, isa ? g->YTs : g->XTs);
    guard_terms(&cond, s, isa ? D_ROW : D_COL, &u);
    char *load = expr_with(isa ? s->la : s->lb, &u);
    const char *in2 = vw == 1 ? in : fmt("%s    ", in);
    bool swap = c->mutation == 4; /* broken: two elements of a group land swapped */
    const char *to = vw == 1 ? g->r
                     : swap  ? fmt("%s + (%s == 1 ? 2 : %s == 2 ? 1 : %s)", g->r, g->v, g->v, g->v)
                             : rv;
    if (vw > 1) {
      Sub u0 = u;
      u0.row = typed(s->row, fmt("%s + %s", g->row0, g->r));
      u0.col = typed(s->col, fmt("%s + %s", g->col0, g->r));
      char *first = expr_with(isa ? s->la : s->lb, &u0);
      buf_printf(
        o,
        "%s  bool %s = true;\n%s  #pragma unroll\n%s  for (int %s = 0; %s < %d; %s++) %s = %s && %s;\n",
        in, g->okv, in, in, g->v, g->v, vw, g->v, g->okv, g->okv, cond.s);
      buf_printf(
        o,
        "%s  if (%s && ((unsigned long)&%s & 15) == 0 && ((unsigned long)&%s[%s][%s] & 15) == 0) {\n",
        in, g->okv, first, tile, g->kk, g->r);
      buf_printf(o, "%s    __pipeline_memcpy_async(&%s[%s][%s], &%s, 16);\n%s  } else {\n", in,
                 tile, g->kk, g->r, first, in);
      buf_printf(o, "%s    #pragma unroll\n%s    for (int %s = 0; %s < %d; %s++) {\n", in, in, g->v,
                 g->v, vw, g->v);
    }
    buf_printf(o, "%s  const bool %s = %s;\n", in2, g->ok, cond.s);
    buf_printf(o, "%s  __pipeline_memcpy_async(&%s[%s][%s], %s ? &%s : %s, %d, %s ? 0 : %d);\n",
               in2, tile, g->kk, to, g->ok, load, base, el, g->ok, el);
    if (vw > 1) buf_printf(o, "%s    }\n%s  }\n", in, in);
    buf_printf(o, "%s}\n", in);
    buf_free(&cond);
  }
}

/* the column of the tile a thread's j-th output lies in: TN consecutive columns, or, when the
 * columns split into 16-byte groups, group q of every thread side by side (a warp's vector
 * loads of the B tile then read consecutive 16-byte words: no bank conflict) */
static const char *col_of(const Gen *g) {
  if (g->VW > 1)
    return fmt("%s / %d * %d + %s * %d + %s %% %d", g->j, g->VW, g->TX * g->VW, g->tx, g->VW, g->j,
               g->VW);
  return fmt("%s * %d + %s", g->tx, g->TN, g->j);
}

/* the register fragments of step kk (into slot `slot` of two when double-buffered) */
static void fragments(Buf *o, PassCtx *c, const Gen *g, const char *in, const char *kk,
                      const char *slot) {
  bool wrong = c->mutation == 1; /* broken: a register tile index off by one */
  buf_printf(
    o, "%s#pragma unroll\n%sfor (int %s = 0; %s < %d; %s++) %s%s[%s] = %s[%s][%s * %d + %s];\n", in,
    in, g->i, g->i, g->TM, g->i, g->av, slot, g->i, g->As, kk, g->ty, g->TM,
    wrong ? fmt("(%s + 1) %% %d", g->i, g->TM) : g->i);
  if (g->VW > 1) /* 16-byte groups of the B tile: q-th group of this thread, element v */
    buf_printf(
      o,
      "%s#pragma unroll\n%sfor (int %s = 0; %s < %d; %s++)\n%s  #pragma unroll\n%s  for (int %s = 0; %s < %d; %s++) %s%s[%s * %d + %s] = %s[%s][%s * %d + %s * %d + %s];\n",
      in, in, g->q, g->q, g->TN / g->VW, g->q, in, in, g->v, g->v, g->VW, g->v, g->bv, slot, g->q,
      g->VW, g->v, g->Bs, kk, g->q, g->TX * g->VW, g->tx, g->VW, g->v);
  else
    buf_printf(
      o, "%s#pragma unroll\n%sfor (int %s = 0; %s < %d; %s++) %s%s[%s] = %s[%s][%s * %d + %s];\n",
      in, in, g->j, g->j, g->TN, g->j, g->bv, slot, g->j, g->Bs, kk, g->tx, g->TN, g->j);
}

/* TM x TN updates from the fragments of one k. A full step (bound a constant) double-buffers the
 * fragments: those of kk + 1 are read from shared memory before the updates of kk, so the shared
 * loads' latency hides behind the arithmetic (what cuBLAS-class SGEMMs do; a probe on the H100,
 * bench/probe/sgemm_probe.cu, 2026-11-24: 74% -> 94% of cuBLAS at n = 2048 with 128-bit loads) */
static void compute(Buf *o, PassCtx *c, const Shape *s, const Gen *g, const char *bound,
                    const char *in) {
  bool full = bound[0] >= '0' && bound[0] <= '9';
  const char *slot = full ? fmt("[%s & 1]", g->kk) : "";
  Sub u = {.s = s,
           .acc = fmt("%s[%s][%s]", g->accv, g->i, g->j),
           .la = s->la,
           .lb = s->lb,
           .ta = fmt("%s%s[%s]", g->av, slot, g->i),
           .tb = fmt("%s%s[%s]", g->bv, slot, g->j)};
  char *upd = expr_with(s->upd, &u);
  const char *in2 = fmt("%s  ", in);
  if (full) {
    buf_printf(o, "%s%s %s[2][%d];\n%s%s %s[2][%d];\n", in, g->ta, g->av, g->TM, in, g->tb, g->bv,
               g->TN);
    fragments(o, c, g, in, "0", "[0]");
    buf_printf(o, "%s#pragma unroll\n", in);
  }
  buf_printf(o, "%sfor (int %s = 0; %s < %s; %s++) {\n", in, g->kk, g->kk, bound, g->kk);
  if (full) {
    buf_printf(o, "%s  if (%s + 1 < %s) {\n", in, g->kk, bound);
    fragments(o, c, g, fmt("%s  ", in2), fmt("%s + 1", g->kk), fmt("[(%s + 1) & 1]", g->kk));
    buf_printf(o, "%s  }\n", in);
  } else {
    buf_printf(o, "%s  %s %s[%d];\n%s  %s %s[%d];\n", in, g->ta, g->av, g->TM, in, g->tb, g->bv,
               g->TN);
    fragments(o, c, g, in2, g->kk, "");
  }
  buf_printf(
    o,
    "%s  #pragma unroll\n%s  for (int %s = 0; %s < %d; %s++)\n%s    #pragma unroll\n%s    for (int %s = 0; %s < %d; %s++)\n%s      %s;\n",
    in, in, g->i, g->i, g->TM, g->i, in, in, g->j, g->j, g->TN, g->j, in, upd);
  buf_printf(o, "%s}\n", in);
}

/* the original's row and column, declared with their own names and types, for output (i, j) */
static void output_coords(Buf *o, const Shape *s, const Gen *g) {
  buf_printf(o, "      const %s %s = %s + %s * %d + %s;\n", type_name(s->row->ty), s->row->name,
             g->row0, g->ty, g->TM, g->i);
  buf_printf(o, "      const %s %s = %s + %s;\n", type_name(s->col->ty), s->col->name, g->col0,
             col_of(g));
}

/* the early statements of output (row, col), each where the original thread existed and passed
 * the guard's terms outside it, at indent 6 inside the loop over a thread's outputs */
static void early_stmts(Buf *o, const Shape *s, const Gen *g) {
  Sub none = {.s = s};
  for (int e = 0; e < s->nearly; e++) {
    buf_printf(o, "      if (%s < %s && %s < %s", s->row->name, g->YTs, s->col->name, g->XTs);
    for (int i = 0; i < s->early_conj[e]; i++)
      buf_printf(o, " && %s", expr_with(s->conj[i], &none));
    buf_puts(o, ") {\n");
    Node *keep = s->early[e]->next;
    s->early[e]->next = NULL;
    print_stmts_with(o, s->early[e], 4, NULL, NULL);
    s->early[e]->next = keep;
    buf_puts(o, "      }\n");
  }
}

/* the loop over a thread's outputs, opened (its coordinates declared) */
static void outputs_open(Buf *o, const Shape *s, const Gen *g) {
  buf_printf(
    o,
    "  #pragma unroll\n  for (int %s = 0; %s < %d; %s++)\n    #pragma unroll\n    for (int %s = 0; %s < %d; %s++) {\n",
    g->i, g->i, g->TM, g->i, g->j, g->j, g->TN, g->j);
  output_coords(o, s, g);
}

/* ---- parameters ---- */
static bool sizes(PassCtx *c, Gen *g) {
  g->BM = g->BN = c->param[0];
  g->TM = g->TN = c->param[1];
  g->BK = c->param[2];
  g->prefetch = c->param[3];
  g->stages = g->prefetch >= 3 ? g->prefetch - 1 : 0;
  g->TX = g->BN / g->TN;
  g->NT = g->TX * (g->BM / g->TM);
  if (g->NT < 32 || g->NT > 1024) {
    snprintf(c->why, sizeof c->why,
             "tile %d with %dx%d outputs a thread gives %d threads a block (32 to 1024 allowed)",
             g->BM, g->TM, g->TN, g->NT);
    return false;
  }
  if (g->BM * g->BK % g->NT || g->BN * g->BK % g->NT) {
    snprintf(c->why, sizeof c->why, "the %dx%d tiles do not divide among %d threads", g->BM, g->BK,
             g->NT);
    return false;
  }
  return true;
}

/* 4 when the operand's tile loads go 128 bits at a time: asked for, the unit stride proved, a
 * 32-bit float or int element (float4/int4), and the tile's groups divide among the threads */
static int vec_width(PassCtx *c, const Gen *g, Type *el, bool unit, int rows) {
  bool ty_ok = el->size == 4 && (el->kind == TY_FLOAT || (el->kind == TY_INT && !el->is_unsigned));
  return c->param[5] == 4 && unit && ty_ok && rows * g->BK % (4 * g->NT) == 0 ? 4 : 1;
}

/* async copies (prefetch 3, 4): cp.async exists from sm_80 (PTX ISA, cp.async, target ISA
 * notes: sm_80 or higher) and copies 4, 8 or 16 bytes, so an element is copied alone only at those sizes */
static bool async_ok(PassCtx *c, int ea, int eb) {
  if (!c->m || c->m->cc_major < 8) {
    snprintf(
      c->why, sizeof c->why,
      "prefetch %d uses async copies (cp.async), which need compute capability 8.0 or newer (%s is %d.%d)",
      c->param[3], c->m ? c->m->name : "the machine", c->m ? c->m->cc_major : 0,
      c->m ? c->m->cc_minor : 0);
    return false;
  }
  for (int i = 0; i < 2; i++) {
    int e = i ? eb : ea;
    if (e != 4 && e != 8 && e != 16) {
      snprintf(
        c->why, sizeof c->why,
        "prefetch %d copies each element with cp.async, which moves 4, 8 or 16 bytes: elements of %d bytes",
        c->param[3], e);
      return false;
    }
  }
  return true;
}

static Legality legal(PassCtx *c) {
  Shape s;
  /* the rewrite keeps values in registers past other pointers' accesses: an aliased launch (one
   * buffer bound to two parameters, as the program made it) would see stale values */
  if (rw_launch_aliases(c, c->why, sizeof c->why)) return ILLEGAL;
  Legality l = find(c, &s);
  if (l != LEGAL) return l;
  Gen g;
  if (!sizes(c, &g)) return ILLEGAL;
  int ea = s.pa->ty->base->size, eb = s.pb->ty->base->size;
  if (g.stages && !async_ok(c, ea, eb)) return ILLEGAL;
  int64_t bytes = (int64_t)(g.stages          ? g.stages
                            : g.prefetch == 2 ? 2
                                              : 1) *
                  g.BK * ((int64_t)(g.BM + 16 / ea) * ea + (int64_t)(g.BN + 16 / eb) * eb);
  if (bytes > 48 * 1024) {
    snprintf(
      c->why, sizeof c->why,
      "the tiles take %lld bytes of static shared memory (48 KB is the most a kernel may declare)",
      (long long)bytes);
    return ILLEGAL;
  }
  snprintf(c->why, sizeof c->why,
           "%s shared along x, %s along y: %dx%d tiles in shared memory, %dx%d outputs a thread",
           s.pa->name, s.pb->name, g.BM, g.BN, g.TM, g.TN);
  return LEGAL;
}

/* prefetch 3, 4: S = g->stages shared stages filled by async copies. Step t computes from
 * stage t mod S while the copies of step t + S - 1 are in flight: a thread waits for its own
 * copies of step t (all but its S - 2 newest groups; every step commits one group, empty past
 * the last full step, so the count is the same in every thread and step), then one barrier
 * makes every thread's copies visible and ends every thread's reads of the stage the next copies
 * overwrite (step t - 1's). Leaves g->As/g->Bs naming the stage after the last full step, which
 * no thread reads any more and no copy is pending for: the ragged step's tiles go there. */
static void pipeline(Buf *o, PassCtx *c, const Shape *s, Gen *g, RwNames *nm) {
  const char *A0 = g->As, *B0 = g->Bs, *kn = rw_fresh(nm, "k_copy"), *st = rw_fresh(nm, "stage");
  const char *cur = rw_fresh(nm, "buf"), *nxt = rw_fresh(nm, "buf_copy");
  int S = g->stages;
  buf_printf(o, "  %s %s = %s;\n  #pragma unroll\n  for (int %s = 0; %s < %d; %s++) {\n",
             type_name(s->k->ty), kn, g->k0, st, st, S - 1, st);
  buf_printf(o, "    if (%s <= %s - %d) {\n", kn, g->kend, g->BK);
  g->As = fmt("%s[%s]", A0, st);
  g->Bs = fmt("%s[%s]", B0, st);
  tile_copies(o, c, s, g, "      ", kn);
  buf_printf(o, "      %s += %d;\n    }\n    __pipeline_commit();\n  }\n", kn, g->BK);
  buf_printf(o, "  int %s = 0, %s = %d;\n", cur, nxt, S - 1);
  buf_printf(o, "  for (; %s <= %s - %d; %s += %d) {\n", g->k0, g->kend, g->BK, g->k0, g->BK);
  if (c->mutation != 5)
    buf_printf(o, "    __pipeline_wait_prior(%d);\n",
               S - 2); /* broken: the copies never waited for */
  if (c->mutation != 2)
    buf_printf(o,
               "    __syncthreads();\n"); /* broken: other threads' copies read before they land */
  buf_printf(o, "    if (%s <= %s - %d) {\n", kn, g->kend, g->BK);
  g->As = fmt("%s[%s]", A0, nxt);
  g->Bs = fmt("%s[%s]", B0, nxt);
  tile_copies(o, c, s, g, "      ", kn);
  buf_printf(o, "      %s += %d;\n    }\n    __pipeline_commit();\n", kn, g->BK);
  g->As = fmt("%s[%s]", A0, cur);
  g->Bs = fmt("%s[%s]", B0, cur);
  compute(o, c, s, g, fmt("%d", g->BK), "    ");
  buf_printf(o, "    %s = %s == %d ? 0 : %s + 1;\n    %s = %s == %d ? 0 : %s + 1;\n  }\n", cur, cur,
             S - 1, cur, nxt, nxt, S - 1, nxt);
}

static bool apply(PassCtx *c) {
  Shape s;
  if (find(c, &s) != LEGAL) return false;
  Gen g;
  if (!sizes(c, &g)) return false;
  RwNames nm = {.c = c};
  g.As = rw_fresh(&nm, fmt("%s_tile", s.pa->name));
  g.Bs = rw_fresh(&nm, s.pa == s.pb ? fmt("%s_tile_b", s.pb->name) : fmt("%s_tile", s.pb->name));
  g.tx = rw_fresh(&nm, "tx");
  g.ty = rw_fresh(&nm, "ty");
  g.tid = rw_fresh(&nm, "tid");
  g.row0 = rw_fresh(&nm, "row0");
  g.col0 = rw_fresh(&nm, "col0");
  g.accv = rw_fresh(&nm, "acc");
  g.kend = rw_fresh(&nm, "k_end");
  g.k0 = rw_fresh(&nm, "k0");
  g.e = rw_fresh(&nm, "e");
  g.r = rw_fresh(&nm, "r");
  g.kk = rw_fresh(&nm, "kk");
  g.av = rw_fresh(&nm, fmt("%s_reg", s.pa->name));
  g.bv = rw_fresh(&nm, s.pa == s.pb ? fmt("%s_reg_b", s.pb->name) : fmt("%s_reg", s.pb->name));
  g.i = rw_fresh(&nm, "i");
  g.j = rw_fresh(&nm, "j");
  g.l = rw_fresh(&nm, "l");
  g.q = rw_fresh(&nm, "q");
  g.v = rw_fresh(&nm, "v");
  g.okv = rw_fresh(&nm, "whole");
  g.vt = rw_fresh(&nm, "vals");
  g.ok = rw_fresh(&nm, "in_range");
  g.ap = rw_fresh(&nm, fmt("%s_next", s.pa->name));
  g.bp = rw_fresh(&nm, s.pa == s.pb ? fmt("%s_next_b", s.pb->name) : fmt("%s_next", s.pb->name));
  g.XT = c->L->grid[0] * c->L->block[0];
  g.YT = c->L->grid[1] * c->L->block[1];
  /* extents the block tiles divide are the new grid's exactly: written from gridDim, the kernel
   * is right for every such grid (the wrapper tests that); otherwise the recorded ones */
  c->grid_generic = g.XT % g.BN == 0 && g.YT % g.BM == 0;
  g.XTs = c->grid_generic ? fmt("(int)(gridDim.x * %du)", g.BN) : fmt("%lld", (long long)g.XT);
  g.YTs = c->grid_generic ? fmt("(int)(gridDim.y * %du)", g.BM) : fmt("%lld", (long long)g.YT);
  Type *ea = unqual(s.pa->ty->base), *eb = unqual(s.pb->ty->base);
  g.ta = plain_type_name(ea);
  g.tb = plain_type_name(eb);
  g.tacc = plain_type_name(unqual(s.acc->ty)); /* "float", not a typedef: "float4" is made of it */
  /* pad the k-major tiles so that a warp's stores along k hit distinct banks (16-byte rows kept) */
  g.PA = s.a_along_k ? 16 / (ea->size ? ea->size : 4) : 0;
  g.PB = !s.b_along_col ? 16 / (eb->size ? eb->size : 4) : 0;
  g.avec = vec_width(c, &g, ea, s.a_unit_k, g.BM);
  g.bvec = vec_width(c, &g, eb, s.b_unit_col, g.BN);
  g.VW = eb->size && 16 % eb->size == 0 && g.TN > 16 / eb->size && g.TN % (16 / eb->size) == 0
           ? 16 / eb->size
           : 1;
  Buf o = {0};
  /* the signature, as the kernel has it, with the new launch bounds */
  int lb0 = c->k->launch_bounds[0], lb1 = c->k->launch_bounds[1];
  c->k->launch_bounds[0] = g.NT;
  c->k->launch_bounds[1] = c->param[4];
  Node *saved_body = c->k->body;
  c->k->body = NULL;
  Buf sig = {0};
  print_function(&sig, c->k);
  c->k->body = saved_body;
  c->k->launch_bounds[0] = lb0;
  c->k->launch_bounds[1] = lb1;
  sig.s[sig.len - 2] = 0; /* ";\n" */
  buf_printf(&o, "%s {\n", sig.s);
  buf_free(&sig);
  /* two buffers (one barrier a step) or the stages of async copies, declared 16-byte aligned
   * for the 16-byte ones (carve's layout and nvcc then agree); the copies test the address all
   * the same (tile_copies): a row of the tile is 16-byte aligned only when its padded length is */
  const char *nb = g.stages ? fmt("[%d]", g.stages) : g.prefetch == 2 ? "[2]" : "";
  const char *al = g.stages ? "__align__(16) " : "";
  buf_printf(&o, "  __shared__ %s%s %s%s[%d][%d];\n", al, g.ta, g.As, nb, g.BK, g.BM + g.PA);
  buf_printf(&o, "  __shared__ %s%s %s%s[%d][%d];\n", al, g.tb, g.Bs, nb, g.BK, g.BN + g.PB);
  Buf pre = {0};
  for (int i = 0; i < s.npre; i++) {
    Node *keep = s.pre[i]->next;
    s.pre[i]->next = NULL;
    print_stmts_with(&pre, s.pre[i], 1, NULL, NULL);
    s.pre[i]->next = keep;
  }
  if (pre.s) buf_puts(&o, pre.s);
  buf_free(&pre);
  buf_printf(&o, "  const int %s = threadIdx.x, %s = threadIdx.y, %s = %s * %d + %s;\n", g.tx, g.ty,
             g.tid, g.ty, g.TX, g.tx);
  buf_printf(&o, "  const int %s = blockIdx.y * %d, %s = blockIdx.x * %d;\n", g.row0, g.BM, g.col0,
             g.BN);
  Sub none = {.s = &s};
  if (s.ntri) {
    /* a block whose outputs all fail a triangular bound has nothing to do (the bound is linear:
     * it holds in the tile iff at one of its corners); the block leaves before any barrier */
    Buf skip = {0};
    for (int i = 0; i < s.nconj; i++) {
      if (s.conj_dep[i] != (D_ROW | D_COL)) continue;
      buf_printf(&skip, "%s!(", skip.len ? " || " : "");
      for (int r = 0; r < 2; r++)
        for (int q = 0; q < 2; q++) {
          Sub cu = {.s = &s,
                    .row = fmt("(%s + %d)", g.row0, r ? g.BM - 1 : 0),
                    .col = fmt("(%s + %d)", g.col0, q ? g.BN - 1 : 0)};
          buf_printf(&skip, "%s(%s)", r || q ? " || " : "", expr_with(s.conj[i], &cu));
        }
      buf_puts(&skip, ")");
    }
    const char *neg = c->mutation != 6 ? "" : "!"; /* broken: the full tiles skipped */
    if (!s.nearly)
      buf_printf(&o, "  if (%s(%s)) return;   /* an empty tile of the triangle */\n", neg, skip.s);
    else { /* the early statements still run for its outputs */
      buf_printf(
        &o, "  if (%s(%s)) {   /* an empty tile of the triangle: its early statements only */\n",
        neg, skip.s);
      outputs_open(&o, &s, &g);
      early_stmts(&o, &s, &g);
      buf_puts(&o, "    }\n    return;\n  }\n");
    }
    buf_free(&skip);
  }
  buf_printf(&o, "  %s %s[%d][%d];\n", g.tacc, g.accv, g.TM, g.TN);
  Buf cond = {0};
  buf_printf(&cond, "%s < %s && %s < %s", s.row->name, g.YTs, s.col->name, g.XTs);
  guard_terms(&cond, &s, D_ROW | D_COL, &none);
  if (!deps(&s, s.acc_decl->decl_init, NULL, NULL, false)) {
    buf_printf(
      &o,
      "  #pragma unroll\n  for (int %s = 0; %s < %d; %s++)\n    #pragma unroll\n    for (int %s = 0; %s < %d; %s++) %s[%s][%s] = %s;\n",
      g.i, g.i, g.TM, g.i, g.j, g.j, g.TN, g.j, g.accv, g.i, g.j,
      expr_with(s.acc_decl->decl_init, &none));
  } else { /* an initial value per output (C += A*B: the output's own element), read where the original reads it */
    buf_printf(
      &o,
      "  #pragma unroll\n  for (int %s = 0; %s < %d; %s++)\n    #pragma unroll\n    for (int %s = 0; %s < %d; %s++) {\n",
      g.i, g.i, g.TM, g.i, g.j, g.j, g.TN, g.j);
    output_coords(&o, &s, &g);
    buf_printf(&o, "      %s[%s][%s] = %s ? %s : (%s)0;\n    }\n", g.accv, g.i, g.j, cond.s,
               expr_with(s.acc_decl->decl_init, &none), g.tacc);
  }
  const char *kty = type_name(s.k->ty);
  if (s.k->ty->is_unsigned)
    buf_printf(
      &o, "  const long long %s = (long long)(%s)(%s);\n  long long %s = (long long)(%s)(%s);\n",
      g.kend, kty, expr_with(s.hi, &none), g.k0, kty, expr_with(s.lo, &none));
  else
    buf_printf(&o, "  const %s %s = %s;\n  %s %s = %s;\n", kty, g.kend, expr_with(s.hi, &none), kty,
               g.k0, expr_with(s.lo, &none));
  if (g.stages) {
    pipeline(&o, c, &s, &g, &nm);
  } else if (g.prefetch == 2) {
    /* step s computes from buffer s % 2 while the registers fill buffer (s + 1) % 2: the
     * barrier that ends step s - 1 is the only one a step needs */
    const char *cur = rw_fresh(&nm, "buf"), *A0 = g.As, *B0 = g.Bs;
    buf_printf(&o, "  %s %s[%d];\n  %s %s[%d];\n  int %s = 0;\n", g.ta, g.ap, g.BM * g.BK / g.NT,
               g.tb, g.bp, g.BN * g.BK / g.NT, cur);
    buf_printf(&o, "  if (%s <= %s - %d) {\n", g.k0, g.kend, g.BK);
    g.As = fmt("%s[0]", A0);
    g.Bs = fmt("%s[0]", B0);
    tile_loads(&o, c, &s, &g, false, "    ", LOAD_SHARED, g.k0);
    buf_printf(&o, "    __syncthreads();\n  }\n");
    buf_printf(&o, "  for (; %s <= %s - %d; %s += %d) {\n", g.k0, g.kend, g.BK, g.k0, g.BK);
    const char *more = rw_fresh(&nm, "more");
    buf_printf(&o, "    const bool %s = %s <= %s - %d;\n    if (%s) {\n", more, g.k0, g.kend,
               2 * g.BK, more);
    tile_loads(&o, c, &s, &g, false, "      ", LOAD_REGS, fmt("%s + %d", g.k0, g.BK));
    buf_printf(&o, "    }\n");
    g.As = fmt("%s[%s]", A0, cur);
    g.Bs = fmt("%s[%s]", B0, cur);
    compute(&o, c, &s, &g, fmt("%d", g.BK), "    ");
    g.As = fmt("%s[%s ^ 1]", A0, cur);
    g.Bs = fmt("%s[%s ^ 1]", B0, cur);
    buf_printf(&o, "    if (%s) {\n", more);
    tile_loads(&o, c, &s, &g, false, "      ", STORE_REGS, g.k0);
    buf_printf(&o, "    }\n");
    if (c->mutation != 2) buf_printf(&o, "    __syncthreads();\n");
    buf_printf(&o, "    %s ^= 1;\n  }\n", cur);
    g.As = fmt("%s[0]", A0);
    g.Bs = fmt("%s[0]", B0); /* the tail: every read of the loop is behind its last barrier */
  } else {
    if (g.prefetch) {
      buf_printf(&o, "  %s %s[%d];\n  %s %s[%d];\n", g.ta, g.ap, g.BM * g.BK / g.NT, g.tb, g.bp,
                 g.BN * g.BK / g.NT);
      buf_printf(&o, "  if (%s <= %s - %d) {\n", g.k0, g.kend, g.BK);
      tile_loads(&o, c, &s, &g, false, "    ", LOAD_REGS, g.k0);
      buf_printf(&o, "  }\n");
    }
    buf_printf(&o, "  for (; %s <= %s - %d; %s += %d) {\n", g.k0, g.kend, g.BK, g.k0, g.BK);
    if (g.prefetch) {
      /* this step's tiles from the registers; the next step's loads issued before the compute */
      tile_loads(&o, c, &s, &g, false, "    ", STORE_REGS, g.k0);
      buf_printf(&o, "    __syncthreads();\n");
      buf_printf(&o, "    if (%s <= %s - %d) {\n", g.k0, g.kend, 2 * g.BK);
      tile_loads(&o, c, &s, &g, false, "      ", LOAD_REGS, fmt("%s + %d", g.k0, g.BK));
      buf_printf(&o, "    }\n");
    } else {
      tile_loads(&o, c, &s, &g, false, "    ", LOAD_SHARED, g.k0);
      buf_printf(&o, "    __syncthreads();\n");
    }
    compute(&o, c, &s, &g, fmt("%d", g.BK), "    ");
    if (c->mutation != 2)
      buf_printf(
        &o,
        "    __syncthreads();\n"); /* broken: the next step's stores race with this step's reads */
    buf_printf(&o, "  }\n");
  }
  if (c->mutation != 3) { /* broken: the ragged last step of k dropped */
    buf_printf(&o, "  if (%s < %s) {\n", g.k0, g.kend);
    tile_loads(&o, c, &s, &g, true, "    ", LOAD_SHARED, g.k0);
    buf_printf(&o, "    __syncthreads();\n");
    compute(&o, c, &s, &g, fmt("%s - %s", g.kend, g.k0), "    ");
    buf_printf(&o, "  }\n");
  }
  /* each output where the original thread existed and passed the guard: POST as written */
  outputs_open(&o, &s, &g);
  early_stmts(&o, &s, &g);
  buf_printf(&o, "      if (%s) {\n        %s = %s[%s][%s];\n", cond.s,
             fmt("%s %s", type_name(unqual(s.acc->ty)), s.acc->name), g.accv, g.i, g.j);
  print_stmts_with(&o, s.post, 4, NULL, NULL);
  buf_printf(&o, "      }\n    }\n}\n");
  buf_free(&cond);
  bool ok = rw_replace_kernel(c, o.s, c->why, sizeof c->why);
  buf_free(&o);
  if (!ok) return false;
  c->changes_launch = true;
  c->new_grid[0] = (g.XT + g.BN - 1) / g.BN;
  c->new_grid[1] = (g.YT + g.BM - 1) / g.BM;
  c->new_grid[2] = c->L->grid[2];
  c->new_block[0] = g.TX;
  c->new_block[1] = g.BM / g.TM;
  c->new_block[2] = 1;
  c->cover[0] = g.BN;
  c->cover[1] = g.BM;
  c->cover[2] = 1;
  rw_restrict_params(c);
  snprintf(
    c->did, sizeof c->did,
    "%s shared along x (row, k), %s along y (k, column): %dx%d block tiles through shared memory in steps of %d along k (%s loaded along %s, %s along %s), "
    "%dx%d outputs a thread in registers; grid %lldx%lld -> %lldx%lld, block %lldx%lld -> %lldx%lld",
    s.pa->name, s.pb->name, g.BM, g.BN, g.BK, s.pa->name, s.a_along_k ? "k" : "rows", s.pb->name,
    s.b_along_col ? "columns" : "k", g.TM, g.TN, (long long)c->L->grid[0], (long long)c->L->grid[1],
    (long long)c->new_grid[0], (long long)c->new_grid[1], (long long)c->L->block[0],
    (long long)c->L->block[1], (long long)c->new_block[0], (long long)c->new_block[1]);
  return true;
}

const Pass pass_tile = {
  .name = "tile",
  .summary =
    "thread-block and thread merge: block tiles of two shared operands through shared memory, 2-D register tiles per thread",
  .source =
    "Yang et al., PLDI 2010, Sec. 3.4 (data sharing), 3.5.1 (thread-block merge), 3.5.2 (thread merge)",
  .params =
    {{"tile", "outputs a block computes along each dimension (BM = BN)", {32, 64, 128}, 128},
     {"thread",
      "outputs a thread computes along each dimension (TM = TN, a register tile)",
      {2, 4, 8},
      8},
     {"bk", "elements of k staged per step", {8, 16, 32}, 8},
     {"prefetch",
      "the next step's tiles loaded into registers while this one computes: into one shared buffer (1), into the other of two (2: one barrier a step), or not (0); or copied straight into shared memory by async copies (cp.async, sm_80+) with 2 stages (3) or 3 (4), one barrier a step",
      {0, 1, 2, 3, 4},
      1},
     {"minblocks",
      "__launch_bounds__'s minimum resident blocks an SM (caps registers; 0: not given)",
      {0, 2},
      0},
     {"vec",
      "elements of a tile a thread loads at once from global memory where the stride is 1 (4: 128-bit loads behind a run-time alignment test)",
      {1, 4},
      4}},
  .nparams = 6,
  .model_chooses = true,
  .model_params = 3,
  .motivation = "reuse",
  .legal = legal,
  .apply = apply,
  .nmutations = 6,
  .mutation_names =
    {"a register tile read at the wrong index",
     "the barrier between two steps of the pipeline dropped", "the ragged last step of k dropped",
     "two elements of a 128-bit tile load (or of its element-wise async copies) swapped",
     "the wait for a stage's async copies dropped (prefetch 3, 4)",
     "triangular bounds: the non-empty tiles skipped instead of the empty ones"},
};
