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

static Node *strip(Node *n) { while (n && n->kind == ND_CAST && n->implicit) n = n->lhs; return n; }

typedef struct { Node *acc; Obj *param; } Cand;
typedef struct { Cand c[16]; int n; Obj *fn; } Cands;

typedef struct { Obj *param; bool stored; } StoreFind;
static bool store_pre(Node *n, void *ctx) {
  StoreFind *s = ctx;
  bool w = n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC || n->kind == ND_PREDEC ||
           n->kind == ND_POSTINC || n->kind == ND_POSTDEC;
  if (w) {
    Node *l = strip(n->lhs);
    if (l->kind == ND_INDEX && strip(l->lhs)->kind == ND_VAR && strip(l->lhs)->var == s->param) s->stored = true;
    if (l->kind == ND_DEREF) s->stored = true;   /* through some pointer: assume it may be this one */
  }
  if (n->kind == ND_CALL && (n->fn || (n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR))) s->stored = true;
  return !s->stored;
}

static bool read_only(Obj *fn, Obj *param) {
  StoreFind s = {param, false};
  walk(fn->body, store_pre, NULL, &s);
  return !s.stored;
}

static bool is_store_target(Node *root, Node *acc) {
  Node *par = rw_parent(root, acc);
  if (!par) return false;
  bool w = par->kind == ND_ASSIGN || par->kind == ND_ASSIGN_OP || par->kind == ND_PREINC || par->kind == ND_PREDEC ||
           par->kind == ND_POSTINC || par->kind == ND_POSTDEC;
  return w && strip(par->lhs) == acc;
}

static bool cand_pre(Node *n, void *ctx) {
  Cands *c = ctx;
  if (n->kind != ND_INDEX || n->ty->kind == TY_ARRAY || n->ty->kind == TY_STRUCT || c->n == 16) return true;
  Node *b = strip(n->lhs);
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
    if (!par) { snprintf(why, len, "internal: no parent"); return false; }
    Node *g = NULL;
    switch (par->kind) {
    case ND_IF: case ND_COND:
      if (child == par->then) g = clone_nodes(par->cond);
      else if (child == par->els) g = rw_unary(ND_NOT, clone_nodes(par->cond));
      break;
    case ND_LOGAND: if (child == par->rhs) g = clone_nodes(par->lhs); break;
    case ND_LOGOR: if (child == par->rhs) g = rw_unary(ND_NOT, clone_nodes(par->lhs)); break;
    case ND_FOR: case ND_WHILE: case ND_DO:
      snprintf(why, len, "the access is in a loop (line %d)", tok_loc(par->tok).line);
      return false;
    case ND_SWITCH: case ND_CASE:
      snprintf(why, len, "the access is in a switch (line %d)", tok_loc(par->tok).line);
      return false;
    default: break;
    }
    if (g) *guard = *guard ? rw_bin(ND_LOGAND, g, *guard) : g;
    child = par;
  }
  return true;
}

typedef struct { bool found; } RetFind;
static bool ret_pre(Node *n, void *ctx) {
  RetFind *r = ctx;
  if (n->kind == ND_RETURN) r->found = true;
  if (n->kind == ND_CALL && (n->builtin == BI_SYNCTHREADS || (n->fn && n->fn->uses_barrier))) r->found = true;
  return !r->found;
}

typedef struct {
  Node **slot;        /* the top-level statement slot holding the access */
  Node *stmt;
  Node *acc;
  Obj *param;
  Node *guard;        /* may be NULL */
  int B;
} Site;

static Legality find_site(PassCtx *c, Site *site) {
  const Launch *L = c->L;
  Obj *k = c->k;
  if (L->block[0] != L->block[1] || L->block[2] != 1 || L->block[0] < 2 || L->block[0] > 32) {
    snprintf(c->why, sizeof c->why, "the block is not square (%lldx%lldx%lld): no transposed tile", (long long)L->block[0],
             (long long)L->block[1], (long long)L->block[2]);
    return NOT_APPLICABLE;
  }
  if (!k->body || k->body->kind != ND_BLOCK) return NOT_APPLICABLE;
  Legality best = NOT_APPLICABLE;
  snprintf(c->why, sizeof c->why, "no global load with uncoalesced threadIdx.x neighbours and consecutive threadIdx.y neighbours");
  Node **slot = &k->body->stmts;
  bool returned = false;
  for (; *slot; slot = &(*slot)->next) {
    Node *s = *slot;
    Cands cs = {.n = 0, .fn = k};
    Node *next = s->next;
    s->next = NULL;
    walk(s, cand_pre, NULL, &cs);
    s->next = next;
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
      if (!read_only(k, cs.c[i].param)) {
        snprintf(c->why, sizeof c->why, "'%s' (line %d) is written in the kernel: loading it early could read a stale value", cs.c[i].param->name, line);
        best = ILLEGAL;
        continue;
      }
      if (returned) {
        snprintf(c->why, sizeof c->why, "a return or barrier precedes the load at line %d: not every thread reaches the tile", line);
        best = ILLEGAL;
        continue;
      }
      Node *guard;
      if (!guard_of(s, acc, &guard, c->why, sizeof c->why)) { best = ILLEGAL; continue; }
      if (guard && !remat(k, guard, &(Subst){0}, why, sizeof why)) {
        snprintf(c->why, sizeof c->why, "the condition guarding line %d cannot be computed for another thread: %s", line, why);
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
      snprintf(c->why, sizeof c->why, "'%s' at line %d: threadIdx.x neighbours %lld elements apart, threadIdx.y neighbours adjacent",
               site->param->name, line, (long long)sx);
      return LEGAL;
    }
    RetFind r = {false};
    next = s->next;
    s->next = NULL;
    walk(s, ret_pre, NULL, &r);
    s->next = next;
    if (r.found) returned = true;
  }
  return best;
}

static Legality legal(PassCtx *c) {
  Site s;
  return find_site(c, &s);
}

static bool apply(PassCtx *c) {
  Site s;
  if (find_site(c, &s) != LEGAL) return false;
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
  if (!idx || (s.guard && !guard)) { snprintf(c->why, sizeof c->why, "%s", why); return false; }
  Node *tx = rw_special(at, SR_TID, 0), *ty = rw_special(at, SR_TID, 1);
  /* tile[ty][tx] = P[idx at the swapped thread] */
  Node *store_col = c->mutation == 3 ? rw_bin(ND_ADD, clone_nodes(tx), rw_num(at, 1)) : clone_nodes(tx);
  Node *dst = rw_index(rw_index(rw_var(at, tile), clone_nodes(ty)), store_col);
  Node *load = rw_expr_stmt(rw_assign(dst, rw_index(rw_var(at, s.param), idx)));
  Node *ld = (guard && c->mutation != 2) ? rw_if(guard, load, NULL) : load;
  Node *decl = rw_decl(tile, NULL);
  decl->next = ld;
  if (c->mutation != 1) ld->next = rw_sync(at);   /* mutation 1: the barrier is missing */
  rw_insert_before(s.slot, decl);
  /* the access reads tile[tx][ty] (mutation 4: tile[ty][tx], the wrong element) */
  Node **as = rw_slot_of(&s.stmt, s.acc);
  if (!as) { snprintf(c->why, sizeof c->why, "internal: access not found"); return false; }
  Node *r = c->mutation == 4 ? rw_index(rw_index(rw_var(at, tile), ty), tx) : rw_index(rw_index(rw_var(at, tile), tx), ty);
  r->next = (*as)->next;
  *as = r;
  snprintf(c->did, sizeof c->did, "'%s' at line %d staged through __shared__ %s %s[%d][%d]", s.param->name, tok_loc(at).line,
           type_name(et), tile->name, B, B + pad);
  return true;
}

const Pass pass_stage = {
  .name = "stage",
  .summary = "stage transposed global loads through a padded shared tile so warps read consecutive addresses",
  .source = "Yang et al., PLDI 2010, Sec. 3.3 (coalescing through shared memory); Ruetsch and Micikevicius, "
            "Optimizing Matrix Transpose in CUDA (NVIDIA, 2009)",
  .params = {{"pad", "columns of padding against bank conflicts (0 or 1)", {0, 1}, 1}},
  .nparams = 1,
  .motivation = "uncoalesced",
  .legal = legal,
  .apply = apply,
  .nmutations = 4,
  .mutation_names = {"barrier after the tile load missing", "bounds guard of the tile load dropped",
                     "tile stored one column off", "tile read at the wrong element"},
};
