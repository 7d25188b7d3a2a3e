/* pass vector: x-coarsening with vector stores (Yang et al., PLDI 2010, Sec. 3.1 on vectorized
 * accesses and Sec. 3.5.2 on thread merge along x). Each thread does the work of F neighbouring
 * threads along x: the body runs in an unrolled loop over cv = 0..F-1 with threadIdx.x read as
 * threadIdx.x*F + cv and blockDim.x as blockDim.x*F, and the grid shrinks by F along x. A store
 * P[i] whose index grows by one with threadIdx.x is kept in registers and written once after the
 * loop as float2/float4 (int, unsigned, double2) when all F virtual threads stored and the address
 * is aligned, which the code checks at run time; otherwise each stored element is written alone,
 * so ragged edges and unaligned rows stay correct.
 *
 * Legal when the virtual threads cannot see each other: no barrier, shared memory, warp
 * operation, fence, volatile or user-function call (whose body would still read threadIdx), no
 * gridDim.x, and no return inside a loop (a return becomes `continue`, ending that virtual
 * thread only). A store is deferred only when its buffer is touched by no other statement, so
 * writing it later is not observable; the pointer parameters are then assumed not to alias, and
 * the output says so with __restrict__. Loads stay scalar: each thread reads F neighbours in the
 * same sectors, and nvcc reuses the loads its unrolled copies share. */
#include "opt.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_STORES = 8 };

/* a store the pass defers: `P[i] = e;` or `P[i] op= e;` with P a pointer parameter */
typedef struct {
  Node *stmt; /* the ND_EXPR_STMT */
  Obj *param;
  Type *elem, *vec; /* element and vector type (float4, int2, double2, ...) */
  int vw;           /* elements per vector store */
} Store;

typedef struct {
  int depth;
  Obj *k;
  const Launch *L;
  int factor;
  Store st[MAX_STORES];
  int n;
  Obj *touched[64];
  int ntouched[64];
  int nt; /* how many nodes name each pointer parameter */
} Stores;

static Type *vector_of(Type *elem, int factor, int *vw) {
  const char *base = elem->kind == TY_FLOAT                       ? "float"
                     : elem->kind == TY_DOUBLE                    ? "double"
                     : elem->kind == TY_INT && !elem->is_unsigned ? "int"
                     : elem->kind == TY_INT                       ? "uint"
                                                                  : NULL;
  if (!base) return NULL;
  int w = 16 / elem->size;
  if (w > factor) w = factor;
  if (w < 2 || factor % w) return NULL;
  *vw = w;
  return vector_type(fmt("%s%d", base, w));
}

static bool count_pre(Node *n, void *ctx) {
  Stores *s = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO || n->kind == ND_SWITCH)
    s->depth++;
  if (n->kind == ND_VAR && n->var->sc == SC_PARAM && n->var->ty->kind == TY_PTR) {
    int i = 0;
    while (i < s->nt && s->touched[i] != n->var) i++;
    if (i == s->nt && s->nt < 64) {
      s->touched[s->nt] = n->var;
      s->ntouched[s->nt++] = 0;
    }
    if (i < 64) s->ntouched[i]++;
  }
  if (n->kind != ND_EXPR_STMT || s->depth || s->n >= MAX_STORES) return true;
  Node *a = n->lhs;
  if (a->kind != ND_ASSIGN && !(a->kind == ND_ASSIGN_OP && a->op != ND_SHL && a->op != ND_SHR))
    return true;
  Node *lhs = a->lhs;
  if (lhs->kind != ND_INDEX) return true;
  Node *base = rw_strip(lhs->lhs);
  if (base->kind != ND_VAR || base->var->sc != SC_PARAM || base->var->ty->kind != TY_PTR)
    return true;
  Store st = {.stmt = n, .param = base->var, .elem = lhs->ty};
  st.vec = vector_of(lhs->ty, s->factor, &st.vw);
  if (!st.vec) return true;
  char why[256];
  Node *idx = remat(s->k, lhs->rhs, &(Subst){0}, why, sizeof why);
  int64_t stride;
  if (!idx || !remat_stride(idx, s->L, SR_TID, 0, &stride) || stride != 1) return true;
  s->st[s->n++] = st;
  return true;
}
static bool count_post(Node *n, void *ctx) {
  Stores *s = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO || n->kind == ND_SWITCH)
    s->depth--;
  return true;
}

/* the stores whose buffer no other statement names (a compound assignment names it twice) */
static void find_stores(PassCtx *c, Stores *s) {
  memset(s, 0, sizeof *s);
  s->k = c->k;
  s->L = c->L;
  s->factor = c->param[0];
  walk(c->k->body, count_pre, count_post, s);
  int kept = 0;
  for (int i = 0; i < s->n; i++) {
    int uses = 0, same = 0;
    for (int t = 0; t < s->nt; t++)
      if (s->touched[t] == s->st[i].param) uses = s->ntouched[t];
    for (int j = 0; j < s->n; j++) same += s->st[j].param == s->st[i].param;
    if (uses == 1 && same == 1) s->st[kept++] = s->st[i]; /* `P[i] op= e` names P once too */
  }
  s->n = kept;
}

static Legality legal(PassCtx *c) {
  char no[256];
  /* the rewrite keeps values in registers past other pointers' accesses: an aliased launch (one
   * buffer bound to two parameters, as the program made it) would see stale values */
  if (rw_launch_aliases(c, c->why, sizeof c->why)) return ILLEGAL;
  bool reads_tid_x;
  if (!rw_threads_separable(c->k->body, &reads_tid_x, no, sizeof no)) {
    snprintf(c->why, sizeof c->why, "threads cannot be merged along x: %s", no);
    return ILLEGAL;
  }
  if (!reads_tid_x) {
    snprintf(c->why, sizeof c->why, "the kernel does not read threadIdx.x");
    return NOT_APPLICABLE;
  }
  if (c->L->grid[0] < c->param[0]) {
    snprintf(c->why, sizeof c->why, "the grid has %lld block%s along x, fewer than the factor %d",
             (long long)c->L->grid[0], c->L->grid[0] == 1 ? "" : "s", c->param[0]);
    return NOT_APPLICABLE;
  }
  Stores st;
  find_stores(c, &st);
  snprintf(c->why, sizeof c->why,
           "%d threads merged along x; %d store%s with unit stride in x written as vectors",
           c->param[0], st.n, st.n == 1 ? "" : "s");
  c->site = st.n ? st.st[0].stmt : c->k->body;
  return LEGAL;
}

/* ---- apply ---- */
static Node *make_vector(Token *at, Type *vt, Obj *arr, int from, int n) {
  Node *call = new_node(ND_CALL, rw_tok(at, TK_IDENT, fmt("make_%s", type_name(vt))));
  Node head = {0}, *cur = &head;
  for (int i = 0; i < n; i++) cur = cur->next = rw_index(rw_var(at, arr), rw_num(at, from + i));
  call->args = head.next;
  call->nargs = n;
  call->builtin = BI_MAKE_VECTOR;
  call->ty = vt;
  return call;
}

typedef struct {
  Obj *val, *base, *mask;
} Deferred;

/* `P[i] = e;` -> `{ val[cv] = e; base = i - cv; mask |= 1u << cv; }` (op=: val[cv] = P[i] op e) */
static Node *defer_store(PassCtx *c, Store *st, Deferred *d, Obj *cv) {
  Node *a = st->stmt->lhs, *lhs = a->lhs;
  Token *at = st->stmt->tok;
  int F = c->param[0];
  d->val =
    rw_new_var(c->p, c->k, fmt("%s_out", st->param->name), array_of(st->elem, F), SC_LOCAL, at);
  d->base = rw_new_var(c->p, c->k, fmt("%s_at", st->param->name), lhs->rhs->ty, SC_LOCAL, at);
  d->mask = rw_new_var(c->p, c->k, fmt("%s_mask", st->param->name), ty_uint, SC_LOCAL, at);
  Node *value = a->kind == ND_ASSIGN ? a->rhs : rw_bin(a->op, clone_nodes(lhs), a->rhs);
  Node *s1 = rw_expr_stmt(rw_assign(rw_index(rw_var(at, d->val), rw_var(at, cv)), value));
  Node *s2 = rw_expr_stmt(
    rw_assign(rw_var(at, d->base), rw_bin(ND_SUB, clone_nodes(lhs->rhs), rw_var(at, cv))));
  Node *s3 = rw_expr_stmt(
    rw_assign_op(ND_BITOR, rw_var(at, d->mask), rw_bin(ND_SHL, rw_unum(at, 1), rw_var(at, cv))));
  s1->next = s2;
  s2->next = s3;
  return rw_block(at, s1);
}

/* after the loop: one vector store when every virtual thread stored and the address is aligned,
 * else each stored element alone */
static Node *flush_store(PassCtx *c, Store *st, Deferred *d) {
  Token *at = st->stmt->tok;
  int F = c->param[0];
  unsigned full = F == 32 ? 0xffffffffu : (1u << F) - 1;
  Node *addr = rw_unary(ND_ADDR, rw_index(rw_var(at, st->param), rw_var(at, d->base)));
  unsigned align = (unsigned)(st->vw * st->elem->size) - 1;
  if (c->mutation == 1) align = (unsigned)st->elem->size - 1; /* broken: element alignment only */
  Node *aligned =
    rw_bin(ND_EQ, rw_bin(ND_BITAND, rw_cast(addr, ty_ulong), rw_unum(at, align)), rw_unum(at, 0));
  Node *cond = rw_bin(ND_LOGAND, rw_bin(ND_EQ, rw_var(at, d->mask), rw_unum(at, full)), aligned);
  Node head = {0}, *cur = &head;
  for (int v = 0; v < F; v += st->vw) {
    Node *elem =
      rw_index(rw_var(at, st->param),
               v ? rw_bin(ND_ADD, rw_var(at, d->base), rw_num(at, v)) : rw_var(at, d->base));
    Node *vp = rw_cast(rw_unary(ND_ADDR, elem), pointer_to(st->vec));
    cur = cur->next =
      rw_expr_stmt(rw_assign(rw_unary(ND_DEREF, vp), make_vector(at, st->vec, d->val, v, st->vw)));
  }
  Node *vec = rw_block(at, head.next);
  Obj *cw = rw_new_var(c->p, c->k, "cw", ty_int, SC_LOCAL, at);
  int last = c->mutation == 3 ? F - 1 : F; /* broken: the last element dropped */
  Node *one = rw_expr_stmt(
    rw_assign(rw_index(rw_var(at, st->param), rw_bin(ND_ADD, rw_var(at, d->base), rw_var(at, cw))),
              rw_index(rw_var(at, d->val), rw_var(at, cw))));
  Node *bit =
    rw_bin(ND_BITAND, rw_bin(ND_SHR, rw_var(at, d->mask), rw_var(at, cw)), rw_unum(at, 1));
  Node *each = rw_for(rw_decl(cw, rw_num(at, 0)), rw_bin(ND_LT, rw_var(at, cw), rw_num(at, last)),
                      rw_unary(ND_POSTINC, rw_var(at, cw)), rw_if(bit, one, NULL));
  rw_pragma_unroll(each, 0);
  return rw_if(cond, vec, each);
}

/* the shape a fast path needs: declarations without side effects, then either `if (G) S` last
 * (form 1) or `if (G) continue;` followed by the rest (form 2, from an early return) */
static int guard_form(Node *stmts, int *at) {
  int i = 0;
  for (Node *s = stmts; s; s = s->next, i++) {
    if (s->kind == ND_DECL) {
      if (!rw_pure(s->decl_init)) return 0;
      continue;
    }
    if (s->kind != ND_IF || s->els) return 0;
    *at = i;
    Node *t = s->then;
    while (t->kind == ND_BLOCK && t->stmts && !t->stmts->next) t = t->stmts;
    if (t->kind == ND_CONTINUE) return s->next ? 2 : 0;
    return s->next ? 0 : 1;
  }
  return 0;
}

/* a copy of the merged loop whose body keeps the declarations and, in place of the guard and
 * what follows, `all &= G;` (form 1) or `all &= !G;` (form 2) */
static Node *guard_loop(Node *loop, int form, int at, Obj *all) {
  Node *g = clone_node(loop);
  Node **slot = rw_nth_slot(&g->then->stmts, at);
  Node *cond = (*slot)->cond;
  if (form == 2) cond = rw_unary(ND_NOT, cond);
  *slot = rw_expr_stmt(rw_assign_op(ND_BITAND, rw_var(cond->tok, all), cond));
  return g;
}

static bool apply(PassCtx *c) {
  int F = c->param[0];
  Stores st;
  find_stores(c, &st);
  Node *body = c->k->body;
  Token *at = body->tok;
  Obj *cv = rw_new_var(c->p, c->k, "cv", ty_int, SC_LOCAL, at);
  Deferred d[MAX_STORES];
  Node pre = {0}, *pcur = &pre, post = {0}, *qcur = &post;
  Buf names = {0};
  for (int i = 0; i < st.n; i++) {
    Node **slot = rw_slot_of(&body->stmts, st.st[i].stmt);
    if (!slot) continue;
    Node *next = st.st[i].stmt->next;
    Node *blk = defer_store(c, &st.st[i], &d[i], cv);
    blk->next = next;
    *slot = blk;
    pcur = pcur->next = rw_decl(d[i].val, NULL);
    pcur = pcur->next = rw_decl(d[i].base, rw_num(at, 0));
    pcur = pcur->next = rw_decl(d[i].mask, rw_unum(at, 0));
    qcur = qcur->next = flush_store(c, &st.st[i], &d[i]);
    buf_printf(&names, "%s%s as %s", i ? ", " : "", st.st[i].param->name, type_name(st.st[i].vec));
  }
  /* threadIdx.x -> threadIdx.x*F + cv, blockDim.x -> blockDim.x*F, return -> continue */
  int nslots;
  Node ***slots = rw_x_slots(&body->stmts, true, &nslots);
  for (int i = 0; i < nslots; i++) {
    Node *n = *slots[i], *next = n->next, *r;
    if (n->kind == ND_RETURN) r = new_node(ND_CONTINUE, rw_tok(n->tok, TK_KEYWORD, "continue"));
    else if (n->sreg == SR_TID)
      r = rw_bin(ND_ADD, rw_bin(ND_MUL, rw_special(n->tok, SR_TID, 0), rw_unum(n->tok, (int64_t)F)),
                 rw_var(n->tok, cv));
    else r = rw_bin(ND_MUL, rw_special(n->tok, SR_NTID, 0), rw_unum(n->tok, (int64_t)F));
    r->next = next;
    *slots[i] = r;
  }
  free(slots);
  /* a grid whose x extent does not divide by F: the merged grid has threads the original did not
   * launch; they stop at once (a kernel relying on its grid, not a bounds test, stays exact) */
  c->grid_generic = c->L->grid[0] % F == 0; /* no extent written: right for any grid F divides */
  if (c->L->grid[0] % F ||
      c->mutation == 4) { /* mutation 4: the extent written, the kernel still called grid-generic */
    int64_t threads = c->L->grid[0] * c->L->block[0];
    Node *x =
      rw_bin(ND_ADD,
             rw_bin(ND_MUL, rw_special(at, SR_CTAID, 0),
                    rw_bin(ND_MUL, rw_special(at, SR_NTID, 0), rw_unum(at, (int64_t)F))),
             rw_bin(ND_ADD, rw_bin(ND_MUL, rw_special(at, SR_TID, 0), rw_unum(at, (int64_t)F)),
                    rw_var(at, cv)));
    Node *stop = rw_if(rw_bin(ND_GE, x, rw_unum(at, threads)),
                       new_node(ND_CONTINUE, rw_tok(at, TK_KEYWORD, "continue")), NULL);
    stop->next = body->stmts;
    body->stmts = stop;
  }
  int upto = c->mutation == 2 ? F - 1 : F; /* broken: one virtual thread skipped */
  Node *loop = rw_for(rw_decl(cv, rw_num(at, 0)), rw_bin(ND_LT, rw_var(at, cv), rw_num(at, upto)),
                      rw_unary(ND_POSTINC, rw_var(at, cv)), rw_block(at, body->stmts));
  rw_pragma_unroll(loop, 0);
  /* a fast path where every merged thread passes the guard: its loads are unconditional, so
   * nvcc shares those the merged threads have in common (a guarded load cannot be shared) */
  int gi = 0, form = c->param[1] ? guard_form(loop->then->stmts, &gi) : 0;
  if (form) {
    Obj *all = rw_new_var(c->p, c->k, "all", ty_int, SC_LOCAL, loop->tok);
    Node *d = rw_decl(all, rw_num(loop->tok, 1));
    Node *g = guard_loop(loop, form, gi, all);
    Node *f = rw_fast_loop(loop, form, gi);
    Node *split = rw_if(rw_var(loop->tok, all), rw_block(loop->tok, f), rw_block(loop->tok, loop));
    d->next = g;
    g->next = split;
    pcur->next = d;
    split->next = post.next;
  } else {
    pcur->next = loop;
    loop->next = post.next;
  }
  body->stmts = pre.next;
  c->changes_launch = true;
  for (int i = 0; i < 3; i++) {
    c->new_grid[i] = c->L->grid[i];
    c->new_block[i] = c->L->block[i];
  }
  c->new_grid[0] = (c->L->grid[0] + F - 1) / F;
  for (int i = 0; i < 3; i++) c->cover[i] = c->L->block[i] * (i == 0 ? F : 1);
  if (st.n) rw_restrict_params(c);
  snprintf(c->did, sizeof c->did, "%d threads merged along x (grid.x %lld -> %lld)%s; %s", F,
           (long long)c->L->grid[0], (long long)c->new_grid[0],
           form ? ", a fast path where all pass the guard (loads shared)" : "",
           st.n ? fmt("vector stores: %s (alignment checked at run time, scalar at edges)", names.s)
                : "no store written as a vector");
  buf_free(&names);
  return true;
}

const Pass pass_vector = {
  .merges_threads = true,
  .name = "vector",
  .summary =
    "merge threads along x; stores with unit stride written as float2/float4 (int, double2)",
  .source = "Yang et al., PLDI 2010, Sec. 3.1 (vectorization) and 3.5.2 (thread merge along x)",
  .params = {{"factor", "threads merged along x (the width of the vector stores)", {2, 4, 8}, 2},
             {"split",
              "a fast path without the guard when every merged thread passes it (1) or not (0)",
              {0, 1},
              1}},
  .nparams = 2,
  .model_chooses = true,
  .motivation = "reuse",
  .legal = legal,
  .apply = apply,
  .nmutations = 4,
  .mutation_names = {"alignment not checked before a vector store", "one merged thread skipped",
                     "the last element of a ragged edge dropped",
                     "the recorded grid's extent written into a kernel called grid-generic"},
};
