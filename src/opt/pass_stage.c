/* pass stage: coalescing through shared memory (Yang et al., PLDI 2010, Sec. 3.3). A global
 * load whose neighbouring threads (threadIdx.x) read addresses far apart, but whose threadIdx.y
 * neighbours read consecutive addresses (a transposed access: C[y][x] = A[x][y]), is staged:
 * in a square block, thread (x, y) loads the element thread (y, x) needs, so a warp's loads are
 * consecutive; the element goes to tile[y][x] of a shared tile padded by one column against
 * bank conflicts, a barrier follows, and the access reads tile[x][y].
 *
 * Legal when: the block is square (B x B, B <= 32) and one-layer deep; the loaded parameter is
 * never stored to in the kernel; the access is not in a loop; the conditions that guard it (the
 * enclosing if and && tests) and its index are re-materializable at the swapped thread (they
 * depend on thread and block indices, parameters and locals defined once from them); no return
 * precedes it (every thread must reach the inserted barrier and load its element). The load of
 * the swapped thread is guarded by that thread's conditions, so ragged edges read nothing the
 * original did not. */
#include "opt.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  Node *acc;
  Obj *param;
} Cand;
typedef struct {
  Cand c[16];
  int n;
  Obj *fn;
} Cands;

static bool is_store_target(Node *root, Node *acc) {
  Node *par = rw_parent(root, acc);
  if (!par) return false;
  bool w = par->kind == ND_ASSIGN || par->kind == ND_ASSIGN_OP || par->kind == ND_PREINC ||
           par->kind == ND_PREDEC || par->kind == ND_POSTINC || par->kind == ND_POSTDEC;
  return w && rw_strip(par->lhs) == acc;
}

static bool cand_pre(Node *n, void *ctx) {
  Cands *c = ctx;
  if (n->kind != ND_INDEX || n->ty->kind == TY_ARRAY || n->ty->kind == TY_STRUCT || c->n == 16)
    return true;
  Node *b = rw_strip(n->lhs);
  if (b->kind != ND_VAR || b->var->sc != SC_PARAM || b->var->ty->kind != TY_PTR) return true;
  if (n->ty->size != 4 && n->ty->size != 8) return true;
  c->c[c->n++] = (Cand){n, b->var};
  return true;
}

/* the conditions guarding acc inside top-level statement s, as one expression (NULL: none);
 * false when acc is in a loop, a switch or an arm the analysis does not follow */
static bool guard_of(Node *s, Node *acc, Node **guard, char *why, size_t len) {
  *guard = NULL;
  Node *child = acc;
  while (child != s) {
    Node *par = rw_parent(s, child);
    if (!par) {
      snprintf(why, len, "internal: no parent");
      return false;
    }
    Node *g = NULL;
    switch (par->kind) {
    case ND_IF:
    case ND_COND:
      if (child == par->then) g = clone_nodes(par->cond);
      else if (child == par->els) g = rw_unary(ND_NOT, clone_nodes(par->cond));
      break;
    case ND_LOGAND:
      if (child == par->rhs) g = clone_nodes(par->lhs);
      break;
    case ND_LOGOR:
      if (child == par->rhs) g = rw_unary(ND_NOT, clone_nodes(par->lhs));
      break;
    case ND_FOR:
    case ND_WHILE:
    case ND_DO:
      snprintf(why, len, "the access is in a loop (line %d)", tok_loc(par->tok).line);
      return false;
    case ND_SWITCH:
    case ND_CASE:
      snprintf(why, len, "the access is in a switch (line %d)", tok_loc(par->tok).line);
      return false;
    default: break;
    }
    if (g) *guard = *guard ? rw_bin(ND_LOGAND, g, *guard) : g;
    child = par;
  }
  return true;
}

typedef struct {
  bool found;
} RetFind;
static bool ret_pre(Node *n, void *ctx) {
  RetFind *r = ctx;
  if (n->kind == ND_RETURN) r->found = true;
  if (n->kind == ND_CALL && (n->builtin == BI_SYNCTHREADS || (n->fn && n->fn->uses_barrier)))
    r->found = true;
  return !r->found;
}

/* a return, or a barrier, anywhere in n: threads after it may not all arrive */
static bool has_jump(Node *n) {
  RetFind r = {false};
  walk_one(n, ret_pre, NULL, &r);
  return r.found;
}

typedef struct {
  Node **slot; /* the top-level statement slot holding the access */
  Node *stmt;
  Node *acc;
  Obj *param;
  Node *guard; /* may be NULL */
  int B;
} Site;

static Legality find_site(PassCtx *c, Site *site) {
  const Launch *L = c->L;
  Obj *k = c->k;
  if (L->block[0] != L->block[1] || L->block[2] != 1 || L->block[0] < 2 || L->block[0] > 32) {
    snprintf(c->why, sizeof c->why, "the block is not square (%lldx%lldx%lld): no transposed tile",
             (long long)L->block[0], (long long)L->block[1], (long long)L->block[2]);
    return NOT_APPLICABLE;
  }
  if (!k->body || k->body->kind != ND_BLOCK) return NOT_APPLICABLE;
  Legality best = NOT_APPLICABLE;
  snprintf(
    c->why, sizeof c->why,
    "no global load with uncoalesced threadIdx.x neighbours and consecutive threadIdx.y neighbours");
  Node **slot = &k->body->stmts;
  bool returned = false;
  for (; *slot; slot = &(*slot)->next) {
    Node *s = *slot;
    Cands cs = {.n = 0, .fn = k};
    walk_one(s, cand_pre, NULL, &cs);
    for (int i = 0; i < cs.n; i++) {
      Node *acc = cs.c[i].acc;
      if (is_store_target(s, acc)) continue;
      char why[256];
      Node *idx = remat(k, acc->rhs, &(Subst){0}, why, sizeof why);
      if (!idx) continue;
      int64_t sx, sy;
      if (!remat_stride(idx, L, SR_TID, 0, &sx) || !remat_stride(idx, L, SR_TID, 1, &sy)) continue;
      if (sy != 1 || (sx >= -1 && sx <= 1)) continue;
      /* a transposed load: now the legality */
      int line = tok_loc(acc->tok).line;
      if (!rw_read_only(k->body, cs.c[i].param)) {
        snprintf(
          c->why, sizeof c->why,
          "'%s' (line %d) is written in the kernel: loading it early could read a stale value",
          cs.c[i].param->name, line);
        best = ILLEGAL;
        continue;
      }
      if (returned) {
        snprintf(
          c->why, sizeof c->why,
          "a return or barrier precedes the load at line %d: not every thread reaches the tile",
          line);
        best = ILLEGAL;
        continue;
      }
      Node *guard;
      if (!guard_of(s, acc, &guard, c->why, sizeof c->why)) {
        best = ILLEGAL;
        continue;
      }
      if (guard && !remat(k, guard, &(Subst){0}, why, sizeof why)) {
        snprintf(c->why, sizeof c->why,
                 "the condition guarding line %d cannot be computed for another thread: %s", line,
                 why);
        best = ILLEGAL;
        continue;
      }
      site->slot = slot;
      site->stmt = s;
      site->acc = acc;
      site->param = cs.c[i].param;
      site->guard = guard;
      site->B = (int)L->block[0];
      c->site = acc;
      snprintf(
        c->why, sizeof c->why,
        "'%s' at line %d: threadIdx.x neighbours %lld elements apart, threadIdx.y neighbours adjacent",
        site->param->name, line, (long long)sx);
      return LEGAL;
    }
    if (has_jump(s)) returned = true;
  }
  return best;
}

/* ---- shape 2: a row walk. for (i = S; COND(i); i++) ... P[E(threadIdx.x, i)] ... where threads
 * are far apart and iterations adjacent (thread t walks row t). The loop is strip-mined by T; each
 * strip, the block loads its Bx x T tile (consecutive threads, consecutive columns), then every
 * thread walks its row of the tile. The loop moves out of the if that guards it so every thread
 * reaches the barriers; declarations before it move out too (their initializers must be pure),
 * statements after it stay guarded. The loop must run the same iterations in every thread. */
typedef struct {
  Node **slot; /* top-level statement slot */
  Node *top;   /* the loop itself, or `if (G) { decls; loop; rest }` */
  Node *guard; /* G or NULL */
  Node *loop;
  Node *acc;
  Obj *param;
  Obj *iv;
  int Bx;
} Rows;

static bool pure_init(Obj *fn, Node *d) {
  if (d->kind != ND_DECL || d->var->sc != SC_LOCAL) return false;
  if (!d->decl_init) return true;
  char why[128];
  return d->decl_init->kind != ND_INIT_LIST &&
         remat(fn, d->decl_init, &(Subst){0}, why, sizeof why) != NULL;
}

static bool name_unique(Obj *fn, Obj *v) {
  for (Obj *l = fn->locals; l; l = l->next_local)
    if (l != v && !strcmp(l->name, v->name)) return false;
  return true;
}

typedef struct {
  bool found;
} BrkFind;
static bool brk_pre(Node *n, void *ctx) {
  BrkFind *b = ctx;
  if (n->kind == ND_BREAK || n->kind == ND_CONTINUE) b->found = true;
  return !b->found && n->kind != ND_SWITCH;
}

/* the uncoalesced row-walk load in the loop body, unconditional there */
static Node *row_access(PassCtx *c, Rows *r, int64_t *stride) {
  Cands cs = {.n = 0, .fn = c->k};
  Node *body = r->loop->then;
  walk_one(body, cand_pre, NULL, &cs);
  for (int i = 0; i < cs.n; i++) {
    Node *acc = cs.c[i].acc;
    if (is_store_target(body, acc) || !rw_read_only(c->k->body, cs.c[i].param)) continue;
    char why[256];
    Node *g;
    if (!guard_of(body, acc, &g, why, sizeof why) || g) continue;
    Subst s0 = {.nv = 1, .vfrom = {r->iv}}, s1 = {.nv = 1, .vfrom = {r->iv}};
    s0.vto[0] = rw_num(acc->tok, 3);
    s1.vto[0] = rw_num(acc->tok, 4);
    Node *e0 = remat(c->k, acc->rhs, &s0, why, sizeof why);
    Node *e1 = e0 ? remat(c->k, acc->rhs, &s1, why, sizeof why) : NULL;
    if (!e1) continue;
    int64_t sx, a, b, tid[3] = {0, 0, 0}, bid[3] = {0, 0, 0};
    if (!remat_stride(e0, c->L, SR_TID, 0, &sx) || !remat_eval(e0, c->L, tid, bid, &a) ||
        !remat_eval(e1, c->L, tid, bid, &b))
      continue;
    if (b - a != 1 || (sx >= -1 && sx <= 1)) continue;
    r->param = cs.c[i].param;
    *stride = sx;
    return acc;
  }
  return NULL;
}

static Legality check_rows_loop(PassCtx *c, Rows *r) {
  Obj *k = c->k;
  Node *loop = r->loop;
  int line = tok_loc(loop->tok).line;
  char why[256];
  int64_t st;
  Subst si = {.nv = 1, .vfrom = {r->iv}, .vto = {rw_num(loop->tok, 0)}};
  Node *cond0 = remat(k, loop->cond, &si, why, sizeof why);
  Node *start = remat(k, loop->init->decl_init, &(Subst){0}, why, sizeof why);
  if (!cond0 || !start || !remat_stride(cond0, c->L, SR_TID, 0, &st) || st ||
      !remat_stride(start, c->L, SR_TID, 0, &st) || st) {
    snprintf(c->why, sizeof c->why,
             "the loop at line %d does not run the same iterations in every thread", line);
    return ILLEGAL;
  }
  BrkFind bf = {false};
  walk_one(loop->then, brk_pre, NULL, &bf);
  if (rw_has_barrier(loop) || rw_writes_var(loop->then, r->iv) || has_jump(loop->then) ||
      bf.found) {
    snprintf(c->why, sizeof c->why,
             "the loop at line %d synchronizes, jumps or changes its counter", line);
    return ILLEGAL;
  }
  if (r->guard && !remat(k, r->guard, &(Subst){0}, why, sizeof why)) {
    snprintf(c->why, sizeof c->why,
             "the condition guarding the loop at line %d cannot be computed for another thread: %s",
             line, why);
    return ILLEGAL;
  }
  if (r->guard)
    for (Node *t = r->top->then->stmts; t != loop; t = t->next)
      if (!pure_init(k, t) || !name_unique(k, t->var)) {
        snprintf(c->why, sizeof c->why,
                 "line %d before the loop is not a declaration that can move out of its if",
                 tok_loc(t->tok).line);
        return ILLEGAL;
      }
  return LEGAL;
}

static Legality find_rows(PassCtx *c, Rows *r) {
  const Launch *L = c->L;
  Obj *k = c->k;
  memset(r, 0, sizeof *r);
  if (L->block[1] != 1 || L->block[2] != 1 || L->block[0] < 2) return NOT_APPLICABLE;
  r->Bx = (int)L->block[0];
  int T = c->param[1];
  for (Node **slot = &k->body->stmts; *slot; slot = &(*slot)->next) {
    Node *s = *slot;
    Node *loop = NULL, *guard = NULL;
    if (s->kind == ND_FOR) loop = s;
    else if (s->kind == ND_IF && !s->els && s->then->kind == ND_BLOCK) {
      for (Node *t = s->then->stmts; t; t = t->next)
        if (t->kind == ND_FOR) {
          loop = t;
          break;
        }
      guard = s->cond;
    }
    Node *init = loop ? loop->init : NULL;
    if (loop && init && init->kind == ND_DECL && !init->next && init->decl_init && loop->cond &&
        loop->inc && (loop->inc->kind == ND_POSTINC || loop->inc->kind == ND_PREINC) &&
        rw_strip(loop->inc->lhs)->kind == ND_VAR && rw_strip(loop->inc->lhs)->var == init->var) {
      r->slot = slot;
      r->top = s;
      r->loop = loop;
      r->guard = guard;
      r->iv = init->var;
      int64_t sx;
      Node *acc = row_access(c, r, &sx);
      if (acc) {
        /* static __shared__ arrays are limited to 48 KiB (CUDA C++ Programming Guide) */
        if ((int64_t)r->Bx * (T + c->param[0]) * acc->ty->size > 48 * 1024) {
          snprintf(c->why, sizeof c->why,
                   "a %dx%d tile of %s exceeds the 48 KiB of static shared memory", r->Bx,
                   T + c->param[0], type_name(acc->ty));
          return NOT_APPLICABLE;
        }
        Legality lg = check_rows_loop(c, r);
        if (lg != LEGAL) return lg;
        r->acc = acc;
        c->site = acc;
        snprintf(
          c->why, sizeof c->why,
          "'%s' at line %d: thread x neighbours %lld elements apart, iterations adjacent (a row walk)",
          r->param->name, tok_loc(acc->tok).line, (long long)sx);
        return LEGAL;
      }
    }
    if (has_jump(s)) break; /* a return or barrier: later loops are not reached by every thread */
  }
  return NOT_APPLICABLE;
}

static bool apply_rows(PassCtx *c, Rows *r) {
  c->spec |= OPT_SPEC_ARGS; /* the row walk was found at the recorded arguments' strides */
  Obj *k = c->k;
  Token *at = r->acc->tok;
  int T = c->param[1], pad = c->param[0], Bx = r->Bx;
  Type *et = unqual(r->acc->ty);
  Node *loop = r->loop;
  char why[256];
  Node *start = clone_nodes(loop->init->decl_init);
  Obj *tile = rw_new_var(c->p, k, "tile", array_of(array_of(et, T + pad), Bx), SC_SHARED, at);
  Obj *i0 = rw_new_var(c->p, k, fmt("%s0", r->iv->name), r->iv->ty, SC_LOCAL, at);
  Obj *q = rw_new_var(c->p, k, "q", ty_int, SC_LOCAL, at);
  Obj *e = rw_new_var(c->p, k, "e", ty_int, SC_LOCAL, at);
  Obj *row = rw_new_var(c->p, k, "row", ty_int, SC_LOCAL, at);
  Obj *col = rw_new_var(c->p, k, "col", ty_int, SC_LOCAL, at);
  /* the element thread `row` reads at iteration i0 + col, if that thread and iteration exist */
  Node *iter = rw_bin(ND_ADD, rw_var(at, i0), rw_var(at, col));
  Subst at_row = {.n = 1,
                  .reg = {SR_TID},
                  .dim = {0},
                  .to = {rw_var(at, row)},
                  .nv = 1,
                  .vfrom = {r->iv},
                  .vto = {iter}};
  Node *src = remat(k, r->acc->rhs, &at_row, why, sizeof why);
  Subst ci = {.nv = 1, .vfrom = {r->iv}, .vto = {iter}};
  Node *in_range = remat(k, loop->cond, &ci, why, sizeof why);
  Node *g = r->guard ? remat(k, r->guard, &at_row, why, sizeof why) : NULL;
  Subst c0 = {.nv = 1, .vfrom = {r->iv}, .vto = {rw_var(at, i0)}};
  Node *strip_cond = remat(k, loop->cond, &c0, why, sizeof why);
  if (!src || !in_range || (r->guard && !g) || !strip_cond) {
    snprintf(c->why, sizeof c->why, "%s", why);
    return false;
  }
  Node *ok = c->mutation == 2 ? g : (g ? rw_bin(ND_LOGAND, g, in_range) : in_range);
  Node *store =
    rw_expr_stmt(rw_assign(rw_index(rw_index(rw_var(at, tile), rw_var(at, row)), rw_var(at, col)),
                           rw_index(rw_var(at, r->param), src)));
  Node *ld = ok ? rw_if(ok, store, NULL) : store;
  Node *de = rw_decl(
    e, rw_bin(ND_ADD, rw_bin(ND_MUL, rw_var(at, q), rw_num(at, Bx)), rw_special(at, SR_TID, 0)));
  Node *dr = rw_decl(row, rw_bin(ND_DIV, rw_var(at, e), rw_num(at, T)));
  Node *dc = rw_decl(col, rw_bin(ND_MOD, rw_var(at, e), rw_num(at, T)));
  de->next = dr;
  dr->next = dc;
  dc->next = ld;
  Node *load_loop = rw_for(rw_decl(q, rw_num(at, 0)), rw_bin(ND_LT, rw_var(at, q), rw_num(at, T)),
                           rw_unary(ND_POSTINC, rw_var(at, q)), rw_block(at, de));
  /* the original loop walks one strip: from i0, at most T iterations */
  loop->init->decl_init = rw_assign(rw_var(at, r->iv), rw_var(at, i0))->rhs;
  loop->init->var->init = loop->init->decl_init;
  /* mutation 4: one iteration too many per strip, reading a tile column nobody wrote */
  Node *limit = rw_bin(ND_LT, rw_var(at, r->iv),
                       rw_bin(ND_ADD, rw_var(at, i0), rw_num(at, c->mutation == 4 ? T + 1 : T)));
  loop->cond = rw_bin(ND_LOGAND, limit, loop->cond);
  Node **as = rw_slot_of(&loop->then, r->acc);
  if (!as) {
    snprintf(c->why, sizeof c->why, "internal: access not found");
    return false;
  }
  Node *colx = rw_bin(ND_SUB, rw_var(at, r->iv), rw_var(at, i0));
  if (c->mutation == 3)
    colx = rw_bin(ND_ADD, colx, rw_num(at, 1)); /* mutation 3: tile edge off by one */
  Node *rd = rw_index(rw_index(rw_var(at, tile), rw_special(at, SR_TID, 0)), colx);
  rd->next = (*as)->next;
  *as = rd;
  /* assemble: [decls moved out] tile; for (i0...) { load; sync; [if (G)] loop; sync; } [if (G) { rest }] */
  Node *after = r->top->next;
  Node head = {0}, *cur = &head;
  Node *rest = NULL;
  if (r->guard) {
    Node *t = r->top->then->stmts;
    while (t != loop) {
      Node *n = t->next;
      t->next = NULL;
      cur = cur->next = t;
      t = n;
    }
    rest = loop->next;
    loop->next = NULL;
  }
  cur = cur->next = rw_decl(tile, NULL);
  Node *walk_part = r->guard ? rw_if(clone_nodes(r->guard), loop, NULL) : loop;
  walk_part->next = rw_sync(at);
  Node *sync1 = rw_sync(at);
  sync1->next = walk_part;
  load_loop->next = c->mutation == 1 ? walk_part : sync1;
  Node *strip_loop =
    rw_for(rw_decl(i0, start), strip_cond, rw_assign_op(ND_ADD, rw_var(at, i0), rw_num(at, T)),
           rw_block(at, load_loop));
  cur = cur->next = strip_loop;
  if (rest) cur = cur->next = rw_if(clone_nodes(r->guard), rw_block(at, rest), NULL);
  cur->next = after;
  *r->slot = head.next;
  snprintf(c->did, sizeof c->did,
           "'%s' at line %d: the row walk strip-mined by %d through __shared__ %s %s[%d][%d]",
           r->param->name, tok_loc(at).line, T, type_name(et), tile->name, Bx, T + pad);
  return true;
}

/* ---- shape 1 on a reshaped block: a T x T tile read by a block of T x R threads, each thread
 * moving T/R rows (Ruetsch and Micikevicius's 32 x 8 transpose). The block is reshaped: blockDim
 * reads as T x T in the kernel (each physical block runs one T x T virtual block), the grid
 * shrinks to cover the same threads, and the statement holding the access runs once per row j
 * of the thread, with threadIdx.y + j for threadIdx.y. Needs a kernel of pure declarations
 * followed by that one statement. */
static void subst_specials(Node **slot, const Subst *s) {
  for (; *slot; slot = &(*slot)->next) {
    Node *n = *slot;
    if (n->kind == ND_SPECIAL) {
      for (int i = 0; i < s->n; i++)
        if (s->reg[i] == n->sreg && s->dim[i] == n->dim) {
          Node *r = clone_nodes(s->to[i]);
          if (!same_type(r->ty, n->ty)) {
            Node *c = new_node(ND_CAST, r->tok);
            c->lhs = r;
            c->ty = n->ty;
            c->cast_ty = n->ty;
            r = c;
          }
          r->next = n->next;
          *slot = r;
          break;
        }
      continue;
    }
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(n, kids);
    for (int k = 0; k < nk; k++) subst_specials(kids[k], s);
  }
}

static bool coarse_shape(PassCtx *c, Site *s, char *why, size_t len) {
  for (Node *t = c->k->body->stmts; t; t = t->next) {
    if (t == s->stmt) {
      if (t->next) {
        snprintf(why, len, "statements follow line %d", tok_loc(t->tok).line);
        return false;
      }
      return true;
    }
    if (!pure_init(c->k, t)) {
      snprintf(why, len, "line %d is not a declaration with a pure initializer",
               tok_loc(t->tok).line);
      return false;
    }
  }
  return false;
}

static Node *step_loop(Obj *j, int T, int R, Node *body, Token *at) {
  return rw_for(rw_decl(j, rw_num(at, 0)), rw_bin(ND_LT, rw_var(at, j), rw_num(at, T)),
                rw_assign_op(ND_ADD, rw_var(at, j), rw_num(at, R)), body);
}

static bool apply_coarse(PassCtx *c, Site *s) {
  c->spec |= OPT_SPEC_ARGS; /* the transposed access was found at the recorded arguments' strides */
  Obj *k = c->k;
  Token *at = s->acc->tok;
  int T = c->param[1], R = c->param[2] ? c->param[2] : T, pad = c->param[0], B = s->B;
  char why[256];
  if (T > 32 || T % R || !coarse_shape(c, s, why, sizeof why)) {
    snprintf(c->why, sizeof c->why, "a %dx%d tile on %dx%d threads: %s", T, T, T, R,
             T > 32 || T % R ? "not a valid shape" : why);
    return false;
  }
  Type *et = unqual(s->acc->ty);
  Obj *tile = rw_new_var(c->p, k, "tile", array_of(array_of(et, T + pad), T), SC_SHARED, at);
  Obj *j = rw_new_var(c->p, k, "j", ty_int, SC_LOCAL, at);
  Obj *j2 = rw_new_var(c->p, k, "j", ty_int, SC_LOCAL, at);
  j2->name = j->name; /* the loops are siblings: one name reads better, scopes keep them apart */
  Node *ty_j = rw_bin(ND_ADD, rw_special(at, SR_TID, 1), rw_var(at, j));
  Node *ty_j2 = rw_bin(ND_ADD, rw_special(at, SR_TID, 1), rw_var(at, j2));
  /* the load: this thread fetches for the virtual thread x' = threadIdx.y + j, y' = threadIdx.x */
  Subst sw = {.n = 4,
              .reg = {SR_TID, SR_TID, SR_NTID, SR_NTID},
              .dim = {0, 1, 0, 1},
              .to = {ty_j, rw_special(at, SR_TID, 0), rw_unum(at, T), rw_unum(at, T)}};
  Node *idx = remat(k, s->acc->rhs, &sw, why, sizeof why);
  Node *guard = s->guard ? remat(k, s->guard, &sw, why, sizeof why) : NULL;
  if (!idx || (s->guard && !guard)) {
    snprintf(c->why, sizeof c->why, "%s", why);
    return false;
  }
  Node *col = c->mutation == 3 ? rw_bin(ND_ADD, rw_special(at, SR_TID, 0), rw_num(at, 1))
                               : rw_special(at, SR_TID, 0);
  Node *load = rw_expr_stmt(rw_assign(rw_index(rw_index(rw_var(at, tile), clone_nodes(ty_j)), col),
                                      rw_index(rw_var(at, s->param), idx)));
  Node *loop1 =
    step_loop(j, T, R, (guard && c->mutation != 2) ? rw_if(guard, load, NULL) : load, at);
  /* the statement, once per row: the access reads tile[threadIdx.x][threadIdx.y + j] */
  Node **as = rw_slot_of(&s->stmt, s->acc);
  if (!as) {
    snprintf(c->why, sizeof c->why, "internal: access not found");
    return false;
  }
  Node *rd =
    c->mutation == 4
      ? rw_index(rw_index(rw_var(at, tile), clone_nodes(ty_j2)), rw_special(at, SR_TID, 0))
      : rw_index(rw_index(rw_var(at, tile), rw_special(at, SR_TID, 0)), clone_nodes(ty_j2));
  rd->next = (*as)->next;
  *as = rd;
  /* the declarations move into the row loop, seeing the row's threadIdx.y and the virtual
   * blockDim (the substitution leaves the tile read alone: it names threadIdx.y + j already) */
  Subst row = {.n = 3,
               .reg = {SR_TID, SR_NTID, SR_NTID},
               .dim = {1, 0, 1},
               .to = {ty_j2, rw_unum(at, T), rw_unum(at, T)}};
  Node *stmt = s->stmt;
  Node *decls = k->body->stmts == stmt ? NULL : k->body->stmts;
  Node *tail = decls;
  while (tail && tail->next != stmt) tail = tail->next;
  if (tail) tail->next = NULL;
  for (Node *t = decls; t; t = t->next) subst_specials(&t->decl_init, &row);
  Node *next = stmt->next; /* NULL: stmt is last (coarse_shape) */
  stmt->next = NULL;
  Node *rd_next = rd->next;
  /* protect the tile read from the substitution: swap it out while substituting */
  Node *hole = rw_num(at, 0);
  hole->next = rd_next;
  *as = hole;
  subst_specials(&stmt, &row);
  Node **hs = rw_slot_of(&stmt, hole);
  if (hs) {
    rd->next = hole->next;
    *hs = rd;
  }
  stmt->next = next;
  if (tail) tail->next = stmt;
  else decls = stmt;
  for (Node *t = decls; t && t != stmt; t = t->next)
    if (t->var) t->var->init = t->decl_init;
  Node *loop2 = step_loop(j2, T, R, rw_block(at, decls), at);
  Node *decl = rw_decl(tile, NULL);
  decl->next = loop1;
  if (c->mutation == 1) loop1->next = loop2; /* mutation 1: the barrier is missing */
  else {
    loop1->next = rw_sync(at);
    loop1->next->next = loop2;
  }
  k->body->stmts = decl;
  c->changes_launch = true;
  c->new_block[0] = T;
  c->new_block[1] = R;
  c->new_block[2] = 1;
  c->new_grid[0] = (c->L->grid[0] * B + T - 1) / T;
  c->new_grid[1] = (c->L->grid[1] * B + T - 1) / T;
  c->new_grid[2] = c->L->grid[2];
  c->cover[0] = c->cover[1] = T;
  c->cover[2] = c->L->block[2];
  snprintf(
    c->did, sizeof c->did,
    "'%s' at line %d staged through __shared__ %s %s[%d][%d]; block %dx%d (was %dx%d), %d rows per thread",
    s->param->name, tok_loc(at).line, type_name(et), tile->name, T, T + pad, T, R, B, B, T / R);
  return true;
}

/* a transposed load first, then a row walk; the reason given is the more telling one: an
 * illegal site over "not applicable", and both shapes named when neither is there */
static Legality legal(PassCtx *c) {
  Site s;
  Legality a = find_site(c, &s);
  if (a == LEGAL) return a;
  char why_a[512];
  snprintf(why_a, sizeof why_a, "%s", c->why);
  c->why[0] = 0;
  Rows r;
  Legality b = find_rows(c, &r);
  if (b == LEGAL) return b;
  if (a == ILLEGAL) {
    snprintf(c->why, sizeof c->why, "%s", why_a);
    return ILLEGAL;
  }
  if (b == ILLEGAL) return ILLEGAL;
  char why_b[512];
  snprintf(why_b, sizeof why_b, "%s",
           c->why[0] ? c->why : "no loop walks rows of a matrix in its threads");
  snprintf(c->why, sizeof c->why, "%.250s; %.250s", why_a, why_b);
  return NOT_APPLICABLE;
}

static bool apply(PassCtx *c) {
  Site s;
  if (find_site(c, &s) != LEGAL) {
    Rows r;
    return find_rows(c, &r) == LEGAL && apply_rows(c, &r);
  }
  if (c->param[1] != s.B || (c->param[2] && c->param[2] != s.B)) return apply_coarse(c, &s);
  Obj *k = c->k;
  Token *at = s.acc->tok;
  int B = s.B, pad = c->param[0];
  Type *et = unqual(s.acc->ty);
  Obj *tile = rw_new_var(c->p, k, "tile", array_of(array_of(et, B + pad), B), SC_SHARED, at);
  /* the swapped thread: threadIdx.x <-> threadIdx.y */
  Subst sw = {.n = 2, .reg = {SR_TID, SR_TID}, .dim = {0, 1}};
  sw.to[0] = rw_special(at, SR_TID, 1);
  sw.to[1] = rw_special(at, SR_TID, 0);
  char why[256];
  Node *idx = remat(k, s.acc->rhs, &sw, why, sizeof why);
  Node *guard = s.guard ? remat(k, s.guard, &sw, why, sizeof why) : NULL;
  if (!idx || (s.guard && !guard)) {
    snprintf(c->why, sizeof c->why, "%s", why);
    return false;
  }
  Node *tx = rw_special(at, SR_TID, 0), *ty = rw_special(at, SR_TID, 1);
  /* tile[ty][tx] = P[idx at the swapped thread] */
  Node *store_col =
    c->mutation == 3 ? rw_bin(ND_ADD, clone_nodes(tx), rw_num(at, 1)) : clone_nodes(tx);
  Node *dst = rw_index(rw_index(rw_var(at, tile), clone_nodes(ty)), store_col);
  Node *load = rw_expr_stmt(rw_assign(dst, rw_index(rw_var(at, s.param), idx)));
  Node *ld = (guard && c->mutation != 2) ? rw_if(guard, load, NULL) : load;
  Node *decl = rw_decl(tile, NULL);
  decl->next = ld;
  if (c->mutation != 1) ld->next = rw_sync(at); /* mutation 1: the barrier is missing */
  rw_insert_before(s.slot, decl);
  /* the access reads tile[tx][ty] (mutation 4: tile[ty][tx], the wrong element) */
  Node **as = rw_slot_of(&s.stmt, s.acc);
  if (!as) {
    snprintf(c->why, sizeof c->why, "internal: access not found");
    return false;
  }
  Node *r = c->mutation == 4 ? rw_index(rw_index(rw_var(at, tile), ty), tx)
                             : rw_index(rw_index(rw_var(at, tile), tx), ty);
  r->next = (*as)->next;
  *as = r;
  snprintf(c->did, sizeof c->did, "'%s' at line %d staged through __shared__ %s %s[%d][%d]",
           s.param->name, tok_loc(at).line, type_name(et), tile->name, B, B + pad);
  return true;
}

const Pass pass_stage = {
  .name = "stage",
  .summary =
    "stage transposed global loads through a padded shared tile so warps read consecutive addresses",
  .source =
    "Yang et al., PLDI 2010, Sec. 3.3 (coalescing through shared memory); Ruetsch and Micikevicius, "
    "Optimizing Matrix Transpose in CUDA (NVIDIA, 2009)",
  .params =
    {{"pad", "columns of padding against bank conflicts (0 or 1)", {0, 1}, 1},
     {"tile",
      "tile width: transposes use a tile x tile block (reshaped if it differs); row walks stage this many "
      "iterations per strip",
      {16, 32, 64},
      32},
     {"rows",
      "transposes: thread rows per block (tile/rows rows per thread; 0 keeps the block square)",
      {0, 4, 8, 16, 32},
      8}},
  .nparams = 3,
  .motivation = "coalescing",
  .legal = legal,
  .apply = apply,
  .nmutations = 4,
  .mutation_names =
    {"barrier after the tile load missing", "bounds guard of the tile load dropped",
     "tile edge off by one (stored one column off; row walk: read one column off)",
     "tile read at the wrong element (row walk: one iteration too many per strip, reading an unwritten column)"},
};
