/* affine: an index expression as a polynomial with integer coefficients over the symbols
 * threadIdx.*, blockIdx.*, blockDim.*, gridDim.*, loop variables and parameters. Locals defined
 * once are replaced by their definition ("int idx = blockIdx.x*blockDim.x + threadIdx.x"). */
#include "analysis.h"
#include <stdlib.h>
#include <string.h>

#define MAXT 24
typedef struct { int64_t c; const char *s[3]; int n; } Mono;
typedef struct { Mono t[MAXT]; int n; bool ok; } Poly;

/* ---- what the function does with each local ---- */
typedef struct { Obj *var; int defs; bool loop; bool addr; Node *init; } VarInfo;
typedef struct { Obj *fn; VarInfo *v; int n; } FnInfo;
static FnInfo cache;

static VarInfo *info(Obj *v) {
  for (int i = 0; i < cache.n; i++) if (cache.v[i].var == v) return &cache.v[i];
  cache.v = xrealloc(cache.v, sizeof(VarInfo) * (size_t)(cache.n + 1));
  VarInfo *x = &cache.v[cache.n++];
  memset(x, 0, sizeof *x);
  x->var = v;
  return x;
}

static void scan(Node *n, bool in_for_inc) {
  for (; n; n = n->next) {
    switch (n->kind) {
    case ND_DECL:
      if (n->var->sc == SC_LOCAL) { VarInfo *v = info(n->var); v->defs++; v->init = n->decl_init; }
      break;
    case ND_ASSIGN: case ND_ASSIGN_OP: case ND_PREINC: case ND_PREDEC: case ND_POSTINC: case ND_POSTDEC:
      if (n->lhs->kind == ND_VAR) { VarInfo *v = info(n->lhs->var); v->defs++; if (in_for_inc) v->loop = true; }
      break;
    case ND_ADDR:
      if (n->lhs->kind == ND_VAR) info(n->lhs->var)->addr = true;
      break;
    default: break;
    }
    scan(n->lhs, in_for_inc); scan(n->rhs, in_for_inc); scan(n->cond, false); scan(n->then, false); scan(n->els, false);
    scan(n->init, false); scan(n->inc, true); scan(n->stmts, false); scan(n->args, in_for_inc); scan(n->decl_init, false);
  }
}

static void prepare(Obj *fn) {
  if (cache.fn == fn) return;
  free(cache.v);
  cache.v = NULL;
  cache.n = 0;
  cache.fn = fn;
  if (fn && fn->body) scan(fn->body, false);
}

/* ---- polynomials ---- */
static int mono_cmp(const Mono *a, const Mono *b) {
  if (a->n != b->n) return a->n - b->n;
  for (int i = 0; i < a->n; i++) { int c = strcmp(a->s[i], b->s[i]); if (c) return c; }
  return 0;
}

static void add_term(Poly *p, Mono m) {
  if (!p->ok || m.c == 0) return;
  for (int i = 0; i < p->n; i++)
    if (!mono_cmp(&p->t[i], &m)) { p->t[i].c += m.c; return; }
  if (p->n == MAXT) { p->ok = false; return; }
  p->t[p->n++] = m;
}

static Poly pconst(int64_t c) { Poly p = {.ok = true}; add_term(&p, (Mono){c, {0}, 0}); return p; }
static Poly psym(const char *s) { Poly p = {.ok = true}; add_term(&p, (Mono){1, {s}, 1}); return p; }
static Poly bad(void) { Poly p = {.ok = false}; return p; }

static Poly padd(Poly a, Poly b, int64_t sign) {
  if (!a.ok || !b.ok) return bad();
  for (int i = 0; i < b.n; i++) { Mono m = b.t[i]; m.c *= sign; add_term(&a, m); }
  return a;
}

static Poly pmul(Poly a, Poly b) {
  if (!a.ok || !b.ok) return bad();
  Poly r = {.ok = true};
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < b.n; j++) {
      Mono m = {a.t[i].c * b.t[j].c, {0}, 0};
      if (a.t[i].n + b.t[j].n > 3) return bad();
      for (int k = 0; k < a.t[i].n; k++) m.s[m.n++] = a.t[i].s[k];
      for (int k = 0; k < b.t[j].n; k++) m.s[m.n++] = b.t[j].s[k];
      for (int x = 1; x < m.n; x++)   /* sort symbols */
        for (int y = x; y > 0 && strcmp(m.s[y - 1], m.s[y]) > 0; y--) { const char *t = m.s[y]; m.s[y] = m.s[y - 1]; m.s[y - 1] = t; }
      add_term(&r, m);
    }
  return r;
}

static bool is_const(Poly p, int64_t *c) {
  if (!p.ok) return false;
  *c = 0;
  for (int i = 0; i < p.n; i++) { if (p.t[i].n) return false; *c += p.t[i].c; }
  return true;
}

static const char *sreg_name(Node *n) {
  static const char *names[4][3] = {{"threadIdx.x", "threadIdx.y", "threadIdx.z"}, {"blockIdx.x", "blockIdx.y", "blockIdx.z"},
                                    {"blockDim.x", "blockDim.y", "blockDim.z"}, {"gridDim.x", "gridDim.y", "gridDim.z"}};
  return n->sreg == SR_WARPSIZE ? "warpSize" : names[n->sreg][n->dim];
}

static Poly poly(Node *n, int depth) {
  if (depth > 32) return bad();
  switch (n->kind) {
  case ND_NUM: return is_integer(n->ty) ? pconst(n->ival) : bad();
  case ND_SPECIAL: return psym(sreg_name(n));
  case ND_CAST: return (is_integer(n->ty) && is_integer(n->lhs->ty)) ? poly(n->lhs, depth + 1) : bad();
  case ND_VAR: {
    Obj *v = n->var;
    if (v->sc == SC_PARAM) {
      /* a kernel's parameters are the same for every thread; a device function's are not */
      bool kernel_param = false;
      for (Obj *q = cache.fn ? cache.fn->params : NULL; q; q = q->next) if (q == v) kernel_param = true;
      VarInfo *vi = info(v);
      return kernel_param && vi->defs == 0 && !vi->addr && is_integer(v->ty) ? psym(v->name) : bad();
    }
    if (v->sc == SC_CONSTANT && v->host_const && v->init) return poly(v->init, depth + 1);
    if (v->sc != SC_LOCAL || !is_integer(v->ty)) return bad();
    VarInfo *vi = info(v);
    if (vi->addr) return bad();
    if (vi->loop) {
      /* a loop variable is its start plus the loop's progress; the start may differ per thread
       * ("for (j = threadIdx.x; ...; j += 256)"), the progress is the same for all */
      if (vi->init) {
        Poly start = poly(vi->init, depth + 1);
        if (!start.ok) return bad();
        bool thread = false;
        for (int i = 0; i < start.n; i++)
          for (int k = 0; k < start.t[i].n; k++) if (!strncmp(start.t[i].s[k], "threadIdx", 9)) thread = true;
        if (thread) return padd(start, psym(fmt("(%s-%s0)", v->name, v->name)), 1);
      }
      return psym(v->name);
    }
    if (vi->defs == 1 && vi->init) return poly(vi->init, depth + 1);
    return bad();
  }
  case ND_ADD: return padd(poly(n->lhs, depth + 1), poly(n->rhs, depth + 1), 1);
  case ND_SUB: return padd(poly(n->lhs, depth + 1), poly(n->rhs, depth + 1), -1);
  case ND_NEG: return padd(pconst(0), poly(n->lhs, depth + 1), -1);
  case ND_POS: return poly(n->lhs, depth + 1);
  case ND_MUL: return pmul(poly(n->lhs, depth + 1), poly(n->rhs, depth + 1));
  case ND_SHL: {
    int64_t k;
    Poly r = poly(n->rhs, depth + 1);
    if (!is_const(r, &k) || k < 0 || k > 30) return bad();
    return pmul(poly(n->lhs, depth + 1), pconst((int64_t)1 << k));
  }
  default: return bad();
  }
}

static void print_poly(Buf *b, Poly p) {
  /* highest degree first, constant last */
  for (int pass = 3; pass >= 0; pass--)
    for (int i = 0; i < p.n; i++) {
      Mono *m = &p.t[i];
      if (m->n != pass) continue;
      int64_t c = m->c;
      if (b->len) buf_puts(b, c < 0 ? " - " : " + ");
      else if (c < 0) buf_puts(b, "-");
      int64_t a = c < 0 ? -c : c;
      if (m->n == 0) { buf_printf(b, "%lld", (long long)a); continue; }
      if (a != 1) buf_printf(b, "%lld*", (long long)a);
      for (int k = 0; k < m->n; k++) buf_printf(b, "%s%s", k ? "*" : "", m->s[k]);
    }
  if (!b->len) buf_puts(b, "0");
}

char *affine_text(Node *index, Obj *fn) {
  prepare(fn);
  Poly p = poly(index, 0);
  if (!p.ok) return NULL;
  Buf b = {0};
  print_poly(&b, p);
  char *s = arena_strdup(b.s);
  buf_free(&b);
  return s;
}

bool affine_x_stride(Node *index, Obj *fn, int64_t *stride) {
  prepare(fn);
  Poly p = poly(index, 0);
  if (!p.ok) return false;
  *stride = 0;
  for (int i = 0; i < p.n; i++) {
    bool has_x = false;
    for (int k = 0; k < p.t[i].n; k++) if (!strcmp(p.t[i].s[k], "threadIdx.x")) has_x = true;
    if (!has_x) continue;
    if (p.t[i].n != 1) return false;   /* n*threadIdx.x: a stride known only at run time */
    *stride += p.t[i].c;
  }
  return true;
}

bool affine_block_stride(Node *index, Obj *fn, const int64_t block[3], int64_t *stride) {
  prepare(fn);
  Poly p = poly(index, 0);
  if (!p.ok) return false;
  static const char *dims[3] = {"blockDim.x", "blockDim.y", "blockDim.z"};
  *stride = 0;
  for (int i = 0; i < p.n; i++) {
    int64_t c = p.t[i].c;
    bool has_bx = false;
    for (int k = 0; k < p.t[i].n; k++) {
      const char *sy = p.t[i].s[k];
      if (!strcmp(sy, "blockIdx.x")) { if (has_bx) return false; has_bx = true; continue; }
      int d = -1;
      for (int j = 0; j < 3; j++) if (!strcmp(sy, dims[j])) d = j;
      if (d < 0) { c = 0; break; }      /* another symbol: not part of the block stride */
      c *= block[d];
    }
    if (has_bx) {
      for (int k = 0; k < p.t[i].n; k++) {
        const char *sy = p.t[i].s[k];
        bool known = !strcmp(sy, "blockIdx.x");
        for (int j = 0; j < 3; j++) known |= !strcmp(sy, dims[j]);
        if (!known) return false;       /* blockIdx.x times a run-time value */
      }
      *stride += c;
    }
  }
  return true;
}

char *affine_x_stride_text(Node *index, Obj *fn) {
  prepare(fn);
  Poly p = poly(index, 0), d = {.ok = true};
  if (!p.ok) return NULL;
  for (int i = 0; i < p.n; i++) {
    Mono m = p.t[i];
    int at = -1;
    for (int k = 0; k < m.n; k++) if (!strcmp(m.s[k], "threadIdx.x")) at = k;
    if (at < 0) continue;
    for (int k = at; k + 1 < m.n; k++) m.s[k] = m.s[k + 1];
    m.n--;
    add_term(&d, m);
  }
  Buf b = {0};
  print_poly(&b, d);
  char *s = arena_strdup(b.s);
  buf_free(&b);
  return s;
}

static bool reads_memory_d(Node *e, int depth) {
  if (!e || depth > 32) return false;
  for (; e; e = e->next) {
    switch (e->kind) {
    case ND_INDEX: case ND_DEREF: return true;
    case ND_MEMBER: if (e->arrow) return true; break;
    case ND_CALL: if (e->fn || (e->builtin >= BI_ATOMIC_ADD && e->builtin <= BI_ATOMIC_XOR) || e->builtin == BI_LDG || e->builtin == BI_SHFL ||
                      e->builtin == BI_SHFL_UP || e->builtin == BI_SHFL_DOWN || e->builtin == BI_SHFL_XOR) return true;
      break;
    case ND_VAR:
      if (e->var->sc == SC_LOCAL) {
        VarInfo *vi = info(e->var);
        /* a local reads memory if its (last) initializer does; later assignments are not tracked */
        if (vi->init && reads_memory_d(vi->init, depth + 1)) return true;
      }
      break;
    default: break;
    }
    if (reads_memory_d(e->lhs, depth + 1) || reads_memory_d(e->rhs, depth + 1) || reads_memory_d(e->cond, depth + 1) ||
        reads_memory_d(e->then, depth + 1) || reads_memory_d(e->els, depth + 1) || reads_memory_d(e->args, depth + 1))
      return true;
    if (e->kind != ND_CALL) break;   /* the caller walks argument lists */
  }
  return false;
}

/* may the value differ between the threads of a block? (threadIdx taints; blockIdx, blockDim,
 * kernel parameters, shared and constant scalars do not) */
static bool thread_dep(Node *e, int depth) {
  if (!e) return false;
  if (depth > 40) return true;
  switch (e->kind) {
  case ND_NUM: case ND_SIZEOF: case ND_STR: return false;
  case ND_SPECIAL: return e->sreg == SR_TID;
  case ND_VAR: {
    Obj *v = e->var;
    if (v->sc == SC_PARAM) {
      for (Obj *q = cache.fn ? cache.fn->params : NULL; q; q = q->next) if (q == v) return info(v)->defs > 0;
      return true;   /* a device function's parameter: unknown here */
    }
    if (v->sc != SC_LOCAL) return false;   /* shared, constant, device scalars: one value per block */
    VarInfo *vi = info(v);
    if (vi->addr) return true;
    if ((vi->defs == 1 || vi->loop) && vi->init) return thread_dep(vi->init, depth + 1);
    return true;
  }
  case ND_CALL:
    if (e->fn) return true;
    if (e->builtin == BI_SHFL || e->builtin == BI_SHFL_UP || e->builtin == BI_SHFL_DOWN || e->builtin == BI_SHFL_XOR ||
        (e->builtin >= BI_ATOMIC_ADD && e->builtin <= BI_ATOMIC_XOR) || e->builtin == BI_CLOCK)
      return true;
    for (Node *a = e->args; a; a = a->next) if (thread_dep(a, depth + 1)) return true;
    return false;
  default:
    return thread_dep(e->lhs, depth + 1) || thread_dep(e->rhs, depth + 1) || thread_dep(e->cond, depth + 1) ||
           thread_dep(e->then, depth + 1) || thread_dep(e->els, depth + 1);
  }
}

bool thread_dependent(Node *e, Obj *fn) {
  prepare(fn);
  return thread_dep(e, 0);
}

bool reads_memory(Node *e, Obj *fn) {
  prepare(fn);
  return reads_memory_d(e, 0);
}
