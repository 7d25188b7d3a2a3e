/* canon: canonicalization before the passes. The passes recognize one spelling of each
 * computation (docs/optimize.md); people write many. This step rewrites the kernel, in place on
 * the driver's clone, into the form the passes accept, so that they see the computation and not
 * the spelling (PPCG's and LLVM's canonicalization passes are the model):
 *   rows    a pointer row `T *r = A + e;` or `= &A[e]` folded into its uses: r[i] is A[e + i]
 *   tid     blockIdx.d * C + threadIdx.d with C a constant equal to the launch's blockDim.d is
 *           blockIdx.d * blockDim.d + threadIdx.d (the output then assumes that block shape)
 *   guard   an early `if (c) return;` becomes `if (!c) { the rest }`; nested ifs one guard `a && b`
 *   loops   counted loops as `for (T i = START; i < END; i++/+= s)`: a counter declared before
 *           the loop and dead after it moves into the loop; `while (i < n) { ...; i++; }` after
 *           `T i = START;` becomes a for; `i <= E` is `i < E + 1` (integers)
 *   update  an accumulation `x = x + e` or `x = e + x` (x a local or a pure element) as `x += e`,
 *           and `x = x * e` as `x *= e`: the form a reduction is recognized in
 *   subst   a local of a loop body defined once and used once later in it, with nothing
 *           stored in between, substituted into its use (the body becomes one update)
 *   sink    an accumulator's declaration (`float c = 0.0f;` above the thread indices) moved to
 *           just before the loop that accumulates into it, inside the guards around that loop
 *   lift    `E[idx] = e0;` or `E[idx] op= e1;` followed by a loop whose every access to E is
 *           E[idx], or such a loop alone that updates E[idx] (`x[i] += A[i*n+j] * y[j]`: the
 *           element's value is the start): the element lives in a register across the loop
 *           and is stored once after it
 *   deref   `*(P + e)` (P a pointer never reassigned, any sum of integer offsets) as `P[e]`
 *   alias   `T tx = threadIdx.x;` (a local copy of a special register, never written again)
 *           substituted into its uses as `(T)threadIdx.x`: the thread indices a tutorial names
 *   index   `int row = (int)blockIdx.y * 16 + (int)threadIdx.y;`: the casts of 32-bit special
 *           registers in a sum/product of 32-bit integers stored into a 32-bit integer dropped
 *           (arithmetic modulo 2^32 gives the same bits; where the int arithmetic would overflow
 *           the original is undefined), so the index has the form the passes match
 *   decl    a scalar declared without a value (`int i, j, k;` at the top, as C89 taught) takes
 *           the value of its first assignment, `int j; ... j = e;` as `int j = e;` there, when
 *           nothing between mentions it; one whose every use is inside one branch of an `if` (or
 *           one block) is declared there, so the other rules (a counter into its loop) see it
 *   loops   (also) a down-counting loop whose iterations only accumulate, `for (k = hi; k >= lo;
 *           k--) acc += e`, counted upward (a floating-point sum is then reassociated: verified
 *           within the bound of docs/optimize.md)
 * Each rule decides legality from what the AST shows (src/analysis/match.h for the shapes); the
 * driver verifies the result like a pass (verify_variant) but does not ask the model: a
 * canonical form is not a speed-up, it is what lets the passes that are speed-ups apply. */
#include "opt.h"
#include "../analysis/match.h"
#include <stdlib.h>
#include <string.h>

enum { CANON_ROUNDS = 8 };
typedef struct Canon {
  PassCtx *c;
  bool dry;      /* legality: report the first match, change nothing */
  bool in_loop;  /* the list a rule is looking at is inside a loop */
  int count[16]; /* changes per rule (R_NRULES of them) */
  Buf did;       /* what was done, for the plan */
} Canon;
enum {
  R_ROWS,
  R_TID,
  R_GUARD,
  R_LOOPS,
  R_UPDATE,
  R_SUBST,
  R_SINK,
  R_LIFT,
  R_DEREF,
  R_ALIAS,
  R_INDEX,
  R_DECL,
  R_NRULES
};
static const char *rule_names[R_NRULES] = {"rows", "tid",  "guard", "loops", "update", "subst",
                                           "sink", "lift", "deref", "alias", "index",  "decl"};

/* record one change of rule r at tok: false in dry mode (the caller stops there) */
static bool note(Canon *cn, int r, Token *tok, const char *what) {
  cn->count[r]++;
  if (cn->did.len < 1200)
    buf_printf(&cn->did, "%s%s line %d: %s", cn->did.len ? "; " : "", rule_names[r],
               tok ? tok_loc(tok).line : 0, what);
  return !cn->dry;
}

static void add_assumed(PassCtx *c, const char *a) {
  if (strstr(c->assumed, a)) return;
  size_t n = strlen(c->assumed);
  snprintf(c->assumed + n, sizeof c->assumed - n, "%s%s", n ? "; " : "", a);
}

/* ---- small helpers over expressions ---- */

/* reads memory (an element, a dereference, a member through a pointer) */
static bool loads_pre(Node *n, void *ctx) {
  if (n->kind == ND_INDEX || n->kind == ND_DEREF || (n->kind == ND_MEMBER && n->arrow))
    *(bool *)ctx = true;
  return true;
}
static bool reads_memory(Node *e) {
  bool r = false;
  if (e) walk_one(e, loads_pre, NULL, &r);
  return r;
}

/* stores to memory, calls a user function or an atomic, or synchronizes */
static bool store_pre(Node *n, void *ctx) {
  bool *r = ctx;
  if ((n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP || n->kind == ND_PREINC ||
       n->kind == ND_PREDEC || n->kind == ND_POSTINC || n->kind == ND_POSTDEC) &&
      m_strip(n->lhs)->kind != ND_VAR)
    *r = true;
  if (n->kind == ND_CALL && (n->fn || n->builtin != BI_MATH)) *r = true;
  return !*r;
}
static bool stores(Node *n) {
  bool r = false;
  if (n) walk_one(n, store_pre, NULL, &r);
  return r;
}

/* every local variable e reads is written nowhere in the subtree at s */
typedef struct {
  Node *s;
  bool ok;
} VarsCtx;
static bool vars_pre(Node *n, void *ctx) {
  VarsCtx *v = ctx;
  if (n->kind == ND_VAR && n->var->sc != SC_FUNC && m_writes(v->s, n->var)) v->ok = false;
  return v->ok;
}
static bool vars_unwritten(Node *e, Node *s) {
  VarsCtx v = {s, true};
  if (e && s) walk_one(e, vars_pre, NULL, &v);
  return v.ok;
}

/* the variable of a scalar local `v` (not static, not an array, address never taken in fn) */
static bool plain_local(Obj *v, Node *body) {
  return v && v->sc == SC_LOCAL && v->ty->kind != TY_ARRAY && v->ty->kind != TY_STRUCT &&
         !v->in_memory && !m_addr_taken(body, v);
}

/* a declaration in the subtree at s names a variable that e reads (another object of the same
 * name): e copied below it would print as the other variable */
typedef struct {
  Node *e;
  bool found;
} Shadow;
typedef struct {
  const char *name;
  const Obj *v;
  bool found;
} NameUse;
static bool nameuse_pre(Node *n, void *ctx) {
  NameUse *u = ctx;
  if (n->kind == ND_VAR && n->var != u->v && n->var->name && !strcmp(n->var->name, u->name))
    u->found = true;
  return !u->found;
}
static bool shadow_pre(Node *n, void *ctx) {
  Shadow *sh = ctx;
  if (n->kind == ND_DECL && n->var->name) {
    NameUse u = {n->var->name, n->var, false};
    walk_one(sh->e, nameuse_pre, NULL, &u);
    if (u.found) sh->found = true;
  }
  return !sh->found;
}
static bool shadows(Node *s, Node *e) {
  Shadow sh = {e, false};
  if (s && e) walk_one(s, shadow_pre, NULL, &sh);
  return sh.found;
}

/* uses of v in the list at n */
static int list_uses(Node *n, const Obj *v) {
  int k = 0;
  for (; n; n = n->next) k += m_uses(n, v);
  return k;
}

/* copy an expression for use at another place (fresh nodes; variables are the same objects) */
static Node *copy(Node *e) { return clone_node(e); }

/* replace, in the subtree at *slot, every node `from` matches by a fresh copy of `to` */
typedef bool MatchFn(Node *n, void *ctx);
static int replace_all(Node **slot, MatchFn *m, void *ctx, Node *(*make)(Node *old, void *ctx)) {
  int k = 0;
  for (; *slot; slot = &(*slot)->next) {
    if (m(*slot, ctx)) {
      Node *nw = make(*slot, ctx);
      nw->next = (*slot)->next;
      *slot = nw;
      k++;
      continue;
    }
    Node **kids[NODE_MAX_KIDS];
    int nk = node_kids(*slot, kids);
    for (int i = 0; i < nk; i++) k += replace_all(kids[i], m, ctx, make);
  }
  return k;
}
/* the same on one node (not its siblings) */
static int replace_one(Node **slot, MatchFn *m, void *ctx, Node *(*make)(Node *old, void *ctx)) {
  Node *next = (*slot)->next;
  (*slot)->next = NULL;
  int k = replace_all(slot, m, ctx, make);
  (*slot)->next = next;
  return k;
}

/* ---- rows: pointer rows folded into the index ---- */
typedef struct {
  Obj *row;
  Obj *base;
  Node *off;
  bool bad;
} RowUse;
static bool row_use_pre(Node *n, void *ctx) {
  RowUse *u = ctx;
  if (n->kind == ND_INDEX && m_strip(n->lhs)->kind == ND_VAR && m_strip(n->lhs)->var == u->row) {
    walk_one(n->rhs, row_use_pre, NULL, ctx);
    return false;
  }
  if (n->kind == ND_VAR && n->var == u->row) u->bad = true;
  return !u->bad;
}
static bool row_match(Node *n, void *ctx) {
  RowUse *u = ctx;
  return n->kind == ND_INDEX && m_strip(n->lhs)->kind == ND_VAR && m_strip(n->lhs)->var == u->row;
}
static Node *row_make(Node *old, void *ctx) {
  RowUse *u = ctx;
  Node *rhs = old->rhs;
  replace_one(&rhs, row_match, ctx, row_make); /* rows inside the index */
  return rw_index(rw_var(old->tok, u->base), rw_bin(ND_ADD, copy(u->off), rhs));
}

/* T *r = A + e; / = &A[e]; / = e + A; with A a pointer parameter or a local never written again */
static bool row_decl(Node *d, Node *body, Obj **base, Node **off) {
  if (d->kind != ND_DECL || !d->decl_init || d->var->ty->kind != TY_PTR ||
      !plain_local(d->var, body))
    return false;
  Node *e = m_strip(d->decl_init), *a = NULL, *o = NULL;
  if (e->kind == ND_ADDR && m_strip(e->lhs)->kind == ND_INDEX) {
    a = m_strip(m_strip(e->lhs)->lhs);
    o = m_strip(e->lhs)->rhs;
  } else if (e->kind == ND_ADD) {
    a = m_strip(e->lhs), o = e->rhs;
    if (a->kind != ND_VAR || a->ty->kind != TY_PTR) {
      a = m_strip(e->rhs);
      o = e->lhs;
    }
  }
  if (!a || a->kind != ND_VAR || a->ty->kind != TY_PTR || !is_integer(o->ty)) return false;
  Obj *b = a->var;
  if (b->sc != SC_PARAM && !(b->sc == SC_LOCAL && !m_writes(body, b))) return false;
  if (b->sc == SC_PARAM && m_writes(body, b)) return false;
  if (b->ty->base->size != d->var->ty->base->size ||
      is_integer(b->ty->base) != is_integer(d->var->ty->base))
    return false;
  if (!rw_pure(o) || reads_memory(o)) return false;
  *base = b;
  *off = o;
  return true;
}

static bool rule_rows(Canon *cn, Node **list, Node *body) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *d = *slot;
    Obj *base;
    Node *off;
    if (!row_decl(d, body, &base, &off)) continue;
    bool stable = true;
    /* a variable of the offset written anywhere but at its declaration: its value at a use may differ */
    for (Node *s = d->next; s && stable; s = s->next)
      stable = vars_unwritten(off, s) && !shadows(s, off);
    if (!stable) continue;
    RowUse u = {d->var, base, off, false};
    bool written = false;
    for (Node *s = d->next; s; s = s->next) {
      walk_one(s, row_use_pre, NULL, &u);
      written |= m_writes(s, d->var);
    }
    if (u.bad || written || !list_uses(d->next, d->var)) continue;
    if (!note(cn, R_ROWS, d->tok, fmt("pointer row '%s' folded into its indices", d->var->name)))
      return true;
    for (Node **s = &d->next; *s; s = &(*s)->next) replace_one(s, row_match, &u, row_make);
    *slot = d->next; /* the declaration goes */
    return true;
  }
  return false;
}

/* ---- tid: a tile constant spelled for blockDim ---- */
typedef struct {
  Canon *cn;
  int changed;
} TidCtx;
static bool tid_any(Node *n, void *ctx) { return m_special(n, SR_TID, NULL); }
static bool ctaid_any(Node *n, void *ctx) { return m_special(n, SR_CTAID, NULL); }
/* an offset free of thread indices, locals and side effects: parameters, constants, arithmetic */
static bool uniform_pre(Node *n, void *ctx) {
  if (n->kind == ND_SPECIAL || (n->kind == ND_VAR && n->var->sc != SC_PARAM)) *(bool *)ctx = true;
  return !*(bool *)ctx;
}
/* `u + blockIdx.d * C + threadIdx.d` (bench/holdout4 lu's `k + 1 + blockIdx.x * TILE +
 * threadIdx.x`, DIAGNOSIS §5): the global index shifted by an offset u of parameters and
 * constants; *mul the product, *scale its constant C of value *v */
static bool offset_index(Node *n, int *dim, Node **mul, Node **scale, int64_t *v) {
  Node *t, *rest;
  int dt, db;
  if (!m_bin(n, ND_ADD, tid_any, NULL, &t, &rest) || !m_special(t, SR_TID, &dt)) return false;
  Node *r = m_strip(rest);
  if (r->kind != ND_ADD) return false;
  for (int sw = 0; sw < 2; sw++) {
    Node *m = m_strip(sw ? r->lhs : r->rhs), *u = sw ? r->rhs : r->lhs, *b, *s;
    bool bad = false;
    walk_one(u, uniform_pre, NULL, &bad);
    if (bad || !rw_pure(u) || !m_bin(m, ND_MUL, ctaid_any, NULL, &b, &s) ||
        !m_special(b, SR_CTAID, &db) || db != dt || !m_const(s, v))
      continue;
    *dim = dt;
    *mul = m;
    *scale = s;
    return true;
  }
  return false;
}

static bool tid_pre(Node *n, void *ctx) {
  TidCtx *t = ctx;
  int dim;
  Node *scale, *mul = NULL;
  bool by_const;
  int64_t v;
  if (m_global_index(n, &dim, &scale, &by_const, &v)) {
    if (!by_const) return true;
    /* scale is an operand of the MUL under n */
    Node *a = m_strip(n);
    Node *l = m_strip(a->lhs), *r = m_strip(a->rhs);
    mul = l->kind == ND_MUL ? l : r;
  } else if (!offset_index(n, &dim, &mul, &scale, &v)) return true;
  const Launch *L = t->cn->c->L;
  if (!L || v != L->block[dim] || v <= 0) return true;
  Node **slot = m_strip(mul->lhs) == m_strip(scale) || mul->lhs == scale ? &mul->lhs : &mul->rhs;
  if (!note(t->cn, R_TID, n->tok,
            fmt("blockIdx.%c * %lld + threadIdx.%c as blockIdx.%c * blockDim.%c + threadIdx.%c",
                "xyz"[dim], (long long)v, "xyz"[dim], "xyz"[dim], "xyz"[dim], "xyz"[dim]))) {
    t->changed++;
    return false;
  }
  Node *bd = rw_special(scale->tok, SR_NTID, dim);
  Node *conv = rw_cast(bd, (*slot)->ty); /* the constant's type: the product's type stays */
  conv->implicit = true;
  *slot = same_type(bd->ty, (*slot)->ty) ? bd : conv;
  add_assumed(t->cn->c,
              fmt("blockDim.%c is %lld (the launch's): the constant is written as blockDim.%c",
                  "xyz"[dim], (long long)v, "xyz"[dim]));
  t->changed++;
  return false;
}
/* shared memory in the kernel: its tile constants size the tiles too, left as written */
static bool shared_pre(Node *n, void *ctx) {
  if (n->kind == ND_VAR && (n->var->sc == SC_SHARED || n->var->sc == SC_EXTERN_SHARED))
    *(bool *)ctx = true;
  return !*(bool *)ctx;
}
static bool rule_tid(Canon *cn, Node *body) {
  bool shared = false;
  walk_one(body, shared_pre, NULL, &shared);
  if (shared || rw_has_barrier(body)) return false;
  TidCtx t = {cn, 0};
  walk_one(body, tid_pre, NULL, &t);
  return t.changed > 0;
}

/* ---- guard: early returns and nested ifs ---- */
static Node *negate(Node *c) {
  Node *s = m_strip(c);
  NodeKind flip = ND_NULL_STMT;
  switch (s->kind) {
  case ND_LT: flip = ND_GE; break;
  case ND_LE: flip = ND_GT; break;
  case ND_GT: flip = ND_LE; break;
  case ND_GE: flip = ND_LT; break;
  case ND_EQ: flip = ND_NE; break;
  case ND_NE: flip = ND_EQ; break;
  case ND_LOGOR: return rw_bin(ND_LOGAND, negate(s->lhs), negate(s->rhs));
  case ND_NOT: return s->lhs;
  default: break;
  }
  /* integers only: with a NaN, !(a >= b) is not a < b */
  if (flip != ND_NULL_STMT && is_integer(s->lhs->ty) && is_integer(s->rhs->ty))
    return rw_bin(flip, s->lhs, s->rhs);
  return rw_unary(ND_NOT, c);
}

static bool is_bare_return(Node *n) {
  if (n->kind == ND_BLOCK) n = n->stmts && !n->stmts->next ? n->stmts : NULL;
  return n && n->kind == ND_RETURN && !n->lhs;
}

/* an atomic in the subtree at n */
static bool atomic_pre(Node *n, void *ctx) {
  if (n->kind == ND_CALL && n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR)
    *(bool *)ctx = true;
  return !*(bool *)ctx;
}
static bool list_has_atomic(Node *n) {
  bool f = false;
  for (; n && !f; n = n->next) walk_one(n, atomic_pre, NULL, &f);
  return f;
}
static bool list_has_barrier(Node *n) {
  for (; n; n = n->next)
    if (rw_has_barrier(n)) return true;
  return false;
}

/* `if (c) return;` followed by statements S, in a list not inside a loop. Not where S holds an
 * atomic (reduce recognizes an atomic per thread after early returns: its form) or a barrier
 * (threads that returned have exited; threads that skip a barrier inside an if have not) */
static bool rule_guard(Canon *cn, Node **list, Node *body) {
  (void)body;
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *n = *slot;
    if (n->kind == ND_IF && !n->els && is_bare_return(n->then) && n->next && rw_pure(n->cond) &&
        !list_has_atomic(n->next) && !list_has_barrier(n->next)) {
      if (!note(cn, R_GUARD, n->tok, "an early return as a guard around the rest")) return true;
      Node *rest = n->next;
      Node *g = rw_if(negate(n->cond), rw_block(n->tok, rest), NULL);
      g->tok = n->tok;
      *slot = g;
      return true;
    }
    /* if (a) { if (b) S } -> if (a && b) S */
    if (n->kind == ND_IF && !n->els) {
      Node *in = n->then;
      if (in->kind == ND_BLOCK) in = in->stmts && !in->stmts->next ? in->stmts : NULL;
      if (in && in->kind == ND_IF && !in->els) {
        if (!note(cn, R_GUARD, n->tok, "nested ifs as one guard")) return true;
        n->cond = rw_bin(ND_LOGAND, n->cond, in->cond);
        n->then = in->then;
        return true;
      }
    }
  }
  return false;
}

typedef struct {
  Obj *from, *to;
} Rename;
static bool ren_match(Node *n, void *ctx) {
  return n->kind == ND_VAR && n->var == ((Rename *)ctx)->from;
}
static Node *ren_make(Node *old, void *ctx) { return rw_var(old->tok, ((Rename *)ctx)->to); }

/* ---- decl: a declaration where its value is first given ---- */
/* a block's statements declare a variable named like v (v moved in would be shadowed or clash) */
static bool declares_name(Node *blk, const Obj *v) {
  if (!blk || blk->kind != ND_BLOCK || !v->name) return false;
  for (Node *q = blk->stmts; q; q = q->next)
    if (q->kind == ND_DECL && q->var && q->var->name && !strcmp(q->var->name, v->name)) return true;
  return false;
}

static bool rule_decl(Canon *cn, Node **list, Node *body) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *d = *slot;
    if (d->kind != ND_DECL || d->decl_init || !plain_local(d->var, body) ||
        !(is_integer(d->var->ty) || is_flonum(d->var->ty)))
      continue;
    Obj *v = d->var;
    Node **use = NULL;
    for (Node **q = &d->next; *q; q = &(*q)->next)
      if (m_uses(*q, v)) {
        use = q;
        break;
      }
    if (!use) continue;
    Node *u = *use;
    /* T v; ... v = e;  ->  ... T v = e; */
    Node *a = u->kind == ND_EXPR_STMT ? m_strip(u->lhs) : NULL;
    if (a && a->kind == ND_ASSIGN && m_strip(a->lhs)->kind == ND_VAR && m_strip(a->lhs)->var == v &&
        !m_uses(a->rhs, v)) {
      if (!note(cn, R_DECL, u->tok, fmt("'%s' declared with its first value", v->name)))
        return true;
      Node *nd = rw_decl(v, a->rhs);
      nd->tok = d->tok;
      nd->next = u->next;
      *use = nd;
      *slot = d->next;
      return true;
    }
    /* every use inside one branch of an if, or one block: declared there */
    if (list_uses(u->next, v)) continue;
    Node **into = NULL;
    if (u->kind == ND_IF && !m_uses(u->cond, v)) {
      if (!m_uses(u->els, v)) into = &u->then;
      else if (!m_uses(u->then, v)) into = &u->els;
      else if (!declares_name(u->then, v) && !declares_name(u->els, v)) {
        /* used in both branches and dead after: each branch its own (the value entering either
         * is the same undefined one) */
        if (!note(cn, R_DECL, d->tok,
                  fmt("the declaration of '%s' given to each branch that uses it", v->name)))
          return true;
        Obj *w = rw_new_var(cn->c->p, cn->c->k, v->name, v->ty, SC_LOCAL, v->tok);
        Rename r = {v, w};
        replace_all(&u->els, ren_match, &r, ren_make);
        for (int b = 0; b < 2; b++) {
          Node **br = b ? &u->els : &u->then;
          if ((*br)->kind != ND_BLOCK) *br = rw_block((*br)->tok, *br);
          Node *nd = b ? rw_decl(w, NULL) : d;
          if (!b) *slot = d->next;
          nd->next = (*br)->stmts;
          (*br)->stmts = nd;
        }
        return true;
      }
    } else if (u->kind == ND_BLOCK) {
      into = NULL;
      if (!declares_name(u, v)) {
        if (!note(cn, R_DECL, d->tok,
                  fmt("the declaration of '%s' moved into the block that uses it", v->name)))
          return true;
        *slot = d->next;
        d->next = u->stmts;
        u->stmts = d;
        return true;
      }
    }
    if (!into || !*into || declares_name(*into, v)) continue;
    if (!note(cn, R_DECL, d->tok,
              fmt("the declaration of '%s' moved into the branch that uses it", v->name)))
      return true;
    if ((*into)->kind != ND_BLOCK) *into = rw_block((*into)->tok, *into);
    *slot = d->next;
    d->next = (*into)->stmts;
    (*into)->stmts = d;
    return true;
  }
  return false;
}

/* ---- loops: one counted form ---- */
/* init is `k = e` with k a plain integer local: k, else NULL */
static Obj *assigned_counter(Node *init, Node *body) {
  if (!init || init->next || init->kind != ND_EXPR_STMT) return NULL;
  Node *a = m_strip(init->lhs);
  if (a->kind != ND_ASSIGN || m_strip(a->lhs)->kind != ND_VAR) return NULL;
  Obj *k = m_strip(a->lhs)->var;
  if (!plain_local(k, body) || !is_integer(k->ty) || m_uses(a->rhs, k)) return NULL;
  return k;
}

/* every statement after `from` that mentions k is a for loop assigning k in its init */
static bool loops_only(Node *from, Obj *k, Node *body) {
  for (Node *s = from; s; s = s->next) {
    if (!m_uses(s, k)) continue;
    if (s->kind != ND_FOR || assigned_counter(s->init, body) != k) return false;
  }
  return true;
}

/* the loop's init `k = e` becomes the declaration `T k = e` (k itself, or a fresh copy of it) */
static void declare_in_loop(Canon *cn, Node *loop, Obj *k, bool fresh) {
  Node *a = m_strip(loop->init->lhs);
  Obj *v = k;
  if (fresh) {
    v = rw_new_var(cn->c->p, cn->c->k, k->name, k->ty, SC_LOCAL, k->tok);
    Rename r = {k, v};
    replace_one(&loop->cond, ren_match, &r, ren_make);
    replace_one(&loop->inc, ren_match, &r, ren_make);
    replace_one(&loop->then, ren_match, &r, ren_make);
  }
  Node *d = rw_decl(v, a->rhs);
  loop->init = d;
}

static bool is_step_of(Node *inc, Obj *k) {
  inc = m_strip(inc);
  if (!inc) return false;
  if ((inc->kind == ND_POSTINC || inc->kind == ND_PREINC || inc->kind == ND_ASSIGN_OP) &&
      m_strip(inc->lhs)->kind == ND_VAR && m_strip(inc->lhs)->var == k)
    return inc->kind != ND_ASSIGN_OP ||
           ((inc->op == ND_ADD) && rw_pure(inc->rhs) && !m_uses(inc->rhs, k));
  return false;
}

/* a loop body whose iterations commute: declarations with pure initializers and sums `x += e`
 * (x a local other than k, or an element whose index does not name k) that nothing else in the
 * body reads; *fl set when a sum is of floating point (reversing it reassociates) */
static bool accum_only(Node *then, Obj *k, bool *fl) {
  bool blk = then->kind == ND_BLOCK;
  Node *list = blk ? then->stmts : then;
  for (Node *st = list; st; st = blk ? st->next : NULL) {
    if (st->kind == ND_DECL) {
      if (!st->decl_init || !rw_pure(st->decl_init) || st->var->in_memory) return false;
      continue;
    }
    if (st->kind != ND_EXPR_STMT) return false;
    Node *a = m_strip(st->lhs);
    if (a->kind != ND_ASSIGN_OP || a->op != ND_ADD || !rw_pure(a->rhs) || m_writes(a->rhs, k))
      return false;
    Node *x = m_strip(a->lhs);
    if (x->kind == ND_VAR) {
      if (x->var == k || x->var->sc != SC_LOCAL || x->var->in_memory) return false;
    } else if (x->kind != ND_INDEX || m_uses(x->rhs, k) || !rw_pure(x->rhs)) return false;
    *fl |= is_flonum(x->ty) != 0;
    /* the sum is read nowhere else in the body */
    for (Node *o = list; o; o = blk ? o->next : NULL) {
      Node *e = o->kind == ND_DECL ? o->decl_init : m_strip(o->lhs)->rhs;
      if (x->kind == ND_VAR ? m_uses(e, x->var)
                            : m_uses(e, m_strip(x->lhs)->kind == ND_VAR ? m_strip(x->lhs)->var : k))
        return false;
    }
  }
  return true;
}

/* k-- / --k / k -= 1 */
static bool is_down_step(Node *inc, Obj *k) {
  inc = m_strip(inc);
  int64_t one;
  if (!inc || m_strip(inc->lhs)->kind != ND_VAR || m_strip(inc->lhs)->var != k) return false;
  return inc->kind == ND_POSTDEC || inc->kind == ND_PREDEC ||
         (inc->kind == ND_ASSIGN_OP && inc->op == ND_SUB && m_const(inc->rhs, &one) && one == 1);
}

/* the for loops, at any depth of the statements from `from` on, whose init assigns k (not
 * looking inside them): when they hold every use of k, k is declared in each */
typedef struct {
  Obj *k;
  Node *body;
  Node *loops[16];
  int n, inside;
  bool over;
} CtrLoops;
static bool ctr_pre(Node *n, void *ctx) {
  CtrLoops *cl = ctx;
  if (n->kind != ND_FOR || assigned_counter(n->init, cl->body) != cl->k) return true;
  if (cl->n == 16) cl->over = true;
  else {
    cl->loops[cl->n++] = n;
    cl->inside += m_uses(n, cl->k);
  }
  return false;
}

static bool rule_loops(Canon *cn, Node **list, Node *body) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *d = *slot;
    /* T k [= e]; ... for (k = START; ...) ...: k into the loop(s) */
    if (d->kind == ND_DECL && plain_local(d->var, body) && is_integer(d->var->ty) &&
        (!d->decl_init || rw_pure(d->decl_init))) {
      Obj *k = d->var;
      Node *first = NULL;
      for (Node *s = d->next; s; s = s->next)
        if (m_uses(s, k)) {
          first = s;
          break;
        }
      if (first && first->kind == ND_FOR && assigned_counter(first->init, body) == k &&
          loops_only(first, k, body)) {
        if (!note(cn, R_LOOPS, first->tok, fmt("the counter '%s' declared in its loop", k->name)))
          return true;
        int nth = 0;
        for (Node *s = first; s; s = s->next)
          if (m_uses(s, k)) declare_in_loop(cn, s, k, nth++ > 0);
        *slot = d->next;
        return true;
      }
      /* every use in loops nested deeper that assign k first (`int i, j2; for (j2 ...) { for
       * (i = 0; ...) }`): k declared in each of them */
      CtrLoops cl = {.k = k, .body = body};
      if (!d->decl_init && first) {
        walk(d->next, ctr_pre, NULL, &cl);
        if (cl.n && !cl.over && cl.inside == list_uses(d->next, k)) {
          if (!note(cn, R_LOOPS, cl.loops[0]->tok,
                    fmt("the counter '%s' declared in its loop%s", k->name, cl.n > 1 ? "s" : "")))
            return true;
          for (int j = 0; j < cl.n; j++) declare_in_loop(cn, cl.loops[j], k, j > 0);
          *slot = d->next;
          return true;
        }
      }
    }
    /* T k = START; while (k CMP e) { ...; k++; } -> for */
    Node *w = d->next;
    while (w && w->kind == ND_DECL && d->kind == ND_DECL && !m_uses(w, d->var)) w = w->next;
    if (d->kind == ND_DECL && d->decl_init && w && w->kind == ND_WHILE &&
        plain_local(d->var, body) && is_integer(d->var->ty)) {
      Obj *k = d->var;
      Node *b = w->then;
      Node *last = NULL, **lastslot = NULL;
      if (b && b->kind == ND_BLOCK)
        for (Node **s = &b->stmts; *s; s = &(*s)->next) {
          last = *s;
          lastslot = s;
        }
      if (last && last->kind == ND_EXPR_STMT && is_step_of(last->lhs, k) && !m_has_jump(b, false) &&
          list_uses(w->next, k) == 0) {
        bool other = false;
        for (Node *s = b->stmts; s != last; s = s->next) other |= m_writes(s, k);
        Node *cond = m_strip(w->cond);
        bool counted = (cond->kind == ND_LT || cond->kind == ND_LE || cond->kind == ND_NE) &&
                       m_strip(cond->lhs)->kind == ND_VAR && m_strip(cond->lhs)->var == k;
        if (!other && counted) {
          if (!note(cn, R_LOOPS, w->tok, fmt("while loop over '%s' as a counted for", k->name)))
            return true;
          *lastslot = NULL;
          *slot = d->next; /* the declaration moves into the loop */
          Node *f = rw_for(d, w->cond, last->lhs, b);
          f->tok = w->tok;
          d->next = NULL;
          f->next = w->next;
          Node **ws = slot;
          while (*ws != w) ws = &(*ws)->next;
          *ws = f;
          return true;
        }
      }
    }
    /* for (T k = hi; k >= lo; k--) S, S only accumulating: for (T k = lo; k < hi + 1; k++) S
     * (`k > lo`: from lo + 1). k signed, lo and hi pure and written nowhere in the loop */
    if (d->kind == ND_FOR && d->cond && d->init && d->init->kind == ND_DECL && d->init->decl_init &&
        d->inc && d->then) {
      Obj *k = d->init->var;
      Node *cond = m_strip(d->cond), *lo = NULL;
      bool strict = false;
      if ((cond->kind == ND_GE || cond->kind == ND_GT) && m_strip(cond->lhs)->kind == ND_VAR &&
          m_strip(cond->lhs)->var == k) {
        lo = cond->rhs;
        strict = cond->kind == ND_GT;
      } else if ((cond->kind == ND_LE || cond->kind == ND_LT) &&
                 m_strip(cond->rhs)->kind == ND_VAR && m_strip(cond->rhs)->var == k) {
        lo = cond->lhs;
        strict = cond->kind == ND_LT;
      }
      Node *hi = d->init->decl_init;
      bool fl = false;
      int64_t cv;
      if (lo && is_integer(k->ty) && !k->ty->is_unsigned && k->ty->size == 4 &&
          is_down_step(d->inc, k) && rw_pure(lo) && rw_pure(hi) && !reads_memory(lo) &&
          !reads_memory(hi) && is_integer(lo->ty) && lo->ty->size <= 4 && !m_uses(lo, k) &&
          vars_unwritten(lo, d->then) && vars_unwritten(hi, d->then) &&
          !m_has_jump(d->then, false) && !m_writes(d->then, k) &&
          !(m_const(hi, &cv) && cv >= (int64_t)0x7fffffff) && accum_only(d->then, k, &fl)) {
        if (!note(cn, R_LOOPS, d->tok,
                  fmt("the down-counting loop over '%s' counted upward%s", k->name,
                      fl ? " (a floating-point sum reassociated)" : "")))
          return true;
        if (fl) cn->c->spec |= OPT_SPEC_REASSOC;
        Node *start = strict ? rw_bin(ND_ADD, copy(lo), rw_num(lo->tok, 1)) : copy(lo);
        Node *end =
          m_const(hi, &cv) ? rw_num(hi->tok, cv + 1) : rw_bin(ND_ADD, copy(hi), rw_num(hi->tok, 1));
        Node *nd = rw_decl(k, start);
        d->init->decl_init = nd->decl_init;
        k->init = nd->decl_init;
        d->cond = rw_bin(ND_LT, rw_var(d->tok, k), end);
        d->inc = rw_unary(ND_POSTINC, rw_var(d->tok, k));
        return true;
      }
    }
    /* for (...; k <= e; ...) -> k < e + 1 (integers; e below the type's maximum, else the
     * original never ends) */
    if (d->kind == ND_FOR && d->cond && d->init && d->init->kind == ND_DECL) {
      Obj *k = d->init->var;
      Node *cond = m_strip(d->cond);
      Node *lhs = NULL, *rhs = NULL;
      if (cond->kind == ND_LE) {
        lhs = cond->lhs;
        rhs = cond->rhs;
      } else if (cond->kind == ND_GE) {
        lhs = cond->rhs;
        rhs = cond->lhs;
      }
      int64_t cv;
      if (lhs && m_strip(lhs)->kind == ND_VAR && m_strip(lhs)->var == k && is_integer(k->ty) &&
          is_integer(rhs->ty) && rhs->ty->size <= k->ty->size && rw_pure(rhs) &&
          !(m_const(rhs, &cv) && cv >= (int64_t)0x7fffffff) && is_step_of(d->inc, k) &&
          !k->ty->is_unsigned) {
        if (!note(cn, R_LOOPS, d->tok, fmt("'%s <= e' as '%s < e + 1'", k->name, k->name)))
          return true;
        /* a constant bound folded (`i <= N - 1` with N a macro is `i < 256`) */
        Node *hi =
          m_const(rhs, &cv) ? rw_num(rhs->tok, cv + 1) : rw_bin(ND_ADD, rhs, rw_num(rhs->tok, 1));
        d->cond = rw_bin(ND_LT, lhs, hi);
        return true;
      }
    }
  }
  return false;
}

/* ---- update: accumulations in compound form ---- */
static bool rule_update(Canon *cn, Node **list, Node *body) {
  (void)body;
  for (Node *n = *list; n; n = n->next) {
    if (n->kind != ND_EXPR_STMT) continue;
    Node *a = m_strip(n->lhs);
    if (a->kind != ND_ASSIGN) continue;
    Node *x = m_strip(a->lhs), *r = m_strip(a->rhs);
    if (!(x->kind == ND_VAR || (x->kind == ND_INDEX && rw_pure(x->rhs))) || !is_numeric(x->ty))
      continue;
    if (r->kind != ND_ADD && r->kind != ND_MUL) continue;
    /* IEEE addition and multiplication commute exactly: e + x is x + e */
    Node *e = NULL;
    if (rw_same_expr(r->lhs, x) && same_type(m_strip(r->lhs)->ty, x->ty)) e = r->rhs;
    else if (rw_same_expr(r->rhs, x) && same_type(m_strip(r->rhs)->ty, x->ty)) e = r->lhs;
    /* the operation's type is x's (no wider arithmetic that `op=` would also do, but let us not
     * reason about it): only then is x op= e the same computation */
    if (!e || !same_type(r->ty, x->ty) || !rw_pure(e)) continue;
    if (!note(cn, R_UPDATE, n->tok,
              r->kind == ND_ADD ? "'x = x + e' as 'x += e'" : "'x = x * e' as 'x *= e'"))
      return true;
    n->lhs = rw_assign_op(r->kind, a->lhs, e);
    return true;
  }
  return false;
}

/* ---- subst: single-use locals of a loop body ---- */
static bool subst_match(Node *n, void *ctx) {
  return n->kind == ND_VAR && n->var == ((Node *)ctx)->var;
}
static Node *subst_make(Node *old, void *ctx) {
  Node *d = ctx;
  Node *e = copy(d->decl_init);
  if (!same_type(e->ty, d->var->ty)) e = rw_cast(e, d->var->ty);
  /* located at the use; a call and a number keep their own token, which the printer writes
   * (`float e = expf(...)` substituted printed `e(...)`) */
  if (e->kind != ND_CALL && e->kind != ND_NUM) e->tok = old->tok;
  return e;
}

static bool rule_subst(Canon *cn, Node **list, Node *body) {
  if (!cn->in_loop) return false; /* a loop body's locals; the kernel's own (thread indices) stay */
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *d = *slot;
    if (d->kind != ND_DECL || !d->decl_init || d->decl_init->kind == ND_INIT_LIST ||
        !plain_local(d->var, body) || !is_numeric(d->var->ty) || !rw_pure(d->decl_init) ||
        d->var->ty->qual & Q_VOLATILE)
      continue;
    Obj *v = d->var;
    Node *use = NULL;
    int n = 0;
    for (Node *s = d->next; s; s = s->next) {
      int u = m_uses(s, v);
      if (u && !use) use = s;
      n += u;
    }
    if (n != 1 || use->kind != ND_EXPR_STMT || m_writes(use, v)) continue;
    bool ok = true;
    for (Node *s = d->next; s != use && ok; s = s->next)
      ok = !stores(s) && vars_unwritten(d->decl_init, s);
    if (shadows(use, d->decl_init)) continue;
    /* the use statement itself: the value is read before its own store */
    if (!ok || !vars_unwritten(d->decl_init, use)) continue;
    if (!note(cn, R_SUBST, d->tok, fmt("'%s' substituted into its one use", v->name))) return true;
    replace_one(&use, subst_match, d, subst_make);
    /* replace_one works on the use statement's subtree; the statement node itself is unchanged */
    *slot = d->next;
    return true;
  }
  return false;
}

/* ---- sink: an accumulator's declaration moved to its loop ---- */
static bool const_init(Node *e) {
  e = m_strip(e);
  if (!e) return true;
  if (e->kind == ND_NUM) return true;
  if (e->kind == ND_CAST || e->kind == ND_NEG) return const_init(e->lhs);
  return false;
}

/* does a loop in the subtree at s write v? */
typedef struct {
  Obj *v;
  bool found;
} LoopWrite;
static bool lw_pre(Node *n, void *ctx) {
  LoopWrite *w = ctx;
  if ((n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) && m_writes(n->then, w->v))
    w->found = true;
  return !w->found;
}
static bool loop_writes(Node *s, Obj *v) {
  LoopWrite w = {v, false};
  walk_one(s, lw_pre, NULL, &w);
  return w.found;
}

static bool rule_sink(Canon *cn, Node **list, Node *body) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *d = *slot;
    if (d->kind != ND_DECL || !d->decl_init || !const_init(d->decl_init) ||
        !plain_local(d->var, body))
      continue;
    Obj *v = d->var;
    Node **use = NULL;
    for (Node **s = &d->next; *s; s = &(*s)->next)
      if (m_uses(*s, v)) {
        use = s;
        break;
      }
    if (!use || !loop_writes(*use, v)) continue;
    Node *u = *use;
    bool into_if = u->kind == ND_IF && !u->els && !m_uses(u->cond, v) && list_uses(u->next, v) == 0;
    /* not into a block that declares the same name */
    if (into_if && u->then->kind == ND_BLOCK)
      for (Node *q = u->then->stmts; q; q = q->next)
        if (q->kind == ND_DECL && q->var->name && v->name && !strcmp(q->var->name, v->name))
          into_if = false;
    if (use == &d->next && !into_if) continue; /* already just before its loop */
    /* past other accumulators' declarations only: nothing gained, and two would take turns */
    bool only_accs = !into_if;
    for (Node *q = d->next; q != u && only_accs; q = q->next)
      only_accs = q->kind == ND_DECL && (!q->decl_init || const_init(q->decl_init));
    if (only_accs) continue;
    if (!note(cn, R_SINK, d->tok,
              fmt("the declaration of '%s' moved to the loop that accumulates into it", v->name)))
      return true;
    *slot = d->next; /* unlink */
    if (use == &d->next) use = slot;
    if (into_if) {
      if (u->then->kind != ND_BLOCK) u->then = rw_block(u->then->tok, u->then);
      d->next = u->then->stmts;
      u->then->stmts = d;
    } else {
      d->next = *use;
      *use = d;
    }
    return true;
  }
  return false;
}

/* ---- lift: an element accumulated in global memory kept in a register ---- */
typedef struct {
  Obj *base;
  Node *idx;
  bool bad;
} Elem;
static bool elem_pre(Node *n, void *ctx) {
  Elem *e = ctx;
  if (n->kind == ND_ADDR) {
    Node *l = m_strip(n->lhs);
    if (l->kind == ND_INDEX && m_strip(l->lhs)->kind == ND_VAR && m_strip(l->lhs)->var == e->base)
      e->bad = true; /* atomics */
  }
  if (n->kind == ND_INDEX && m_strip(n->lhs)->kind == ND_VAR && m_strip(n->lhs)->var == e->base) {
    if (!rw_same_expr(n->rhs, e->idx)) e->bad = true;
    if (!e->bad) walk_one(n->rhs, elem_pre, NULL, ctx);
    return false;
  }
  if (n->kind == ND_VAR && n->var == e->base) e->bad = true; /* E used other than as E[...] */
  if (n->kind == ND_CALL && n->fn) e->bad = true;
  if (n->kind == ND_CALL && n->builtin == BI_SYNCTHREADS) e->bad = true;
  return !e->bad;
}
static bool elem_match(Node *n, void *ctx) {
  Elem *e = ctx;
  return n->kind == ND_INDEX && m_strip(n->lhs)->kind == ND_VAR &&
         m_strip(n->lhs)->var == e->base && rw_same_expr(n->rhs, e->idx);
}
typedef struct {
  Elem e;
  Obj *acc;
} ElemTo;
typedef struct {
  Elem *e;
  int n;
} ElemCount;
static bool count_pre(Node *n, void *ctx) {
  ElemCount *c = ctx;
  if (elem_match(n, c->e)) c->n++;
  return true;
}
static Node *elem_make(Node *old, void *ctx) { return rw_var(old->tok, ((ElemTo *)ctx)->acc); }

/* E[idx] = e / E[idx] op= e as one statement: the element's base and index */
static Node *elem_update(Node *s, Obj **base, Node **idx) {
  if (s->kind != ND_EXPR_STMT) return NULL;
  Node *a = m_strip(s->lhs);
  if (a->kind != ND_ASSIGN && a->kind != ND_ASSIGN_OP) return NULL;
  Node *l = m_strip(a->lhs);
  if (l->kind != ND_INDEX || m_strip(l->lhs)->kind != ND_VAR) return NULL;
  Obj *b = m_strip(l->lhs)->var;
  if (b->ty->kind != TY_PTR || !is_numeric(b->ty->base)) return NULL;
  *base = b;
  *idx = l->rhs;
  return a;
}

/* the first `E[idx] op= e` in the subtree (E a pointer to numbers): a loop that updates an
 * element it never set before, as `x[i] += A[i][j] * y[j]` (the sum starts at the element) */
typedef struct {
  Obj *base;
  Node *idx;
} FirstUpd;
static bool first_upd_pre(Node *n, void *ctx) {
  FirstUpd *f = ctx;
  if (f->base) return false;
  if (n->kind == ND_ASSIGN_OP) {
    Node *l = m_strip(n->lhs);
    if (l->kind == ND_INDEX && m_strip(l->lhs)->kind == ND_VAR) {
      Obj *b = m_strip(l->lhs)->var;
      if (b->ty->kind == TY_PTR && is_numeric(b->ty->base)) {
        f->base = b;
        f->idx = l->rhs;
        return false;
      }
    }
  }
  return true;
}

static bool rule_lift(Canon *cn, Node **list, Node *body) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *p0 = *slot;
    Obj *base;
    Node *idx;
    Node *a0 = NULL;
    if (p0->kind == ND_FOR) { /* the loop first: the element's value is the start */
      FirstUpd f = {NULL, NULL};
      walk_one(p0->then, first_upd_pre, NULL, &f);
      if (!f.base) continue;
      base = f.base;
      idx = f.idx;
    } else {
      a0 = elem_update(p0, &base, &idx);
      if (!a0 || !rw_pure(a0->rhs)) continue;
    }
    if (!rw_pure(idx) || reads_memory(idx)) continue;
    /* more updates of the same element, then the loop */
    Node *s = a0 ? p0->next : p0;
    Elem e = {base, idx, false};
    while (a0 && s && s->kind == ND_EXPR_STMT) {
      Obj *b2;
      Node *i2;
      Node *a = elem_update(s, &b2, &i2);
      if (!a || b2 != base || !rw_same_expr(i2, idx) || a->kind != ND_ASSIGN_OP || !rw_pure(a->rhs))
        break;
      s = s->next;
    }
    if (!s || s->kind != ND_FOR) continue;
    Node *loop = s;
    walk_one(loop, elem_pre, NULL, &e);
    if (e.bad || m_has_jump(loop, true) || rw_has_barrier(loop)) continue;
    /* the index keeps its value through the loop, and names this thread's element */
    if (!vars_unwritten(idx, loop)) continue;
    if (base->sc == SC_PARAM ? m_writes(body, base)
                             : !plain_local(base, body) || m_writes(loop, base))
      continue;
    if (!m_thread_dependent(body, idx)) continue;
    /* at least one access in the loop: else there is nothing to lift */
    ElemCount ec = {&e, 0};
    walk_one(loop, count_pre, NULL, &ec);
    if (!ec.n) continue;
    ElemTo et = {e, NULL};
    if (!note(cn, R_LIFT, p0->tok,
              fmt("'%s[...]' accumulated in a register across the loop, stored once after it",
                  base->name)))
      return true;
    Type *ety = base->ty->base;
    Obj *acc = rw_new_var(cn->c->p, cn->c->k, fmt("%s_acc", base->name), ety, SC_LOCAL, p0->tok);
    et.acc = acc;
    /* the first statement gives the initial value; later ones fold into it when types agree */
    Node *init = !a0                     ? rw_index(rw_var(p0->tok, base), copy(idx))
                 : a0->kind == ND_ASSIGN ? a0->rhs
                                         : rw_bin(a0->op, copy(m_strip(a0->lhs)), a0->rhs);
    Node *pre = NULL, **pt = &pre;
    for (Node *q = a0 ? p0->next : loop; q != loop; q = q->next) {
      Node *a = m_strip(q->lhs);
      Node *rhs = a->rhs;
      replace_one(&rhs, elem_match, &et.e, elem_make);
      if (same_type(init->ty, ety) && same_type(rhs->ty, ety) && !reads_memory(rhs))
        init = rw_bin(a->op, init, rhs);
      else {
        *pt = rw_expr_stmt(rw_assign_op(a->op, rw_var(q->tok, acc), rhs));
        pt = &(*pt)->next;
      }
    }
    Node *decl = rw_decl(acc, init);
    replace_one(&loop, elem_match, &et.e, elem_make);
    Node *store =
      rw_expr_stmt(rw_assign(rw_index(rw_var(p0->tok, base), copy(idx)), rw_var(p0->tok, acc)));
    store->next = loop->next;
    loop->next = store;
    decl->next = pre ? pre : loop;
    *pt = loop;
    *slot = decl;
    char saved[256];
    snprintf(saved, sizeof saved, "%s", cn->c->assumed);
    if (base->sc == SC_PARAM && !(base->ty->qual & Q_RESTRICT)) {
      rw_restrict_params(cn->c);
      char r[256];
      snprintf(r, sizeof r, "%s", cn->c->assumed);
      snprintf(cn->c->assumed, sizeof cn->c->assumed, "%s", saved);
      add_assumed(cn->c, r);
    }
    return true;
  }
  return false;
}

/* ---- deref: pointer arithmetic as an index ---- */
/* e is P + o1 + o2 - o3 ... with P a pointer variable: P and the integer offset (NULL: none) */
static bool ptr_sum(Node *e, Obj **base, Node **off) {
  e = m_strip(e);
  if (e->kind == ND_VAR && e->ty->kind == TY_PTR) {
    *base = e->var;
    *off = NULL;
    return true;
  }
  if ((e->kind == ND_ADD || e->kind == ND_SUB) && e->ty->kind == TY_PTR) {
    Node *p = e->lhs, *o = e->rhs;
    if (e->kind == ND_ADD && m_strip(p)->ty->kind != TY_PTR) {
      p = e->rhs;
      o = e->lhs;
    }
    if (m_strip(p)->ty->kind != TY_PTR || !is_integer(o->ty) || !ptr_sum(p, base, off))
      return false;
    Node *oc = copy(o);
    if (e->kind == ND_SUB)
      *off = *off ? rw_bin(ND_SUB, *off, oc) : rw_bin(ND_SUB, rw_num(o->tok, 0), oc);
    else *off = *off ? rw_bin(ND_ADD, *off, oc) : oc;
    return true;
  }
  return false;
}
typedef struct {
  Canon *cn;
  Node *body;
  Obj *base;
  Node *off;
  int n;
  bool stop;
} DerefCtx;
static bool deref_ok(Node *n, DerefCtx *d) {
  Obj *b;
  Node *o;
  if (n->kind != ND_DEREF || !ptr_sum(n->lhs, &b, &o) || !o) return false;
  if (b->sc != SC_PARAM || m_writes(d->body, b)) return false; /* a local row pointer: rule rows */
  if (!same_type(n->ty, b->ty->base) || !rw_pure(o)) return false;
  d->base = b;
  d->off = o;
  return true;
}
static bool deref_match(Node *n, void *ctx) { return deref_ok(n, ctx); }
static Node *deref_make(Node *old, void *ctx) {
  DerefCtx *d = ctx;
  d->n++;
  Node *r = rw_index(rw_var(old->tok, d->base), d->off);
  r->tok = old->tok;
  return r;
}
static bool deref_find(Node *n, void *ctx) {
  DerefCtx *d = ctx;
  if (deref_ok(n, d)) d->stop = true;
  return !d->stop;
}
static bool rule_deref(Canon *cn, Node *body) {
  DerefCtx d = {cn, body, NULL, NULL, 0, false};
  walk_one(body, deref_find, NULL, &d);
  if (!d.stop) return false;
  if (!note(cn, R_DEREF, body->tok, "pointer arithmetic '*(P + e)' as 'P[e]'")) return true;
  for (Node **s = &body->stmts; *s; s = &(*s)->next) replace_all(s, deref_match, &d, deref_make);
  return d.n > 0;
}

/* ---- alias: local copies of special registers ---- */
static bool rule_alias(Canon *cn, Node **list, Node *body) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *d = *slot;
    if (d->kind != ND_DECL || !d->decl_init || d->decl_init->kind == ND_INIT_LIST ||
        !plain_local(d->var, body) || !is_integer(d->var->ty) || d->var->ty->qual & Q_VOLATILE ||
        m_strip(d->decl_init)->kind != ND_SPECIAL)
      continue;
    Obj *v = d->var;
    bool written = false;
    for (Node *s = d->next; s && !written; s = s->next)
      written = m_writes(s, v) || m_addr_taken(s, v);
    if (written) continue;
    Node *sr = m_strip(d->decl_init);
    if (!note(cn, R_ALIAS, d->tok,
              fmt("'%s' (%s.%c) substituted into its uses", v->name,
                  sr->sreg == SR_TID     ? "threadIdx"
                  : sr->sreg == SR_CTAID ? "blockIdx"
                  : sr->sreg == SR_NTID  ? "blockDim"
                                         : "gridDim",
                  "xyz"[sr->dim])))
      return true;
    for (Node **s = &d->next; *s; s = &(*s)->next) replace_all(s, subst_match, d, subst_make);
    *slot = d->next;
    return true;
  }
  return false;
}

/* ---- index: casts of special registers in a 32-bit index ---- */
static bool int32(Type *t) { return t && is_integer(t) && t->size == 4; }
/* e rebuilt without casts between 32-bit integers, over + - * of 32-bit integers: NULL when it
 * holds anything else; *dropped counts the explicit casts of special registers dropped */
static Node *ring(Node *e, int *dropped) {
  if (e->kind == ND_CAST) {
    if (!int32(e->ty) || !int32(e->lhs->ty)) return NULL;
    if (!e->implicit && m_strip(e->lhs)->kind == ND_SPECIAL) (*dropped)++;
    return ring(e->lhs, dropped);
  }
  if (!int32(e->ty)) return NULL;
  if (e->kind == ND_SPECIAL || e->kind == ND_NUM || e->kind == ND_VAR) return copy(e);
  if (e->kind != ND_ADD && e->kind != ND_SUB && e->kind != ND_MUL) return NULL;
  Node *l = ring(e->lhs, dropped), *r = l ? ring(e->rhs, dropped) : NULL;
  return r ? rw_bin(e->kind, l, r) : NULL;
}
static bool rule_index(Canon *cn, Node **list, Node *body) {
  for (Node **slot = list; *slot; slot = &(*slot)->next) {
    Node *d = *slot;
    if (d->kind != ND_DECL || !d->decl_init || d->decl_init->kind == ND_INIT_LIST ||
        !int32(d->var->ty))
      continue;
    int dropped = 0;
    Node *e = ring(d->decl_init, &dropped);
    if (!e || !dropped) continue;
    if (!note(cn, R_INDEX, d->tok,
              fmt("'%s': the casts of thread indices dropped (the same value modulo 2^32)",
                  d->var->name)))
      return true;
    Node *nd = rw_decl(d->var, e);
    d->decl_init = nd->decl_init;
    d->var->init = d->decl_init;
    return true;
  }
  return false;
}

/* ---- the driver of the rules ---- */
typedef bool ListRule(Canon *cn, Node **list, Node *body);

/* every statement list of the subtree at n (blocks' lists; the kernel body's); in_loop: inside a
 * loop (guards are not rewritten there) */
static bool each_list(Canon *cn, Node **list, Node *body, ListRule *r, bool in_loop,
                      bool skip_loops) {
  cn->in_loop = in_loop;
  if (r(cn, list, body)) return true;
  for (Node *n = *list; n; n = n->next) {
    bool loop = n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO;
    if (loop && skip_loops) continue;
    Node *subs[3] = {n->kind == ND_BLOCK ? n : NULL, n->then, n->els};
    if (n->kind == ND_BLOCK) {
      if (each_list(cn, &n->stmts, body, r, in_loop, skip_loops)) return true;
      continue;
    }
    for (int i = 1; i < 3; i++) {
      Node *s = subs[i];
      if (!s || (n->kind != ND_IF && n->kind != ND_FOR && n->kind != ND_WHILE && n->kind != ND_DO))
        continue;
      /* a body that is one statement is a list of one: rules that need a neighbour find none */
      Node **sub = s->kind == ND_BLOCK ? &s->stmts : i == 1 ? &n->then : &n->els;
      if (each_list(cn, sub, body, r, in_loop || loop, skip_loops)) {
        /* a rule that made the one statement several (lift: a declaration, the loop, the
         * store) needs a block: a body of one statement keeps only its first */
        if (s->kind != ND_BLOCK && *sub && (*sub)->next) *sub = rw_block((*sub)->tok, *sub);
        return true;
      }
    }
  }
  return false;
}

/* one round of every rule, each to its first change (dry: the first match anywhere) */
static bool round_once(Canon *cn) {
  Node *body = cn->c->k->body;
  bool any = false;
  any |= each_list(cn, &body->stmts, body, rule_rows, false, false);
  if (cn->dry && any) return true;
  any |= rule_deref(cn, body);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_alias, false, false);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_index, false, false);
  if (cn->dry && any) return true;
  any |= rule_tid(cn, body);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_guard, false, true);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_decl, false, false);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_loops, false, false);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_update, false, false);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_subst, false, false);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_sink, false, false);
  if (cn->dry && any) return true;
  any |= each_list(cn, &body->stmts, body, rule_lift, false, false);
  return any;
}

static Legality legal(PassCtx *c) {
  Canon cn = {.c = c, .dry = true};
  if (!c->k->body) {
    snprintf(c->why, sizeof c->why, "no body");
    return NOT_APPLICABLE;
  }
  bool any = round_once(&cn);
  snprintf(c->why, sizeof c->why, "%s", any ? cn.did.s : "the kernel is in canonical form");
  buf_free(&cn.did);
  c->assumed[0] = 0;
  return any ? LEGAL : NOT_APPLICABLE;
}

static bool apply(PassCtx *c) {
  Canon cn = {.c = c, .dry = false};
  c->assumed[0] = 0;
  for (int r = 0; r < CANON_ROUNDS * R_NRULES && round_once(&cn); r++) {}
  snprintf(c->did, sizeof c->did, "%s", cn.did.s ? cn.did.s : "");
  buf_free(&cn.did);
  return cn.did.len > 0 || c->did[0];
}

const Pass pass_canon = {
  .name = "canon",
  .summary =
    "canonical forms before the passes: counted loops, guards, pointer rows, tile constants, accumulators in registers",
  .source =
    "LLVM's loop-simplify, instcombine and LICM-style scalar promotion; PPCG's normalization",
  .nparams = 0,
  .legal = legal,
  .apply = apply,
};
