/* pass stencil: thread coarsening along the streaming dimension of a stencil (Yang et al., PLDI
 * 2010, Sec. 3.5.2, thread merge; Micikevicius, "3D Finite Difference Computation on GPUs using
 * CUDA", GPGPU 2009, the register reuse of planes down the streaming dimension). Each thread
 * computes R outputs down y (or z): the body runs in an unrolled loop over cy = 0..R-1 with
 * threadIdx.d read as threadIdx.d*R + cy and blockDim.d as blockDim.d*R, and the grid shrinks by
 * R along d. The stores are deferred into registers and written after the loop, so the loop
 * body stores nothing: where every row passes the border guard (a fast path tested first), the
 * loads run unconditionally and the rows that neighbouring outputs share are loaded once (nvcc's
 * value numbering over the unrolled copies; the model counts the same: cost.c "loads the
 * unrolled copies share"). A 3x3 convolution with R = 4 loads 6 rows of 3 where it loaded 12.
 * Rows where some copy fails the guard take the guarded loop: the borders stay exact.
 *
 * Declarations the same for every row (the column index, coefficients) are computed once before
 * the rows. Where the guard is a conjunction of comparisons of signed integers affine in the row,
 * each holds on an interval of rows and so does the conjunction: the fast path's test evaluates
 * it at the first and the last row only.
 *
 * Legal, from the affine access facts, when the kernel is a stencil: every global store is
 * `P[i] = e` or `P[i] op= e` outside any loop, one per buffer, its index S*(blockIdx.d*blockDim.d
 * + threadIdx.d) + ... (S a constant or a parameter: no tile constant for blockDim.d); the buffer
 * it writes is read only at that same element and only in the storing statement (the store is
 * deferred past the rest of the row); every other global access is affine, not atomic, and not
 * in a device function, and some load shares its rows with another row's (another load of the
 * buffer a small multiple of S away, or a loop counter whose coefficient is such a multiple);
 * the threads cannot see each other (no barrier, shared memory, warp operation, fence, volatile,
 * call, gridDim, or return inside a loop). The launch must not bind one buffer to two pointer
 * parameters (the deferred stores and shared loads assume distinct buffers; the output declares
 * them __restrict__). */
#include "opt.h"
#include "../analysis/analysis.h"
#include "../analysis/match.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_STORES = 4 };

/* a store the pass defers: the ND_EXPR_STMT `P[i] = e;` or `P[i] op= e;` */
typedef struct {
  Node *stmt;
  Obj *param;
} Store;

typedef struct {
  int depth, dim;
  Store st[MAX_STORES];
  int n;
  bool too_many, reads_tid, griddim;
} Scan;

static bool scan_pre(Node *n, void *ctx) {
  Scan *s = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO || n->kind == ND_SWITCH)
    s->depth++;
  if (n->kind == ND_SPECIAL && n->dim == s->dim && n->sreg == SR_TID) s->reads_tid = true;
  if (n->kind == ND_SPECIAL && n->dim == s->dim && n->sreg == SR_NCTAID) s->griddim = true;
  if (n->kind != ND_EXPR_STMT || s->depth) return true;
  Node *a = n->lhs;
  if (a->kind != ND_ASSIGN && a->kind != ND_ASSIGN_OP) return true;
  Node *lhs = a->lhs;
  if (lhs->kind != ND_INDEX) return true;
  Node *base = rw_strip(lhs->lhs);
  if (base->kind != ND_VAR || base->var->sc != SC_PARAM || base->var->ty->kind != TY_PTR)
    return true;
  if (s->n == MAX_STORES) {
    s->too_many = true;
    return true;
  }
  s->st[s->n++] = (Store){n, base->var};
  return true;
}
static bool scan_post(Node *n, void *ctx) {
  Scan *s = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO || n->kind == ND_SWITCH)
    s->depth--;
  return true;
}

/* ---- affine offsets ---- */
static bool sym_eq(const Sym *a, const Sym *b) {
  return a->kind == b->kind && a->dim == b->dim && a->var == b->var && !strcmp(a->name, b->name);
}
static bool term_eq(const Term *a, const Term *b) {
  if (a->deg != b->deg) return false;
  for (int i = 0; i < a->deg; i++)
    if (!sym_eq(&a->sym[i], &b->sym[i])) return false;
  return true;
}
/* d = a - b (terms of both; false when it does not fit) */
static bool affine_sub(const Affine *a, const Affine *b, Affine *d) {
  if (!a->ok || !b->ok) return false;
  *d = *a;
  for (int j = 0; j < b->n; j++) {
    int i = 0;
    while (i < d->n && !term_eq(&d->t[i], &b->t[j])) i++;
    if (i == d->n) {
      if (d->n == AFFINE_TERMS) return false;
      d->t[d->n] = b->t[j];
      d->t[d->n++].coef = 0;
    }
    d->t[i].coef -= b->t[j].coef;
  }
  int k = 0;
  for (int i = 0; i < d->n; i++)
    if (d->t[i].coef) d->t[k++] = d->t[i];
  d->n = k;
  return true;
}
/* the same, for the halo pass (pass_halo.c) */
bool stencil_affine_sub(const Affine *a, const Affine *b, Affine *d);
bool stencil_affine_sub(const Affine *a, const Affine *b, Affine *d) { return affine_sub(a, b, d); }

/* the form names a thread or block index (it differs between threads) */
static bool names_thread(const Affine *a) {
  for (int i = 0; i < a->n; i++)
    for (int s = 0; s < a->t[i].deg; s++)
      if (a->t[i].sym[s].kind == SYM_TID || a->t[i].sym[s].kind == SYM_CTAID ||
          a->t[i].sym[s].kind == SYM_PROGRESS)
        return true;
  return false;
}

static bool is_sym(const Sym *s, SymKind k, int dim, const Obj *var) {
  return s->kind == k && (var ? s->var == var : s->dim == dim);
}

/* the polynomial that multiplies the symbols (k1, and k2 when k2 != k1) in a: the terms holding
 * each exactly once, with them removed; *rest: whether another term holds k1 (or k2) otherwise */
static Affine coef_poly(const Affine *a, SymKind k1, SymKind k2, int dim, const Obj *var,
                        bool *rest) {
  Affine r = {.ok = a->ok};
  *rest = false;
  for (int i = 0; i < a->n && r.ok; i++) {
    const Term *t = &a->t[i];
    int n1 = 0, n2 = 0;
    for (int s = 0; s < t->deg; s++) {
      n1 += is_sym(&t->sym[s], k1, dim, var);
      n2 += k2 != k1 && is_sym(&t->sym[s], k2, dim, var);
    }
    bool want = n1 == 1 && (k2 == k1 || n2 == 1);
    if (!want) {
      if (n1 || n2) *rest = true;
      continue;
    }
    Term m = {t->coef, 0, {{0}}};
    for (int s = 0; s < t->deg; s++)
      if (!is_sym(&t->sym[s], k1, dim, var) && !(k2 != k1 && is_sym(&t->sym[s], k2, dim, var)))
        m.sym[m.deg++] = t->sym[s];
    if (r.n == AFFINE_TERMS) {
      r.ok = false;
      break;
    }
    r.t[r.n++] = m;
  }
  return r;
}

/* a == c * b for a small nonzero integer c */
static bool multiple_of(const Affine *a, const Affine *b) {
  if (!b->n) return false;
  for (int64_t c = -4; c <= 4; c++) {
    if (!c) continue;
    Affine cb = *b, dd;
    for (int i = 0; i < cb.n; i++) cb.t[i].coef *= c;
    if (affine_sub(a, &cb, &dd) && !dd.n) return true;
  }
  return false;
}

/* the row stride S of an index (what multiplies threadIdx.d), when the index reaches its row as
 * S*(blockIdx.d*blockDim.d + threadIdx.d) does: no tile constant for blockDim.d, no other
 * blockIdx.d or threadIdx.d term */
static bool row_stride(const Affine *a, int d, Affine *S) {
  bool r1, r2;
  *S = coef_poly(a, SYM_TID, SYM_TID, d, NULL, &r1);
  Affine B = coef_poly(a, SYM_CTAID, SYM_NTID, d, NULL, &r2), dd;
  return S->ok && S->n && !r1 && !r2 && affine_sub(S, &B, &dd) && !dd.n;
}

/* a load whose rows the merged rows share: another load of the buffer one or a few rows away
 * (their indices differ by a small multiple of the row stride), or a loop whose counter walks
 * rows (its coefficient is such a multiple: the loop's unrolled copies and the merged rows meet) */
static bool shares_rows(Facts *f, const Access *a, int d) {
  Affine S;
  if (!row_stride(&a->index, d, &S)) return false;
  for (int k = 0; k < facts_naccesses(f); k++) {
    const Access *b = facts_access(f, k);
    Affine dd;
    if (b != a && b->load && b->base == a->base && b->index.ok &&
        affine_sub(&a->index, &b->index, &dd) && multiple_of(&dd, &S))
      return true;
  }
  for (int i = 0; i < a->index.n; i++)
    for (int s = 0; s < a->index.t[i].deg; s++) {
      const Sym *y = &a->index.t[i].sym[s];
      if (y->kind != SYM_LOOP || !y->var) continue;
      bool rest;
      Affine L = coef_poly(&a->index, SYM_LOOP, SYM_LOOP, 0, y->var, &rest);
      if (!rest && multiple_of(&L, &S)) return true;
    }
  return false;
}

static int dim_of(const PassCtx *c) { return c->param[1] == 2 ? 2 : 1; }

/* the stencil facts; NOT_APPLICABLE or ILLEGAL with why, or LEGAL with the stores found */
static Legality stencil_facts(PassCtx *c, Scan *s) {
  int d = dim_of(c);
  const char *dn = d == 1 ? "y" : "z";
  Facts *f = facts_new(c->p, c->k);
  Legality r = LEGAL;
  int neighbours = 0;
  for (int i = 0; i < s->n; i++) {
    Node *lhs = s->st[i].stmt->lhs->lhs;
    bool ind = false;
    Affine a = facts_index_form(f, lhs, &ind), S;
    if (!a.ok || ind) {
      snprintf(c->why, sizeof c->why, "the store to '%s' has no affine index",
               s->st[i].param->name);
      r = NOT_APPLICABLE;
      goto out;
    }
    if (!row_stride(&a, d, &S)) {
      snprintf(c->why, sizeof c->why,
               "the store to '%s' is not at a row of blockIdx.%s*blockDim.%s + threadIdx.%s",
               s->st[i].param->name, dn, dn, dn);
      r = NOT_APPLICABLE;
      goto out;
    }
    for (int j = 0; j < i; j++)
      if (s->st[j].param == s->st[i].param) {
        snprintf(c->why, sizeof c->why, "'%s' is stored twice", s->st[i].param->name);
        r = NOT_APPLICABLE;
        goto out;
      }
  }
  for (int k = 0; k < facts_naccesses(f); k++) {
    const Access *a = facts_access(f, k);
    if (a->space == SPACE_LOCAL || a->space == SPACE_CONST) continue;
    if (a->space != SPACE_GLOBAL || !a->base || a->indirect || !a->index.ok || a->atomic ||
        a->fn != c->k) {
      snprintf(c->why, sizeof c->why,
               "an access (line %d) is not an affine global access of a parameter (%s)",
               a->node->tok->line,
               a->space != SPACE_GLOBAL      ? "not global"
               : !a->base                    ? "a computed base"
               : a->indirect || !a->index.ok ? "no affine index"
               : a->atomic                   ? "an atomic"
                                             : "in a device function");
      r = NOT_APPLICABLE;
      goto out;
    }
    int si = -1;
    for (int i = 0; i < s->n; i++)
      if (s->st[i].param == a->base) si = i;
    if (a->store) {
      bool listed = false;
      for (int i = 0; i < s->n; i++) listed |= s->st[i].stmt->lhs->lhs == a->node;
      if (!listed) {
        snprintf(c->why, sizeof c->why,
                 "a store to '%s' (line %d) is inside a loop or not a plain assignment",
                 a->base->name, a->node->tok->line);
        r = NOT_APPLICABLE;
        goto out;
      }
      continue;
    }
    if (si >= 0) {
      bool ind = false;
      Affine w = facts_index_form(f, s->st[si].stmt->lhs->lhs, &ind), off;
      if (!affine_sub(&a->index, &w, &off) || off.n) {
        snprintf(
          c->why, sizeof c->why,
          "'%s' is read at another element than the one stored (line %d): a thread would see another's output",
          a->base->name, a->node->tok->line);
        r = ILLEGAL;
        goto out;
      }
      /* the store is deferred past the rest of the row: a read after it would see the old value */
      if (!rw_contains(s->st[si].stmt, a->node)) {
        snprintf(
          c->why, sizeof c->why,
          "'%s' is read outside the statement that stores it (line %d): the deferred store would change what it reads",
          a->base->name, a->node->tok->line);
        r = ILLEGAL;
        goto out;
      }
      continue;
    }
    if (!names_thread(&a->index)) continue; /* every thread reads the same element: a coefficient */
    neighbours += shares_rows(f, a, d);
  }
  if (!neighbours) {
    snprintf(c->why, sizeof c->why,
             "no load shares its rows with a neighbouring row's: nothing for merged rows to reuse");
    r = NOT_APPLICABLE;
  }
out:
  facts_free(f);
  return r;
}

static Legality legal(PassCtx *c) {
  int R = c->param[0], d = dim_of(c);
  const char *dn = d == 1 ? "y" : "z";
  char no[256];
  if (rw_launch_aliases(c, c->why, sizeof c->why)) return ILLEGAL;
  if (!rw_threads_separable(c->k->body, NULL, no, sizeof no)) {
    snprintf(c->why, sizeof c->why, "threads cannot be merged along %s: %s", dn, no);
    return ILLEGAL;
  }
  Scan s = {.dim = d};
  walk(c->k->body, scan_pre, scan_post, &s);
  if (!s.reads_tid) {
    snprintf(c->why, sizeof c->why, "the kernel does not read threadIdx.%s", dn);
    return NOT_APPLICABLE;
  }
  if (s.griddim) {
    snprintf(c->why, sizeof c->why, "it reads gridDim.%s, which the pass changes", dn);
    return ILLEGAL;
  }
  if (s.too_many || !s.n) {
    snprintf(c->why, sizeof c->why, "%s", s.n ? "more than 4 stores" : "no store outside a loop");
    return NOT_APPLICABLE;
  }
  /* a grid with fewer than R blocks along d is one block there: the rows past the original's stop */
  Legality r = stencil_facts(c, &s);
  if (r != LEGAL) return r;
  snprintf(c->why, sizeof c->why,
           "a stencil: %d outputs down %s per thread, the rows they share loaded once", R, dn);
  c->site = s.st[0].stmt;
  return LEGAL;
}

/* ---- apply ---- */
/* the slots holding threadIdx.d and blockDim.d, and the return statements */
typedef struct {
  Node ***v;
  int n, cap, dim;
} Slots;
static void find_slots(Node **list, Slots *s) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *n = *slot;
    if ((n->kind == ND_SPECIAL && n->dim == s->dim && (n->sreg == SR_TID || n->sreg == SR_NTID)) ||
        n->kind == ND_RETURN) {
      if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = xrealloc(s->v, sizeof(Node **) * (size_t)s->cap);
      }
      s->v[s->n++] = slot;
      continue;
    }
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(n, kids);
    for (int k = 0; k < nk; k++) find_slots(kids[k], s);
  }
}

/* ---- what the merged rows share ----
 * A leading declaration whose value is the same for every row (pure, reading neither
 * threadIdx.d, blockDim.d nor a variable that does, a scalar written nowhere else, its address
 * not taken) is computed once before the rows: the column index, the coefficients. */
typedef struct {
  int dim;
  Obj *dep[64];
  int ndep;
  bool hit;
} DepScan;
static bool dep_pre(Node *n, void *ctx) {
  DepScan *x = ctx;
  if (n->kind == ND_SPECIAL && n->dim == x->dim && (n->sreg == SR_TID || n->sreg == SR_NTID))
    x->hit = true;
  if (n->kind == ND_VAR)
    for (int i = 0; i < x->ndep; i++)
      if (x->dep[i] == n->var) x->hit = true;
  return !x->hit;
}
static Node *hoist_invariant(Node **list, int dim) {
  DepScan x = {.dim = dim};
  Node head = {0}, *cur = &head;
  Node **slot = list;
  while (*slot && (*slot)->kind == ND_DECL) {
    Node *s = *slot;
    Obj *v = s->var;
    x.hit = false;
    if (s->decl_init) walk(s->decl_init, dep_pre, NULL, &x);
    bool scalar = v && (is_integer(v->ty) || v->ty->kind == TY_FLOAT || v->ty->kind == TY_DOUBLE);
    bool movable = scalar && !x.hit && rw_pure(s->decl_init) && !v->is_volatile;
    if (movable)
      for (Node *r = s->next; r && movable; r = r->next)
        movable = !m_writes(r, v) && !m_addr_taken(r, v);
    if (!movable) {
      if (v && x.ndep < 64) x.dep[x.ndep++] = v;
      else if (v) return head.next; /* too many to track: stop hoisting here */
      slot = &s->next;
      continue;
    }
    *slot = s->next;
    s->next = NULL;
    cur = cur->next = s;
  }
  return head.next;
}

/* the guard holds for every row between two rows where it holds: a conjunction of comparisons of
 * signed integers, each side affine with threadIdx.d in no term more than once (linear in the
 * row, so each comparison holds on an interval of rows, and so does their conjunction) */
static bool linear_in_row(const Affine *a, int dim) {
  if (!a->ok) return false;
  for (int i = 0; i < a->n; i++) {
    int k = 0;
    for (int s = 0; s < a->t[i].deg; s++)
      k += a->t[i].sym[s].kind == SYM_TID && a->t[i].sym[s].dim == dim;
    if (k > 1) return false;
    for (int s = 0; s < a->t[i].deg; s++)
      if (a->t[i].sym[s].kind == SYM_LOOP || a->t[i].sym[s].kind == SYM_PROGRESS) return false;
  }
  return true;
}
static bool interval_guard(Facts *f, Node *g, int dim) {
  g = rw_strip(g);
  if (g->kind == ND_LOGAND) return interval_guard(f, g->lhs, dim) && interval_guard(f, g->rhs, dim);
  if (g->kind != ND_LT && g->kind != ND_LE && g->kind != ND_GT && g->kind != ND_GE) return false;
  if (!g->lhs->ty || !is_integer(g->lhs->ty) || g->lhs->ty->is_unsigned) return false;
  Affine l = facts_affine(f, g->lhs), r = facts_affine(f, g->rhs);
  return linear_in_row(&l, dim) && linear_in_row(&r, dim);
}

/* the update of v runs whenever the list does: reached through plain blocks only */
static bool unconditional(Node *list, Obj *v) {
  for (Node *s = list; s; s = s->next) {
    if (s->kind == ND_EXPR_STMT && s->lhs->kind == ND_ASSIGN_OP &&
        rw_strip(s->lhs->lhs)->kind == ND_VAR && rw_strip(s->lhs->lhs)->var == v)
      return true;
    if (s->kind == ND_BLOCK && unconditional(s->stmts, v)) return true;
  }
  return false;
}

/* the fast path keeps no mask where every row stores */
static void drop_writes(Node **list, Obj *v) {
  for (Node **slot = list; *slot;) {
    Node *s = *slot;
    if (s->kind == ND_EXPR_STMT && s->lhs->kind == ND_ASSIGN_OP &&
        rw_strip(s->lhs->lhs)->kind == ND_VAR && rw_strip(s->lhs->lhs)->var == v) {
      *slot = s->next;
      continue;
    }
    if (s->kind == ND_BLOCK) drop_writes(&s->stmts, v);
    if (s->kind == ND_FOR || s->kind == ND_IF) {
      drop_writes(&s->then, v);
      if (s->kind == ND_IF) drop_writes(&s->els, v);
    }
    slot = &s->next;
  }
}

typedef struct {
  Obj *val, *at, *mask;
} Deferred;

/* `P[i] = e;` -> `{ val[cy] = e; at[cy] = i; mask |= 1u << cy; }` (op=: val[cy] = P[i] op e) */
static Node *defer_store(PassCtx *c, Store *st, Deferred *d, Obj *cy) {
  Node *a = st->stmt->lhs, *lhs = a->lhs;
  Token *at = st->stmt->tok;
  int R = c->param[0];
  d->val =
    rw_new_var(c->p, c->k, fmt("%s_out", st->param->name), array_of(lhs->ty, R), SC_LOCAL, at);
  d->at =
    rw_new_var(c->p, c->k, fmt("%s_at", st->param->name), array_of(lhs->rhs->ty, R), SC_LOCAL, at);
  d->mask = rw_new_var(c->p, c->k, fmt("%s_mask", st->param->name), ty_uint, SC_LOCAL, at);
  Node *value = a->kind == ND_ASSIGN ? a->rhs : rw_bin(a->op, clone_nodes(lhs), a->rhs);
  Node *s1 = rw_expr_stmt(rw_assign(rw_index(rw_var(at, d->val), rw_var(at, cy)), value));
  Node *s2 =
    rw_expr_stmt(rw_assign(rw_index(rw_var(at, d->at), rw_var(at, cy)), clone_nodes(lhs->rhs)));
  Node *s3 = rw_expr_stmt(
    rw_assign_op(ND_BITOR, rw_var(at, d->mask), rw_bin(ND_SHL, rw_unum(at, 1), rw_var(at, cy))));
  s1->next = s2;
  s2->next = s3;
  return rw_block(at, s1);
}

/* after the loop: each row's output written where its copy stored */
static Node *flush_store(PassCtx *c, Store *st, Deferred *d, bool masked) {
  Token *at = st->stmt->tok;
  int R = c->param[0];
  Obj *cw = rw_new_var(c->p, c->k, "cw", ty_int, SC_LOCAL, at);
  Node *one = rw_expr_stmt(
    rw_assign(rw_index(rw_var(at, st->param), rw_index(rw_var(at, d->at), rw_var(at, cw))),
              rw_index(rw_var(at, d->val), rw_var(at, cw))));
  Node *bit =
    rw_bin(ND_BITAND, rw_bin(ND_SHR, rw_var(at, d->mask), rw_var(at, cw)), rw_unum(at, 1));
  Node *each = rw_for(rw_decl(cw, rw_num(at, 0)), rw_bin(ND_LT, rw_var(at, cw), rw_num(at, R)),
                      rw_unary(ND_POSTINC, rw_var(at, cw)), masked ? rw_if(bit, one, NULL) : one);
  rw_pragma_unroll(each, 0);
  return each;
}

/* the shape a fast path needs (as the vector pass's): declarations without side effects, then
 * either `if (G) S` last (form 1) or `if (G) continue;` followed by the rest (form 2) */
static int guard_form(Node *stmts, int *at) {
  int i = 0;
  for (Node *s = stmts; s; s = s->next, i++) {
    if (s->kind == ND_DECL) {
      if (!rw_pure(s->decl_init)) return 0;
      continue;
    }
    if (s->kind != ND_IF || s->els || !rw_pure(s->cond))
      return 0; /* the guard is evaluated twice */
    *at = i;
    Node *t = s->then;
    while (t->kind == ND_BLOCK && t->stmts && !t->stmts->next) t = t->stmts;
    if (t->kind == ND_CONTINUE) return s->next ? 2 : 0;
    return s->next ? 0 : 1;
  }
  return 0;
}

/* a copy of the merged loop whose body keeps the declarations and, in place of the guard and
 * what follows, `all &= G;` (form 1) or `all &= !G;` (form 2); mutation 3 tests all rows but the last */
static Node *guard_loop(PassCtx *c, Node *loop, int form, int at, Obj *all) {
  Node *g = clone_node(loop);
  if (c->mutation == 3) g->cond->rhs = rw_num(g->cond->tok, c->param[0] - 1);
  Node **slot = rw_nth_slot(&g->then->stmts, at);
  Node *cond = (*slot)->cond;
  if (form == 2) cond = rw_unary(ND_NOT, cond);
  *slot = rw_expr_stmt(rw_assign_op(ND_BITAND, rw_var(cond->tok, all), cond));
  return g;
}

static bool apply(PassCtx *c) {
  int R = c->param[0], d = dim_of(c);
  const char *dn = d == 1 ? "y" : "z";
  Scan s = {.dim = d};
  walk(c->k->body, scan_pre, scan_post, &s);
  Node *body = c->k->body;
  Token *at = body->tok;
  /* the guard's rows form an interval (decided on the kernel as written, before the rewrite):
   * testing the first and the last row tells whether all pass */
  int gi0 = 0;
  bool interval = false;
  if (guard_form(body->stmts, &gi0) == 1) {
    Facts *f = facts_new(c->p, c->k);
    interval = interval_guard(f, (*rw_nth_slot(&body->stmts, gi0))->cond, d);
    facts_free(f);
  }
  Obj *cy = rw_new_var(c->p, c->k, "cy", ty_int, SC_LOCAL, at);
  Deferred df[MAX_STORES];
  Node pre = {0}, *pcur = &pre;
  for (int i = 0; i < s.n; i++) {
    Node **slot = rw_slot_of(&body->stmts, s.st[i].stmt);
    if (!slot) {
      snprintf(c->why, sizeof c->why, "a store was not found in the kernel's statements");
      return false;
    }
    Node *next = s.st[i].stmt->next;
    Node *blk = defer_store(c, &s.st[i], &df[i], cy);
    blk->next = next;
    *slot = blk;
  }
  Node *hoisted = hoist_invariant(&body->stmts, d);
  int nhoisted = 0;
  for (Node *h = hoisted; h; h = h->next) {
    pcur = pcur->next = h;
    nhoisted++;
  }
  for (int i = 0; i < s.n; i++) {
    pcur = pcur->next = rw_decl(df[i].val, NULL);
    pcur = pcur->next = rw_decl(df[i].at, NULL);
    pcur = pcur->next = rw_decl(df[i].mask, rw_unum(at, 0));
  }
  /* threadIdx.d -> threadIdx.d*R + cy, blockDim.d -> blockDim.d*R, return -> continue */
  Slots sl = {.dim = d};
  find_slots(&body->stmts, &sl);
  for (int i = 0; i < sl.n; i++) {
    Node *n = *sl.v[i], *next = n->next, *r;
    if (n->kind == ND_RETURN) r = new_node(ND_CONTINUE, rw_tok(n->tok, TK_KEYWORD, "continue"));
    else if (n->sreg == SR_TID)
      r = rw_bin(ND_ADD, rw_bin(ND_MUL, rw_special(n->tok, SR_TID, d), rw_unum(n->tok, (int64_t)R)),
                 rw_var(n->tok, cy));
    else r = rw_bin(ND_MUL, rw_special(n->tok, SR_NTID, d), rw_unum(n->tok, (int64_t)R));
    r->next = next;
    *sl.v[i] = r;
  }
  free(sl.v);
  /* a grid whose extent along d does not divide by R: the rows the original did not launch stop */
  c->grid_generic = c->L->grid[d] % R == 0;
  if (c->L->grid[d] % R) {
    int64_t threads = c->L->grid[d] * c->L->block[d];
    Node *g =
      rw_bin(ND_ADD,
             rw_bin(ND_MUL, rw_special(at, SR_CTAID, d),
                    rw_bin(ND_MUL, rw_special(at, SR_NTID, d), rw_unum(at, (int64_t)R))),
             rw_bin(ND_ADD, rw_bin(ND_MUL, rw_special(at, SR_TID, d), rw_unum(at, (int64_t)R)),
                    rw_var(at, cy)));
    Node *stop = rw_if(rw_bin(ND_GE, g, rw_unum(at, threads)),
                       new_node(ND_CONTINUE, rw_tok(at, TK_KEYWORD, "continue")), NULL);
    stop->next = body->stmts;
    body->stmts = stop;
    interval = false;
  }
  int upto = c->mutation == 1 ? R - 1 : R; /* broken: the last row of each thread skipped */
  Node *loop = rw_for(rw_decl(cy, rw_num(at, 0)), rw_bin(ND_LT, rw_var(at, cy), rw_num(at, upto)),
                      rw_unary(ND_POSTINC, rw_var(at, cy)), rw_block(at, body->stmts));
  rw_pragma_unroll(loop, 0);
  int gi = 0, form = guard_form(loop->then->stmts, &gi);
  if (form) {
    Obj *all = rw_new_var(c->p, c->k, "all", ty_int, SC_LOCAL, loop->tok);
    Node *dl = rw_decl(all, rw_num(loop->tok, 1));
    Node *g = guard_loop(c, loop, form, gi, all);
    if (interval && form == 1 && R > 2)
      g->inc = rw_assign_op(
        ND_ADD, rw_var(loop->tok, g->init->var),
        rw_num(loop->tok, R - 1)); /* the clone's own counter: the first and the last row */
    Node *fl = rw_fast_loop(loop, form, gi);
    bool every = true; /* each row's copy stores in the fast path: no mask there */
    for (int i = 0; i < s.n; i++) every &= unconditional(fl->then->stmts, df[i].mask);
    for (int i = 0; i < s.n && every; i++) drop_writes(&fl->then->stmts, df[i].mask);
    Node fhead = {0}, *fcur = &fhead, shead = {0}, *scur = &shead;
    fcur = fcur->next = fl;
    scur = scur->next = loop;
    for (int i = 0; i < s.n; i++) {
      fcur = fcur->next = flush_store(c, &s.st[i], &df[i], !every);
      scur = scur->next = flush_store(c, &s.st[i], &df[i], true);
    }
    /* mutation 2: the fast path taken whatever the guard says (the border guard dropped) */
    Node *test = c->mutation == 2 ? rw_num(loop->tok, 1) : rw_var(loop->tok, all);
    Node *split = rw_if(test, rw_block(loop->tok, fhead.next), rw_block(loop->tok, shead.next));
    dl->next = g;
    g->next = split;
    pcur->next = dl;
  } else {
    Node *q = loop;
    pcur->next = loop;
    for (int i = 0; i < s.n; i++) q = q->next = flush_store(c, &s.st[i], &df[i], true);
  }
  body->stmts = pre.next;
  c->changes_launch = true;
  for (int i = 0; i < 3; i++) {
    c->new_grid[i] = c->L->grid[i];
    c->new_block[i] = c->L->block[i];
  }
  c->new_grid[d] = (c->L->grid[d] + R - 1) / R;
  for (int i = 0; i < 3; i++) c->cover[i] = c->L->block[i] * (i == d ? R : 1);
  rw_restrict_params(c);
  snprintf(
    c->did, sizeof c->did,
    "%d outputs down %s per thread (grid.%s %lld -> %lld)%s%s; %d declaration%s shared by the rows; stores deferred to registers and written after the rows",
    R, dn, dn, (long long)c->L->grid[d], (long long)c->new_grid[d],
    form ? ", a fast path where every row passes the guard (the rows they share loaded once)"
         : ", no fast path (the guard is not one test)",
    form && interval && R > 2
      ? ", the guard tested at the first and last row (an interval: comparisons linear in the row)"
      : "",
    nhoisted, nhoisted == 1 ? "" : "s");
  return true;
}

const Pass pass_stencil = {
  .name = "stencil",
  .summary =
    "a stencil's threads merged down y or z: R outputs per thread, the rows they share loaded once (register reuse)",
  .source =
    "Yang et al., PLDI 2010, Sec. 3.5.2 (thread merge); Micikevicius, GPGPU 2009 (reuse down the streaming dimension)",
  .params = {{"rows", "outputs per thread down the merged dimension", {2, 4, 8}, 4},
             {"dim", "the dimension merged: 1 (y) or 2 (z)", {1, 2}, 1}},
  .nparams = 2,
  .model_chooses = true,
  .model_params = 2,
  .merges_threads = true,
  .motivation = "reuse",
  .legal = legal,
  .apply = apply,
  .nmutations = 3,
  .mutation_names = {"a merged thread skips its last row",
                     "the border guard dropped (the fast path taken always)",
                     "the guard of the last row not tested (the tile one row short at the border)"},
};
