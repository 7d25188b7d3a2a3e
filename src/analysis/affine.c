/* affine: an expression of the kernel as a polynomial with integer coefficients over the symbols
 * threadIdx.*, blockIdx.*, blockDim.*, gridDim.*, loop variables and parameters. Locals defined
 * once are replaced by their definition ("int idx = blockIdx.x*blockDim.x + threadIdx.x").
 * Expressions are evaluated with walk_one and a value stack; each variable's form is derived once
 * per Facts, in declaration order (an initializer reads only variables declared before it), so
 * neither expression depth nor chains of definitions recurse. */
#include "facts_impl.h"
#include <stdlib.h>
#include <string.h>

/* ---- polynomials ---- */
static int sym_cmp(const Sym *a, const Sym *b) {
  int c = strcmp(a->name, b->name);
  if (c) return c;
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  if (a->dim != b->dim) return a->dim < b->dim ? -1 : 1;
  return a->var == b->var ? 0 : (uintptr_t)a->var < (uintptr_t)b->var ? -1 : 1;
}

static int term_cmp(const Term *a, const Term *b) {
  if (a->deg != b->deg) return a->deg - b->deg;
  for (int i = 0; i < a->deg; i++) {
    int c = sym_cmp(&a->sym[i], &b->sym[i]);
    if (c) return c;
  }
  return 0;
}

static void add_term(Affine *p, const Term *m) {
  if (!p->ok || m->coef == 0) return;
  for (int i = 0; i < p->n; i++)
    if (!term_cmp(&p->t[i], m)) {
      p->t[i].coef += m->coef;
      return;
    }
  if (p->n == AFFINE_TERMS) {
    p->ok = false;
    return;
  }
  p->t[p->n++] = *m;
}

static void pconst(Affine *p, int64_t c) {
  p->ok = true;
  p->n = 0;
  Term m = {c, 0, {{0}}};
  add_term(p, &m);
}

static void psym(Affine *p, Sym s) {
  p->ok = true;
  p->n = 0;
  Term m = {1, 1, {s}};
  add_term(p, &m);
}

static void pbad(Affine *p) {
  p->ok = false;
  p->n = 0;
}

/* a += sign * b */
static void padd(Affine *a, const Affine *b, int64_t sign) {
  if (!a->ok || !b->ok) {
    pbad(a);
    return;
  }
  for (int i = 0; i < b->n; i++) {
    Term m = b->t[i];
    m.coef *= sign;
    add_term(a, &m);
  }
}

/* r = a * b (r may not be a or b) */
static void pmul(Affine *r, const Affine *a, const Affine *b) {
  r->ok = a->ok && b->ok;
  r->n = 0;
  if (!r->ok) return;
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++) {
      if (a->t[i].deg + b->t[j].deg > AFFINE_DEGREE) {
        pbad(r);
        return;
      }
      Term m = {a->t[i].coef * b->t[j].coef, 0, {{0}}};
      for (int k = 0; k < a->t[i].deg; k++) m.sym[m.deg++] = a->t[i].sym[k];
      for (int k = 0; k < b->t[j].deg; k++) m.sym[m.deg++] = b->t[j].sym[k];
      for (int x = 1; x < m.deg; x++) /* sort the symbols */
        for (int y = x; y > 0 && sym_cmp(&m.sym[y - 1], &m.sym[y]) > 0; y--) {
          Sym t = m.sym[y];
          m.sym[y] = m.sym[y - 1];
          m.sym[y - 1] = t;
        }
      add_term(r, &m);
    }
}

static bool is_const(const Affine *p, int64_t *c) {
  if (!p->ok) return false;
  *c = 0;
  for (int i = 0; i < p->n; i++) {
    if (p->t[i].deg) return false;
    *c += p->t[i].coef;
  }
  return true;
}

static Sym sreg_sym(const Node *n) {
  static const char *names[4][3] = {{"threadIdx.x", "threadIdx.y", "threadIdx.z"},
                                    {"blockIdx.x", "blockIdx.y", "blockIdx.z"},
                                    {"blockDim.x", "blockDim.y", "blockDim.z"},
                                    {"gridDim.x", "gridDim.y", "gridDim.z"}};
  static const SymKind kinds[4] = {SYM_TID, SYM_CTAID, SYM_NTID, SYM_NCTAID};
  if (n->sreg == SR_WARPSIZE || n->dim < 0 || n->dim > 2)
    return (Sym){SYM_WARPSIZE, 0, NULL, "warpSize"};
  return (Sym){kinds[n->sreg], n->dim, NULL, names[n->sreg][n->dim]};
}

/* ---- the value of an expression, on a stack ---- */
enum { HOST_CONST_DEPTH = 16 }; /* `const int B = A * 2;` chains followed this deep */

typedef struct {
  const Facts *f;
  Affine *st;
  int sp, cap;
  int depth;
  /* inside an inlined `__device__` helper `{ return e; }`: its parameters' forms */
  Obj *fn;
  Affine *param_form;
} Eval;

static Affine *push(Eval *e) {
  if (e->sp == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 8;
    e->st = xrealloc(e->st, sizeof *e->st * (size_t)e->cap);
  }
  return &e->st[e->sp++];
}

static void eval_expr(const Facts *f, Node *n, int depth, Affine *out);
static void eval_in(const Facts *f, Node *n, int depth, Obj *fn, Affine *param_form, Affine *out);
static void call_form(Eval *e, Node *call, Affine *out);

static bool is_kernel_param(const Facts *f, const Obj *v) {
  for (Obj *q = f->kernel ? f->kernel->params : NULL; q; q = q->next)
    if (q == v) return true;
  return false;
}

/* the value of a use of v */
static void var_form(Eval *e, Obj *v, Affine *out) {
  const Facts *f = e->f;
  if (e->fn) { /* in a helper: its parameters only */
    int i = 0;
    for (Obj *q = e->fn->params; q; q = q->next, i++)
      if (q == v) {
        *out = e->param_form[i];
        return;
      }
    pbad(out);
    return;
  }
  if (v->sc == SC_CONSTANT && v->host_const && v->init) {
    if (e->depth >= HOST_CONST_DEPTH) pbad(out);
    else eval_expr(f, v->init, e->depth + 1, out);
    return;
  }
  VarInfo *vi = facts_var(f, v);
  if (vi && vi->state == 2) *out = vi->form;
  else pbad(out); /* not the kernel's, or read in its own initializer */
}

static bool eval_pre(Node *n, void *ctx) {
  Eval *e = ctx;
  switch (n->kind) {
  case ND_NUM:
    if (is_integer(n->ty)) pconst(push(e), n->ival);
    else pbad(push(e));
    return false;
  case ND_SPECIAL: psym(push(e), sreg_sym(n)); return false;
  case ND_VAR: var_form(e, n->var, push(e)); return false;
  case ND_CAST:
    /* the operand alone: a conversion the type checker put around a call's argument keeps the
     * argument's link to the next one, which a walk of the cast's kids would follow (an int
     * passed to an `unsigned` parameter made a helper's form "not affine") */
    if (is_integer(n->ty) && is_integer(n->lhs->ty)) {
      Affine v;
      eval_in(e->f, n->lhs, e->depth, e->fn, e->param_form, &v);
      *push(e) = v;
    } else pbad(push(e));
    return false;
  case ND_ADD:
  case ND_SUB:
  case ND_MUL:
  case ND_SHL:
  case ND_NEG:
  case ND_POS: return true;
  case ND_DIV: return is_integer(n->ty); /* a constant over a constant only (eval_post) */
  case ND_CALL: call_form(e, n, push(e)); return false;
  default: pbad(push(e)); return false;
  }
}

static bool eval_post(Node *n, void *ctx) {
  Eval *e = ctx;
  Affine *r;
  switch (n->kind) {
  case ND_CAST:
  case ND_POS: return true; /* the operand's value stands */
  case ND_NEG: {
    Affine *a = &e->st[e->sp - 1], z;
    pconst(&z, 0);
    padd(&z, a, -1);
    *a = z;
    return true;
  }
  case ND_ADD:
  case ND_SUB:
    r = &e->st[e->sp - 2];
    padd(r, &e->st[e->sp - 1], n->kind == ND_ADD ? 1 : -1);
    e->sp--;
    return true;
  case ND_MUL: {
    Affine m;
    pmul(&m, &e->st[e->sp - 2], &e->st[e->sp - 1]);
    e->st[e->sp - 2] = m;
    e->sp--;
    return true;
  }
  case ND_SHL: {
    int64_t k;
    Affine m, c;
    if (!is_const(&e->st[e->sp - 1], &k) || k < 0 || k > 30) pbad(&m);
    else {
      pconst(&c, (int64_t)1 << k);
      pmul(&m, &e->st[e->sp - 2], &c);
    }
    e->st[e->sp - 2] = m;
    e->sp--;
    return true;
  }
  /* `K / 2` of a filter's radius: both constant, non-negative (no rounding question) */
  case ND_DIV: {
    int64_t a, b;
    Affine m;
    if (!is_const(&e->st[e->sp - 2], &a) || !is_const(&e->st[e->sp - 1], &b) || a < 0 || b <= 0)
      pbad(&m);
    else pconst(&m, a / b);
    e->st[e->sp - 2] = m;
    e->sp--;
    return true;
  }
  default: return true;
  }
}

static void eval_in(const Facts *f, Node *n, int depth, Obj *fn, Affine *param_form, Affine *out) {
  if (!n) {
    pbad(out);
    return;
  }
  Eval e = {f, NULL, 0, 0, depth, fn, param_form};
  walk_one(n, eval_pre, eval_post, &e);
  if (e.sp == 1) *out = e.st[0];
  else pbad(out);
  free(e.st);
}

static void eval_expr(const Facts *f, Node *n, int depth, Affine *out) {
  eval_in(f, n, depth, NULL, NULL, out);
}

/* a call to a `__device__` helper whose body is one `return e;` with integer parameters and
 * result (bench/holdout4 heat3d's `idx3(i, j, k)`: `return (i * N + j) * N + k;`): the form of e
 * with each parameter's form the argument's (DIAGNOSIS §3); anything else is not affine */
static void call_form(Eval *e, Node *call, Affine *out) {
  Obj *fn = call->fn;
  Node *body = fn && fn->body ? fn->body->stmts : NULL;
  if (!fn || !body || body->next || body->kind != ND_RETURN || !body->lhs ||
      !is_integer(call->ty) || e->depth >= HOST_CONST_DEPTH) {
    pbad(out);
    return;
  }
  int np = 0;
  for (Obj *q = fn->params; q; q = q->next) np++;
  if (np != call->nargs || np > 8) {
    pbad(out);
    return;
  }
  Affine pf[8];
  int i = 0;
  Node *a = call->args;
  for (Obj *q = fn->params; q; q = q->next, a = a->next, i++) {
    if (!a || !is_integer(q->ty)) {
      pbad(out);
      return;
    }
    eval_in(e->f, a, e->depth + 1, e->fn, e->param_form, &pf[i]);
  }
  eval_in(e->f, body->lhs, e->depth + 1, fn, pf, out);
}

/* ---- reads memory, thread-dependent ---- */
typedef struct {
  const Facts *f;
  bool found;
  int depth; /* helpers entered (reads_pre): recursion stops at HOST_CONST_DEPTH */
} Find;

static bool is_shfl(Builtin b) {
  return b == BI_SHFL || b == BI_SHFL_UP || b == BI_SHFL_DOWN || b == BI_SHFL_XOR;
}
static bool is_atomic_b(Builtin b) { return b >= BI_ATOMIC_ADD && b <= BI_ATOMIC_XOR; }

static bool reads_pre(Node *e, void *ctx) {
  Find *x = ctx;
  if (x->found) return false;
  switch (e->kind) {
  case ND_INDEX:
  case ND_DEREF: x->found = true; return false;
  case ND_MEMBER:
    if (e->arrow) x->found = true;
    return !x->found;
  case ND_CALL:
    if (e->fn) {
      /* a helper `{ return e; }` reads memory where e does (call_form inlines it) */
      Node *b = e->fn->body ? e->fn->body->stmts : NULL;
      if (!b || b->next || b->kind != ND_RETURN || !b->lhs || x->depth >= HOST_CONST_DEPTH)
        x->found = true;
      else {
        x->depth++;
        walk_one(b->lhs, reads_pre, NULL, x);
        x->depth--;
      }
    } else if (is_atomic_b(e->builtin) || e->builtin == BI_LDG || is_shfl(e->builtin))
      x->found = true;
    return !x->found;
  case ND_VAR:
    if (e->var->sc == SC_LOCAL) {
      /* a local reads memory if its initializer does; later assignments are not tracked */
      VarInfo *vi = facts_var(x->f, e->var);
      if (vi && vi->state == 2 && vi->reads) x->found = true;
    }
    return false;
  default: return true;
  }
}

static bool reads(const Facts *f, Node *e) {
  Find x = {f, false, 0};
  walk_one(e, reads_pre, NULL, &x);
  return x.found;
}

/* a use of v: may it differ between the threads of a block? */
static bool var_tdep(const Facts *f, Obj *v) {
  if (v->sc == SC_PARAM) {
    /* a kernel's parameters are the same for every thread unless written; a device function's are
     * unknown */
    VarInfo *vi = facts_var(f, v);
    return is_kernel_param(f, v) ? vi && vi->defs > 0 : true;
  }
  if (v->sc != SC_LOCAL) return false; /* shared, constant, device scalars: one value per block */
  VarInfo *vi = facts_var(f, v);
  return !vi || vi->state != 2 || vi->tdep;
}

static bool tdep_pre(Node *e, void *ctx) {
  Find *x = ctx;
  if (x->found) return false;
  switch (e->kind) {
  case ND_NUM:
  case ND_SIZEOF:
  case ND_STR: return false;
  case ND_SPECIAL: x->found = e->sreg == SR_TID; return false;
  case ND_VAR: x->found = var_tdep(x->f, e->var); return false;
  case ND_CALL:
    if (e->fn || is_shfl(e->builtin) || is_atomic_b(e->builtin) || e->builtin == BI_CLOCK)
      x->found = true;
    return !x->found;
  default: return true;
  }
}

static bool tdep(const Facts *f, Node *e) {
  Find x = {f, false, 0};
  walk_one(e, tdep_pre, NULL, &x);
  return x.found;
}

/* ---- the kernel's variables, in declaration order ---- */
static bool has_thread_sym(const Affine *a) {
  for (int i = 0; i < a->n; i++)
    for (int k = 0; k < a->t[i].deg; k++)
      if (a->t[i].sym[k].kind == SYM_TID) return true;
  return false;
}

static void derive_form(Facts *f, VarInfo *vi) {
  Obj *v = vi->var;
  Affine *out = &vi->form;
  if (v->sc == SC_PARAM) {
    if (is_kernel_param(f, v) && vi->defs == 0 && !vi->addr && is_integer(v->ty))
      psym(out, (Sym){SYM_PARAM, 0, v, v->name});
    else pbad(out);
    return;
  }
  if (v->sc != SC_LOCAL || !is_integer(v->ty) || vi->addr) {
    pbad(out);
    return;
  }
  if (vi->loop) {
    /* a loop variable is its start plus the loop's progress; the start may differ per thread
     * ("for (j = threadIdx.x; ...; j += 256)"), the progress is the same for all */
    if (vi->init) {
      Affine start;
      eval_expr(f, vi->init, 0, &start);
      if (!start.ok) {
        pbad(out);
        return;
      }
      if (has_thread_sym(&start)) {
        vi->progress_name = xmalloc(2 * strlen(v->name) + 5);
        sprintf(vi->progress_name, "(%s-%s0)", v->name, v->name);
        Affine prog;
        psym(&prog, (Sym){SYM_PROGRESS, 0, v, vi->progress_name});
        *out = start;
        padd(out, &prog, 1);
        return;
      }
    }
    psym(out, (Sym){SYM_LOOP, 0, v, v->name});
    return;
  }
  if (vi->defs == 1 && vi->init) eval_expr(f, vi->init, 0, out);
  else pbad(out);
}

static void derive_var(Facts *f, VarInfo *vi) {
  vi->state = 1;
  derive_form(f, vi);
  Obj *v = vi->var;
  vi->reads = v->sc == SC_LOCAL && vi->init && reads(f, vi->init);
  if (v->sc == SC_PARAM) vi->tdep = is_kernel_param(f, v) ? vi->defs > 0 : true;
  else vi->tdep = vi->addr || !((vi->defs == 1 || vi->loop) && vi->init) || tdep(f, vi->init);
  vi->state = 2;
}

/* the index of an element, flattened over the rows of a multi-dimensional array:
 * a[i][j] of T a[..][n] is i*n + j; reads: whether any dimension's index reads memory */
static void index_form(const Facts *f, Node *n, Affine *out, bool *indirect) {
  /* the chain of rows from the element outwards to the base: n, its row, the row's row... */
  Node *chain[64];
  int depth = 0;
  chain[depth++] = n;
  for (;;) {
    Node *l = n->lhs;
    while (l->kind == ND_CAST && l->implicit) l = l->lhs;
    if (!(l->kind == ND_INDEX && l->ty->kind == TY_ARRAY && l->ty->array_len > 0)) break;
    if (depth == 64) {
      pbad(out);
      *indirect = reads(f, n->rhs);
      return;
    }
    chain[depth++] = n = l;
  }
  Affine r, part, len, m;
  eval_expr(f, chain[depth - 1]->rhs, 0, &r);
  bool rd = reads(f, chain[depth - 1]->rhs);
  for (int k = depth - 2; k >= 0; k--) {
    Node *row = chain[k + 1];
    pconst(&len, row->ty->array_len);
    pmul(&m, &r, &len);
    eval_expr(f, chain[k]->rhs, 0, &part);
    padd(&m, &part, 1);
    r = m;
    rd = rd || reads(f, chain[k]->rhs);
  }
  *out = r;
  *indirect = rd;
}

/* an atomic's or __ldg's address: the element of &a[i], else the pointer */
static void call_access_form(const Facts *f, Node *call, Affine *out, bool *indirect) {
  Node *addr = call->args, *e = addr;
  while (e && e->kind == ND_CAST) e = e->lhs;
  if (e && e->kind == ND_ADDR && e->lhs->kind == ND_INDEX) {
    index_form(f, e->lhs, out, indirect);
    return;
  }
  pbad(out);
  *indirect = reads(f, addr);
}

void affine_derive(Facts *f) {
  for (int i = 0; i < f->nvars; i++) derive_var(f, &f->vars[i]);
  for (int i = 0; i < f->nacc; i++) {
    Access *a = &f->acc[i];
    Node *n = a->node;
    if (n->kind == ND_INDEX) index_form(f, n, &a->index, &a->indirect);
    else if (n->kind == ND_CALL) call_access_form(f, n, &a->index, &a->indirect);
    else if (n->kind == ND_DEREF) {
      pbad(&a->index);
      a->indirect = reads(f, n->lhs);
    } else { /* a member: its element's index, or the pointer's */
      Node *b = n;
      while (b->kind == ND_MEMBER && !b->arrow) {
        b = b->lhs;
        while (b->kind == ND_CAST && b->implicit) b = b->lhs;
      }
      if (b->kind == ND_INDEX) index_form(f, b, &a->index, &a->indirect);
      else {
        pbad(&a->index);
        a->indirect = reads(f, b->lhs);
      }
    }
  }
}

void affine_free(Facts *f) {
  for (int i = 0; i < f->nvars; i++) free(f->vars[i].progress_name);
  free(f->vars);
}

/* ---- queries ---- */
Affine facts_affine(const Facts *f, Node *e) {
  facts_check(f);
  Affine r;
  eval_expr(f, e, 0, &r);
  return r;
}

Affine facts_index_form(const Facts *f, Node *index, bool *indirect) {
  facts_check(f);
  Affine r;
  bool rd = false;
  if (!index || index->kind != ND_INDEX) pbad(&r);
  else index_form(f, index, &r, &rd);
  if (indirect) *indirect = rd;
  return r;
}

bool facts_reads_memory(const Facts *f, Node *e) {
  facts_check(f);
  return reads(f, e);
}
bool facts_thread_dependent(const Facts *f, Node *e) {
  facts_check(f);
  return e ? tdep(f, e) : true;
}

/* ---- forms as text and strides ---- */
static void print_affine(Buf *b, const Affine *p) {
  /* highest degree first, constant last */
  for (int pass = AFFINE_DEGREE; pass >= 0; pass--)
    for (int i = 0; i < p->n; i++) {
      const Term *m = &p->t[i];
      if (m->deg != pass) continue;
      int64_t c = m->coef;
      if (b->len) buf_puts(b, c < 0 ? " - " : " + ");
      else if (c < 0) buf_puts(b, "-");
      int64_t a = c < 0 ? -c : c;
      if (m->deg == 0) {
        buf_printf(b, "%lld", (long long)a);
        continue;
      }
      if (a != 1) buf_printf(b, "%lld*", (long long)a);
      for (int k = 0; k < m->deg; k++) buf_printf(b, "%s%s", k ? "*" : "", m->sym[k].name);
    }
  if (!b->len) buf_puts(b, "0");
}

static char *text_of(const Affine *p) {
  Buf b = {0};
  print_affine(&b, p);
  char *s = arena_strdup(b.s);
  buf_free(&b);
  return s;
}

char *affine_text(const Affine *a) { return a && a->ok ? text_of(a) : NULL; }

static bool is_tid_x(const Sym *s) { return s->kind == SYM_TID && s->dim == 0; }

bool affine_x_stride(const Affine *a, int64_t *stride) {
  if (!a->ok) return false;
  *stride = 0;
  for (int i = 0; i < a->n; i++) {
    bool has_x = false;
    for (int k = 0; k < a->t[i].deg; k++)
      if (is_tid_x(&a->t[i].sym[k])) has_x = true;
    if (!has_x) continue;
    if (a->t[i].deg != 1) return false; /* n*threadIdx.x: a stride known only at run time */
    *stride += a->t[i].coef;
  }
  return true;
}

bool affine_block_stride(const Affine *a, const int64_t block[3], int64_t *stride) {
  if (!a->ok) return false;
  *stride = 0;
  for (int i = 0; i < a->n; i++) {
    const Term *t = &a->t[i];
    int64_t c = t->coef;
    bool has_bx = false, other = false;
    for (int k = 0; k < t->deg; k++) {
      const Sym *s = &t->sym[k];
      if (s->kind == SYM_CTAID && s->dim == 0) {
        if (has_bx) return false;
        has_bx = true;
      } else if (s->kind == SYM_NTID) c *= block[s->dim];
      else other = true;
    }
    if (!has_bx) continue;
    if (other) return false; /* blockIdx.x times a run-time value */
    *stride += c;
  }
  return true;
}

char *affine_x_stride_text(const Affine *a) {
  if (!a->ok) return NULL;
  Affine d = {.ok = true};
  for (int i = 0; i < a->n; i++) {
    Term m = a->t[i];
    int at = -1;
    for (int k = 0; k < m.deg; k++)
      if (is_tid_x(&m.sym[k])) at = k;
    if (at < 0) continue;
    for (int k = at; k + 1 < m.deg; k++) m.sym[k] = m.sym[k + 1];
    m.deg--;
    add_term(&d, &m);
  }
  return text_of(&d);
}

bool affine_var_coefficient(const Affine *a, const Obj *v, int64_t *coef) {
  if (!a->ok) return false;
  *coef = 0;
  for (int i = 0; i < a->n; i++) {
    const Term *t = &a->t[i];
    bool has = false;
    for (int k = 0; k < t->deg; k++)
      has |= (t->sym[k].kind == SYM_LOOP || t->sym[k].kind == SYM_PROGRESS) && t->sym[k].var == v;
    if (!has) continue;
    if (t->deg != 1) return false;
    *coef += t->coef;
  }
  return true;
}
