/* cost: what nvcc -O3 makes of each expression node of a kernel, as a factor on the node's
 * dynamic count. The interpreter evaluates the source as written; the GPU runs code in which
 *   - loop-invariant expressions (and loads, where the loop writes no memory) are hoisted: they
 *     run once per entry of the outermost loop they are invariant in;
 *   - counted loops are unrolled: fully when the trip count is a small constant (the loop
 *     control disappears and the counter becomes an immediate), by up to 16 otherwise (fewer
 *     for big bodies), with additive counters only;
 *   - addresses affine in the loop counter are strength-reduced: a pointer bump per unrolled
 *     step when the stride is a constant (the copies use immediate offsets), one add per
 *     access when the stride is only known at run time;
 *   - the integer arithmetic inside such an address costs nothing of its own.
 * The loop tree (counters, trip counts, what each loop writes) is the analysis's (loops.c, shared
 * with the analyzer); what nvcc does with it is here.
 * Checked against Nsight Compute's smsp__inst_executed on the H200 (docs/validation.md). */
#include "metrics.h"
#include <stdlib.h>
#include <string.h>

struct CostModel {
  const Facts *f;
  int nnodes, nloops;
  double *unroll; /* per loop: body copies per loop-control step */
  bool *carried;  /* per loop: an element read and written in each iteration (`s[i] += ...` with
                          * i unchanged in the loop): each iteration's load waits for the last store */
  Obj **known;
  int nknown;         /* variables whose value is a compile-time constant in each body copy */
  bool *in_index;     /* node id -> part of an address computation */
  bool *offset_chain; /* node id -> a sum of the address itself (adds, subtracts, casts only) */
  bool *predicated;   /* node id -> an if that ptxas turns into predicated instructions */
  float *factor;      /* node id -> SASS instructions per evaluation, relative to the plain count */
  int *hoist;         /* node id -> loop it is hoisted out of (counted once per entry), -1 */
  bool *fused;        /* node id -> an integer multiply that an add absorbs (IMAD, LEA) */
  signed char *
    copy_const; /* node id -> cost_copy_constant once known (-1 not yet): the counting hooks ask per evaluation */
  int *share; /* node id -> the fully unrolled loop whose copies may share this load's value, -1 */
  bool *
    share_root; /* per loop: the outermost loop of such a nest (its entry starts a new set of copies) */
  int prologue;        /* instructions every thread runs once: S2R, parameter loads, EXIT */
  bool *in_regs;       /* node id -> an access of a local array nvcc keeps in registers */
  float *hoist_copies; /* node id -> distinct values it has per entry of the loop it leaves */
  Obj *assumed[8];
  int nassumed; /* local_invariant: variables taken as invariant while their writes are checked */
  Obj **load_dest; /* node id (a load) -> the register variable its value goes to, or NULL */
  Obj **
    copy_to; /* node id (a read of a register variable or element) -> the register variable it is copied to whole */
  Obj **reg_vars;
  int nreg_vars; /* local arrays and structs kept in registers */
};

static const Loop *loop_at(const CostModel *cm, int k) { return facts_loop(cm->f, k); }
static int loop_of(const CostModel *cm, const Node *n) { return facts_loop_of(cm->f, n); }
static bool valid(const CostModel *cm, const Node *n) {
  return n && n->id >= 0 && n->id < cm->nnodes;
}

static Node *strip_casts(Node *n) {
  while (n && n->kind == ND_CAST) n = n->lhs;
  return n;
}

/* the assignment-like node's target variable, if it is a plain variable */
static Obj *write_target(Node *n) {
  Node *t = strip_casts(n->lhs);
  return t && t->kind == ND_VAR ? t->var : NULL;
}

/* ---- which nodes compute addresses ----
 * address sums pass through adds and casts; multiplies keep them address arithmetic but not the
 * address's own sum; anything else ends both. A node's marks are set by its parent's visit. */
enum { W_INDEX = 1, W_CHAIN = 2 };

static bool mark_addresses(Node *n, void *ctx) {
  CostModel *cm = ctx;
  if (!valid(cm, n)) return false;
  unsigned f = (cm->in_index[n->id] ? W_INDEX : 0) | (cm->offset_chain[n->id] ? W_CHAIN : 0);
  bool loop = n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO;
  bool ptr = (n->kind == ND_ADD || n->kind == ND_SUB) && n->ty && n->ty->kind == TY_PTR;
  unsigned lhs = 0, rhs = 0;
  if (loop) lhs = rhs = 0;
  else if (n->kind == ND_INDEX) rhs = W_INDEX | W_CHAIN;
  else if (ptr) lhs = rhs = W_INDEX | W_CHAIN;
  else if (n->kind == ND_ADD || n->kind == ND_SUB || n->kind == ND_CAST) lhs = rhs = f;
  else if (n->kind == ND_MUL || n->kind == ND_SHL || n->kind == ND_NEG) lhs = rhs = f & W_INDEX;
  Node **kids[NODE_MAX_KIDS];
  int nk = node_kids(n, kids);
  for (int k = 0; k < nk; k++) {
    unsigned kf = kids[k] == &n->lhs ? lhs : kids[k] == &n->rhs ? rhs : 0;
    for (Node *m = *kids[k]; m; m = m->next)
      if (valid(cm, m)) {
        cm->in_index[m->id] = kf & W_INDEX;
        cm->offset_chain[m->id] = kf & W_CHAIN;
      }
  }
  return true;
}

/* ---- invariance and affinity ---- */
/* (an async copy or its wait writes shared memory: the loop facts count it as a store, so a
 * loop holding one keeps its loads) */
static bool copy_invariant_in(CostModel *cm, Node *e, int k, int depth, bool strict);
/* one value in every iteration (the facts' rule, or locals of the body computed from invariants) */
static bool invariant(CostModel *cm, Node *e, int loop) {
  return facts_loop_invariant(cm->f, loop, e) || copy_invariant_in(cm, e, loop, 0, true);
}

static bool fully_unrolled(const CostModel *cm, int k) {
  int64_t trip = loop_at(cm, k)->trip;
  return trip >= 0 && cm->unroll[k] >= (double)trip;
}

/* does e have one value per body copy known at compile time (numbers, counters of fully
 * unrolled loops enclosing the node, and arithmetic on them)? */
typedef struct {
  CostModel *cm;
  int loop;
  bool ok;
} CopyConst;

static bool copy_constant_pre(Node *e, void *ctx) {
  CopyConst *x = ctx;
  if (!x->ok) return false;
  CostModel *cm = x->cm;
  if (e->kind == ND_NUM || e->kind == ND_SIZEOF) return false;
  if (e->kind == ND_VAR) {
    bool known = false;
    for (int k = x->loop; k >= 0 && !known; k = loop_at(cm, k)->parent)
      known = loop_at(cm, k)->iv == e->var && fully_unrolled(cm, k);
    for (int i = 0; i < cm->nknown && !known; i++) known = cm->known[i] == e->var;
    x->ok = known;
    return false;
  }
  if (e->kind == ND_CAST || e->kind == ND_NEG || e->kind == ND_NOT || e->kind == ND_BITNOT)
    return true;
  if ((e->kind >= ND_ADD && e->kind <= ND_GE) || e->kind == ND_LOGAND || e->kind == ND_LOGOR)
    return true;
  x->ok = false;
  return false;
}

static bool copy_constant(CostModel *cm, Node *e, int loop) {
  if (!e) return false;
  CopyConst x = {cm, loop, true};
  walk_one(e, copy_constant_pre, NULL, &x);
  return x.ok;
}

/* are all loops from `inner` up to (not including) `outer` fully unrolled? */
static bool unrolled_between(CostModel *cm, int inner, int outer) {
  for (int k = inner; k != outer; k = loop_at(cm, k)->parent) {
    if (k < 0) return false; /* outer is not an enclosing loop */
    if (!fully_unrolled(cm, k)) return false;
  }
  return true;
}

/* variables nvcc knows at compile time everywhere (scan's `pout = 1 - pout`, `offset *= 2`): a
 * register variable with a known initializer, every other write of which has a known right-hand
 * side, is not under a run-time condition, and lies in straight-line code or in loops fully
 * unrolled between it and the declaration. Found as a fixpoint: start from all candidates and
 * drop any with a write that fails. */
static void find_known_variables(CostModel *cm) {
  int nw = facts_nwrites(cm->f);
  cm->known = xmalloc(sizeof(Obj *) * (size_t)(nw + 1));
  int *decl_loop = xmalloc(sizeof(int) * (size_t)(nw + 1));
  cm->nknown = 0;
  for (int i = 0; i < nw; i++) {
    const VarWrite *w = facts_write(cm->f, i);
    if (w->node->kind != ND_DECL || !w->node->decl_init || w->var->is_volatile ||
        w->var->in_memory || !is_integer(w->var->ty))
      continue;
    bool dup = false;
    for (int j = 0; j < cm->nknown; j++) dup |= cm->known[j] == w->var;
    if (!dup) {
      decl_loop[cm->nknown] = w->loop;
      cm->known[cm->nknown++] = w->var;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < nw; i++) {
      const VarWrite *w = facts_write(cm->f, i);
      int k = 0;
      while (k < cm->nknown && cm->known[k] != w->var) k++;
      if (k == cm->nknown) continue;
      bool ok;
      Node *n = w->node;
      if (n->kind == ND_DECL) ok = copy_constant(cm, n->decl_init, w->loop);
      else if (w->conditional || !unrolled_between(cm, w->loop, decl_loop[k])) ok = false;
      else if (n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP)
        ok = copy_constant(cm, n->rhs, w->loop);
      else ok = true; /* ++ and -- of a known value */
      if (!ok) {
        cm->known[k] = cm->known[--cm->nknown];
        decl_loop[k] = decl_loop[cm->nknown];
        changed = true;
      }
    }
  }
  free(decl_loop);
}

enum {
  LIN_NO,
  LIN_INV,
  LIN_CONST,
  LIN_VAR
}; /* not affine; invariant; affine with constant / run-time stride */

static int lin_join(int a, int b) {
  if (a == LIN_NO || b == LIN_NO) return LIN_NO;
  return a > b ? a : b;
}

/* is e affine in the counter of `loop`, and is its stride a compile-time constant? Evaluated
 * bottom-up on a stack of answers. */
typedef struct {
  CostModel *cm;
  int loop;
  int *st;
  int sp, cap;
} Affinity;

static void lin_push(Affinity *x, int v) {
  if (x->sp == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 16;
    x->st = xrealloc(x->st, sizeof(int) * (size_t)x->cap);
  }
  x->st[x->sp++] = v;
}

static bool affinity_pre(Node *e, void *ctx) {
  Affinity *x = ctx;
  CostModel *cm = x->cm;
  if (invariant(cm, e, x->loop)) {
    lin_push(x, LIN_INV);
    return false;
  }
  if (copy_constant(cm, e, x->loop)) {
    lin_push(x, LIN_CONST);
    return false;
  }
  const Loop *l = loop_at(cm, x->loop);
  switch (e->kind) {
  case ND_VAR:
    lin_push(x, l->iv && e->var == l->iv && (l->step_op == ND_ADD || fully_unrolled(cm, x->loop))
                  ? LIN_CONST
                  : LIN_NO);
    return false;
  case ND_CAST:
  case ND_NEG:
  case ND_POS:
  case ND_ADD:
  case ND_SUB:
  case ND_MUL:
  case ND_SHL:
    if (e->lhs && (e->rhs || e->kind == ND_CAST || e->kind == ND_NEG || e->kind == ND_POS))
      return true;
    lin_push(x, LIN_NO);
    return false;
  default: lin_push(x, LIN_NO); return false;
  }
}

static bool affinity_post(Node *e, void *ctx) {
  Affinity *x = ctx;
  if (e->kind == ND_CAST || e->kind == ND_NEG || e->kind == ND_POS)
    return true; /* the operand's answer */
  int b = x->st[--x->sp], a = x->st[x->sp - 1], r;
  if (e->kind == ND_ADD || e->kind == ND_SUB) r = lin_join(a, b);
  else if (e->kind == ND_SHL && b != LIN_INV) r = LIN_NO;
  else if (a == LIN_INV && b != LIN_NO) r = copy_constant(x->cm, e->lhs, x->loop) ? b : LIN_VAR;
  else if (b == LIN_INV && a != LIN_NO) r = copy_constant(x->cm, e->rhs, x->loop) ? a : LIN_VAR;
  else r = LIN_NO;
  x->st[x->sp - 1] = r;
  return true;
}

static int affinity(CostModel *cm, Node *e, int loop) {
  if (!e) return LIN_NO;
  Affinity x = {cm, loop, NULL, 0, 0};
  walk_one(e, affinity_pre, affinity_post, &x);
  int r = x.sp == 1 ? x.st[0] : LIN_NO;
  free(x.st);
  return r;
}

/* ---- unrolling ---- */

/* operations (not variables or constants) in an expression tree; an initializer list counts as
 * one (its elements are constants of a declaration) */
static bool count_op(Node *n, void *ctx) {
  *(int *)ctx += n->kind != ND_VAR && n->kind != ND_NUM && n->kind != ND_CAST;
  return n->kind != ND_INIT_LIST;
}

static int op_count(Node *n) {
  int c = 0;
  walk_one(n, count_op, NULL, &c);
  return c;
}

/* operations in a loop body, inner loops with a constant trip count times that count (they are
 * unrolled before the outer loop is): statements count their expressions, a nested loop's
 * count is gathered on a stack while its body is walked */
typedef struct {
  CostModel *cm;
  int *sum;
  Node **loops;
  int sp, cap;
} BodyOps;

static bool body_pre(Node *n, void *ctx) {
  BodyOps *b = ctx;
  if (n->kind < ND_BLOCK) return false; /* expressions: counted by their statement */
  Node *owner = b->loops[b->sp - 1];
  for (Node *i = owner ? owner->init : NULL; i; i = i->next)
    if (i == n) return false; /* a nested loop's init runs once per entry: not counted */
  int *c = &b->sum[b->sp - 1];
  switch (n->kind) {
  case ND_FOR:
  case ND_WHILE:
  case ND_DO:
    if (b->sp == b->cap) {
      b->cap *= 2;
      b->sum = xrealloc(b->sum, sizeof(int) * (size_t)b->cap);
      b->loops = xrealloc(b->loops, sizeof(Node *) * (size_t)b->cap);
    }
    b->loops[b->sp] = n;
    b->sum[b->sp++] = op_count(n->cond) + op_count(n->inc);
    return true;
  case ND_BLOCK: return true;
  case ND_IF: *c += op_count(n->cond); return true;
  case ND_EXPR_STMT:
  case ND_RETURN: *c += op_count(n->lhs); return false;
  case ND_DECL: *c += op_count(n->decl_init); return false;
  default: *c += 1; return false;
  }
}

static bool body_post(Node *n, void *ctx) {
  BodyOps *b = ctx;
  if (n->kind != ND_FOR && n->kind != ND_WHILE && n->kind != ND_DO) return true;
  int inner = b->sum[--b->sp], trip = 1;
  int li = facts_loop_index(b->cm->f, n);
  if (li >= 0 && loop_at(b->cm, li)->trip > 0)
    trip = (int)(loop_at(b->cm, li)->trip < 64 ? loop_at(b->cm, li)->trip : 64);
  b->sum[b->sp - 1] += inner * trip;
  return true;
}

static int body_ops(CostModel *cm, Node *n) {
  BodyOps b = {cm, xmalloc(sizeof(int) * 16), xmalloc(sizeof(Node *) * 16), 1, 16};
  b.sum[0] = 0;
  b.loops[0] = NULL;
  walk(n, body_pre, body_post, &b);
  int c = b.sum[0];
  free(b.sum);
  free(b.loops);
  return c;
}

static void choose_unroll(CostModel *cm, int li) {
  const Loop *l = loop_at(cm, li);
  cm->unroll[li] = 1;
  if (!l->iv) return;
  int pragma = l->node->unroll;
  if (pragma > 0) cm->unroll[li] = pragma;
  else if (l->trip >= 0 && (pragma == -1 || l->trip <= 32))
    cm->unroll[li] = l->trip > 0 ? (double)l->trip : 1;
  else if (l->step_op == ND_ADD) {
    /* nvcc (sm_90) unrolls small counted loops by 16, with remainder loops of 8, 4, 1; bigger
     * bodies less: mm_tile16's tile loop by 4, mm_tile32's not at all (their SASS). Modelled as
     * a budget of about 1024 operations for the unrolled body, in powers of two. */
    int size = body_ops(cm, l->node->then);
    cm->unroll[li] = 16;
    while (cm->unroll[li] > 1 && cm->unroll[li] * size > 1024) cm->unroll[li] /= 2;
  }
}

/* loops that accumulate into memory: a global element loaded and stored by one access (`+=`)
 * whose index does not change in the loop. The next iteration's load is of the element this one
 * stores, so unrolled copies cannot issue their loads together: a memory round trip per
 * iteration (the naive thread-per-column covariance, symmat[j1*M + j2] += ... over i, measured
 * 1,100 ms on an H200 against 8.7 ms estimated with the overlap: issue 28). */
static void find_carried(CostModel *cm) {
  cm->carried = xmalloc((size_t)cm->nloops + 1);
  for (int i = 0; i < facts_naccesses(cm->f); i++) {
    const Access *a = facts_access(cm->f, i);
    if (a->loop < 0 || !a->load || !a->store || a->atomic || a->space != SPACE_GLOBAL ||
        !a->index.ok || a->indirect)
      continue;
    const Loop *l = loop_at(cm, a->loop);
    int64_t c;
    if (l->iv && affine_var_coefficient(&a->index, l->iv, &c) && c == 0)
      cm->carried[a->loop] = true;
  }
}

/* ---- the factors ---- */
static bool is_loop_control(CostModel *cm, Node *e, int loop) {
  if (loop < 0) return false;
  Node *n = loop_at(cm, loop)->node;
  Node *inc = n->inc && n->inc->kind == ND_EXPR_STMT ? n->inc->lhs : n->inc;
  return e == n->cond || e == inc || e == n->inc;
}

/* a statement ptxas turns into predicated instructions instead of a branch: one short
 * assignment or store (possibly in braces); longer bodies keep their branch (or exit early) */
static bool predicable(Node *s) {
  if (!s) return true;
  while (s->kind == ND_BLOCK) {
    if (!s->stmts) return true;
    if (s->stmts->next) return false;
    s = s->stmts;
  }
  if (s->kind != ND_EXPR_STMT || !s->lhs) return false;
  Node *x = s->lhs;
  bool assign = x->kind == ND_ASSIGN || x->kind == ND_ASSIGN_OP ||
                (x->kind >= ND_PREINC && x->kind <= ND_POSTDEC);
  return assign && op_count(x) <= 8;
}

/* invariant in loop k but for the counters of fully unrolled loops inside k: each unrolled copy
 * has its own value, fixed over k's iterations (a tile load's row `r = (tid + l*64) / 8` in
 * copy l). Locals declared once inside k from such values are too. nvcc computes each copy's
 * value once before k; the metrics charge hoisted nodes once per copy per entry. */
typedef struct {
  CostModel *cm;
  int loop, depth;
  bool ok, strict;
} CopyInv;
static bool copy_invariant_in(CostModel *cm, Node *e, int k, int depth, bool strict);

/* a local declared inside loop k whose every write runs whenever its declaration does (at the
 * declaration's conditional depth, in straight-line code or loops fully unrolled in between)
 * and stores a value invariant in k, its own value included (`ok = ok && c` in an unrolled
 * loop): each use sees one value per copy of the body, and nvcc computes it once per entry of k.
 * Found by assuming v invariant while its writes are checked. */
static bool local_invariant(CostModel *cm, Obj *v, int k, int depth, bool strict) {
  for (int i = 0; i < cm->nassumed; i++)
    if (cm->assumed[i] == v) return true;
  if (depth >= 8 || cm->nassumed == (int)(sizeof cm->assumed / sizeof *cm->assumed)) return false;
  int nw = facts_nwrites(cm->f);
  const VarWrite *decl = NULL;
  for (int i = 0; i < nw; i++) {
    const VarWrite *w = facts_write(cm->f, i);
    if (w->var == v && w->node->kind == ND_DECL) {
      if (decl) return false;
      decl = w;
    }
  }
  if (!decl || !decl->node->decl_init || !facts_loop_within(cm->f, decl->loop, k)) return false;
  cm->assumed[cm->nassumed++] = v;
  bool ok = copy_invariant_in(cm, decl->node->decl_init, k, depth + 1, strict);
  for (int i = 0; i < nw && ok; i++) {
    const VarWrite *w = facts_write(cm->f, i);
    if (w->var != v || w == decl) continue;
    if (w->cond_depth != decl->cond_depth || !unrolled_between(cm, w->loop, decl->loop)) ok = false;
    else if (w->node->kind == ND_ASSIGN || w->node->kind == ND_ASSIGN_OP)
      ok = copy_invariant_in(cm, w->node->rhs, k, depth + 1, strict);
  }
  cm->nassumed--;
  return ok;
}

static bool copy_inv_pre(Node *e, void *ctx) {
  CopyInv *x = ctx;
  if (!x->ok) return false;
  if (e->kind != ND_VAR) {
    if (e->kind == ND_DEREF || e->kind == ND_INDEX || e->kind == ND_MEMBER || e->kind == ND_CALL ||
        e->kind == ND_ASSIGN || e->kind == ND_ASSIGN_OP ||
        (e->kind >= ND_PREINC && e->kind <= ND_POSTDEC) || e->kind >= ND_BLOCK) {
      x->ok = facts_loop_invariant(x->cm->f, x->loop, e);
      return false;
    }
    return true;
  }
  Obj *v = e->var;
  if (v->is_volatile || v->in_memory) {
    x->ok = facts_loop_invariant(x->cm->f, x->loop, e);
    return false;
  }
  if (!facts_loop_writes(x->cm->f, x->loop, v)) return false;
  for (int j = 0; j < x->cm->nloops && !x->strict;
       j++) { /* an unrolled counter of a loop inside k */
    const Loop *l = loop_at(x->cm, j);
    if (l->iv == v && j != x->loop && facts_loop_within(x->cm->f, j, x->loop) &&
        fully_unrolled(x->cm, j))
      return false;
  }
  x->ok = local_invariant(x->cm, v, x->loop, x->depth, x->strict);
  return false;
}

/* strict: one value in every iteration of k; else one value per body copy of the fully
 * unrolled loops inside k (their counters are constants in each copy) */
static bool copy_invariant_in(CostModel *cm, Node *e, int k, int depth, bool strict) {
  CopyInv x = {cm, k, depth, true, strict};
  walk_one(e, copy_inv_pre, NULL, &x);
  return x.ok;
}

/* the copies of a node hoisted out of loop h: the trips of the fully unrolled loops between */
static double hoist_copies(CostModel *cm, int loop, int h) {
  double c = 1;
  for (int k = loop; k >= 0 && k != h; k = loop_at(cm, k)->parent)
    if (fully_unrolled(cm, k)) c *= (double)loop_at(cm, k)->trip;
  return c;
}

static void assign_factor(CostModel *cm, Node *e) {
  int id = e->id, loop = loop_of(cm, e);
  cm->factor[id] = 1;
  cm->hoist[id] = -1;
  if (e->kind == ND_IF) { /* the factor of an if is its branch's */
    if (copy_constant(cm, e->cond, loop)) cm->factor[id] = 0; /* decided at compile time */
    else if (predicable(e->then) && predicable(e->els)) {
      cm->factor[id] = 0;
      cm->predicated[id] = true;
    }
    return;
  }
  if (facts_loop_index(cm->f, e) >= 0 || e->kind >= ND_BLOCK) return;
  /* everywhere: a row of a multi-dimensional array is not an instruction (the outer index
   * computes the address); a multiply feeding an add is one IMAD or LEA; adding a constant to
   * an address is the load's immediate offset */
  if (e->kind == ND_INDEX && e->ty && e->ty->kind == TY_ARRAY) {
    cm->factor[id] = 0;
    return;
  }
  if (cm->fused[id]) {
    cm->factor[id] = 0;
    return;
  }
  int64_t k;
  if (cm->offset_chain[id] && (e->kind == ND_ADD || e->kind == ND_SUB) && e->ty &&
      is_integer(e->ty) &&
      (node_int_constant(e->rhs, &k) || (e->kind == ND_ADD && node_int_constant(e->lhs, &k)))) {
    cm->factor[id] = 0;
    return;
  }
  if (loop < 0) return;
  /* arithmetic and tests on values known in each unrolled copy are folded by the compiler, and
   * a known term added to an address is the access's immediate offset (`B_t[q*64 + tx*4 + v]`
   * in copies of q and v: one base register, 8 offsets) */
  if (e->ty && is_integer(e->ty) &&
      ((e->kind >= ND_ADD && e->kind <= ND_GE) || e->kind == ND_LOGAND || e->kind == ND_LOGOR ||
       e->kind == ND_NOT) &&
      copy_constant(cm, e, loop)) {
    cm->factor[id] = 0;
    return;
  }
  if (cm->offset_chain[id] && (e->kind == ND_ADD || e->kind == ND_SUB) && e->ty &&
      is_integer(e->ty) &&
      (copy_constant(cm, e->rhs, loop) || (e->kind == ND_ADD && copy_constant(cm, e->lhs, loop)))) {
    cm->factor[id] = 0;
    return;
  }
  /* hoisting: out of every loop the node is invariant in (values only: writes never move) */
  int h = -1;
  for (int k = loop; k >= 0 && invariant(cm, e, k); k = loop_at(cm, k)->parent) h = k;
  if (h >= 0) {
    cm->hoist[id] = h;
    return;
  }
  const Loop *l = loop_at(cm, loop);
  if (is_loop_control(cm, e, loop)) {
    if (l->iv) cm->factor[id] = fully_unrolled(cm, loop) ? 0 : (float)(1.0 / cm->unroll[loop]);
    return;
  }
  if (e->kind == ND_INDEX) {
    int a = affinity(cm, e->rhs, loop);
    if (a == LIN_INV) cm->factor[id] = 0;
    else if (a == LIN_CONST)
      cm->factor[id] = fully_unrolled(cm, loop) ? 0 : (float)(1.0 / cm->unroll[loop]);
    return;
  }
  if ((e->kind == ND_ASSIGN || e->kind == ND_ASSIGN_OP ||
       (e->kind >= ND_PREINC && e->kind <= ND_POSTDEC)) &&
      write_target(e) && copy_constant(cm, strip_casts(e->lhs), loop)) {
    cm->factor[id] = 0;
    return;
  }
  /* integer arithmetic of a strength-reduced address */
  if (cm->in_index[id] && e->ty && is_integer(e->ty) && affinity(cm, e, loop) != LIN_NO) {
    cm->factor[id] = 0;
    return;
  }
  /* out of a loop around fully unrolled ones, once per copy (not out of an unrolled loop itself:
   * its copies are the unrolled code) */
  for (int k = loop; k >= 0 && e->kind < ND_BLOCK; k = loop_at(cm, k)->parent) {
    if (fully_unrolled(cm, k)) continue;
    if (!copy_invariant_in(cm, e, k, 0, false)) break;
    h = k;
  }
  if (h >= 0) {
    cm->hoist[id] = h;
    cm->hoist_copies[id] = (float)hoist_copies(cm, loop, h);
  }
}

static bool is_int_mul(Node *n) {
  return n && (n->kind == ND_MUL || n->kind == ND_SHL) && n->ty && is_integer(n->ty);
}

static bool assign_pre(Node *n, void *ctx) {
  CostModel *cm = ctx;
  if (!valid(cm, n)) return false;
  assign_factor(cm, n);
  /* an add that is an instruction absorbs a multiply operand (IMAD/LEA); one that is free
   * (an immediate offset, strength-reduced) leaves the multiply its own instruction */
  bool int_add = (n->kind == ND_ADD || n->kind == ND_SUB) && n->ty && is_integer(n->ty);
  bool int_acc =
    n->kind == ND_ASSIGN_OP && (n->op == ND_ADD || n->op == ND_SUB) && n->ty && is_integer(n->ty);
  if ((int_add && cm->factor[n->id] > 0) || int_acc) {
    Node *l = int_acc ? NULL : strip_casts(n->lhs), *r = strip_casts(n->rhs);
    if (is_int_mul(l) && valid(cm, l)) cm->fused[l->id] = true;
    else if (is_int_mul(r) && valid(cm, r)) cm->fused[r->id] = true;
  }
  return true;
}

/* what the prologue reads: one S2R per special register, one constant load per parameter; the
 * arm of an if decided at compile time that never runs loads nothing */
typedef struct {
  bool sreg[12];
  Obj *params[64];
  int np;
  bool *dead;
  int nnodes;
} Prologue;

static bool prologue_pre(Node *n, void *ctx) {
  Prologue *x = ctx;
  if (n->id >= 0 && n->id < x->nnodes && x->dead[n->id]) return false;
  if (n->kind == ND_SPECIAL && n->sreg <= SR_NCTAID && n->dim >= 0 && n->dim < 3)
    x->sreg[n->sreg * 3 + n->dim] = true;
  if (n->kind == ND_VAR && n->var->sc == SC_PARAM) {
    bool seen = false;
    for (int i = 0; i < x->np; i++) seen |= x->params[i] == n->var;
    if (!seen && x->np < 64) x->params[x->np++] = n->var;
  }
  int64_t k;
  if (n->kind == ND_IF && node_int_constant(n->cond, &k)) {
    Node *arm = k ? n->els : n->then;
    for (Node *m = arm; m; m = m->next)
      if (m->id >= 0 && m->id < x->nnodes) x->dead[m->id] = true;
  }
  return true;
}

static int prologue_of(CostModel *cm, Obj *kernel) {
  Prologue x = {.dead = xmalloc((size_t)cm->nnodes + 1), .nnodes = cm->nnodes};
  walk(kernel->body, prologue_pre, NULL, &x);
  free(x.dead);
  int ns = 0;
  for (int i = 0; i < 12; i++) ns += x.sreg[i];
  return 1 + ns + x.np + 1 + 1; /* stack pointer, S2R/LDC, parameters, memory descriptor, EXIT */
}

/* ---- loads the unrolled copies share ----
 * In a fully unrolled loop nest, nvcc's value numbering loads an address once when every copy's
 * load of it runs unconditionally (no test between the nest's body and the load that is not
 * known per copy) and the nest stores nothing to global memory: the vector pass's fast path
 * (imregionmax x4: 18 loads in the PTX for 36 in the source). The counting hooks then charge a
 * load whose addresses an earlier copy loaded nothing. */
typedef struct {
  CostModel *cm;
  int region;
  bool stores;
} ShareScan;

static bool store_pre(Node *n, void *ctx) {
  ShareScan *x = ctx;
  if ((n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC ||
       n->kind == ND_POSTINC || n->kind == ND_PREDEC || n->kind == ND_POSTDEC) &&
      n->lhs) {
    Node *t = strip_casts(n->lhs);
    if (t->kind == ND_DEREF || (t->kind == ND_INDEX && t->lhs->ty && t->lhs->ty->kind == TY_PTR))
      x->stores = true;
  }
  if (n->kind == ND_CALL &&
      (n->fn || (n->builtin >= BI_SYNCTHREADS && n->builtin <= BI_ATOMIC_XOR) ||
       n->builtin == BI_PIPE_WAIT))
    x->stores = true;
  return !x->stores;
}

static void mark_shared(CostModel *cm, Node *n, int region, bool cond);
static void mark_list(CostModel *cm, Node *list, int region, bool cond) {
  for (Node *m = list; m; m = m->next) mark_shared(cm, m, region, cond);
}
static void mark_shared(CostModel *cm, Node *n, int region, bool cond) {
  if (!valid(cm, n)) return;
  switch (n->kind) {
  case ND_IF:
  case ND_COND: {
    mark_shared(cm, n->cond, region, cond);
    bool c = cond || !cost_copy_constant(cm, n->cond);
    mark_list(cm, n->then, region, c);
    mark_list(cm, n->els, region, c);
    return;
  }
  case ND_LOGAND:
  case ND_LOGOR:
    mark_shared(cm, n->lhs, region, cond);
    mark_shared(cm, n->rhs, region, cond || !cost_copy_constant(cm, n->lhs));
    return;
  case ND_FOR:
  case ND_WHILE:
  case ND_DO:
  case ND_SWITCH:
    if (n->kind == ND_FOR && facts_loop_index(cm->f, n) >= 0 &&
        fully_unrolled(cm, facts_loop_index(cm->f, n)))
      break;
    return; /* a loop that stays a loop (or a switch): its iterations are not copies */
  case ND_INDEX:
  case ND_DEREF:
    if (!cond && n->ty && n->ty->kind != TY_ARRAY) {
      Node *base = n->kind == ND_INDEX ? strip_casts(n->lhs) : strip_casts(n->lhs);
      if (base && base->ty && base->ty->kind == TY_PTR) cm->share[n->id] = region;
    }
    break;
  default: break;
  }
  Node **kids[NODE_MAX_KIDS];
  int nk = node_kids(n, kids);
  for (int k = 0; k < nk; k++) mark_list(cm, *kids[k], region, cond);
}

/* the outermost fully unrolled loops (their parent loop, if any, is not fully unrolled) */
static bool share_pre(Node *n, void *ctx) {
  CostModel *cm = ctx;
  if (n->kind != ND_FOR) return true;
  int li = facts_loop_index(cm->f, n);
  if (li < 0 || !fully_unrolled(cm, li)) return true;
  ShareScan x = {cm, li, false};
  walk(n->then, store_pre, NULL, &x);
  if (!x.stores) {
    mark_list(cm, n->then, li, false);
    cm->share_root[li] = true;
  }
  return false; /* nested unrolled loops are part of this nest */
}

/* ---- local arrays in registers ----
 * ptxas keeps a small local array in registers when every access indexes it with values known
 * at compile time (acc[i][j] inside fully unrolled loops over i and j, as register-tiled
 * kernels are written): its accesses are register reads and writes, and their index arithmetic
 * is gone. An array used any other way (a run-time index, its address taken or passed) stays
 * in local memory, as the interpreter counts it. */
enum { REG_ARRAY_BYTES = 512, MAX_REG_ARRAYS = 64 };
typedef struct {
  CostModel *cm;
  Obj *v[MAX_REG_ARRAYS];
  bool bad[MAX_REG_ARRAYS];
  int n;
  bool marking;
} RegArrays;

static int reg_array_slot(RegArrays *r, Obj *v) {
  for (int i = 0; i < r->n; i++)
    if (r->v[i] == v) return i;
  if (r->n == MAX_REG_ARRAYS) return -1;
  r->v[r->n] = v;
  r->bad[r->n] = false;
  return r->n++;
}

static bool local_array(Obj *v) {
  return v->sc == SC_LOCAL && v->ty->kind == TY_ARRAY && !v->is_volatile;
}
/* a small struct or vector (float4) local: its fields are registers unless its address is taken */
static bool local_struct(Obj *v) {
  return v->sc == SC_LOCAL && v->ty->kind == TY_STRUCT && !v->is_volatile && v->ty->size <= 64;
}

/* the variable a chain of fields and constant-free indices ends at (s.a.b, s.x), or NULL */
static Obj *member_base(Node *n) {
  while (n && ((n->kind == ND_MEMBER && !n->arrow) || n->kind == ND_INDEX)) n = strip_casts(n->lhs);
  return n && n->kind == ND_VAR ? n->var : NULL;
}

static void mark_struct_use(RegArrays *r, Node *n, Obj *v) {
  int i = reg_array_slot(r, v);
  if (i >= 0 && r->marking && !r->bad[i]) r->cm->in_regs[n->id] = true;
}

static bool reg_arrays_pre(Node *n, void *ctx) {
  RegArrays *r = ctx;
  if (n->kind == ND_VAR && local_array(n->var)) { /* a use that is not a constant index */
    int i = reg_array_slot(r, n->var);
    if (i >= 0) r->bad[i] = true;
    return false;
  }
  Obj *sv;
  if (n->kind == ND_ADDR && (sv = member_base(n->lhs)) && local_struct(sv)) { /* &s, &s.x: memory */
    int i = reg_array_slot(r, sv);
    if (i >= 0) r->bad[i] = true;
    return false;
  }
  if (n->kind == ND_VAR && local_struct(n->var)) {
    mark_struct_use(r, n, n->var);
    return false;
  }
  if (n->kind == ND_MEMBER && !n->arrow && (sv = member_base(n)) && local_struct(sv)) {
    for (Node *b = n; b && b->kind != ND_VAR; b = strip_casts(b->lhs))
      if (b->kind == ND_INDEX && !cost_copy_constant(r->cm, b->rhs)) {
        int i = reg_array_slot(r, sv);
        if (i >= 0) r->bad[i] = true;
      }
    mark_struct_use(r, n, sv);
    return false;
  }
  if ((n->kind == ND_DECL || n->kind == ND_ASSIGN) &&
      valid(r->cm, n)) { /* the whole value written */
    Obj *t = n->kind == ND_DECL ? n->var : member_base(n->lhs);
    if (t && local_struct(t)) mark_struct_use(r, n, t);
  }
  if (n->kind != ND_INDEX || !n->ty || n->ty->kind == TY_ARRAY) return true;
  bool known = true;
  Node *b = n;
  for (; b && b->kind == ND_INDEX; b = strip_casts(b->lhs))
    known = known && cost_copy_constant(r->cm, b->rhs);
  if (!b || b->kind != ND_VAR || !local_array(b->var)) return true;
  int i = reg_array_slot(r, b->var);
  if (i < 0) return false;
  if (!known || b->var->ty->size > REG_ARRAY_BYTES) r->bad[i] = true;
  if (r->marking && !r->bad[i]) {
    r->cm->in_regs[n->id] = true;
    for (Node *x = n; x && x->kind == ND_INDEX; x = strip_casts(x->lhs))
      if (valid(r->cm, x)) r->cm->factor[x->id] = 0;
  }
  return false; /* constant indices hold no array access of their own */
}

static void find_register_arrays(CostModel *cm) {
  RegArrays r = {.cm = cm};
  int nf = facts_nfunctions(cm->f);
  for (int i = 0; i < nf; i++) walk(facts_function(cm->f, i)->body, reg_arrays_pre, NULL, &r);
  r.marking = true;
  for (int i = 0; i < nf; i++) walk(facts_function(cm->f, i)->body, reg_arrays_pre, NULL, &r);
  cm->reg_vars = xmalloc(sizeof(Obj *) * (size_t)(r.n + 1));
  cm->nreg_vars = 0;
  for (int i = 0; i < r.n; i++)
    if (!r.bad[i]) cm->reg_vars[cm->nreg_vars++] = r.v[i];
}

/* a local array or struct that ptxas keeps in registers (find_register_arrays) */
static bool aggregate_in_registers(const CostModel *cm, const Obj *v) {
  for (int i = 0; i < cm->nreg_vars; i++)
    if (cm->reg_vars[i] == v) return true;
  return false;
}

/* ---- where loaded values go ----
 * A load's latency is waited for where its value is first used, not where it issues: a tile
 * kernel's prefetch loads the next step's elements into registers, computes this step, and uses
 * them only then. The counting hooks follow a loaded value through the register variables it
 * is copied into whole (`vals[v] = c ? B[i] : 0; A_next[v] = vals[v];`: nvcc renames, no
 * instruction waits) to the first instruction that computes with it or stores it. */
static Obj *reg_target(CostModel *cm, Node *lhs, Obj *decl) {
  if (decl)
    return decl->sc == SC_LOCAL && !decl->is_volatile &&
               (!decl->in_memory || aggregate_in_registers(cm, decl))
             ? decl
             : NULL;
  lhs = strip_casts(lhs);
  if (lhs->kind == ND_VAR) return reg_target(cm, NULL, lhs->var);
  if ((lhs->kind == ND_INDEX || lhs->kind == ND_MEMBER) && valid(cm, lhs) && cm->in_regs[lhs->id])
    return member_base(lhs);
  return NULL;
}

/* a register read: a scalar local, or an element of a local array or struct kept in registers */
static bool reg_read(CostModel *cm, Node *e) {
  if (e->kind == ND_VAR)
    return e->var->sc == SC_LOCAL && !e->var->in_memory && !e->var->is_volatile;
  return (e->kind == ND_INDEX || e->kind == ND_MEMBER) && valid(cm, e) && cm->in_regs[e->id];
}

static void flow_value(CostModel *cm, Node *v, Obj *t) {
  v = strip_casts(v);
  if (!v || !valid(cm, v)) return;
  if (v->kind == ND_COND) {
    flow_value(cm, v->then, t);
    flow_value(cm, v->els, t);
    return;
  }
  if (reg_read(cm, v)) cm->copy_to[v->id] = t;
  else if (v->kind == ND_INDEX || v->kind == ND_DEREF || v->kind == ND_MEMBER)
    cm->load_dest[v->id] = t;
}

static bool flow_pre(Node *n, void *ctx) {
  CostModel *cm = ctx;
  if (!valid(cm, n)) return false;
  Obj *t = NULL;
  if (n->kind == ND_DECL && n->var && n->decl_init && n->decl_init->kind != ND_INIT_LIST)
    t = reg_target(cm, NULL, n->var);
  else if (n->kind == ND_ASSIGN) t = reg_target(cm, n->lhs, NULL);
  if (!t) return true;
  Node *v = strip_casts(n->kind == ND_DECL ? n->decl_init : n->rhs);
  flow_value(cm, v, t);
  /* a whole struct copied from memory (float4 v = *(float4 *)p) is one access at the statement */
  if (v && (v->kind == ND_DEREF || v->kind == ND_INDEX || v->kind == ND_MEMBER) && v->ty &&
      v->ty->kind == TY_STRUCT && !reg_read(cm, v))
    cm->load_dest[n->id] = t;
  return true;
}

Obj *cost_load_dest(const CostModel *cm, const Node *load) {
  return valid(cm, load) ? cm->load_dest[load->id] : NULL;
}
Obj *cost_copy_to(const CostModel *cm, const Node *read) {
  return valid(cm, read) ? cm->copy_to[read->id] : NULL;
}
Obj *cost_reg_base(const Node *access) { return member_base((Node *)access); }

bool cost_in_registers(const CostModel *cm, const Node *access) {
  return valid(cm, access) && cm->in_regs[access->id];
}

CostModel *cost_model_new(const Facts *f) {
  CostModel *cm = xmalloc(sizeof *cm);
  cm->f = f;
  cm->nnodes = facts_program(f)->nodes;
  cm->nloops = facts_nloops(f);
  size_t n = (size_t)(cm->nnodes > 0 ? cm->nnodes : 1);
  cm->unroll = xmalloc(sizeof(double) * (size_t)(cm->nloops + 1));
  cm->hoist = xmalloc(sizeof(int) * n);
  cm->factor = xmalloc(sizeof(float) * n);
  cm->in_index = xmalloc(n);
  cm->fused = xmalloc(n);
  cm->offset_chain = xmalloc(n);
  cm->predicated = xmalloc(n);
  cm->copy_const = xmalloc(n);
  cm->share = xmalloc(sizeof(int) * n);
  cm->share_root = xmalloc((size_t)cm->nloops + 1);
  memset(cm->share_root, 0, (size_t)cm->nloops + 1);
  cm->hoist_copies = xmalloc(sizeof(float) * n);
  for (size_t i = 0; i < n; i++) cm->hoist_copies[i] = 1;
  cm->in_regs = xmalloc(n);
  memset(cm->in_regs, 0, n);
  for (size_t i = 0; i < n; i++) {
    cm->hoist[i] = -1;
    cm->factor[i] = 1;
    cm->copy_const[i] = -1;
    cm->share[i] = -1;
  }
  Obj *kernel = facts_kernel(f);
  /* device functions are inlined by nvcc; their bodies are costed as if outside any loop (the
   * facts number their loops so) */
  int nf = facts_nfunctions(f);
  for (int i = 0; i < nf; i++) walk(facts_function(f, i)->body, mark_addresses, NULL, cm);
  for (int i = 0; i < cm->nloops; i++) choose_unroll(cm, i);
  find_carried(cm);
  find_known_variables(cm);
  if (kernel && kernel->body) cm->prologue = prologue_of(cm, kernel);
  for (int i = 0; i < nf; i++) walk(facts_function(f, i)->body, assign_pre, NULL, cm);
  find_register_arrays(cm);
  if (kernel && kernel->body) walk(kernel->body, share_pre, NULL, cm);
  cm->load_dest = xmalloc(sizeof(Obj *) * n);
  cm->copy_to = xmalloc(sizeof(Obj *) * n);
  for (size_t i = 0; i < n; i++) cm->load_dest[i] = cm->copy_to[i] = NULL;
  for (int i = 0; i < nf; i++) walk(facts_function(f, i)->body, flow_pre, NULL, cm);
  return cm;
}

void cost_model_free(CostModel *cm) {
  if (!cm) return;
  free(cm->unroll);
  free(cm->carried);
  free(cm->known);
  free(cm->hoist);
  free(cm->factor);
  free(cm->in_index);
  free(cm->fused);
  free(cm->offset_chain);
  free(cm->predicated);
  free(cm->copy_const);
  free(cm->share);
  free(cm->share_root);
  free(cm->in_regs);
  free(cm->hoist_copies);
  free(cm->load_dest);
  free(cm->reg_vars);
  free(cm->copy_to);
  free(cm);
}

double cost_factor(const CostModel *cm, const Node *n) {
  return valid(cm, n) ? cm->factor[n->id] : 1;
}
int cost_hoisted_from(const CostModel *cm, const Node *n) {
  return valid(cm, n) ? cm->hoist[n->id] : -1;
}
double cost_hoist_copies(const CostModel *cm, const Node *n) {
  return valid(cm, n) ? cm->hoist_copies[n->id] : 1;
}
int cost_loop_index(const CostModel *cm, const Node *loop_stmt) {
  return facts_loop_index(cm->f, loop_stmt);
}
int cost_loops(const CostModel *cm) { return cm->nloops; }
double cost_loop_unroll(const CostModel *cm, int loop) { return cm->unroll[loop]; }
int64_t cost_loop_trip(const CostModel *cm, int loop) { return loop_at(cm, loop)->trip; }
bool cost_copy_constant(const CostModel *cmc, Node *e) {
  CostModel *cm = (CostModel *)cmc;
  if (!valid(cm, e)) return copy_constant(cm, e, loop_of(cm, e));
  if (cm->copy_const[e->id] < 0) cm->copy_const[e->id] = copy_constant(cm, e, loop_of(cm, e));
  return cm->copy_const[e->id];
}

/* the share of a load-consumer stall the node's loop pays per iteration: unrolled copies issue
 * their loads together and wait once */
double cost_stall_share(const CostModel *cm, const Node *n) {
  /* nvcc unrolls simple counted loops by 16 on sm_90 (their SASS), but the latency-bound suite
   * kernels (mv, tmv, strsm) run as if about four loads overlapped per wait: loaded latency
   * grows with the requests in flight. MEMORY_OVERLAP caps the overlap; fitted on the H200. */
  const double MEMORY_OVERLAP = 4;
  int loop = valid(cm, n) ? loop_of(cm, n) : -1;
  if (loop < 0 || cm->unroll[loop] <= 1 || cm->carried[loop]) return 1.0;
  double u = cm->unroll[loop];
  return 1.0 / (u < MEMORY_OVERLAP || fully_unrolled(cm, loop) ? u : MEMORY_OVERLAP);
}

/* the counter's coefficient in e (elements per iteration), when e is that counter times a
 * constant plus terms that do not change within the copy; casts are transparent. Evaluated
 * bottom-up on a stack of (known, coefficient). */
typedef struct {
  bool ok;
  int64_t c;
} Coef;
typedef struct {
  CostModel *cm;
  int loop;
  Coef *st;
  int sp, cap;
} IvCoef;

static void coef_push(IvCoef *x, bool ok, int64_t c) {
  if (x->sp == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 16;
    x->st = xrealloc(x->st, sizeof(Coef) * (size_t)x->cap);
  }
  x->st[x->sp++] = (Coef){ok, c};
}

static bool iv_pre(Node *e, void *ctx) {
  IvCoef *x = ctx;
  if (e->kind == ND_CAST) return true;
  if (e->kind == ND_VAR && e->var == loop_at(x->cm, x->loop)->iv) {
    coef_push(x, true, 1);
    return false;
  }
  if (invariant(x->cm, e, x->loop)) {
    coef_push(x, true, 0);
    return false;
  }
  if ((e->kind == ND_ADD || e->kind == ND_SUB || e->kind == ND_MUL) && e->lhs && e->rhs)
    return true;
  coef_push(x, false, 0);
  return false;
}

static bool iv_post(Node *e, void *ctx) {
  IvCoef *x = ctx;
  if (e->kind == ND_CAST) return true;
  Coef b = x->st[--x->sp], a = x->st[x->sp - 1], r = {false, 0};
  int64_t k;
  if (e->kind == ND_ADD || e->kind == ND_SUB)
    r = (Coef){a.ok && b.ok, e->kind == ND_ADD ? a.c + b.c : a.c - b.c};
  else if (node_int_constant(e->rhs, &k) && a.ok) r = (Coef){true, a.c * k};
  else if (node_int_constant(e->lhs, &k) && b.ok) r = (Coef){true, b.c * k};
  x->st[x->sp - 1] = r;
  return true;
}

static bool iv_coefficient(CostModel *cm, Node *e, int loop, int64_t *coef) {
  if (!e) return false;
  IvCoef x = {cm, loop, NULL, 0, 0};
  walk_one(e, iv_pre, iv_post, &x);
  bool ok = x.sp == 1 && x.st[0].ok;
  if (ok) *coef = x.st[0].c;
  free(x.st);
  return ok;
}

/* e is the counter plus terms that are multiples of w (constants, or products with a constant
 * factor that is one: ty*8 + i, q*64 + tx*4 + v); *ivs counts the counter's appearances */
/* the initializer of a local whose declaration is its only write, or NULL */
static Node *single_init(const CostModel *cm, Obj *v) {
  const VarWrite *only = NULL;
  int nw = facts_nwrites(cm->f);
  for (int i = 0; i < nw; i++) {
    const VarWrite *w = facts_write(cm->f, i);
    if (w->var != v) continue;
    if (only) return NULL;
    only = w;
  }
  return only && only->node->kind == ND_DECL && !v->in_memory ? only->node->decl_init : NULL;
}

static bool aligned_sum(const CostModel *cm, Node *e, Obj *iv, int w, int *ivs, int depth) {
  e = strip_casts(e);
  if (e->kind == ND_ADD)
    return aligned_sum(cm, e->lhs, iv, w, ivs, depth) && aligned_sum(cm, e->rhs, iv, w, ivs, depth);
  if (e->kind == ND_VAR && e->var == iv) {
    (*ivs)++;
    return true;
  }
  Node *init;
  if (e->kind == ND_VAR && depth < 4 && (init = single_init(cm, e->var))) { /* r = e % 32 * 4 */
    int inner = 0;
    return aligned_sum(cm, init, iv, w, &inner, depth + 1) && inner == 0;
  }
  int64_t k;
  if (node_int_constant(e, &k)) return k % w == 0;
  if (e->kind == ND_MUL)
    return (node_int_constant(e->rhs, &k) && k % w == 0) ||
           (node_int_constant(e->lhs, &k) && k % w == 0);
  return false;
}

/* accesses ptxas merges into 64- or 128-bit ones: in a fully unrolled loop counting by one from a
 * multiple of four, consecutive elements of a row of a declared array whose rows are 16-byte
 * multiples, indexed by the counter plus multiples of the width (mm's As[ty][k], a register
 * tile's A_tile[kk][ty*8 + i]); the copies' addresses are then provably aligned. 1 otherwise. */
int cost_vector_width(const CostModel *cmc, const Node *access) {
  CostModel *cm = (CostModel *)cmc;
  if (access->kind != ND_INDEX || !valid(cm, access)) return 1;
  int loop = loop_of(cm, access);
  if (loop < 0) return 1;
  const Loop *l = loop_at(cm, loop);
  if (!fully_unrolled(cm, loop) || l->step_op != ND_ADD || l->trip < 2) return 1;
  Node *arr = access->lhs;
  bool row = arr->ty && arr->ty->kind == TY_ARRAY && arr->kind == ND_INDEX; /* a[i][k] */
  bool whole = arr->kind == ND_VAR && arr->ty && arr->ty->kind == TY_ARRAY; /* a[k] */
  if (!row && !whole) return 1;
  int size = access->ty ? access->ty->size : 0;
  if (size != 4 && size != 8) return 1;
  if (row && (arr->ty->size % 16) != 0) return 1;
  int64_t coef;
  if (!iv_coefficient(cm, access->rhs, loop, &coef) || coef != 1) return 1;
  if (!l->start_known || l->start % 4 != 0) return 1;
  int width = 16 / size;
  if (l->trip % width != 0) width = l->trip % 2 == 0 && size == 4 ? 2 : 1;
  int ivs = 0;
  if (!aligned_sum(cm, access->rhs, l->iv, width, &ivs, 0) || ivs != 1) return 1;
  return width;
}

int cost_share_region(const CostModel *cm, const Node *access) {
  return valid(cm, access) ? cm->share[access->id] : -1;
}
bool cost_share_root(const CostModel *cm, const Node *loop_stmt) {
  int li = facts_loop_index(cm->f, loop_stmt);
  return li >= 0 && cm->share_root[li];
}
int cost_prologue(const CostModel *cm) { return cm->prologue; }
Node *cost_loop_node(const CostModel *cm, int loop) { return loop_at(cm, loop)->node; }
bool cost_if_predicated(const CostModel *cm, const Node *n) {
  return valid(cm, n) && cm->predicated[n->id];
}
