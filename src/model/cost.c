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
 * Checked against Nsight Compute's smsp__inst_executed on the H200 (docs/validation.md). */
#include "metrics.h"
#include <stdlib.h>
#include <string.h>

typedef struct Loop {
  Node *node;
  int parent;            /* enclosing loop, -1 none */
  Obj **assigned; int nassigned, cap;  /* variables written inside (cond, inc, body, nested loops) */
  int *writes;           /* how many times each is written */
  bool writes_memory;    /* stores, atomics, calls of user functions inside */
  Obj *iv;               /* counted loop: the counter, written only by the increment */
  bool additive;         /* iv += constant (else *=, <<=, >>=, /=) */
  int64_t trip;          /* compile-time trip count, -1 unknown */
  double unroll;         /* body copies per loop-control step */
  bool has_exit;         /* break, continue or return inside: the trip count is not static */
} Loop;

typedef struct Write { Node *node; int loop; Obj *var; bool conditional; } Write;

struct CostModel {
  int nnodes, nloops, cap;
  Write *writes; int nwrites, wcap;   /* every write of a register variable (declarations too) */
  Obj **known; int nknown;            /* variables whose value is a compile-time constant in each body copy */
  Loop *loops;
  int *loop_of;          /* node id -> innermost enclosing loop (-1); a loop statement: its own index */
  bool *in_index;        /* node id -> part of an address computation */
  bool *offset_chain;    /* node id -> a sum of the address itself (adds, subtracts, casts only) */
  bool *predicated;      /* node id -> an if that ptxas turns into predicated instructions */
  float *factor;         /* node id -> SASS instructions per evaluation, relative to the plain count */
  int *hoist;            /* node id -> loop it is hoisted out of (counted once per entry), -1 */
  bool *is_loop;         /* node id -> a loop statement */
  bool *fused;           /* node id -> an integer multiply that an add absorbs (IMAD, LEA) */
  int prologue;          /* instructions every thread runs once: S2R, parameter loads, EXIT */
};

static bool assigned_in(const Loop *l, Obj *v, int *times) {
  for (int i = 0; i < l->nassigned; i++)
    if (l->assigned[i] == v) { if (times) *times = l->writes[i]; return true; }
  return false;
}

static void note_write(CostModel *cm, int loop, Obj *v) {
  for (; loop >= 0; loop = cm->loops[loop].parent) {
    Loop *l = &cm->loops[loop];
    int i = 0;
    while (i < l->nassigned && l->assigned[i] != v) i++;
    if (i == l->nassigned) {
      if (l->nassigned == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->assigned = realloc(l->assigned, sizeof *l->assigned * (size_t)l->cap);
        l->writes = realloc(l->writes, sizeof *l->writes * (size_t)l->cap);
        if (!l->assigned || !l->writes) abort();
      }
      l->assigned[l->nassigned] = v;
      l->writes[l->nassigned++] = 0;
    }
    l->writes[i]++;
  }
}

static void record_write(CostModel *cm, Node *n, int loop, Obj *v, bool conditional) {
  if (cm->nwrites == cm->wcap) {
    cm->wcap = cm->wcap ? 2 * cm->wcap : 16;
    cm->writes = realloc(cm->writes, sizeof *cm->writes * (size_t)cm->wcap);
    if (!cm->writes) abort();
  }
  cm->writes[cm->nwrites++] = (Write){n, loop, v, conditional};
}

static void note_memory_write(CostModel *cm, int loop) {
  for (; loop >= 0; loop = cm->loops[loop].parent) cm->loops[loop].writes_memory = true;
}

static Node *strip_casts(Node *n) {
  while (n && n->kind == ND_CAST) n = n->lhs;
  return n;
}

static bool is_atomic(Node *n) { return n->kind == ND_CALL && n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR; }

/* the assignment-like node's target variable, if it is a plain variable */
static Obj *write_target(Node *n) {
  Node *t = strip_casts(n->lhs);
  return t && t->kind == ND_VAR ? t->var : NULL;
}

/* pass 1: every node's innermost loop, what each loop writes, which nodes compute addresses */
enum { W_INDEX = 1, W_CHAIN = 2, W_COND = 4 };   /* address arithmetic; the address's own sum; under a run-time condition */

static void cost_walk(CostModel *cm, Node *n, int loop, unsigned f);

static void walk_list(CostModel *cm, Node *n, int loop, unsigned f) {
  for (; n; n = n->next) cost_walk(cm, n, loop, f);
}

static void mark_exit(CostModel *cm, int loop, bool all) {
  for (; loop >= 0; loop = all ? cm->loops[loop].parent : -1) cm->loops[loop].has_exit = true;
}

static void cost_walk(CostModel *cm, Node *n, int loop, unsigned f) {
  if (!n || n->id < 0 || n->id >= cm->nnodes) return;
  cm->loop_of[n->id] = loop;
  cm->in_index[n->id] = f & W_INDEX;
  cm->offset_chain[n->id] = f & W_CHAIN;
  unsigned cond = f & W_COND;
  switch (n->kind) {
  case ND_FOR: case ND_WHILE: case ND_DO: {
    if (cm->nloops == cm->cap) {
      cm->cap = cm->cap ? 2 * cm->cap : 8;
      cm->loops = realloc(cm->loops, sizeof *cm->loops * (size_t)cm->cap);
      if (!cm->loops) abort();
    }
    int me = cm->nloops++;
    cm->loops[me] = (Loop){.node = n, .parent = loop, .trip = -1, .unroll = 1};
    cm->is_loop[n->id] = true;
    walk_list(cm, n->init, loop, cond);      /* runs once per entry: the enclosing loop's */
    cost_walk(cm, n->cond, me, cond);
    cost_walk(cm, n->inc, me, cond);
    cost_walk(cm, n->then, me, cond);
    return;
  }
  case ND_BREAK: case ND_CONTINUE: mark_exit(cm, loop, false); return;
  case ND_RETURN: mark_exit(cm, loop, true); break;
  case ND_ASSIGN: case ND_ASSIGN_OP: case ND_PREINC: case ND_PREDEC: case ND_POSTINC: case ND_POSTDEC: {
    Obj *v = write_target(n);
    if (v && !v->in_memory) { note_write(cm, loop, v); record_write(cm, n, loop, v, cond); }
    else note_memory_write(cm, loop);
    if (v && v->in_memory) note_write(cm, loop, v);
    break;
  }
  case ND_DECL:
    if (n->var) { note_write(cm, loop, n->var); record_write(cm, n, loop, n->var, cond); }
    break;
  case ND_CALL:
    if (n->fn || is_atomic(n) || n->builtin == BI_PRINTF) note_memory_write(cm, loop);
    break;
  default: break;
  }
  /* what the children are: address sums pass through adds and casts; multiplies keep them
   * address arithmetic but not the address's own sum; anything else ends both */
  unsigned kid = cond;
  bool ptr = (n->kind == ND_ADD || n->kind == ND_SUB) && n->ty && n->ty->kind == TY_PTR;
  if (n->kind == ND_INDEX) {
    cost_walk(cm, n->lhs, loop, cond);
    cost_walk(cm, n->rhs, loop, cond | W_INDEX | W_CHAIN);
  } else if (ptr) {
    cost_walk(cm, n->lhs, loop, cond | W_INDEX | W_CHAIN);
    cost_walk(cm, n->rhs, loop, cond | W_INDEX | W_CHAIN);
  } else {
    if (n->kind == ND_ADD || n->kind == ND_SUB || n->kind == ND_CAST) kid = f;
    else if (n->kind == ND_MUL || n->kind == ND_SHL || n->kind == ND_NEG) kid = cond | (f & W_INDEX);
    bool lazy = n->kind == ND_LOGAND || n->kind == ND_LOGOR;   /* the right side runs conditionally */
    cost_walk(cm, n->lhs, loop, kid);
    cost_walk(cm, n->rhs, loop, lazy ? kid | W_COND : kid);
  }
  bool branches = n->kind == ND_IF || n->kind == ND_COND || n->kind == ND_SWITCH;
  cost_walk(cm, n->cond, loop, cond);
  cost_walk(cm, n->then, loop, branches ? cond | W_COND : cond);
  cost_walk(cm, n->els, loop, branches ? cond | W_COND : cond);
  walk_list(cm, n->init, loop, cond);
  cost_walk(cm, n->inc, loop, cond);
  if (n->kind == ND_BLOCK) walk_list(cm, n->stmts, loop, cond);
  if (n->kind == ND_CALL) walk_list(cm, n->args, loop, cond);
  cost_walk(cm, n->decl_init, loop, cond);
  if (n->kind == ND_INIT_LIST) walk_list(cm, n->elems, loop, cond);
}

/* ---- invariance and affinity ---- */
static bool invariant(CostModel *cm, Node *e, int loop);

static bool invariant_list(CostModel *cm, Node *n, int loop) {
  for (; n; n = n->next) if (!invariant(cm, n, loop)) return false;
  return true;
}

/* does e compute the same value in every iteration of `loop`? */
static bool invariant(CostModel *cm, Node *e, int loop) {
  if (!e) return true;
  Loop *l = &cm->loops[loop];
  switch (e->kind) {
  case ND_NUM: case ND_SIZEOF: case ND_SPECIAL: case ND_STR: return true;
  case ND_VAR:
    if (e->var->is_volatile) return false;
    if (e->ty && e->ty->kind == TY_ARRAY) return true;       /* an array's address */
    return !assigned_in(l, e->var, NULL) && !(e->var->in_memory && l->writes_memory);
  case ND_DEREF: case ND_INDEX: case ND_MEMBER:
    /* a load moves out of the loop only when nothing in the loop may store to memory */
    if (l->writes_memory && !(e->ty && e->ty->kind == TY_ARRAY)) return false;
    return invariant(cm, e->lhs, loop) && invariant(cm, e->rhs, loop);
  case ND_CALL:
    if (e->fn || e->builtin == BI_NONE) return false;
    if (e->builtin == BI_MATH || e->builtin == BI_MIN || e->builtin == BI_MAX || e->builtin == BI_ABS ||
        (e->builtin >= BI_POPC && e->builtin <= BI_BREV) || e->builtin == BI_MAKE_VECTOR)
      return invariant_list(cm, e->args, loop);
    return false;
  case ND_ASSIGN: case ND_ASSIGN_OP: case ND_PREINC: case ND_PREDEC: case ND_POSTINC: case ND_POSTDEC: return false;
  default:
    if (e->kind >= ND_BLOCK) return false;
    return invariant(cm, e->lhs, loop) && invariant(cm, e->rhs, loop) && invariant(cm, e->cond, loop) &&
           invariant(cm, e->then, loop) && invariant(cm, e->els, loop);
  }
}

static bool fully_unrolled(const Loop *l) { return l->trip >= 0 && l->unroll >= (double)l->trip; }

/* does e have one value per body copy known at compile time (numbers, counters of fully
 * unrolled loops enclosing the node, and arithmetic on them)? */
static bool copy_constant(CostModel *cm, Node *e, int loop) {
  if (!e) return false;
  if (e->kind == ND_NUM || e->kind == ND_SIZEOF) return true;
  if (e->kind == ND_VAR) {
    for (int k = loop; k >= 0; k = cm->loops[k].parent)
      if (cm->loops[k].iv == e->var && fully_unrolled(&cm->loops[k])) return true;
    for (int i = 0; i < cm->nknown; i++) if (cm->known[i] == e->var) return true;
    return false;
  }
  if (e->kind == ND_CAST || e->kind == ND_NEG || e->kind == ND_NOT || e->kind == ND_BITNOT) return copy_constant(cm, e->lhs, loop);
  if ((e->kind >= ND_ADD && e->kind <= ND_GE) || e->kind == ND_LOGAND || e->kind == ND_LOGOR)
    return copy_constant(cm, e->lhs, loop) && copy_constant(cm, e->rhs, loop);
  return false;
}


/* are all loops from `inner` up to (not including) `outer` fully unrolled? */
static bool unrolled_between(CostModel *cm, int inner, int outer) {
  for (int k = inner; k != outer; k = cm->loops[k].parent) {
    if (k < 0) return false;   /* outer is not an enclosing loop */
    if (!fully_unrolled(&cm->loops[k])) return false;
  }
  return true;
}

/* variables nvcc knows at compile time everywhere (scan's `pout = 1 - pout`, `offset *= 2`): a
 * register variable with a known initializer, every other write of which has a known right-hand
 * side, is not under a run-time condition, and lies in straight-line code or in loops fully
 * unrolled between it and the declaration. Found as a fixpoint: start from all candidates and
 * drop any with a write that fails. */
static void find_known_variables(CostModel *cm) {
  cm->known = malloc(sizeof(Obj *) * (size_t)(cm->nwrites + 1));
  int *decl_loop = malloc(sizeof(int) * (size_t)(cm->nwrites + 1));
  if (!cm->known || !decl_loop) abort();
  cm->nknown = 0;
  for (int i = 0; i < cm->nwrites; i++) {
    Write *w = &cm->writes[i];
    if (w->node->kind != ND_DECL || !w->node->decl_init || w->var->is_volatile || w->var->in_memory || !is_integer(w->var->ty)) continue;
    bool dup = false;
    for (int j = 0; j < cm->nknown; j++) dup |= cm->known[j] == w->var;
    if (!dup) { decl_loop[cm->nknown] = w->loop; cm->known[cm->nknown++] = w->var; }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < cm->nwrites; i++) {
      Write *w = &cm->writes[i];
      int k = 0;
      while (k < cm->nknown && cm->known[k] != w->var) k++;
      if (k == cm->nknown) continue;
      bool ok;
      Node *n = w->node;
      if (n->kind == ND_DECL) ok = copy_constant(cm, n->decl_init, w->loop);
      else if (w->conditional || !unrolled_between(cm, w->loop, decl_loop[k])) ok = false;
      else if (n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP) ok = copy_constant(cm, n->rhs, w->loop);
      else ok = true;   /* ++ and -- of a known value */
      if (!ok) {
        cm->known[k] = cm->known[--cm->nknown];
        decl_loop[k] = decl_loop[cm->nknown];
        changed = true;
      }
    }
  }
  free(decl_loop);
}

enum { LIN_NO, LIN_INV, LIN_CONST, LIN_VAR };   /* not affine; invariant; affine with constant / run-time stride */

static int lin_join(int a, int b) {
  if (a == LIN_NO || b == LIN_NO) return LIN_NO;
  return a > b ? a : b;
}

/* is e affine in the counter of `loop`, and is its stride a compile-time constant? */
static int affinity(CostModel *cm, Node *e, int loop) {
  if (!e) return LIN_NO;
  if (invariant(cm, e, loop)) return LIN_INV;
  if (copy_constant(cm, e, loop)) return LIN_CONST;
  Loop *l = &cm->loops[loop];
  switch (e->kind) {
  case ND_VAR:
    if (l->iv && e->var == l->iv && (l->additive || fully_unrolled(l))) return LIN_CONST;
    return LIN_NO;
  case ND_CAST: case ND_NEG: case ND_POS: return affinity(cm, e->lhs, loop);
  case ND_ADD: case ND_SUB: return lin_join(affinity(cm, e->lhs, loop), affinity(cm, e->rhs, loop));
  case ND_MUL: case ND_SHL: {
    int a = affinity(cm, e->lhs, loop), b = affinity(cm, e->rhs, loop);
    if (e->kind == ND_SHL && b != LIN_INV) return LIN_NO;
    if (a == LIN_INV && b != LIN_NO) return copy_constant(cm, e->lhs, loop) ? b : LIN_VAR;
    if (b == LIN_INV && a != LIN_NO) return copy_constant(cm, e->rhs, loop) ? a : LIN_VAR;
    return LIN_NO;
  }
  default: return LIN_NO;
  }
}

/* ---- counted loops ---- */

/* the counter's start value, from the for-statement's init */
static bool init_value(Node *init, Obj *iv, int64_t *v) {
  for (Node *d = init; d; d = d->next) {
    if (d->kind == ND_DECL && d->var == iv) return d->decl_init && node_int_constant(d->decl_init, v);
    Node *x = d->kind == ND_EXPR_STMT ? d->lhs : d;
    if (x && x->kind == ND_ASSIGN && write_target(x) == iv) return node_int_constant(x->rhs, v);
  }
  return false;
}

/* the trip count of a counter from v while (v cmp bound), stepping by op/step in a type of
 * `size` bytes; -1 when it does not end within 4096 steps or leaves the type's range */
static int64_t count_trips(int64_t v, int cmp, int64_t bound, NodeKind op, int64_t step, int size) {
  if ((op == ND_DIV || op == ND_MUL) && step == 0) return -1;
  if ((op == ND_SHL || op == ND_SHR) && (step < 0 || step >= 8 * size)) return -1;
  int64_t lim = size >= 8 ? INT64_MAX / 4 : (int64_t)1 << (8 * size - 1);
  int64_t n = 0;
  for (;;) {
    bool go = cmp == ND_LT ? v < bound : cmp == ND_LE ? v <= bound : cmp == ND_GT ? v > bound : cmp == ND_GE ? v >= bound : v != bound;
    if (!go) return n;
    if (++n > 4096) return -1;
    if (op == ND_ADD) v += step;
    else if (op == ND_MUL) v *= step;
    else if (op == ND_SHL) v = (int64_t)((uint64_t)v << step);
    else if (op == ND_SHR) v >>= step;
    else if (op == ND_DIV) v /= step;
    else return -1;
    if (v >= lim || v < -lim) return -1;   /* would wrap: leave it to the run */
  }
}

/* operations (not variables or constants) in an expression tree */
static int op_count(Node *n) {
  if (!n) return 0;
  int c = n->kind != ND_VAR && n->kind != ND_NUM && n->kind != ND_CAST ? 1 : 0;
  c += op_count(n->lhs) + op_count(n->rhs) + op_count(n->cond) + op_count(n->then) + op_count(n->els);
  for (Node *a = n->kind == ND_CALL ? n->args : NULL; a; a = a->next) c += op_count(a);
  return c;
}

/* operations in a loop body, inner loops with a constant trip count times that count (they are
 * unrolled before the outer loop is) */
static int body_ops(CostModel *cm, Node *n) {
  int c = 0;
  for (; n; n = n->next) {
    if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) {
      int inner = body_ops(cm, n->then) + op_count(n->cond) + op_count(n->inc), trip = 1;
      for (int i = 0; i < cm->nloops; i++)
        if (cm->loops[i].node == n && cm->loops[i].trip > 0) trip = (int)(cm->loops[i].trip < 64 ? cm->loops[i].trip : 64);
      c += inner * trip;
    } else if (n->kind == ND_BLOCK) c += body_ops(cm, n->stmts);
    else if (n->kind == ND_IF) c += op_count(n->cond) + body_ops(cm, n->then) + body_ops(cm, n->els);
    else if (n->kind == ND_EXPR_STMT || n->kind == ND_RETURN) c += op_count(n->lhs);
    else if (n->kind == ND_DECL) c += op_count(n->decl_init);
    else c += 1;
  }
  return c;
}

static void classify_loop(CostModel *cm, int li) {
  Loop *l = &cm->loops[li];
  Node *n = l->node;
  if (n->kind != ND_FOR || !n->inc || !n->cond) return;
  Node *inc = n->inc->kind == ND_EXPR_STMT ? n->inc->lhs : n->inc;
  Obj *iv = write_target(inc);
  if (!iv || iv->in_memory) return;
  int times = 0;
  if (!assigned_in(l, iv, &times) || times != 1) return;   /* written elsewhere in the body */
  NodeKind op;
  int64_t step;
  switch (inc->kind) {
  case ND_PREINC: case ND_POSTINC: op = ND_ADD; step = 1; break;
  case ND_PREDEC: case ND_POSTDEC: op = ND_ADD; step = -1; break;
  case ND_ASSIGN_OP:
    if (!node_int_constant(inc->rhs, &step)) return;
    op = inc->op;
    if (op == ND_SUB) { op = ND_ADD; step = -step; }
    if (op != ND_ADD && op != ND_MUL && op != ND_SHL && op != ND_SHR && op != ND_DIV) return;
    break;
  default: return;
  }
  Node *c = n->cond;
  if (c->kind < ND_NE || c->kind > ND_GE) return;
  int cmp = c->kind;
  Node *bound_expr;
  if (strip_casts(c->lhs)->kind == ND_VAR && strip_casts(c->lhs)->var == iv) bound_expr = c->rhs;
  else if (strip_casts(c->rhs)->kind == ND_VAR && strip_casts(c->rhs)->var == iv) {   /* bound < i: flip */
    bound_expr = c->lhs;
    cmp = cmp == ND_LT ? ND_GT : cmp == ND_LE ? ND_GE : cmp == ND_GT ? ND_LT : cmp == ND_GE ? ND_LE : cmp;
  } else return;
  if (!invariant(cm, bound_expr, li)) return;
  l->iv = iv;
  l->additive = op == ND_ADD;
  int64_t start, bound;
  if (!l->has_exit && init_value(n->init, iv, &start) && node_int_constant(bound_expr, &bound))
    l->trip = count_trips(start, cmp, bound, op, step, iv->ty ? iv->ty->size : 4);
  int pragma = n->unroll;
  if (pragma > 0) l->unroll = pragma;
  else if (l->trip >= 0 && (pragma == -1 || l->trip <= 32)) l->unroll = l->trip > 0 ? (double)l->trip : 1;
  else if (l->additive) {
    /* nvcc (sm_90) unrolls small counted loops by 16, with remainder loops of 8, 4, 1; bigger
     * bodies less: mm_tile16's tile loop by 4, mm_tile32's not at all (their SASS). Modelled as
     * a budget of about 1024 operations for the unrolled body, in powers of two. */
    int size = body_ops(cm, n->then);
    l->unroll = 16;
    while (l->unroll > 1 && l->unroll * size > 1024) l->unroll /= 2;
  }
}

/* ---- the factors ---- */
static bool is_loop_control(CostModel *cm, Node *e, int loop) {
  if (loop < 0) return false;
  Node *n = cm->loops[loop].node;
  Node *inc = n->inc && n->inc->kind == ND_EXPR_STMT ? n->inc->lhs : n->inc;
  return e == n->cond || e == inc || e == n->inc;
}

/* a statement ptxas turns into predicated instructions instead of a branch: one short
 * assignment or store (possibly in braces); longer bodies keep their branch (or exit early) */
static bool predicable(Node *s) {
  if (!s) return true;
  if (s->kind == ND_BLOCK) return !s->stmts || (!s->stmts->next && predicable(s->stmts));
  if (s->kind != ND_EXPR_STMT || !s->lhs) return false;
  Node *x = s->lhs;
  bool assign = x->kind == ND_ASSIGN || x->kind == ND_ASSIGN_OP || (x->kind >= ND_PREINC && x->kind <= ND_POSTDEC);
  return assign && op_count(x) <= 8;
}

static void assign_factor(CostModel *cm, Node *e) {
  int id = e->id, loop = cm->loop_of[id];
  cm->factor[id] = 1;
  cm->hoist[id] = -1;
  if (e->kind == ND_IF) {   /* the factor of an if is its branch's */
    if (copy_constant(cm, e->cond, loop)) cm->factor[id] = 0;   /* decided at compile time */
    else if (predicable(e->then) && predicable(e->els)) { cm->factor[id] = 0; cm->predicated[id] = true; }
    return;
  }
  if (cm->is_loop[id] || e->kind >= ND_BLOCK) return;
  /* everywhere: a row of a multi-dimensional array is not an instruction (the outer index
   * computes the address); a multiply feeding an add is one IMAD or LEA; adding a constant to
   * an address is the load's immediate offset */
  if (e->kind == ND_INDEX && e->ty && e->ty->kind == TY_ARRAY) { cm->factor[id] = 0; return; }
  if (cm->fused[id]) { cm->factor[id] = 0; return; }
  int64_t k;
  if (cm->offset_chain[id] && (e->kind == ND_ADD || e->kind == ND_SUB) && e->ty && is_integer(e->ty) &&
      (node_int_constant(e->rhs, &k) || (e->kind == ND_ADD && node_int_constant(e->lhs, &k)))) { cm->factor[id] = 0; return; }
  if (loop < 0) return;
  /* hoisting: out of every loop the node is invariant in (values only: writes never move) */
  int h = -1;
  for (int k = loop; k >= 0 && invariant(cm, e, k); k = cm->loops[k].parent) h = k;
  if (h >= 0) { cm->hoist[id] = h; return; }
  Loop *l = &cm->loops[loop];
  if (is_loop_control(cm, e, loop)) {
    if (l->iv) cm->factor[id] = fully_unrolled(l) ? 0 : (float)(1.0 / l->unroll);
    return;
  }
  if (e->kind == ND_INDEX) {
    int a = affinity(cm, e->rhs, loop);
    if (a == LIN_INV) cm->factor[id] = 0;
    else if (a == LIN_CONST) cm->factor[id] = fully_unrolled(l) ? 0 : (float)(1.0 / l->unroll);
    return;
  }
  /* arithmetic and tests on values known in each unrolled copy are folded by the compiler */
  if (e->ty && is_integer(e->ty) && ((e->kind >= ND_ADD && e->kind <= ND_GE) || e->kind == ND_LOGAND || e->kind == ND_LOGOR || e->kind == ND_NOT) &&
      copy_constant(cm, e, loop)) { cm->factor[id] = 0; return; }
  if ((e->kind == ND_ASSIGN || e->kind == ND_ASSIGN_OP || (e->kind >= ND_PREINC && e->kind <= ND_POSTDEC)) && write_target(e) &&
      copy_constant(cm, strip_casts(e->lhs), loop)) { cm->factor[id] = 0; return; }
  /* integer arithmetic of a strength-reduced address */
  if (cm->in_index[id] && e->ty && is_integer(e->ty) && affinity(cm, e, loop) != LIN_NO) cm->factor[id] = 0;
}

static void assign_all(CostModel *cm, Node *n);
static void assign_list(CostModel *cm, Node *n) { for (; n; n = n->next) assign_all(cm, n); }
static bool is_int_mul(Node *n) {
  return n && (n->kind == ND_MUL || n->kind == ND_SHL) && n->ty && is_integer(n->ty);
}

static void assign_all(CostModel *cm, Node *n) {
  if (!n || n->id < 0 || n->id >= cm->nnodes) return;
  assign_factor(cm, n);
  /* an add that is an instruction absorbs a multiply operand (IMAD/LEA); one that is free
   * (an immediate offset, strength-reduced) leaves the multiply its own instruction */
  bool int_add = (n->kind == ND_ADD || n->kind == ND_SUB) && n->ty && is_integer(n->ty);
  bool int_acc = n->kind == ND_ASSIGN_OP && (n->op == ND_ADD || n->op == ND_SUB) && n->ty && is_integer(n->ty);
  if ((int_add && cm->factor[n->id] > 0) || int_acc) {
    Node *l = int_acc ? NULL : strip_casts(n->lhs), *r = strip_casts(n->rhs);
    if (is_int_mul(l) && l->id >= 0 && l->id < cm->nnodes) cm->fused[l->id] = true;
    else if (is_int_mul(r) && r->id >= 0 && r->id < cm->nnodes) cm->fused[r->id] = true;
  }
  assign_all(cm, n->lhs);
  assign_all(cm, n->rhs);
  assign_all(cm, n->cond);
  assign_all(cm, n->then);
  assign_all(cm, n->els);
  assign_list(cm, n->init);
  assign_all(cm, n->inc);
  if (n->kind == ND_BLOCK) assign_list(cm, n->stmts);
  if (n->kind == ND_CALL) assign_list(cm, n->args);
  assign_all(cm, n->decl_init);
  if (n->kind == ND_INIT_LIST) assign_list(cm, n->elems);
}

/* what the prologue reads: one S2R per special register, one constant load per parameter */
static void prologue_walk(Node *n, bool *sreg, Obj **params, int *np) {
  for (; n; n = n->next) {
    if (n->kind == ND_SPECIAL && n->sreg <= SR_NCTAID && n->dim >= 0 && n->dim < 3) sreg[n->sreg * 3 + n->dim] = true;
    if (n->kind == ND_VAR && n->var->sc == SC_PARAM) {
      bool seen = false;
      for (int i = 0; i < *np; i++) seen |= params[i] == n->var;
      if (!seen && *np < 64) params[(*np)++] = n->var;
    }
    prologue_walk(n->lhs, sreg, params, np);
    prologue_walk(n->rhs, sreg, params, np);
    prologue_walk(n->cond, sreg, params, np);
    int64_t k;
    bool decided = n->kind == ND_IF && node_int_constant(n->cond, &k);   /* dead code loads nothing */
    if (!decided || k) prologue_walk(n->then, sreg, params, np);
    if (!decided || !k) prologue_walk(n->els, sreg, params, np);
    prologue_walk(n->init, sreg, params, np);
    prologue_walk(n->inc, sreg, params, np);
    prologue_walk(n->stmts, sreg, params, np);
    prologue_walk(n->args, sreg, params, np);
    prologue_walk(n->decl_init, sreg, params, np);
  }
}

CostModel *cost_model_new(Program *p, Obj *kernel) {
  CostModel *cm = calloc(1, sizeof *cm);
  if (!cm) abort();
  cm->nnodes = p->nodes;
  size_t n = (size_t)(cm->nnodes > 0 ? cm->nnodes : 1);
  cm->loop_of = malloc(sizeof(int) * n);
  cm->hoist = malloc(sizeof(int) * n);
  cm->factor = malloc(sizeof(float) * n);
  cm->in_index = calloc(n, sizeof(bool));
  cm->is_loop = calloc(n, sizeof(bool));
  cm->fused = calloc(n, sizeof(bool));
  cm->offset_chain = calloc(n, sizeof(bool));
  cm->predicated = calloc(n, sizeof(bool));
  if (!cm->loop_of || !cm->hoist || !cm->factor || !cm->in_index || !cm->is_loop || !cm->fused || !cm->offset_chain || !cm->predicated) abort();
  for (size_t i = 0; i < n; i++) { cm->loop_of[i] = -1; cm->hoist[i] = -1; cm->factor[i] = 1; }
  /* device functions are inlined by nvcc; their bodies are costed as if outside any loop */
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->body && (f == kernel || f->is_device)) cost_walk(cm, f->body, -1, 0);
  for (int i = cm->nloops - 1; i >= 0; i--) classify_loop(cm, i);   /* inner loops first: outer bodies need their trips */
  find_known_variables(cm);
  if (kernel && kernel->body) {
    bool sreg[12] = {0};
    Obj *params[64];
    int np = 0, ns = 0;
    prologue_walk(kernel->body, sreg, params, &np);
    for (int i = 0; i < 12; i++) ns += sreg[i];
    cm->prologue = 1 + ns + np + 1 + 1;   /* stack pointer, S2R/LDC, parameters, memory descriptor, EXIT */
  }
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->body && (f == kernel || f->is_device)) assign_all(cm, f->body);
  return cm;
}

void cost_model_free(CostModel *cm) {
  if (!cm) return;
  for (int i = 0; i < cm->nloops; i++) { free(cm->loops[i].assigned); free(cm->loops[i].writes); }
  free(cm->loops);
  free(cm->writes);
  free(cm->known);
  free(cm->loop_of);
  free(cm->hoist);
  free(cm->factor);
  free(cm->in_index);
  free(cm->is_loop);
  free(cm->fused);
  free(cm->offset_chain);
  free(cm->predicated);
  free(cm);
}

double cost_factor(const CostModel *cm, const Node *n) { return n->id >= 0 && n->id < cm->nnodes ? cm->factor[n->id] : 1; }
int cost_hoisted_from(const CostModel *cm, const Node *n) { return n->id >= 0 && n->id < cm->nnodes ? cm->hoist[n->id] : -1; }
int cost_loop_index(const CostModel *cm, const Node *loop_stmt) {
  for (int i = 0; i < cm->nloops; i++) if (cm->loops[i].node == loop_stmt) return i;
  return -1;
}
int cost_loops(const CostModel *cm) { return cm->nloops; }
double cost_loop_unroll(const CostModel *cm, int loop) { return cm->loops[loop].unroll; }
int64_t cost_loop_trip(const CostModel *cm, int loop) { return cm->loops[loop].trip; }
bool cost_copy_constant(const CostModel *cm, Node *e) {
  return copy_constant((CostModel *)cm, e, e->id >= 0 && e->id < cm->nnodes ? cm->loop_of[e->id] : -1);
}

/* the share of a load-consumer stall the node's loop pays per iteration: unrolled copies issue
 * their loads together and wait once */
double cost_stall_share(const CostModel *cm, const Node *n) {
  /* nvcc unrolls simple counted loops by 16 on sm_90 (their SASS), but the latency-bound suite
   * kernels (mv, tmv, strsm) run as if about four loads overlapped per wait: loaded latency
   * grows with the requests in flight. MEMORY_OVERLAP caps the overlap; fitted on the H200. */
  const double MEMORY_OVERLAP = 4;
  int loop = n->id >= 0 && n->id < cm->nnodes ? cm->loop_of[n->id] : -1;
  if (loop < 0 || cm->loops[loop].unroll <= 1) return 1.0;
  const Loop *l = &cm->loops[loop];
  return 1.0 / (l->unroll < MEMORY_OVERLAP || fully_unrolled(l) ? l->unroll : MEMORY_OVERLAP);
}

/* the counter's coefficient in e (elements per iteration), when e is that counter times a
 * constant plus terms that do not change within the copy */
static bool iv_coefficient(CostModel *cm, Node *e, int loop, int64_t *coef) {
  Loop *l = &cm->loops[loop];
  e = strip_casts(e);
  if (!e) return false;
  if (e->kind == ND_VAR && e->var == l->iv) { *coef = 1; return true; }
  if (invariant(cm, e, loop)) { *coef = 0; return true; }
  int64_t a, b, k;
  switch (e->kind) {
  case ND_ADD: case ND_SUB:
    if (!iv_coefficient(cm, e->lhs, loop, &a) || !iv_coefficient(cm, e->rhs, loop, &b)) return false;
    *coef = e->kind == ND_ADD ? a + b : a - b;
    return true;
  case ND_MUL:
    if (node_int_constant(e->rhs, &k) && iv_coefficient(cm, e->lhs, loop, &a)) { *coef = a * k; return true; }
    if (node_int_constant(e->lhs, &k) && iv_coefficient(cm, e->rhs, loop, &a)) { *coef = a * k; return true; }
    return false;
  default: return false;
  }
}

/* accesses ptxas merges into 64- or 128-bit ones: in a fully unrolled loop counting by one from a
 * multiple of four, consecutive elements of a row of a declared array whose rows are 16-byte
 * multiples, indexed by the counter itself (mm's As[ty][k]); the copies' addresses are then
 * provably aligned. 1 otherwise. */
int cost_vector_width(const CostModel *cmc, const Node *access) {
  CostModel *cm = (CostModel *)cmc;
  if (access->kind != ND_INDEX || access->id < 0 || access->id >= cm->nnodes) return 1;
  int loop = cm->loop_of[access->id];
  if (loop < 0) return 1;
  Loop *l = &cm->loops[loop];
  if (!fully_unrolled(l) || !l->additive || l->trip < 2) return 1;
  Node *arr = access->lhs;
  bool row = arr->ty && arr->ty->kind == TY_ARRAY && arr->kind == ND_INDEX;           /* a[i][k] */
  bool whole = arr->kind == ND_VAR && arr->ty && arr->ty->kind == TY_ARRAY;           /* a[k] */
  if (!row && !whole) return 1;
  int size = access->ty ? access->ty->size : 0;
  if (size != 4 && size != 8) return 1;
  if (row && (arr->ty->size % 16) != 0) return 1;
  int64_t coef, start;
  if (!iv_coefficient(cm, access->rhs, loop, &coef) || coef != 1) return 1;
  if (!init_value(l->node->init, l->iv, &start) || start % 4 != 0) return 1;
  Node *idx = strip_casts(access->rhs);
  if (!(idx->kind == ND_VAR && idx->var == l->iv)) return 1;
  int width = 16 / size;
  if (l->trip % width != 0) width = l->trip % 2 == 0 && size == 4 ? 2 : 1;
  return width;
}

int cost_prologue(const CostModel *cm) { return cm->prologue; }
Node *cost_loop_node(const CostModel *cm, int loop) { return cm->loops[loop].node; }
bool cost_if_predicated(const CostModel *cm, const Node *n) { return n->id >= 0 && n->id < cm->nnodes && cm->predicated[n->id]; }
