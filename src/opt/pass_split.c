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
#include <stdlib.h>
#include <string.h>

enum { MAX_ACC = 8, MAX_PRE = 64 };

/* a statement that may run once per lane: declarations with pure initializers, tests and
 * returns whose conditions are pure */
static bool pure_stmt(Node *s) {
  if (s->kind == ND_DECL) return rw_pure(s->decl_init);
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
  int nreturns; /* `if (c) return;` statements before the loop */
  int npre;     /* declarations before the loop in *list */
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
    return header_ok(st, s, why, len) && body_ok(kbody, st, s, why, len);
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
  if (c->mutation != 7) start_at_zero(c, &s); /* broken: every lane adds its start */
  c->changes_launch = true;
  for (int i = 0; i < 3; i++) {
    c->new_grid[i] = c->L->grid[i];
    c->new_block[i] = c->L->block[i];
    c->cover[i] = c->L->block[i];
  }
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
    "a thread's reduction loop split across neighbouring lanes of a warp (shuffles) or rows of the block (shared memory)",
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
  .nmutations = 7,
  .mutation_names = {"half the partial sums dropped", "every lane runs what follows the loop",
                     "lanes step by one (their iterations overlap)",
                     "the second accumulator combined from the first's partial sums",
                     "along y: no barrier before the combine",
                     "along y: one lane's partial sum left out of the combine",
                     "every lane starts its sum at the accumulator's start"},
};
