/* pass split: a thread's reduction loop split across `lanes` neighbouring threads of a warp,
 * joined by warp shuffles (the reductions of Yang et al., PLDI 2010, Sec. 3.4-3.5 brought to
 * Hopper's __shfl_down_sync; the warp-per-row mat-vec of NVIDIA's CUDA C++ Best Practices Guide).
 * A kernel whose thread t loops `for (i = a; i < b; i += s) acc += e(i);` and then uses acc
 * becomes one where `lanes` threads share t's work: threadIdx.x is read as threadIdx.x/lanes and
 * blockDim.x as blockDim.x/lanes, lane l starts at a + l*s and steps lanes*s, the partial sums
 * meet in log2(lanes) shuffles, and what followed the loop runs on lane 0 only. A row walk
 * (thread per row of a row-major matrix) becomes coalesced: the lanes read neighbouring elements.
 *
 * Legal when threads are separable (rw_threads_separable), the loop's body is the one
 * accumulation `acc += e` with e free of side effects, and what runs before the loop has no side
 * effects (it now runs `lanes` times). A floating-point sum is reassociated: verification
 * compares within the launch spec's tolerance, and without one the step is rejected. */
#include "opt.h"
#include <stdlib.h>
#include <string.h>

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

static Node *only_stmt(Node *s) {
  while (s && s->kind == ND_BLOCK && s->stmts && !s->stmts->next) s = s->stmts;
  return s;
}

typedef struct {
  Node **list;          /* the statement list holding the loop */
  Node *loop;
  Obj *iv, *acc;
  Node *step;           /* the increment (NULL: 1) */
  Node *accum;          /* the `acc += e` expression */
} Site;

static bool reads_var_pre(Node *n, void *ctx) {
  Obj **v = ctx;
  if (n->kind == ND_VAR && n->var == *v) *v = NULL;
  return *v != NULL;
}
static bool reads_var(Node *e, Obj *v) {
  Obj *x = v;
  walk(e, reads_var_pre, NULL, &x);
  return x == NULL;
}

/* the reduction loop in list *list: every statement before it pure, the loop as described */
static bool find_in(Node **list, Site *s, char *why, size_t len) {
  for (Node *st = *list; st; st = st->next) {
    if (st->kind != ND_FOR) {
      if (!pure_stmt(st)) { snprintf(why, len, "a statement before the loop has side effects (it would run once per lane)"); return false; }
      continue;
    }
    Node *l = st;
    if (!l->init || l->init->kind != ND_DECL || l->init->next || !l->init->decl_init || !l->cond || !l->inc) {
      snprintf(why, len, "the loop is not `for (T i = a; i < b; i += s)`");
      return false;
    }
    Obj *iv = l->init->var;
    Node *c = l->cond;
    if ((c->kind != ND_LT && c->kind != ND_LE) || rw_strip(c->lhs)->kind != ND_VAR || rw_strip(c->lhs)->var != iv) {
      snprintf(why, len, "the loop's test is not `i < b`");
      return false;
    }
    Node *inc = l->inc, *step = NULL;
    if ((inc->kind == ND_POSTINC || inc->kind == ND_PREINC) && rw_strip(inc->lhs)->kind == ND_VAR && rw_strip(inc->lhs)->var == iv) step = NULL;
    else if (inc->kind == ND_ASSIGN_OP && inc->op == ND_ADD && rw_strip(inc->lhs)->kind == ND_VAR && rw_strip(inc->lhs)->var == iv) {
      if (!rw_pure(inc->rhs) || reads_var(inc->rhs, iv)) { snprintf(why, len, "the loop's step is not invariant"); return false; }
      step = inc->rhs;
    } else { snprintf(why, len, "the loop's increment is not `i++` or `i += s`"); return false; }
    Node *b = only_stmt(l->then);
    Node *a = b && b->kind == ND_EXPR_STMT ? b->lhs : NULL;
    if (!a || a->kind != ND_ASSIGN_OP || a->op != ND_ADD || rw_strip(a->lhs)->kind != ND_VAR) {
      snprintf(why, len, "the loop's body is not one accumulation `acc += e`");
      return false;
    }
    Obj *acc = rw_strip(a->lhs)->var;
    if (!rw_pure(a->rhs) || reads_var(a->rhs, acc) || acc->sc != SC_LOCAL || acc->in_memory || !(is_flonum(acc->ty) || acc->ty->kind == TY_INT)) {
      snprintf(why, len, "the accumulation `%s += e` is not a sum into a scalar register free of side effects", acc->name);
      return false;
    }
    if (rw_writes_var(l->cond, acc) || reads_var(l->cond, acc) || (step && reads_var(step, acc))) {
      snprintf(why, len, "the loop's bounds depend on the accumulator");
      return false;
    }
    *s = (Site){list, l, iv, acc, step, a};
    return true;
  }
  snprintf(why, len, "no loop");
  return false;
}

/* the loop at the kernel's top level, or in the body of a last `if` without else */
static bool find_site(Obj *k, Site *s, char *why, size_t len) {
  Node **list = &k->body->stmts;
  for (Node *st = *list; st; st = st->next) {
    if (st->kind == ND_FOR) return find_in(list, s, why, len);
    if (st->kind == ND_IF && !st->els && !st->next && !pure_stmt(st)) {
      for (Node *q = *list; q != st; q = q->next)
        if (!pure_stmt(q)) { snprintf(why, len, "a statement before the loop has side effects (it would run once per lane)"); return false; }
      Node *t = st->then;
      if (t->kind != ND_BLOCK) { snprintf(why, len, "no reduction loop"); return false; }
      return find_in(&t->stmts, s, why, len);
    }
    if (!pure_stmt(st)) { snprintf(why, len, "a statement before the loop has side effects (it would run once per lane)"); return false; }
  }
  snprintf(why, len, "no reduction loop at the kernel's top level or in its last if");
  return false;
}

static Legality legal(PassCtx *c) {
  int L = c->param[0];
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
  if (c->L->block[0] % 32 || c->L->block[0] % L) {
    snprintf(c->why, sizeof c->why, "blockDim.x (%lld) is not a multiple of the warp size: lanes of one group must share a warp",
             (long long)c->L->block[0]);
    return NOT_APPLICABLE;
  }
  snprintf(c->why, sizeof c->why, "the sum into '%s' (line %d) split across %d lanes%s", s.acc->name, tok_loc(s.loop->tok).line, L,
           is_flonum(s.acc->ty) ? " (a floating-point sum reassociated: verified within the spec's tolerance)" : "");
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

static bool apply(PassCtx *c) {
  int L = c->param[0];
  Site s;
  char why[256];
  if (!find_site(c->k, &s, why, sizeof why)) { snprintf(c->why, sizeof c->why, "%s", why); return false; }
  Node *body = c->k->body;
  Token *at = s.loop->tok;
  /* threadIdx.x -> threadIdx.x / L, blockDim.x -> blockDim.x / L: a group of L threads is one */
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
  /* lane l starts at a + l*s and steps L*s */
  Node *stepv = s.step ? clone_nodes(s.step) : NULL;
  Node *init = s.loop->init;
  int64_t a0;
  Node *offset = s.step ? rw_bin(ND_MUL, rw_var(at, lane), clone_nodes(s.step)) : rw_var(at, lane);
  Node *first = node_int_constant(init->decl_init, &a0) && a0 == 0 ? offset : rw_bin(ND_ADD, init->decl_init, offset);
  Node *asg = rw_assign(rw_var(at, s.iv), first);   /* converted as an initializer is */
  init->decl_init = asg->rhs;
  s.iv->init = init->decl_init;
  int stride = c->mutation == 3 ? 1 : L;                            /* broken: lanes overlap */
  s.loop->inc = rw_assign_op(ND_ADD, rw_var(at, s.iv), s.step ? rw_bin(ND_MUL, stepv, rw_num(at, stride)) : rw_num(at, stride));
  /* the partial sums meet in lane 0 of the group */
  Node *mask = L == 32 ? rw_unum(at, 0xffffffffu)
                       : rw_bin(ND_SHL, rw_unum(at, (1u << L) - 1), rw_bin(ND_BITAND, rw_special(at, SR_TID, 0), rw_unum(at, 31u & ~(unsigned)(L - 1))));
  Obj *gm = rw_new_var(c->p, c->k, "group", ty_uint, SC_LOCAL, at);
  Node head = {0}, *cur = &head;
  cur = cur->next = rw_decl(gm, mask);
  for (int o = c->mutation == 1 ? L / 4 : L / 2; o > 0; o /= 2)      /* broken: half the lanes dropped */
    cur = cur->next = rw_expr_stmt(rw_assign_op(ND_ADD, rw_var(at, s.acc), shfl_down(at, rw_var(at, gm), s.acc, o, L)));
  Node *tail = s.loop->next;
  if (tail) cur = cur->next = c->mutation == 2 ? rw_block(at, tail)   /* broken: every lane runs the tail */
                                                : rw_if(rw_bin(ND_EQ, rw_var(at, lane), rw_num(at, 0)), rw_block(at, tail), NULL);
  s.loop->next = head.next;
  dl->next = body->stmts;
  body->stmts = dl;
  c->changes_launch = true;
  for (int i = 0; i < 3; i++) { c->new_grid[i] = c->L->grid[i]; c->new_block[i] = c->L->block[i]; c->cover[i] = c->L->block[i]; }
  c->new_grid[0] = c->L->grid[0] * L;
  c->cover[0] = c->L->block[0] / L;
  snprintf(c->did, sizeof c->did, "the sum into '%s' (line %d) split across %d lanes joined by __shfl_down_sync; grid.x %lld -> %lld, %lld threads' work per block",
           s.acc->name, tok_loc(at).line, L, (long long)c->L->grid[0], (long long)c->new_grid[0], (long long)c->cover[0]);
  return true;
}

const Pass pass_split = {
  .name = "split",
  .summary = "a thread's reduction loop split across neighbouring lanes of a warp, joined by shuffles",
  .source = "Yang et al., PLDI 2010, Sec. 3.4-3.5 (sharing along a dimension); CUDA C++ Best Practices Guide (warp shuffles)",
  .params = {{"lanes", "threads sharing one reduction (a power of 2 up to the warp)", {32, 16, 8, 4}, 32}},
  .nparams = 1,
  .model_chooses = true,
  .motivation = "coalescing",
  .legal = legal,
  .apply = apply,
  .nmutations = 3,
  .mutation_names = {"half the shuffles dropped", "every lane runs what follows the loop", "lanes step by one (their iterations overlap)"},
};
