/* pass split: a thread's reduction loop split across `lanes` threads (the reductions of Yang et
 * al., PLDI 2010, Sec. 3.4-3.5 brought to Hopper's __shfl_down_sync; the warp-per-row mat-vec of
 * NVIDIA's CUDA C++ Best Practices Guide). A kernel whose thread t loops
 * `for (i = a; i < b; i += s) { decls; acc1 += e1; acc2 += e2; ... }` and then uses the sums
 * becomes one where `lanes` threads share t's work; lane l starts at a + l*s and steps lanes*s,
 * each accumulator is combined on its own after the loop, and what followed the loop runs on lane
 * 0 only. Where the lanes sit is the parameter `along`:
 *  - x (0): neighbouring threads of a warp. threadIdx.x is read as threadIdx.x/lanes and
 *    blockDim.x as blockDim.x/lanes, the grid grows by lanes along x, and the partial sums meet
 *    in log2(lanes) shuffles. A row walk (thread per row of a row-major matrix) becomes
 *    coalesced: the lanes read neighbouring elements.
 *  - y (1): a new block dimension threadIdx.y; the block becomes (bx', lanes) with bx' = bx
 *    halved until bx'*lanes <= 1024 (the grid grows along x to match). threadIdx.x keeps its
 *    meaning, so a warp still reads 32 neighbouring columns (a coalesced column walk stays
 *    coalesced), and the partial sums meet in shared memory (a row of bx' per lane, a barrier,
 *    a loop by the first row). Every thread reaches the barrier: a guard `if (G)` around the
 *    loop is split into the walk under G, the partial stored by every thread (the accumulator's
 *    0 for a thread outside G), the barrier, and the combine and tail under G again (G is pure
 *    and nothing between writes what it reads); a single `if (c) return;` before the loop is
 *    first made such a guard.
 *
 * Legal when threads are separable (rw_threads_separable), the loop's body is accumulations
 * `acc += e` into scalar registers declared before the loop with the initial value 0, with
 * local declarations feeding them, no accumulator read inside the loop and everything free of
 * side effects, and what runs before the loop has no side effects (it now runs `lanes` times).
 * A floating-point sum is reassociated: verification compares within the launch spec's
 * tolerance, and without one the step is rejected. */
#include "opt.h"
#include "../analysis/analysis.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_ACC = 8, MAX_PRE = 64 };

/* no side effects, where a call of a __device__ function that only reads memory through its
 * pointer arguments (rw_fn_pure with loads: softmax's `row_max(in, cols)`) counts as a read */
static bool no_effects_pre(Node *n, void *ctx) {
  bool *bad = ctx;
  switch (n->kind) {
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: *bad = true; break;
  case ND_CALL:
    if (n->fn) *bad |= !rw_fn_pure(n->fn, true);
    else {
      Node one = *n; /* a builtin: rw_pure's own rule, for the call alone */
      one.args = NULL;
      one.nargs = 0;
      *bad |= !rw_pure(&one);
    }
    break;
  default: break;
  }
  return !*bad;
}
static bool no_effects(Node *e) {
  bool bad = false;
  if (e) walk(e, no_effects_pre, NULL, &bad);
  return !bad;
}

/* a statement that may run once per lane: declarations with initializers free of side effects,
 * tests and returns whose conditions are pure */
static bool pure_stmt(Node *s) {
  if (s->kind == ND_DECL) return no_effects(s->decl_init);
  if (s->kind == ND_IF && !s->els) {
    Node *t = s->then;
    while (t->kind == ND_BLOCK && t->stmts && !t->stmts->next) t = t->stmts;
    if (t->kind != ND_RETURN) return false;
    return rw_pure(s->cond);
  }
  return s->kind == ND_NULL_STMT;
}

static bool is_return_if(Node *s) { return s->kind == ND_IF && !s->els && pure_stmt(s); }

typedef struct {
  Node **list; /* the statement list holding the loop */
  Node *loop;
  Obj *iv;
  Node *step; /* the increment (NULL: 1) */
  int nacc;
  Obj *acc[MAX_ACC]; /* the accumulators, in the order the body first adds to them */
  Node *guard; /* the kernel's last statement `if (G) { ... loop ... }` holding the loop, or NULL */
  int nreturns;       /* `if (c) return;` statements before the loop */
  int npre;           /* declarations before the loop in *list */
  bool sums;          /* the loop's body is sums only (body_ok): the one-loop split takes it */
  char sums_why[256]; /* !sums: why not */
} Site;

static bool reads_var_pre(Node *n, void *ctx) {
  Obj **v = ctx;
  if (n->kind == ND_VAR && n->var == *v) *v = NULL;
  return *v != NULL;
}
/* e (one node, or a statement list when list) reads v */
static bool reads_in(Node *e, Obj *v, bool list) {
  Obj *x = v;
  if (list) walk(e, reads_var_pre, NULL, &x);
  else walk_one(e, reads_var_pre, NULL, &x);
  return x == NULL;
}
static bool reads_var(Node *e, Obj *v) { return reads_in(e, v, false); }

typedef struct {
  Obj *v;
  Node *decl;
} DeclSearch;
static bool find_decl_pre(Node *n, void *ctx) {
  DeclSearch *d = ctx;
  if (n->kind == ND_DECL && n->var == d->v) d->decl = n;
  return d->decl == NULL;
}
static Node *decl_of(Node *list, Obj *v) {
  DeclSearch d = {v, NULL};
  walk(list, find_decl_pre, NULL, &d);
  return d.decl;
}

static bool zero_const(Node *e) {
  e = e ? rw_strip(e) : NULL;
  return e && e->kind == ND_NUM && (is_flonum(e->ty) ? e->fval == 0 : e->ival == 0);
}

static Node *body_list(Node *then) { return then->kind == ND_BLOCK ? then->stmts : then; }

/* the loop's body: local declarations with pure initializers and accumulations `acc += e`
 * into scalars declared before the loop with the value 0; no accumulator read in the loop */
static bool body_ok(Node *kbody, Node *l, Site *s, char *why, size_t len) {
  s->nacc = 0;
  for (Node *st = body_list(l->then); st; st = st->next) {
    if (st->kind == ND_NULL_STMT) continue;
    if (st->kind == ND_DECL) {
      if (!st->decl_init || !rw_pure(st->decl_init) || st->var->in_memory) {
        snprintf(
          why, len,
          "the declaration of '%s' in the loop is not a scalar with an initializer free of side effects",
          st->var->name);
        return false;
      }
      continue;
    }
    Node *a = st->kind == ND_EXPR_STMT ? st->lhs : NULL;
    if (!a || a->kind != ND_ASSIGN_OP || a->op != ND_ADD || rw_strip(a->lhs)->kind != ND_VAR) {
      snprintf(
        why, len,
        "the loop's body is not one accumulation `acc += e` or several (with local declarations feeding them): line %d",
        tok_loc(st->tok).line);
      return false;
    }
    Obj *acc = rw_strip(a->lhs)->var;
    if (!rw_pure(a->rhs) || acc->sc != SC_LOCAL || acc->in_memory || acc == s->iv ||
        !(is_flonum(acc->ty) || acc->ty->kind == TY_INT) || decl_of(l->then, acc)) {
      snprintf(
        why, len,
        "the accumulation `%s += e` is not a sum into a scalar register declared before the loop, free of side effects",
        acc->name);
      return false;
    }
    int j = 0;
    while (j < s->nacc && s->acc[j] != acc) j++;
    if (j == s->nacc) {
      if (s->nacc == MAX_ACC) {
        snprintf(why, len, "more than %d accumulators", MAX_ACC);
        return false;
      }
      s->acc[s->nacc++] = acc;
    }
  }
  if (!s->nacc) {
    snprintf(why, len, "the loop's body is not one accumulation `acc += e` or several");
    return false;
  }
  for (Node *st = body_list(l->then); st; st = st->next) {
    Node *e = st->kind == ND_DECL ? st->decl_init : st->kind == ND_EXPR_STMT ? st->lhs->rhs : NULL;
    for (int j = 0; e && j < s->nacc; j++)
      if (reads_var(e, s->acc[j])) {
        snprintf(
          why, len,
          "the accumulator '%s' is read inside the loop (a lane would see only its part of the sum)",
          s->acc[j]->name);
        return false;
      }
  }
  for (int j = 0; j < s->nacc; j++) {
    Node *d = decl_of(kbody, s->acc[j]);
    if (!d || !d->decl_init) {
      snprintf(why, len, "the accumulator '%s' has no initial value", s->acc[j]->name);
      return false;
    }
    /* a sum that starts at a value (`float v = x[i];`, an update x[i] += A y lifted by canon):
     * every lane starts at 0 and the start is added once after the combine (start_at_zero) */
    if (!zero_const(d->decl_init) &&
        (!rw_pure(d->decl_init) || reads_var(d->decl_init, s->acc[j]))) {
      snprintf(why, len, "the accumulator '%s' starts at a value with side effects",
               s->acc[j]->name);
      return false;
    }
    if (reads_var(l->cond, s->acc[j]) || (s->step && reads_var(s->step, s->acc[j]))) {
      snprintf(why, len, "the loop's bounds depend on the accumulator '%s'", s->acc[j]->name);
      return false;
    }
  }
  return true;
}

/* the loop header `for (T i = a; i < b; i += s)` with s invariant */
static bool header_ok(Node *l, Site *s, char *why, size_t len) {
  if (!l->init || l->init->kind != ND_DECL || l->init->next || !l->init->decl_init || !l->cond ||
      !l->inc) {
    snprintf(why, len, "the loop is not `for (T i = a; i < b; i += s)`");
    return false;
  }
  Obj *iv = l->init->var;
  Node *c = l->cond;
  if ((c->kind != ND_LT && c->kind != ND_LE) || rw_strip(c->lhs)->kind != ND_VAR ||
      rw_strip(c->lhs)->var != iv) {
    snprintf(why, len, "the loop's test is not `i < b`");
    return false;
  }
  Node *inc = l->inc;
  s->iv = iv;
  s->step = NULL;
  bool on_iv = inc->lhs && rw_strip(inc->lhs)->kind == ND_VAR && rw_strip(inc->lhs)->var == iv;
  if ((inc->kind == ND_POSTINC || inc->kind == ND_PREINC) && on_iv) return true;
  if (inc->kind == ND_ASSIGN_OP && inc->op == ND_ADD && on_iv) {
    if (!rw_pure(inc->rhs) || reads_var(inc->rhs, iv)) {
      snprintf(why, len, "the loop's step is not invariant");
      return false;
    }
    s->step = inc->rhs;
    return true;
  }
  snprintf(why, len, "the loop's increment is not `i++` or `i += s`");
  return false;
}

/* the reduction loop in list *list: every statement before it pure, the loop as described */
static bool find_in(Node *kbody, Node **list, Site *s, char *why, size_t len) {
  s->npre = 0;
  for (Node *st = *list; st; st = st->next) {
    if (st->kind != ND_FOR) {
      if (!pure_stmt(st)) {
        snprintf(why, len,
                 "a statement before the loop has side effects (it would run once per lane)");
        return false;
      }
      s->nreturns += is_return_if(st);
      s->npre += st->kind == ND_DECL;
      continue;
    }
    s->list = list;
    s->loop = st;
    if (!header_ok(st, s, why, len)) return false;
    /* sums only: the one-loop split; else the row walks may take it (find_walks) */
    s->sums = body_ok(kbody, st, s, s->sums_why, sizeof s->sums_why);
    return true;
  }
  snprintf(why, len, "no loop");
  return false;
}

static bool loop_pre(Node *n, void *ctx) {
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) *(bool *)ctx = true;
  return !*(bool *)ctx;
}

/* the loop at the kernel's top level, or in the body of a last `if` without else */
static bool find_site(Obj *k, Site *s, char *why, size_t len) {
  memset(s, 0, sizeof *s);
  bool any = false;
  walk(k->body, loop_pre, NULL, &any);
  if (!any) {
    snprintf(why, len, "no loop in the kernel");
    return false;
  }
  Node **list = &k->body->stmts;
  for (Node *st = *list; st; st = st->next) {
    if (st->kind == ND_FOR) return find_in(k->body, list, s, why, len);
    if (st->kind == ND_IF && !st->els && !st->next && !pure_stmt(st)) {
      for (Node *q = *list; q != st; q = q->next) {
        if (!pure_stmt(q)) {
          snprintf(why, len,
                   "a statement before the loop has side effects (it would run once per lane)");
          return false;
        }
        s->nreturns += is_return_if(q);
      }
      Node *t = st->then;
      if (t->kind != ND_BLOCK) {
        snprintf(why, len, "no reduction loop");
        return false;
      }
      s->guard = st;
      return find_in(k->body, &t->stmts, s, why, len);
    }
    if (!pure_stmt(st)) {
      snprintf(why, len,
               "a statement before the loop has side effects (it would run once per lane)");
      return false;
    }
  }
  snprintf(why, len, "no reduction loop at the kernel's top level or in its last if");
  return false;
}

static bool reads_yz_pre(Node *n, void *ctx) {
  if (n->kind == ND_SPECIAL && (n->sreg == SR_TID || n->sreg == SR_NTID) && n->dim > 0)
    *(bool *)ctx = true;
  return !*(bool *)ctx;
}

/* along y: the block's width, halved from the original's until lanes rows fit in 1024 threads
 * (0: none) */
static int64_t width_y(int64_t bx, int lanes) {
  while (bx * lanes > 1024) {
    if (bx % 2) return 0;
    bx /= 2;
  }
  return bx;
}

static const char *along_name(int along) { return along ? "y" : "x"; }

/* ---- row walks (bench/holdout4 DIAGNOSIS.md §4b) ----
 * A thread per row that walks its row several times: a max, then a sum of exp, then the write
 * (softmax); a mean, then a variance, then the write (layer norm). Along x, every loop of the
 * row at the site's level is split across the same lanes: a walk is a counted loop whose body is
 * local declarations, reductions and stores. A reduction is recognized by dependence: the
 * accumulator is written only by its update and read only there, and the update is an
 * associative and commutative operation of the accumulator and a term free of it: a sum
 * (`acc += e`, `acc = acc + e`, `acc = e + acc`), a max or min (`fmaxf`, `fminf`, `fmax`,
 * `fmin`, `max`, `min` with the accumulator either argument, `acc = c ? x : y` and `if (c) acc =
 * e;` where c compares the accumulator and e and the update keeps the larger or the smaller).
 * Each lane reduces its iterations; after the loop the lanes combine by a __shfl_xor_sync
 * butterfly with the kernel's own update, so every lane holds the result and the statements
 * between the loops run on every lane alike. A floating-point max or min is combined in lane
 * order (the lower lane's value first, every lane the same expression): exact in value (a
 * comparison that keeps the accumulator when it fails skips a NaN term as the original does; one
 * that takes the term, `acc = acc > e ? acc : e`, takes a NaN only until the next term, an
 * order the lanes cannot keep: refused). A sum that may start at a value starts every lane at 0
 * and adds the start once after the combine; a max or min starts every lane at the start (the
 * operation is idempotent). A store `P[i] = e` in a walk is made by the lane whose iteration it
 * is: legal when i is affine in the loop's counter with a non-zero coefficient (iterations write
 * distinct elements) and P is read nowhere but at the same index in the same loop (no lane reads
 * what another wrote); P and the pointers read are then declared __restrict__. Stores between
 * or after the walks are made by lane 0; the first statement that is neither a walk, a
 * declaration, an assignment of a local nor such a store begins a tail that lane 0 runs to the
 * end. */
enum { MAX_WALKS = 8, MAX_STORES = 8 };

typedef enum { RED_ADD, RED_MAX, RED_MIN } RedOp;

typedef struct {
  Obj *acc;
  RedOp op;
  Node *stmt; /* its update, a statement of the loop's body */
  Node *term; /* the update's e (every subtree equal to it is another lane's value in the
               * combine) */
} Red;

typedef struct {
  Node *loop;
  Obj *iv;
  Node *step;
  int nred, nstore;
  Red red[MAX_ACC];
  Node *store[MAX_STORES]; /* the assignments `P[i] = e` of its body */
} Walk;

typedef struct {
  int n;
  Walk w[MAX_WALKS];
  int nlane0;
  Node *lane0[MAX_STORES]; /* stores between or after the walks: lane 0 makes them */
  Node *tail;              /* the first statement lane 0 runs alone, to the list's end */
  bool restrict_;          /* stores and reads of other pointers: __restrict__ assumed */
} Walks;

static const char *red_name(RedOp op) {
  return op == RED_ADD ? "sum" : op == RED_MAX ? "max" : "min";
}

static bool is_var_node(Node *n, Obj *v) {
  n = n ? rw_strip(n) : NULL;
  return n && n->kind == ND_VAR && n->var == v;
}

/* a comparison: 1 when true where its left operand is the larger (>, >=), -1 the smaller */
static int cmp_dir(Node *c) {
  c = rw_strip(c);
  return c->kind == ND_GT || c->kind == ND_GE ? 1 : c->kind == ND_LT || c->kind == ND_LE ? -1 : 0;
}

/* `c ? x : y` (an if's `if (c) acc = x;` has y the accumulator): a max or min of acc and e when
 * {x, y} is {acc, e} and c compares acc and e; -1 otherwise */
static int select_op(Node *c, Node *x, Node *y, Obj *acc, Node **term) {
  int dir = cmp_dir(c);
  if (!dir) return -1;
  c = rw_strip(c);
  Node *e = is_var_node(x, acc) ? y : is_var_node(y, acc) ? x : NULL;
  if (!e || reads_var(e, acc)) return -1;
  Node *p = rw_strip(c->lhs), *q = rw_strip(c->rhs);
  bool p_acc = is_var_node(p, acc);
  if (!(p_acc ? rw_same_expr(q, rw_strip(e)) : is_var_node(q, acc) && rw_same_expr(p, rw_strip(e))))
    return -1;
  *term = e;
  /* x is taken where c holds: it is the larger when it is c's left operand and c is > */
  bool x_left = is_var_node(x, acc) == p_acc;
  return (x_left ? dir : -dir) > 0 ? RED_MAX : RED_MIN;
}

static int call_op(Node *call, Obj *acc, Node **term) {
  call = rw_strip(call);
  if (call->kind != ND_CALL || call->fn || call->nargs != 2) return -1;
  int op = -1;
  if (call->builtin == BI_MAX) op = RED_MAX;
  else if (call->builtin == BI_MIN) op = RED_MIN;
  else if (call->builtin == BI_MATH && call->math) {
    const char *n = call->math->name;
    if (!strcmp(n, "fmaxf") || !strcmp(n, "fmax")) op = RED_MAX;
    if (!strcmp(n, "fminf") || !strcmp(n, "fmin")) op = RED_MIN;
  }
  Node *a = call->args, *b = a ? a->next : NULL;
  if (op < 0 || !b) return -1;
  Node *e = is_var_node(a, acc) ? b : is_var_node(b, acc) ? a : NULL;
  if (!e || reads_var(e, acc)) return -1;
  *term = e;
  return op;
}

/* the reduction a statement of a loop's body is, by dependence (the header's list); why says
 * what it is not */
static bool classify_update(Node *st, Obj *iv, Red *r, char *why, size_t len) {
  memset(r, 0, sizeof *r);
  r->stmt = st;
  int op = -1;
  Node *lhs = NULL, *term = NULL;
  if (st->kind == ND_EXPR_STMT && (st->lhs->kind == ND_ASSIGN || st->lhs->kind == ND_ASSIGN_OP)) {
    Node *a = st->lhs;
    lhs = rw_strip(a->lhs);
    if (lhs->kind != ND_VAR) return false;
    Obj *acc = lhs->var;
    if (a->kind == ND_ASSIGN_OP) {
      if (a->op == ND_ADD && !reads_var(a->rhs, acc)) op = RED_ADD, term = a->rhs;
    } else {
      Node *v = rw_strip(a->rhs);
      if (v->kind == ND_ADD && (is_var_node(v->lhs, acc) || is_var_node(v->rhs, acc))) {
        term = is_var_node(v->lhs, acc) ? v->rhs : v->lhs;
        op = reads_var(term, acc) ? -1 : RED_ADD;
      } else if (v->kind == ND_COND) {
        op = select_op(v->cond, v->then, v->els, acc, &term);
        if (op >= 0 && is_flonum(acc->ty) && !is_var_node(v->els, acc)) {
          snprintf(
            why, len,
            "the update of '%s' (line %d) takes a NaN term where its comparison fails and drops it at the next: its result depends on the order (`if (e > %s) %s = e;` or fmaxf do not)",
            acc->name, tok_loc(st->tok).line, acc->name, acc->name);
          return false;
        }
      } else op = call_op(v, acc, &term);
    }
  } else if (st->kind == ND_IF && !st->els) {
    Node *t = st->then;
    while (t->kind == ND_BLOCK && t->stmts && !t->stmts->next) t = t->stmts;
    if (t->kind == ND_EXPR_STMT && t->lhs->kind == ND_ASSIGN &&
        rw_strip(t->lhs->lhs)->kind == ND_VAR) {
      lhs = rw_strip(t->lhs->lhs);
      op = select_op(st->cond, t->lhs->rhs, lhs, lhs->var, &term);
    }
  }
  if (op < 0 || !lhs) return false;
  Obj *acc = lhs->var;
  if (!rw_pure(term) || (st->kind == ND_IF && !rw_pure(st->cond)) || acc->sc != SC_LOCAL ||
      acc->in_memory || acc == iv || !(is_flonum(acc->ty) || is_integer(acc->ty)) ||
      acc->ty->kind == TY_BOOL || (op != RED_ADD && rw_strip(term)->ty->kind != acc->ty->kind)) {
    snprintf(
      why, len,
      "the %s into '%s' (line %d) is not into a scalar register of the term's type, or its term has side effects",
      red_name(op), acc->name, tok_loc(st->tok).line);
    return false;
  }
  r->acc = acc;
  r->op = op;
  r->term = term;
  return true;
}

/* `P[i] = e` (or `P[i] op= e`) through a pointer parameter, everything free of side effects */
static Obj *store_base(Node *st) {
  if (st->kind != ND_EXPR_STMT) return NULL;
  Node *a = st->lhs;
  if (a->kind != ND_ASSIGN && a->kind != ND_ASSIGN_OP) return NULL;
  Node *l = rw_strip(a->lhs);
  if (l->kind != ND_INDEX || !rw_pure(l->rhs) || !rw_pure(a->rhs)) return NULL;
  Node *b = rw_strip(l->lhs);
  return b->kind == ND_VAR && b->var->sc == SC_PARAM && b->var->ty->kind == TY_PTR ? b->var : NULL;
}

/* a loop of the row: its header as the site's, its body declarations, reductions and stores */
static bool walk_of(Node *l, Walk *w, char *why, size_t len) {
  memset(w, 0, sizeof *w);
  Site hs = {0};
  if (!header_ok(l, &hs, why, len)) return false;
  w->loop = l;
  w->iv = hs.iv;
  w->step = hs.step;
  for (Node *st = body_list(l->then); st; st = st->next) {
    if (st->kind == ND_NULL_STMT) continue;
    if (st->kind == ND_DECL) {
      if (!st->decl_init || !rw_pure(st->decl_init) || st->var->in_memory) {
        snprintf(
          why, len,
          "the declaration of '%s' in the loop at line %d is not a scalar with a pure initializer",
          st->var->name, tok_loc(l->tok).line);
        return false;
      }
      continue;
    }
    if (store_base(st)) {
      if (w->nstore == MAX_STORES) {
        snprintf(why, len, "more than %d stores in the loop at line %d", MAX_STORES,
                 tok_loc(l->tok).line);
        return false;
      }
      w->store[w->nstore++] = st->lhs;
      continue;
    }
    Red r;
    why[0] = 0;
    if (!classify_update(st, w->iv, &r, why, len)) {
      if (!why[0])
        snprintf(
          why, len,
          "line %d is not a reduction (a sum, max or min into a local), a store or a declaration",
          tok_loc(st->tok).line);
      return false;
    }
    int j = 0;
    while (j < w->nred && w->red[j].acc != r.acc) j++;
    if (j < w->nred && w->red[j].op != r.op) {
      snprintf(why, len, "'%s' is updated by two operations", r.acc->name);
      return false;
    }
    if (j == w->nred) {
      if (w->nred == MAX_ACC) {
        snprintf(why, len, "more than %d accumulators", MAX_ACC);
        return false;
      }
      w->red[w->nred++] = r;
    }
  }
  /* an accumulator is read only by its updates (their terms do not read it), declared outside */
  for (int j = 0; j < w->nred; j++) {
    Obj *acc = w->red[j].acc;
    if (decl_of(l->then, acc) || reads_var(l->cond, acc) || (w->step && reads_var(w->step, acc))) {
      snprintf(why, len, "the accumulator '%s' is declared in the loop or bounds it", acc->name);
      return false;
    }
    for (Node *st = body_list(l->then); st; st = st->next) {
      Red r;
      char no[8];
      if (classify_update(st, w->iv, &r, no, sizeof no) && r.acc == acc) continue;
      if (reads_in(st, acc, false)) {
        snprintf(why, len,
                 "the accumulator '%s' is read inside the loop (a lane would see only its part)",
                 acc->name);
        return false;
      }
    }
  }
  return true;
}

/* a statement every lane may run alike: a declaration or an assignment of a local scalar, pure */
static bool uniform_stmt(Node *st) {
  if (st->kind == ND_NULL_STMT) return true;
  if (st->kind == ND_DECL) return !st->var->in_memory && (!st->decl_init || rw_pure(st->decl_init));
  if (st->kind != ND_EXPR_STMT) return false;
  Node *a = st->lhs;
  bool asg = a->kind == ND_ASSIGN || a->kind == ND_ASSIGN_OP;
  bool inc =
    a->kind == ND_PREINC || a->kind == ND_POSTINC || a->kind == ND_PREDEC || a->kind == ND_POSTDEC;
  if (!asg && !inc) return false;
  Node *l = rw_strip(a->lhs);
  return l->kind == ND_VAR && l->var->sc == SC_LOCAL && !l->var->in_memory &&
         (inc || rw_pure(a->rhs));
}

typedef struct {
  Obj *p;
  Node *stores[MAX_WALKS * MAX_STORES + MAX_STORES]; /* the pure assignments to P[...] */
  int nstores;
  Node *bad; /* a read of P that is not at a store's index in the store's loop */
  const Walks *w;
  bool other; /* P used otherwise than indexed */
} PtrUse;

static bool ptr_use_pre(Node *n, void *ctx) {
  PtrUse *u = ctx;
  if (u->bad || u->other) return false;
  if ((n->kind == ND_ASSIGN) && rw_strip(n->lhs)->kind == ND_INDEX &&
      is_var_node(rw_strip(n->lhs)->lhs, u->p)) {
    walk_one(rw_strip(n->lhs)->rhs, ptr_use_pre, NULL, u); /* the index; the element is written */
    walk_one(n->rhs, ptr_use_pre, NULL, u);
    return false;
  }
  if (n->kind == ND_INDEX && is_var_node(n->lhs, u->p)) {
    /* a read: at the index of a store in the same walk */
    bool ok = false;
    for (int i = 0; i < u->w->n && !ok; i++) {
      const Walk *w = &u->w->w[i];
      if (!rw_contains(w->loop, n)) continue;
      for (int s = 0; s < w->nstore && !ok; s++) {
        Node *l = rw_strip(w->store[s]->lhs);
        ok = is_var_node(l->lhs, u->p) && rw_same_expr(rw_strip(l->rhs), rw_strip(n->rhs));
      }
    }
    if (!ok) u->bad = n;
    walk_one(n->rhs, ptr_use_pre, NULL, u);
    return false;
  }
  if (n->kind == ND_VAR && n->var == u->p) u->other = true;
  return true;
}

/* the stores of walk w each at an element of its own per iteration: an index affine in the
 * counter with a non-zero coefficient, no other loop's variable in it */
static bool stores_own(Facts *f, const Walk *w, char *why, size_t len) {
  for (int k = 0; k < w->nstore; k++) {
    Node *l = rw_strip(w->store[k]->lhs);
    bool ind = false;
    Affine af = facts_index_form(f, l, &ind);
    int64_t coef = 0;
    bool own = af.ok && !ind && affine_var_coefficient(&af, w->iv, &coef) && coef != 0;
    for (int t = 0; own && t < af.n; t++)
      for (int d = 0; d < af.t[t].deg; d++) {
        const Sym *y = &af.t[t].sym[d];
        if ((y->kind == SYM_LOOP || y->kind == SYM_PROGRESS) && y->var != w->iv) own = false;
      }
    if (!own) {
      snprintf(
        why, len,
        "the store to '%s' at line %d is not at an element of its own per iteration (an index affine in '%s' with a non-zero coefficient)",
        rw_strip(l->lhs)->var->name, tok_loc(w->store[k]->tok).line, w->iv->name);
      return false;
    }
  }
  return true;
}

/* the pointer parameters the tail writes (an assignment, ++/-- or atomic through P[i]); false
 * when it writes through anything else */
typedef struct {
  Obj *p[16];
  int n;
  bool unknown;
} TailWrites;
static void tail_write(TailWrites *t, Node *target) {
  Node *l = target ? rw_strip(target) : NULL;
  if (l && l->kind == ND_ADDR) l = rw_strip(l->lhs);
  if (l && l->kind == ND_VAR && l->var->sc == SC_LOCAL && !l->var->in_memory) return;
  Node *b = l && l->kind == ND_INDEX ? rw_strip(l->lhs) : NULL;
  if (!b || b->kind != ND_VAR || b->var->sc != SC_PARAM || t->n == 16) {
    t->unknown = true;
    return;
  }
  for (int i = 0; i < t->n; i++)
    if (t->p[i] == b->var) return;
  t->p[t->n++] = b->var;
}
static bool tail_writes_pre(Node *n, void *ctx) {
  TailWrites *t = ctx;
  switch (n->kind) {
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: tail_write(t, n->lhs); break;
  case ND_DECL: break;
  case ND_CALL:
    if (n->fn || (n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR))
      tail_write(t, n->args);
    break;
  default: break;
  }
  return true;
}

/* the walks from the site's loop on; false with why when the loop is not one, or their stores
 * are not each a lane's own */
static bool find_walks(PassCtx *c, Site *s, Walks *W, char *why, size_t len) {
  memset(W, 0, sizeof *W);
  why[0] = 0;
  Facts *f = facts_new(c->p, c->k);
  for (Node *st = s->loop; st; st = st->next) {
    if (st->kind == ND_FOR && W->n < MAX_WALKS) {
      char no[256] = "";
      if (walk_of(st, &W->w[W->n], no, sizeof no) && stores_own(f, &W->w[W->n], no, sizeof no)) {
        W->n++;
        continue;
      }
      if (st == s->loop) {
        snprintf(why, len, "%s", no);
        facts_free(f);
        return false;
      }
    } else if (uniform_stmt(st)) continue;
    else if (store_base(st) && W->nlane0 < MAX_STORES) {
      W->lane0[W->nlane0++] = st->lhs;
      continue;
    }
    W->tail = st;
    break;
  }
  facts_free(f);
  int nred = 0, nstore = W->nlane0;
  for (int i = 0; i < W->n; i++) nred += W->w[i].nred, nstore += W->w[i].nstore;
  if (!nred) {
    snprintf(why, len, "no reduction in the loops of the row");
    return false;
  }
  /* what lane 0 writes in the tail is used nowhere else: the other lanes may still be in a walk */
  if (W->tail) {
    TailWrites tw = {0};
    walk(W->tail, tail_writes_pre, NULL, &tw);
    Node **slot = rw_slot_of(s->list, W->tail);
    *slot = NULL; /* the kernel without its tail, for a moment */
    bool used = false;
    for (int i = 0; i < tw.n && !used; i++)
      if (reads_in(c->k->body, tw.p[i], false)) {
        used = true;
        snprintf(why, len,
                 "'%s' is written by the statements lane 0 runs alone and used before them",
                 tw.p[i]->name);
      }
    *slot = W->tail;
    if (tw.unknown && !used)
      snprintf(why, len,
               "the statements lane 0 runs alone write through a pointer that is not a parameter");
    if (used || tw.unknown) return false;
    nstore += tw.n;
  }
  /* each pointer stored to: written by one walk (each lane its own elements) or by lane 0 only,
   * read only at a store's index in that walk */
  bool ok = true;
  Obj *done[MAX_WALKS * MAX_STORES + MAX_STORES];
  int ndone = 0;
  for (int i = 0; i <= W->n && ok; i++) {
    int ns = i < W->n ? W->w[i].nstore : W->nlane0;
    for (int k = 0; k < ns && ok; k++) {
      Node *a = i < W->n ? W->w[i].store[k] : W->lane0[k];
      Obj *p = rw_strip(rw_strip(a->lhs)->lhs)->var;
      bool seen = false;
      for (int d = 0; d < ndone; d++) seen |= done[d] == p;
      if (seen) continue;
      done[ndone++] = p;
      /* the walks and lane 0 that store to p: one walk, or lane 0 alone */
      int writers = 0;
      for (int j = 0; j < W->n; j++)
        for (int q = 0; q < W->w[j].nstore; q++)
          if (is_var_node(rw_strip(W->w[j].store[q]->lhs)->lhs, p)) {
            writers++;
            break;
          }
      for (int q = 0; q < W->nlane0; q++)
        if (is_var_node(rw_strip(W->lane0[q]->lhs)->lhs, p)) {
          writers++;
          break;
        }
      PtrUse u = {.p = p, .w = W};
      walk(c->k->body, ptr_use_pre, NULL, &u);
      if (writers > 1 || u.bad || u.other) {
        snprintf(why, len,
                 writers > 1
                   ? "'%s' is written by two loops of the row, or by a loop and a statement outside"
                   : "'%s' is read where another lane may have written it (line %d)",
                 p->name, u.bad ? tok_loc(u.bad->tok).line : 0);
        ok = false;
      }
    }
  }
  if (!ok) return false;
  int nptr = 0;
  bool plain = false;
  for (Obj *q = c->k->params; q; q = q->next)
    if (q->ty->kind == TY_PTR) {
      nptr++;
      plain |= !(q->ty->qual & Q_RESTRICT);
    }
  W->restrict_ = nstore && nptr > 1 && plain;
  return true;
}

static int split_mode(PassCtx *c, Site *s, Walks *W, char *why, size_t len);

/* what the walks' split does, said; the site the loop whose floating-point sum has the most
 * terms is reassociated at (the bound's n), else the first */
static void walks_text(const Walks *W, Buf *b, bool *fl, Node **site) {
  *fl = false;
  *site = W->w[0].loop;
  for (int i = 0; i < W->n; i++) {
    const Walk *w = &W->w[i];
    buf_printf(b, "%sline %d: ", i ? "; " : "", tok_loc(w->loop->tok).line);
    for (int j = 0; j < w->nred; j++) {
      buf_printf(b, "%sthe %s into '%s'", j ? ", " : "", red_name(w->red[j].op),
                 w->red[j].acc->name);
      if (w->red[j].op == RED_ADD && is_flonum(w->red[j].acc->ty) && !*fl) {
        *fl = true;
        *site = w->loop;
      }
    }
    for (int j = 0; j < w->nstore; j++) {
      Obj *p = rw_strip(rw_strip(w->store[j]->lhs)->lhs)->var;
      buf_printf(b, "%sthe store to '%s'", j || w->nred ? ", " : "", p->name);
    }
  }
}

static Legality legal_walks(PassCtx *c, Walks *W, int L) {
  Buf b = {0};
  bool fl;
  Node *site;
  walks_text(W, &b, &fl, &site);
  if (fl) c->spec |= OPT_SPEC_REASSOC;
  snprintf(
    c->why, sizeof c->why,
    "%d walks of the row split across %d lanes along x (%s), each reduction combined so every lane holds it%s%s",
    W->n, L, b.s, W->tail ? ", the rest on lane 0" : "",
    fl
      ? " (a floating-point sum reassociated: verified within the spec's tolerance and the bound 2*n*eps*sum|terms|; max and min exact)"
      : "");
  buf_free(&b);
  c->site = site;
  return LEGAL;
}

static Legality legal(PassCtx *c) {
  int L = c->param[0], along = c->param[1];
  char no[256];
  bool tid_x;
  if (!rw_threads_separable(c->k->body, &tid_x, no, sizeof no)) {
    snprintf(c->why, sizeof c->why, "threads cannot be regrouped: %s", no);
    return ILLEGAL;
  }
  Site s;
  if (!tid_x || !find_site(c->k, &s, c->why, sizeof c->why)) {
    if (!tid_x) snprintf(c->why, sizeof c->why, "the kernel does not read threadIdx.x");
    return NOT_APPLICABLE;
  }
  Walks W;
  int mode = split_mode(c, &s, &W, c->why, sizeof c->why);
  if (mode < 0) return NOT_APPLICABLE;
  /* a group of L neighbouring x-threads shares a warp when L divides blockDim.x (the group lies
   * in one row) and the block is whole warps (the row's linear ids x + blockDim.x*y do not cross
   * a multiple of 32, and every lane the mask names exists): a 16x16 block splits by 16 or less */
  int64_t total = c->L->block[0] * c->L->block[1] * c->L->block[2];
  if (!along && (c->L->block[0] % L || (c->L->block[0] % 32 && total % 32))) {
    snprintf(
      c->why, sizeof c->why,
      "blockDim.x (%lld) is not a multiple of %d lanes, or the block (%lld threads) is not whole warps: lanes of one group must share a warp",
      (long long)c->L->block[0], L, (long long)total);
    return NOT_APPLICABLE;
  }
  if (along) {
    bool yz = false;
    walk(c->k->body, reads_yz_pre, NULL, &yz);
    const char *no_y =
      c->L->block[1] != 1 || c->L->block[2] != 1
        ? "the block is not one-dimensional (threadIdx.y would hold the lanes)"
      : yz ? "the kernel reads threadIdx.y/z or blockDim.y/z (threadIdx.y would hold the lanes)"
      : !width_y(c->L->block[0], L)
        ? "no block width halved from blockDim.x fits lanes rows in 1024 threads"
      : (s.guard && s.nreturns) || s.nreturns > 1
        ? "a return before the loop would keep threads from the barrier before the combine"
      : s.npre >= MAX_PRE ? "too many declarations before the loop"
                          : NULL;
    if (no_y) {
      snprintf(c->why, sizeof c->why, "along y: %s", no_y);
      return NOT_APPLICABLE;
    }
  }
  if (mode == 1) return legal_walks(c, &W, L);
  Buf names = {0};
  for (int j = 0; j < s.nacc; j++) buf_printf(&names, "%s'%s'", j ? ", " : "", s.acc[j]->name);
  bool fl = false;
  for (int j = 0; j < s.nacc; j++) fl |= is_flonum(s.acc[j]->ty) != 0;
  if (fl) c->spec |= OPT_SPEC_REASSOC;
  snprintf(
    c->why, sizeof c->why, "the sum%s into %s (line %d) split across %d lanes along %s%s",
    s.nacc > 1 ? "s" : "", names.s, tok_loc(s.loop->tok).line, L, along_name(along),
    fl
      ? " (a floating-point sum reassociated: verified within the spec's tolerance, and on signed data within 2*n*eps*sum|terms|)"
      : "");
  buf_free(&names);
  c->site = s.loop;
  return LEGAL;
}

static Node *shfl_down(Token *at, Node *mask, Obj *acc, int delta, int width) {
  Node *call = new_node(ND_CALL, rw_tok(at, TK_IDENT, "__shfl_down_sync"));
  call->builtin = BI_SHFL_DOWN;
  Node *v = rw_var(at, acc);
  mask->next = v;
  v->next = rw_unum(at, delta);
  v->next->next = rw_num(at, width);
  call->args = mask;
  call->nargs = 4;
  call->ty = acc->ty;
  return call;
}

/* lane l starts at a + l*s and steps L*s */
static void restride(PassCtx *c, Site *s, Obj *lane, int L, Token *at) {
  Node *init = s->loop->init;
  int64_t a0;
  Node *offset = s->step ? rw_bin(ND_MUL, rw_var(at, lane), clone_node(s->step)) : rw_var(at, lane);
  Node *first = node_int_constant(init->decl_init, &a0) && a0 == 0
                  ? offset
                  : rw_bin(ND_ADD, init->decl_init, offset);
  Node *asg = rw_assign(rw_var(at, s->iv), first); /* converted as an initializer is */
  init->decl_init = asg->rhs;
  s->iv->init = init->decl_init;
  int stride = c->mutation == 3 ? 1 : L; /* broken: lanes overlap */
  Node *stepv = s->step ? clone_node(s->step) : NULL;
  s->loop->inc =
    rw_assign_op(ND_ADD, rw_var(at, s->iv),
                 s->step ? rw_bin(ND_MUL, stepv, rw_num(at, stride)) : rw_num(at, stride));
}

/* the accumulator whose partial sums accumulator j takes: its own (mutation 4: the first's) */
static Obj *source_acc(PassCtx *c, const Site *s, int j) {
  return c->mutation == 4 && j == 1 ? s->acc[0] : s->acc[j];
}

static Node *lane_is_0(Token *at, Obj *lane) {
  return rw_bin(ND_EQ, rw_var(at, lane), rw_num(at, 0));
}

/* along x: a group of L neighbouring threads is one; shuffles join the partial sums */
static void apply_x(PassCtx *c, Site *s, int L) {
  Node *body = c->k->body;
  Token *at = s->loop->tok;
  int nslots;
  Node ***slots = rw_x_slots(&body->stmts, false, &nslots);
  for (int i = 0; i < nslots; i++) {
    Node *n = *slots[i], *next = n->next;
    Node *r = rw_bin(ND_DIV, rw_special(n->tok, n->sreg, 0), rw_unum(n->tok, L));
    r->next = next;
    *slots[i] = r;
  }
  free(slots);
  Obj *lane = rw_new_var(c->p, c->k, "lane", ty_int, SC_LOCAL, at);
  Node *dl = rw_decl(lane, rw_bin(ND_MOD, rw_special(at, SR_TID, 0), rw_unum(at, L)));
  restride(c, s, lane, L, at);
  /* the group's lanes within the warp: from threadIdx.x where a row is whole warps, else from
   * the linear thread id (a 16-wide row is half a warp) */
  Node *tid = rw_special(at, SR_TID, 0);
  if (c->L->block[0] % 32) {
    Node *yz = rw_special(at, SR_TID, 1);
    if (c->L->block[2] > 1)
      yz =
        rw_bin(ND_ADD, yz, rw_bin(ND_MUL, rw_special(at, SR_NTID, 1), rw_special(at, SR_TID, 2)));
    tid = rw_bin(ND_ADD, tid, rw_bin(ND_MUL, rw_special(at, SR_NTID, 0), yz));
  }
  Node *mask = L == 32 ? rw_unum(at, 0xffffffffu)
                       : rw_bin(ND_SHL, rw_unum(at, (1u << L) - 1),
                                rw_bin(ND_BITAND, tid, rw_unum(at, 31u & ~(unsigned)(L - 1))));
  Obj *gm = rw_new_var(c->p, c->k, "group", ty_uint, SC_LOCAL, at);
  Node head = {0}, *cur = &head;
  cur = cur->next = rw_decl(gm, mask);
  for (int o = c->mutation == 1 ? L / 4 : L / 2; o > 0; o /= 2) /* broken: half the lanes dropped */
    for (int j = 0; j < s->nacc; j++)
      cur = cur->next = rw_expr_stmt(rw_assign_op(
        ND_ADD, rw_var(at, s->acc[j]), shfl_down(at, rw_var(at, gm), source_acc(c, s, j), o, L)));
  Node *tail = s->loop->next;
  if (tail)
    cur = cur->next = c->mutation == 2 ? rw_block(at, tail) /* broken: every lane runs the tail */
                                       : rw_if(lane_is_0(at, lane), rw_block(at, tail), NULL);
  s->loop->next = head.next;
  dl->next = body->stmts;
  body->stmts = dl;
  c->new_grid[0] = c->L->grid[0] * L;
  c->cover[0] = c->L->block[0] / L;
  c->grid_generic =
    true; /* each original block becomes whole new blocks: nothing of the grid written */
}

/* ---- row walks: the rewrite ---- */
static Node *shfl_xor(Token *at, Obj *mask, Obj *acc, int delta, int width, bool down) {
  Node *call =
    new_node(ND_CALL, rw_tok(at, TK_IDENT, down ? "__shfl_down_sync" : "__shfl_xor_sync"));
  call->builtin = down ? BI_SHFL_DOWN : BI_SHFL_XOR;
  Node *m = rw_var(at, mask), *v = rw_var(at, acc);
  m->next = v;
  v->next = down ? rw_unum(at, delta) : rw_num(at, delta);
  v->next->next = rw_num(at, width);
  call->args = m;
  call->nargs = 4;
  call->ty = acc->ty;
  return call;
}

/* in the slots of a statement list and its kids: every expression equal to pat becomes v */
static void subst_same(Node **list, Node *pat, Obj *v) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *n = *slot;
    if (n->kind != ND_DECL && n->kind != ND_EXPR_STMT && n->kind != ND_IF &&
        rw_same_expr(rw_strip(n), pat)) {
      Node *r = rw_var(n->tok, v);
      r->next = n->next;
      *slot = r;
      continue;
    }
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(n, kids);
    for (int k = 0; k < nk; k++) subst_same(kids[k], pat, v);
  }
}

/* the slot holding node n in the statement list and its kids (n is there) */
static Node **slot_of_node(Node **list, Node *n) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    if (*slot == n) return slot;
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(*slot, kids);
    for (int k = 0; k < nk; k++) {
      Node **in = slot_of_node(kids[k], n);
      if (in) return in;
    }
  }
  return NULL;
}

static Node *select_node(Node *c, Node *a, Node *b) {
  Node *n = new_node(ND_COND, c->tok);
  n->cond = c;
  n->then = a;
  n->els = b;
  add_type(n);
  return n;
}

/* the statements that combine reduction r of the lanes' partials (appended at *cur): a sum by
 * `acc += __shfl_xor_sync(...)`, an integer max or min by the update with another lane's value
 * as its term, a floating-point one in lane order (lo the lower lane's value) */
static Node *combine(PassCtx *c, const Walk *w, int j, Obj *lane, Obj *gm, int L, Node *cur) {
  const Red *r = &w->red[j];
  Token *at = w->loop->tok;
  Obj *src = c->mutation == 4 && j == 1 && w->red[0].acc->ty->kind == r->acc->ty->kind
               ? w->red[0].acc
               : r->acc;
  bool down = c->mutation == 8; /* broken: the result in lane 0 only */
  Obj *o = NULL, *hi = NULL;
  if (r->op != RED_ADD) {
    o = rw_new_var(c->p, c->k, fmt("%s_o", r->acc->name), r->acc->ty, SC_LOCAL, at);
    cur = cur->next = rw_decl(o, NULL);
    if (is_flonum(r->acc->ty)) {
      hi = rw_new_var(c->p, c->k, fmt("%s_hi", r->acc->name), r->acc->ty, SC_LOCAL, at);
      cur = cur->next = rw_decl(hi, NULL);
    }
  }
  for (int d = c->mutation == 1 ? L / 4 : L / 2; d > 0; d /= 2) {
    Node *sh = shfl_xor(at, gm, src, d, L, down);
    if (r->op == RED_ADD) {
      cur = cur->next = rw_expr_stmt(rw_assign_op(ND_ADD, rw_var(at, r->acc), sh));
      continue;
    }
    cur = cur->next = rw_expr_stmt(rw_assign(rw_var(at, o), sh));
    Obj *term = o;
    if (hi) { /* hi = lane & d ? acc : o; acc = lane & d ? o : acc */
      Node *up = rw_bin(ND_BITAND, rw_var(at, lane), rw_num(at, d));
      cur = cur->next =
        rw_expr_stmt(rw_assign(rw_var(at, hi), select_node(up, rw_var(at, r->acc), rw_var(at, o))));
      up = rw_bin(ND_BITAND, rw_var(at, lane), rw_num(at, d));
      cur = cur->next = rw_expr_stmt(
        rw_assign(rw_var(at, r->acc), select_node(up, rw_var(at, o), rw_var(at, r->acc))));
      term = hi;
    }
    /* the update with another lane's value for its term: the term itself (a call is never
     * "the same" as another) swapped before the copy, its copies in a comparison after */
    Node *first = r->stmt, **slot = slot_of_node(&first, r->term), *keep = *slot;
    Node *mark = rw_var(keep->tok, term);
    mark->next = keep->next;
    *slot = mark;
    Node *u = clone_node(r->stmt);
    *slot = keep;
    u->next = NULL;
    subst_same(&u, rw_strip(r->term), term);
    cur = cur->next = u;
  }
  return cur;
}

/* does a statement of list before `loop` (from the accumulator's declaration on) write acc, or
 * is the declaration elsewhere or not 0? then the sum's start is kept aside */
static bool sum_starts_at_zero(Node *list, Node *loop, Obj *acc) {
  Node *st = list;
  while (st && st != loop && !(st->kind == ND_DECL && st->var == acc)) st = st->next;
  if (!st || st == loop || !zero_const(st->decl_init)) return false;
  for (st = st->next; st && st != loop; st = st->next)
    if (rw_writes_var(st, acc)) return false;
  return st == loop;
}

static void apply_walks(PassCtx *c, Site *s, Walks *W, int L) {
  Node *body = c->k->body;
  Token *at = s->loop->tok;
  int nslots;
  Node ***slots = rw_x_slots(&body->stmts, false, &nslots);
  for (int i = 0; i < nslots; i++) {
    Node *n = *slots[i], *next = n->next;
    Node *r = rw_bin(ND_DIV, rw_special(n->tok, n->sreg, 0), rw_unum(n->tok, L));
    r->next = next;
    *slots[i] = r;
  }
  free(slots);
  Obj *lane = rw_new_var(c->p, c->k, "lane", ty_int, SC_LOCAL, at);
  Node *dl = rw_decl(lane, rw_bin(ND_MOD, rw_special(at, SR_TID, 0), rw_unum(at, L)));
  Node *tid = rw_special(at, SR_TID, 0);
  if (c->L->block[0] % 32) {
    Node *yz = rw_special(at, SR_TID, 1);
    if (c->L->block[2] > 1)
      yz =
        rw_bin(ND_ADD, yz, rw_bin(ND_MUL, rw_special(at, SR_NTID, 1), rw_special(at, SR_TID, 2)));
    tid = rw_bin(ND_ADD, tid, rw_bin(ND_MUL, rw_special(at, SR_NTID, 0), yz));
  }
  Node *mask = L == 32 ? rw_unum(at, 0xffffffffu)
                       : rw_bin(ND_SHL, rw_unum(at, (1u << L) - 1),
                                rw_bin(ND_BITAND, tid, rw_unum(at, 31u & ~(unsigned)(L - 1))));
  Obj *gm = rw_new_var(c->p, c->k, "group", ty_uint, SC_LOCAL, at);
  dl->next = rw_decl(gm, mask);
  for (int i = 0; i < W->n; i++) {
    Walk *w = &W->w[i];
    Token *wt = w->loop->tok;
    Site t = {.loop = w->loop, .iv = w->iv, .step = w->step};
    restride(c, &t, lane, L, wt);
    Node head = {0}, *cur = &head;
    for (int j = 0; j < w->nred; j++) cur = combine(c, w, j, lane, gm, L, cur);
    /* a sum that may start at a value: each lane from 0, the start added once after */
    for (int j = 0; j < w->nred; j++) {
      Obj *acc = w->red[j].acc;
      if (w->red[j].op != RED_ADD || sum_starts_at_zero(*s->list, w->loop, acc)) continue;
      Obj *st = rw_new_var(c->p, c->k, fmt("%s_start", acc->name), acc->ty, SC_LOCAL, wt);
      Node *sd = rw_decl(st, rw_var(wt, acc));
      if (c->mutation != 7) /* broken: every lane adds its start */
        sd->next = rw_expr_stmt(rw_assign(rw_var(wt, acc), rw_num(wt, 0)));
      rw_insert_before(rw_slot_of(s->list, w->loop), sd);
      cur = cur->next =
        rw_expr_stmt(rw_assign(rw_var(wt, acc), rw_bin(ND_ADD, rw_var(wt, st), rw_var(wt, acc))));
    }
    cur->next = w->loop->next;
    w->loop->next = head.next;
  }
  /* stores outside the walks by lane 0; the tail by lane 0 */
  for (int i = 0; i < W->nlane0; i++) {
    Node **slot = s->list;
    while (*slot && !(((*slot)->kind == ND_EXPR_STMT) && (*slot)->lhs == W->lane0[i]))
      slot = &(*slot)->next;
    if (!*slot) continue;
    Node *st = *slot, *next = st->next;
    st->next = NULL;
    Node *g = rw_if(lane_is_0(st->tok, lane), rw_block(st->tok, st), NULL);
    g->next = next;
    *slot = g;
  }
  if (W->tail) {
    Node **slot = rw_slot_of(s->list, W->tail);
    *slot = rw_if(lane_is_0(W->tail->tok, lane), rw_block(W->tail->tok, W->tail), NULL);
  }
  if (W->restrict_) rw_restrict_params(c);
  dl->next->next = body->stmts;
  body->stmts = dl;
  c->new_grid[0] = c->L->grid[0] * L;
  c->cover[0] = c->L->block[0] / L;
  c->grid_generic = true;
}

/* which split a site takes: 0 the one loop's sums (as before the walks), 1 the row's walks; -1
 * neither (why says so) */
static int split_mode(PassCtx *c, Site *s, Walks *W, char *why, size_t len) {
  int along = c->param[1];
  char no[256];
  bool walks = !along && find_walks(c, s, W, no, sizeof no);
  if (walks && W->restrict_ && rw_launch_aliases(c, no, sizeof no)) walks = false;
  if (s->sums && (along || !walks || W->n == 1)) return 0;
  if (walks) return 1;
  if (along)
    snprintf(why, len,
             "along y: %.200s (a max or min, stores and several walks of a row split along x only)",
             s->sums_why);
  else snprintf(why, len, "%.200s; nor is it a walk of the row: %.250s", s->sums_why, no);
  return -1;
}

/* `if (c) return; REST` at the kernel's top level becomes `if (!(c)) { REST }` */
static void return_to_guard(Obj *k) {
  for (Node **slot = &k->body->stmts; *slot; slot = &(*slot)->next) {
    Node *r = *slot;
    if (!is_return_if(r)) continue;
    *slot = rw_if(rw_unary(ND_NOT, r->cond), rw_block(r->tok, r->next), NULL);
    return;
  }
}

/* the declarations before the loop in the guard's list that the tail reads (directly or through
 * a later one), cloned with the tail into a new list: the tail then runs in a second `if (G)` */
static Node *tail_with_decls(const Site *s, Node *tail) {
  Node *pre[MAX_PRE];
  int n = 0;
  for (Node *st = *s->list; st != s->loop && n < MAX_PRE; st = st->next)
    if (st->kind == ND_DECL) pre[n++] = st;
  bool keep[MAX_PRE];
  Node *chain = tail;
  for (int i = n - 1; i >= 0; i--) {
    keep[i] = tail && reads_in(tail, pre[i]->var, true);
    for (int j = i + 1; j < n && !keep[i]; j++)
      keep[i] = keep[j] && reads_var(pre[j]->decl_init, pre[i]->var);
    if (!keep[i]) continue;
    Node *carrier = arena_alloc(sizeof(Node)); /* a shallow copy only links the list to clone */
    *carrier = *pre[i];
    carrier->next = chain;
    chain = carrier;
  }
  return chain == tail ? tail : clone_nodes(chain);
}

/* the guard's accumulator declarations (each `T acc = 0`) moved before the guard: every thread
 * stores its partial */
static void hoist_accs(PassCtx *c, Site *s) {
  for (int j = 0; j < s->nacc; j++)
    for (Node **slot = s->list; *slot && *slot != s->loop; slot = &(*slot)->next) {
      Node *d = *slot;
      if (d->kind != ND_DECL || d->var != s->acc[j]) continue;
      *slot = d->next;
      d->next = NULL;
      rw_insert_before(rw_slot_of(&c->k->body->stmts, s->guard), d);
      break;
    }
}

static Node *part_at(Token *at, Obj *part, Node *row) {
  return rw_index(rw_index(rw_var(at, part), row), rw_special(at, SR_TID, 0));
}

/* along y: lanes are rows threadIdx.y of a (bw, L) block; partial sums meet in shared memory */
static bool apply_y(PassCtx *c, Site *s, int L) {
  char why[256];
  if (!s->guard && s->nreturns == 1) {
    return_to_guard(c->k);
    if (!find_site(c->k, s, why, sizeof why)) {
      snprintf(c->why, sizeof c->why, "%s", why);
      return false;
    }
  }
  Node *body = c->k->body;
  Token *at = s->loop->tok;
  int64_t bw = width_y(c->L->block[0], L);
  Obj *lane = rw_new_var(c->p, c->k, "lane", ty_int, SC_LOCAL, at);
  Node head = {0}, *decls = &head;
  decls = decls->next = rw_decl(lane, rw_special(at, SR_TID, 1));
  Obj *part[MAX_ACC];
  for (int j = 0; j < s->nacc; j++) {
    part[j] = rw_new_var(c->p, c->k, fmt("part_%s", s->acc[j]->name),
                         array_of(array_of(s->acc[j]->ty, (int)bw), L), SC_SHARED, at);
    decls = decls->next = rw_decl(part[j], NULL);
  }
  restride(c, s, lane, L, at);
  Node *tail = s->loop->next;
  s->loop->next = NULL;
  Node *after = s->loop;
  if (s->guard) {
    hoist_accs(c, s);
    tail = tail_with_decls(s, tail);
    after = s->guard;
  }
  /* every thread stores its partial (0 outside the guard), then the barrier */
  Node sh = {0}, *cur = &sh;
  for (int j = 0; j < s->nacc; j++)
    cur = cur->next =
      rw_expr_stmt(rw_assign(part_at(at, part[j], rw_var(at, lane)), rw_var(at, s->acc[j])));
  if (c->mutation != 5) cur = cur->next = rw_sync(at); /* broken: no barrier */
  /* the first row adds the other rows' partials, then runs what followed the loop */
  Obj *l = rw_new_var(c->p, c->k, "l", ty_int, SC_LOCAL, at);
  int rows = c->mutation == 1 ? L / 2 : c->mutation == 6 ? L - 1 : L; /* broken: rows left out */
  Node ad = {0}, *ac = &ad;
  for (int j = 0; j < s->nacc; j++) {
    Obj *src = part[source_acc(c, s, j) == s->acc[j] ? j : 0];
    ac = ac->next =
      rw_expr_stmt(rw_assign_op(ND_ADD, rw_var(at, s->acc[j]), part_at(at, src, rw_var(at, l))));
  }
  Node *combine = rw_for(rw_decl(l, rw_num(at, 1)), rw_bin(ND_LT, rw_var(at, l), rw_num(at, rows)),
                         rw_unary(ND_POSTINC, rw_var(at, l)), rw_block(at, ad.next));
  rw_pragma_unroll(combine, 0);
  combine->next = tail;
  Node *first_row = c->mutation == 2 ? rw_block(at, combine) /* broken: every row runs the tail */
                                     : rw_if(lane_is_0(at, lane), rw_block(at, combine), NULL);
  if (s->guard) first_row = rw_if(clone_node(s->guard->cond), rw_block(at, first_row), NULL);
  cur->next = first_row;
  after->next = sh.next;
  decls->next = body->stmts;
  body->stmts = head.next;
  c->new_block[0] = bw;
  c->new_block[1] = L;
  c->new_grid[0] = c->L->grid[0] * (c->L->block[0] / bw);
  c->cover[0] = bw;
  c->grid_generic = true;
  return true;
}

/* `T acc = E;` (E not 0) becomes `T acc_start = E; T acc = 0;` and the first statement after the
 * loop `acc = acc_start + acc;`: every lane adds from 0, and the start is added once, by the lane
 * that runs the tail (lane 0), after the partial sums meet (a reassociation: E + (t0 + t1 + ...)) */
static void start_at_zero(PassCtx *c, Site *s) {
  for (int j = 0; j < s->nacc; j++) {
    Node *d = decl_of(c->k->body, s->acc[j]);
    if (zero_const(d->decl_init)) continue;
    Obj *acc = s->acc[j];
    Token *at = d->tok;
    Obj *st = rw_new_var(c->p, c->k, fmt("%s_start", acc->name), acc->ty, SC_LOCAL, at);
    Node *sd = rw_decl(st, d->decl_init);
    Node *z = rw_decl(acc, rw_num(at, 0));
    d->decl_init = z->decl_init;
    acc->init = d->decl_init;
    rw_insert_before(rw_slot_of(&c->k->body->stmts, d), sd);
    Node *add =
      rw_expr_stmt(rw_assign(rw_var(at, acc), rw_bin(ND_ADD, rw_var(at, st), rw_var(at, acc))));
    add->next = s->loop->next;
    s->loop->next = add;
  }
}

static bool apply(PassCtx *c) {
  int L = c->param[0], along = c->param[1];
  Site s;
  char why[256];
  if (!find_site(c->k, &s, why, sizeof why)) {
    snprintf(c->why, sizeof c->why, "%s", why);
    return false;
  }
  Walks W;
  int mode = split_mode(c, &s, &W, why, sizeof why);
  if (mode < 0) {
    snprintf(c->why, sizeof c->why, "%s", why);
    return false;
  }
  c->changes_launch = true;
  for (int i = 0; i < 3; i++) {
    c->new_grid[i] = c->L->grid[i];
    c->new_block[i] = c->L->block[i];
    c->cover[i] = c->L->block[i];
  }
  if (mode == 1) {
    Buf b = {0};
    bool fl;
    Node *site;
    walks_text(&W, &b, &fl, &site);
    apply_walks(c, &s, &W, L);
    snprintf(
      c->did, sizeof c->did,
      "%d walks of the row split across %d lanes (%s), combined by __shfl_xor_sync so every lane holds each result%s; grid.x %lld -> %lld, %lld rows per block",
      W.n, L, b.s, W.tail ? ", the rest on lane 0" : "", (long long)c->L->grid[0],
      (long long)c->new_grid[0], (long long)c->cover[0]);
    buf_free(&b);
    return true;
  }
  if (c->mutation != 7) start_at_zero(c, &s); /* broken: every lane adds its start */
  Buf names = {0};
  for (int j = 0; j < s.nacc; j++) buf_printf(&names, "%s'%s'", j ? ", " : "", s.acc[j]->name);
  int line = tok_loc(s.loop->tok).line;
  if (along) {
    if (!apply_y(c, &s, L)) {
      buf_free(&names);
      return false;
    }
  } else apply_x(c, &s, L);
  if (along)
    snprintf(
      c->did, sizeof c->did,
      "the sum%s into %s (line %d) split across %d lanes along y (block %lldx%d), joined in shared memory; grid.x %lld -> %lld",
      s.nacc > 1 ? "s" : "", names.s, line, L, (long long)c->new_block[0], L,
      (long long)c->L->grid[0], (long long)c->new_grid[0]);
  else
    snprintf(
      c->did, sizeof c->did,
      "the sum%s into %s (line %d) split across %d lanes joined by __shfl_down_sync; grid.x %lld -> %lld, %lld threads' work per block",
      s.nacc > 1 ? "s" : "", names.s, line, L, (long long)c->L->grid[0], (long long)c->new_grid[0],
      (long long)c->cover[0]);
  buf_free(&names);
  return true;
}

const Pass pass_split = {
  .name = "split",
  .summary =
    "a thread's reduction loop split across neighbouring lanes of a warp (shuffles) or rows of the block (shared memory); a row's several walks (max, min, sums, the write) across the same lanes",
  .source =
    "Yang et al., PLDI 2010, Sec. 3.4-3.5 (sharing along a dimension); CUDA C++ Best Practices Guide (warp shuffles)",
  .params =
    {{"lanes", "threads sharing one reduction (a power of 2 up to the warp)", {32, 16, 8, 4}, 32},
     {"along",
      "where the lanes sit: 0 neighbouring threads along x (shuffles), 1 a new block dimension y (shared memory; the block x halved until x*lanes <= 1024)",
      {0, 1},
      0}},
  .nparams = 2,
  .model_chooses = true,
  .model_params = 2,
  .motivation = "coalescing",
  .legal = legal,
  .apply = apply,
  .nmutations = 8,
  .mutation_names = {"half the partial sums dropped", "every lane runs what follows the loop",
                     "lanes step by one (their iterations overlap)",
                     "the second accumulator combined from the first's partial sums",
                     "along y: no barrier before the combine",
                     "along y: one lane's partial sum left out of the combine",
                     "every lane starts its sum at the accumulator's start",
                     "walks: the lanes combined by __shfl_down_sync (the result in lane 0 only)"},
};
