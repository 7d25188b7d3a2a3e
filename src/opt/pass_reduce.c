/* pass reduce: a reduction over the threads of a grid or over a tree in shared memory becomes
 * warp shuffles (Harris, "Optimizing Parallel Reduction in CUDA", NVIDIA 2007, kernels 4-7;
 * Luitjens, "Faster Parallel Reductions on Kepler", NVIDIA blog 2014: shuffles, vector loads and
 * one atomic per warp or block). Two shapes:
 *
 * ATOMIC  thread t of a 1-D grid does `if (G) atomicOp(A, V);` (or the atomic alone, after pure
 *         declarations and `if (C) return;` tests), A uniform (parameters only), op + (float,
 *         double, int, unsigned) or max/min (int, unsigned). Each new thread does the work of
 *         `merge` original threads of the same position in `merge` consecutive blocks (so a
 *         warp's consecutive iterations read consecutive addresses), keeps the original's
 *         statements and its guard G as they are (the tail), folds the values in a register,
 *         and the partials meet in __shfl_down_sync steps: one atomic per warp, or per block
 *         through one shared slot per warp and the first warp. With vec=4, when V reads only
 *         P[g] (g = blockIdx.x*blockDim.x + threadIdx.x) and G is `g < U`, a block whose whole
 *         chunk passes G (tested at its last element) and whose first element is 16-byte aligned
 *         reads it as float4/int4/uint4; other blocks take the scalar path.
 * TREE    `s[tid] = X; __syncthreads(); for (...) { if (C) s[a] += s[b]; __syncthreads(); }
 *         if (tid == 0) ... s[0] ...` (Harris's kernels 1-3 and relatives): the loop is run
 *         symbolically for the launch's block size, every thread's condition and indices
 *         evaluated per level; it must fold every slot into s[0] exactly once without a race.
 *         The value X is shuffled in the warp, one shared slot per warp, the first warp combines,
 *         and the statement after the loop reads the total in thread 0's register.
 *
 * A floating-point sum is reassociated: legal only when the launch spec gives a tolerance. The
 * kernel is written anew as source (rw_replace_kernel), the original's statements printed in
 * place. */
#include "opt.h"
#include <stdlib.h>
#include <string.h>

enum { MAX_PRE = 16, MAX_LEVELS = 64, LEVEL_WARP = 0, LEVEL_BLOCK = 1 };

/* ---- small helpers ---- */
static Node *only_stmt(Node *s) {
  while (s && s->kind == ND_BLOCK && s->stmts && !s->stmts->next) s = s->stmts;
  return s;
}
static bool is_atomic(const Node *n) {
  return n->kind == ND_CALL && !n->fn && n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR;
}

typedef struct {
  Node *found[4];
  int n;
} Atoms;
static bool atoms_pre(Node *n, void *ctx) {
  Atoms *a = ctx;
  if (is_atomic(n) && a->n < 4) a->found[a->n++] = n;
  return true;
}

typedef struct {
  Obj *v;
  int n;
} Refs;
static bool refs_pre(Node *n, void *ctx) {
  Refs *r = ctx;
  if (n->kind == ND_VAR && n->var == r->v) r->n++;
  return true;
}
static int count_refs(Node *n, Obj *v) {
  Refs r = {v, 0};
  walk_one(n, refs_pre, NULL, &r);
  return r.n;
}

typedef struct {
  int mask;
} Specials; /* bit (reg*4 + dim) */
static bool specials_pre(Node *n, void *ctx) {
  if (n->kind == ND_SPECIAL) ((Specials *)ctx)->mask |= 1 << (n->sreg * 4 + n->dim);
  return true;
}
static int specials(Node *e) {
  Specials s = {0};
  if (e) walk_one(e, specials_pre, NULL, &s);
  return s.mask;
}
#define SP(r, d) (1 << ((r)*4 + (d)))
/* thread- or block-dependent (blockDim and the warp size are uniform) */
static bool varies(Node *e) {
  int m = specials(e);
  return m & ~(SP(SR_NTID, 0) | SP(SR_NTID, 1) | SP(SR_NTID, 2) | SP(SR_WARPSIZE, 0));
}

static bool reads_shared_pre(Node *n, void *ctx) {
  if (n->kind == ND_VAR && (n->var->sc == SC_SHARED || n->var->sc == SC_EXTERN_SHARED))
    *(bool *)ctx = true;
  return true;
}
static bool uses_shared(Node *n) {
  bool b = false;
  if (n) walk_one(n, reads_shared_pre, NULL, &b);
  return b;
}

typedef struct {
  Obj *s;
  bool other;
} Other;
static bool other_pre(Node *n, void *ctx) {
  Other *o = ctx;
  if (n->kind == ND_VAR && (n->var->sc == SC_SHARED || n->var->sc == SC_EXTERN_SHARED) &&
      n->var != o->s)
    o->other = true;
  return true;
}
static bool other_shared(Node *body, Obj *s) {
  Other o = {s, false};
  walk(body, other_pre, NULL, &o);
  return o.other;
}

static bool floating(const Type *t) { return t->kind == TY_FLOAT || t->kind == TY_DOUBLE; }
static bool has_tolerance(PassCtx *c) {
  LaunchSpec *s = find_spec(c->p, c->k->name);
  return s && (s->rel_tol > 0 || s->abs_tol > 0);
}

/* the element types the shuffles and atomics take */
static bool reducible(const Type *t, int op) {
  bool i32 = t->kind == TY_INT && t->size == 4;
  if (op == ND_ADD) return i32 || floating(t);
  return i32;
}
static const char *identity(const Type *t, int op) {
  if (op == ND_ADD)
    return floating(t) ? (t->kind == TY_FLOAT ? "0.0f" : "0.0") : t->is_unsigned ? "0u" : "0";
  if (op == BI_MAX) return t->is_unsigned ? "0u" : "(-2147483647 - 1)";
  return t->is_unsigned ? "4294967295u" : "2147483647";
}
/* `acc = acc OP (v)` as text */
static const char *fold(int op, const char *acc, const char *v) {
  if (op == ND_ADD) return fmt("%s += %s;", acc, v);
  return fmt("%s = %s(%s, %s);", acc, op == BI_MAX ? "max" : "min", acc, v);
}

/* the shuffle steps from `from` down to 1 (mutation 2 drops the first) */
static void shuffles(Buf *o, PassCtx *c, const char *in, int op, const char *acc, int from) {
  for (int d = c->mutation == 2 ? from / 2 : from; d > 0; d /= 2)
    buf_printf(o, "%s%s\n", in,
               fold(op, acc, fmt("__shfl_down_sync(0xffffffffu, %s, %d)", acc, d)));
}
static int pow2_at_least(int n) {
  int p = 1;
  while (p < n) p *= 2;
  return p;
}

/* the signature as the kernel has it */
static void signature(Buf *o, PassCtx *c) {
  Node *saved = c->k->body;
  c->k->body = NULL;
  Buf sig = {0};
  print_function(&sig, c->k);
  c->k->body = saved;
  if (sig.len >= 2) sig.s[sig.len - 2] = 0; /* ";\n" */
  buf_printf(o, "%s {\n", sig.s ? sig.s : "");
  buf_free(&sig);
}

static void print_one(Buf *o, Node *s, int level, PrintSubstFn *fn, void *ctx) {
  Node *keep = s->next;
  s->next = NULL;
  print_stmts_with(o, s, level, fn, ctx);
  s->next = keep;
}

/* =================== ATOMIC: one atomic per thread of the grid =================== */
typedef struct {
  Node *pre[MAX_PRE];
  int npre;          /* pure declarations and `if (C) return;` */
  Node *guard;       /* G or NULL */
  Node *stmt, *atom; /* the statement holding the atomic, the call */
  int op;            /* ND_ADD, BI_MAX, BI_MIN */
  Type *ty;          /* the element the atomic updates */
  Obj *out;          /* its pointer parameter */
  Node *index;       /* its uniform index (remat'd), NULL: out itself */
  Node *val;         /* V */
  /* the vector path */
  bool vec_ok;
  char novec[200];
  Node *load; /* P[g] in V */
  Obj *in;
  Node *gload;  /* the load's index, remat'd */
  Node *gguard; /* G, remat'd */
} Atomic;

/* a re-materialized expression is printed away from the declarations whose conversions were
 * implicit there (`int i = <unsigned>`): every conversion in it is printed */
static bool explicit_pre(Node *n, void *ctx) {
  if (n->kind == ND_CAST) {
    n->implicit = false;
    if (!n->cast_ty) n->cast_ty = n->ty;
  }
  return true;
}
static Node *explicit_casts(Node *e) {
  if (e) walk_one(e, explicit_pre, NULL, NULL);
  return e;
}

/* g = blockIdx.x*blockDim.x + threadIdx.x (either order, any casts) */
static bool is_sp(Node *n, SpecialReg r) {
  n = rw_strip(n);
  while (n->kind == ND_CAST) n = rw_strip(n->lhs);
  return n->kind == ND_SPECIAL && n->sreg == r && n->dim == 0;
}
static bool global_index(Node *e) {
  while (e->kind == ND_CAST) e = e->lhs;
  if (e->kind != ND_ADD) return false;
  for (int sw = 0; sw < 2; sw++) {
    Node *m = sw ? e->rhs : e->lhs, *t = sw ? e->lhs : e->rhs;
    while (m->kind == ND_CAST) m = m->lhs;
    if (!is_sp(t, SR_TID) || m->kind != ND_MUL) continue;
    if ((is_sp(m->lhs, SR_CTAID) && is_sp(m->rhs, SR_NTID)) ||
        (is_sp(m->rhs, SR_CTAID) && is_sp(m->lhs, SR_NTID)))
      return true;
  }
  return false;
}

typedef struct {
  Node *load;
  Obj *in;
  int other;
  bool bad;
} LoadScan;
static bool load_scan(Node *n, void *ctx) {
  LoadScan *s = ctx;
  if (s->bad) return false;
  if (n->kind == ND_INDEX) {
    Node *b = rw_strip(n->lhs);
    if (b->kind != ND_VAR || b->var->sc != SC_PARAM || b->var->ty->kind != TY_PTR) {
      s->bad = true;
      return false;
    }
    if (s->load && !rw_same_expr(s->load, n)) {
      s->bad = true;
      return false;
    }
    s->load = n;
    s->in = b->var;
    return false;
  }
  if (n->kind == ND_DEREF || n->kind == ND_MEMBER || n->kind == ND_ADDR) {
    s->bad = true;
    return false;
  }
  if (n->kind == ND_VAR && n->var->sc != SC_PARAM) s->other++;
  if (n->kind == ND_SPECIAL) s->other++;
  return true;
}

/* vec=4 possible: V reads only P[g] (and parameters), G is `g < U` with U uniform */
static bool vector_ok(PassCtx *c, Atomic *a) {
  LoadScan s = {0};
  walk_one(a->val, load_scan, NULL, &s);
  if (s.bad || !s.load || s.other) {
    snprintf(a->novec, sizeof a->novec,
             "the value is not a function of one element P[g] and parameters");
    return false;
  }
  Type *et = unqual(s.in->ty->base);
  if (et->size != 4 || !(et->kind == TY_FLOAT || et->kind == TY_INT)) {
    snprintf(a->novec, sizeof a->novec, "the element read is not a 4-byte float or integer");
    return false;
  }
  char why[256] = "";
  Node *ix = remat(c->k, s.load->rhs, &(Subst){0}, why, sizeof why);
  if (!ix || !global_index(ix)) {
    snprintf(a->novec, sizeof a->novec,
             "the element read is not P[blockIdx.x*blockDim.x + threadIdx.x]");
    return false;
  }
  if (!a->guard) {
    snprintf(a->novec, sizeof a->novec, "no guard `g < n` bounds the reads");
    return false;
  }
  for (int i = 0; i < a->npre; i++)
    if (a->pre[i]->kind != ND_DECL) {
      snprintf(a->novec, sizeof a->novec, "a thread may return before the atomic");
      return false;
    }
  Node *g = remat(c->k, a->guard, &(Subst){0}, why, sizeof why);
  Node *gs = g;
  while (gs && gs->kind == ND_CAST) gs = gs->lhs;
  bool lt =
    gs && (gs->kind == ND_LT || gs->kind == ND_LE) && global_index(gs->lhs) && !varies(gs->rhs);
  bool gt =
    gs && (gs->kind == ND_GT || gs->kind == ND_GE) && global_index(gs->rhs) && !varies(gs->lhs);
  if (!lt && !gt) {
    snprintf(a->novec, sizeof a->novec, "the guard is not `g < n` with n uniform");
    return false;
  }
  a->load = s.load;
  a->in = s.in;
  a->gload = explicit_casts(ix);
  a->gguard = explicit_casts(g);
  return true;
}

static Legality find_atomic(PassCtx *c, Atomic *a) {
  memset(a, 0, sizeof *a);
  Node *body = c->k->body;
  Atoms at = {0};
  walk(body, atoms_pre, NULL, &at);
  if (at.n == 0) {
    snprintf(c->why, sizeof c->why, "no atomic operation");
    return NOT_APPLICABLE;
  }
  if (at.n > 1) {
    snprintf(c->why, sizeof c->why, "more than one atomic operation");
    return NOT_APPLICABLE;
  }
  Node *call = at.found[0];
  int b = call->builtin;
  a->op = b == BI_ATOMIC_ADD   ? ND_ADD
          : b == BI_ATOMIC_MAX ? BI_MAX
          : b == BI_ATOMIC_MIN ? BI_MIN
                               : 0;
  if (!a->op) {
    snprintf(c->why, sizeof c->why,
             "the atomic is not atomicAdd, atomicMax or atomicMin (not a commutative reduction)");
    return NOT_APPLICABLE;
  }
  Node *st = rw_parent(body, call);
  if (!st || st->kind != ND_EXPR_STMT || rw_strip(st->lhs) != call) {
    snprintf(c->why, sizeof c->why, "the value the atomic returns is used (line %d)",
             tok_loc(call->tok).line);
    return ILLEGAL;
  }
  char no[256];
  bool tid_x;
  if (!rw_threads_separable(body, &tid_x, no, sizeof no)) {
    snprintf(c->why, sizeof c->why, "threads cannot be regrouped: %s", no);
    return ILLEGAL;
  }
  /* the body: pure declarations and `if (C) return;`, then the atomic, alone or under one if */
  Node *last = NULL;
  for (Node *s = body->stmts; s; s = s->next) {
    if (!s->next) {
      last = s;
      break;
    }
    bool ret = s->kind == ND_IF && !s->els && only_stmt(s->then) &&
               only_stmt(s->then)->kind == ND_RETURN && !only_stmt(s->then)->lhs &&
               rw_pure(s->cond);
    bool decl = s->kind == ND_DECL && rw_pure(s->decl_init) && s->var->sc == SC_LOCAL;
    if (!ret && !decl && s->kind != ND_NULL_STMT) {
      snprintf(
        c->why, sizeof c->why,
        "a statement before the atomic (line %d) is not a pure declaration or an early return",
        tok_loc(s->tok).line);
      return NOT_APPLICABLE;
    }
    if (a->npre == MAX_PRE) {
      snprintf(c->why, sizeof c->why, "more than %d statements before the atomic", MAX_PRE);
      return NOT_APPLICABLE;
    }
    if (s->kind != ND_NULL_STMT) a->pre[a->npre++] = s;
  }
  if (last && last->kind == ND_IF && !last->els && only_stmt(last->then) == st &&
      rw_pure(last->cond))
    a->guard = last->cond;
  else if (last != st) {
    snprintf(c->why, sizeof c->why,
             "the atomic is not the kernel's last statement, alone or under one if");
    return NOT_APPLICABLE;
  }
  a->stmt = st;
  a->atom = call;
  Node *addr = rw_strip(call->args), *val = call->args->next;
  a->ty = unqual(addr->ty->base);
  a->val = val;
  if (!rw_pure(val)) {
    snprintf(c->why, sizeof c->why, "the value added has side effects");
    return ILLEGAL;
  }
  /* the address: P, &P[E] or P + E with E uniform */
  Node *base = addr, *idx = NULL;
  if (addr->kind == ND_ADDR && rw_strip(addr->lhs)->kind == ND_INDEX) {
    base = rw_strip(rw_strip(addr->lhs)->lhs);
    idx = rw_strip(addr->lhs)->rhs;
  } else if (addr->kind == ND_ADD) {
    base = rw_strip(addr->lhs);
    idx = addr->rhs;
  }
  if (base->kind != ND_VAR || base->var->sc != SC_PARAM || base->var->ty->kind != TY_PTR) {
    snprintf(c->why, sizeof c->why,
             "the atomic's address is not a pointer parameter P, &P[E] or P + E");
    return NOT_APPLICABLE;
  }
  a->out = base->var;
  if (count_refs(body, a->out) != 1) {
    snprintf(c->why, sizeof c->why, "'%s' is also read or written outside the atomic",
             a->out->name);
    return ILLEGAL;
  }
  if (idx) {
    char why[256] = "";
    a->index = explicit_casts(remat(c->k, idx, &(Subst){0}, why, sizeof why));
    if (!a->index || varies(a->index)) {
      snprintf(c->why, sizeof c->why,
               "the atomic's address depends on the thread (%s): not one reduction",
               a->index ? "threadIdx or blockIdx" : why);
      return ILLEGAL;
    }
  }
  if (!reducible(a->ty, a->op)) {
    snprintf(
      c->why, sizeof c->why,
      "the atomic updates %s (the pass takes + on float, double, int, unsigned; max/min on int, unsigned)",
      type_name(a->ty));
    return NOT_APPLICABLE;
  }
  if (floating(a->ty) && !has_tolerance(c)) {
    snprintf(
      c->why, sizeof c->why,
      "a floating-point sum would be reassociated and the launch spec gives no tolerance (#pragma carve tol)");
    return ILLEGAL;
  }
  const Launch *L = c->L;
  if (L->grid[1] != 1 || L->grid[2] != 1 || L->block[1] != 1 || L->block[2] != 1) {
    snprintf(c->why, sizeof c->why, "the launch is not 1-D");
    return NOT_APPLICABLE;
  }
  if (L->block[0] % 32) {
    snprintf(c->why, sizeof c->why, "blockDim.x (%lld) is not a multiple of the warp size",
             (long long)L->block[0]);
    return NOT_APPLICABLE;
  }
  if (L->grid[0] * L->block[0] >= ((int64_t)1 << 31)) {
    snprintf(c->why, sizeof c->why, "the grid has 2^31 threads or more");
    return NOT_APPLICABLE;
  }
  if (c->param[1] == 4) a->vec_ok = vector_ok(c, a);
  else snprintf(a->novec, sizeof a->novec, "vec=1");
  c->site = st;
  return LEGAL;
}

/* printing the original's statements for original block `blk` (blockIdx.x replaced) */
typedef struct {
  const char *blk, *tid;
  Node *load;
  const char *lane;
  Obj *s;
  const char *s0;
} Sub;
static const char *sub_fn(Node *n, void *ctx) {
  Sub *u = ctx;
  if (u->blk && n->kind == ND_SPECIAL && n->sreg == SR_CTAID && n->dim == 0) return u->blk;
  if (u->tid && n->kind == ND_SPECIAL && n->sreg == SR_TID && n->dim == 0) return u->tid;
  if (u->load && n->kind == ND_INDEX && (n == u->load || rw_same_expr(n, u->load))) return u->lane;
  if (u->s && n->kind == ND_INDEX && rw_strip(n->lhs)->kind == ND_VAR &&
      rw_strip(n->lhs)->var == u->s)
    return u->s0;
  return NULL;
}
static char *expr_with(Node *e, Sub *u) {
  Buf b = {0};
  print_expr_with(&b, e, sub_fn, u);
  char *r = arena_strdup(b.s ? b.s : "");
  buf_free(&b);
  return r;
}

typedef struct {
  const char *acc, *r, *b, *b0, *ws, *q, *v, *lane;
} AtomNames;

/* the original grid's blocks along x as the kernel tests them: gridDim.x * M when M divides
 * the recorded grid (the kernel is then right for every grid M divides), else the recorded count */
static const char *grid_text(PassCtx *c, int M) {
  if (c->L->grid[0] % M == 0 && c->mutation == 4) {
    c->grid_generic = true;
    return fmt("%lldu", (long long)c->L->grid[0]);
  } /* broken: baked */
  if (c->L->grid[0] % M == 0) {
    c->grid_generic = true;
    return fmt("gridDim.x * %du", M);
  }
  return fmt("%lldu", (long long)c->L->grid[0]);
}

/* the original threads of original block `blk`, folded into acc (mutation 1: a chunk that
 * reaches past the guard is dropped whole: the tail) */
static void scalar_loop(Buf *o, PassCtx *c, Atomic *a, AtomNames *n, const char *tname, int M,
                        const char *in) {
  Sub u = {.blk = n->b};
  buf_printf(o, "%sfor (int %s = 0; %s < %d; %s++) {\n", in, n->r, n->r, M, n->r);
  buf_printf(o, "%s  const unsigned int %s = blockIdx.x * %du + (unsigned int)%s;\n", in, n->b, M,
             n->r);
  buf_printf(o, "%s  if (%s >= %s) break;\n", in, n->b, grid_text(c, M));
  for (int i = 0; i < a->npre; i++) {
    Node *s = a->pre[i];
    if (s->kind == ND_IF) buf_printf(o, "%s  if (%s) continue;\n", in, expr_with(s->cond, &u));
    else print_one(o, s, (int)strlen(in) / 2 + 1, sub_fn, &u);
  }
  const char *v = fmt("(%s)(%s)", tname, expr_with(a->val, &u));
  const char *g = a->guard ? expr_with(a->guard, &u) : NULL;
  if (c->mutation == 1 && a->guard) {
    Sub last = {.blk = fmt("(blockIdx.x * %du + %du)", M, M - 1),
                .tid = fmt("%lldu", (long long)c->L->block[0] - 1)};
    char why[128] = "";
    Node *gl = explicit_casts(remat(c->k, a->guard, &(Subst){0}, why, sizeof why));
    if (gl) g = fmt("(%s) && (%s)", g, expr_with(gl, &last));
  }
  if (g) buf_printf(o, "%s  if (%s) %s\n", in, g, fold(a->op, n->acc, v));
  else buf_printf(o, "%s  %s\n", in, fold(a->op, n->acc, v));
  buf_printf(o, "%s}\n", in);
}

static const char *vec_type(const Type *t) {
  return t->kind == TY_FLOAT ? "float4" : t->is_unsigned ? "uint4" : "int4";
}

static bool apply_atomic(PassCtx *c, Atomic *a) {
  int M = c->param[0], level = c->param[2];
  int64_t B = c->L->block[0];
  RwNames nm = {.c = c};
  AtomNames n = {rw_fresh(&nm, "carve_acc"), rw_fresh(&nm, "carve_r"),    rw_fresh(&nm, "carve_b"),
                 rw_fresh(&nm, "carve_b0"),  rw_fresh(&nm, "carve_warp"), rw_fresh(&nm, "carve_q"),
                 rw_fresh(&nm, "carve_v"),   rw_fresh(&nm, "carve_lane")};
  const char *tname = type_name(a->ty);
  if (floating(a->ty)) c->spec |= OPT_SPEC_REASSOC;
  /* signed integer sums wrap on the GPU; the register sum is kept unsigned for C's sake */
  bool wrap = a->op == ND_ADD && a->ty->kind == TY_INT && !a->ty->is_unsigned;
  const char *accty = wrap ? "unsigned int" : tname;
  Buf o = {0};
  signature(&o, c);
  if (level == LEVEL_BLOCK)
    buf_printf(&o, "  __shared__ %s %s[%lld];\n", accty, n.ws, (long long)(B / 32));
  buf_printf(&o, "  %s %s = %s;\n", accty, n.acc, wrap ? "0u" : identity(a->ty, a->op));
  const char *addr =
    a->index ? fmt("&%s[%s]", a->out->name, expr_with(a->index, &(Sub){0})) : a->out->name;
  if (a->vec_ok) {
    /* the whole chunk in the grid and under the guard, its first element 16-byte aligned */
    Sub first = {.blk = n.b0, .tid = "0u"};
    Sub last = {.blk = fmt("(%s + %du)", n.b0, M - 1), .tid = fmt("%lldu", (long long)B - 1)};
    const char *et = type_name(unqual(a->in->ty->base));
    buf_printf(&o, "  const unsigned int %s = blockIdx.x * %du;\n", n.b0, M);
    buf_printf(&o, "  const %s *%s = %s + (%s);\n", et, n.q, a->in->name,
               expr_with(a->gload, &first));
    buf_printf(&o, "  if (%s + %du <= %s && (%s) && ((unsigned long long)%s & 15ull) == 0ull) {\n",
               n.b0, M, grid_text(c, M), expr_with(a->gguard, &last), n.q);
    buf_printf(&o, "    #pragma unroll\n    for (int %s = 0; %s < %d; %s++) {\n", n.r, n.r, M / 4,
               n.r);
    buf_printf(&o, "      const %s %s = ((const %s *)%s)[%s * %lld + (int)threadIdx.x];\n",
               vec_type(unqual(a->in->ty->base)), n.v, vec_type(unqual(a->in->ty->base)), n.q, n.r,
               (long long)B);
    static const char *comp[4] = {"x", "y", "z", "w"};
    for (int i = 0; i < 4; i++) {
      Sub lane = {.load = a->load, .lane = fmt("%s.%s", n.v, comp[i])};
      buf_printf(&o, "      %s\n",
                 fold(a->op, n.acc, fmt("(%s)(%s)", accty, expr_with(a->val, &lane))));
    }
    buf_printf(&o, "    }\n  } else {\n");
    if (c->mutation != 1)
      scalar_loop(&o, c, a, &n, accty, M, "    "); /* broken: the tail dropped */
    buf_printf(&o, "  }\n");
  } else {
    scalar_loop(&o, c, a, &n, accty, M, "  ");
  }
  const char *atomic = a->op == ND_ADD ? "atomicAdd" : a->op == BI_MAX ? "atomicMax" : "atomicMin";
  const char *value = wrap ? fmt("(int)%s", n.acc) : n.acc;
  shuffles(&o, c, "  ", a->op, n.acc, 16);
  const char *lane0 =
    c->mutation == 3 ? "true" : "(threadIdx.x & 31u) == 0u"; /* broken: every lane's atomic */
  if (level == LEVEL_WARP) {
    buf_printf(&o, "  if (%s) %s(%s, %s);\n}\n", lane0, atomic, addr, value);
  } else {
    int nw = (int)(B / 32);
    buf_printf(&o,
               "  if ((threadIdx.x & 31u) == 0u) %s[threadIdx.x / 32u] = %s;\n  __syncthreads();\n",
               n.ws, n.acc);
    buf_printf(&o,
               "  if (threadIdx.x < 32u) {\n    %s = threadIdx.x < %du ? %s[threadIdx.x] : %s;\n",
               n.acc, nw, n.ws, wrap ? "0u" : identity(a->ty, a->op));
    shuffles(&o, c, "    ", a->op, n.acc, pow2_at_least(nw) / 2);
    const char *first = c->mutation == 3 ? "true" : "threadIdx.x == 0u";
    buf_printf(&o, "    if (%s) %s(%s, %s);\n  }\n}\n", first, atomic, addr, value);
  }
  bool ok = rw_replace_kernel(c, o.s, c->why, sizeof c->why);
  buf_free(&o);
  if (!ok) return false;
  c->changes_launch = true;
  for (int i = 0; i < 3; i++) {
    c->new_grid[i] = c->L->grid[i];
    c->new_block[i] = c->L->block[i];
    c->cover[i] = c->L->block[i];
  }
  c->new_grid[0] = (c->L->grid[0] + M - 1) / M;
  c->cover[0] = B * M;
  snprintf(
    c->did, sizeof c->did,
    "%s into %s: each thread folds %d threads' values (%s), __shfl_down_sync in the warp, one %s per %s; grid.x %lld -> %lld",
    atomic, a->out->name, M,
    a->vec_ok ? fmt("%s loads where a block's chunk is whole and aligned, scalar at the tail",
                    vec_type(unqual(a->in->ty->base)))
              : fmt("scalar loads: %s", a->novec),
    atomic, level == LEVEL_WARP ? "warp" : "block", (long long)c->L->grid[0],
    (long long)c->new_grid[0]);
  return true;
}

/* =================== TREE: a reduction tree in shared memory =================== */
typedef struct {
  Node *pre[MAX_PRE];
  int npre;    /* pure declarations (the shared array's left out) */
  Obj *s;      /* the shared array */
  Node *store; /* s[I] = X; */
  Node *loop, *post;
  Obj *iv;
  int op;
  int64_t vals[MAX_LEVELS];
  int nlevels;
} Tree;

static Node *num_of(Token *at, Type *t, int64_t v) {
  return t->is_unsigned ? rw_unum(at, v) : rw_num(at, v);
}

/* an integer expression of the thread (iv = val) evaluated for thread tid of block 0 */
static bool eval_at(PassCtx *c, Node *e, Obj *iv, int64_t val, int64_t tid, int64_t *out) {
  Subst s = {0};
  if (iv) {
    s.nv = 1;
    s.vfrom[0] = iv;
    s.vto[0] = num_of(e->tok, iv->ty, val);
  }
  char why[128] = "";
  Node *r = remat(c->k, e, &s, why, sizeof why);
  if (!r || (specials(r) & (SP(SR_CTAID, 0) | SP(SR_CTAID, 1) | SP(SR_CTAID, 2) | SP(SR_NCTAID, 0) |
                            SP(SR_NCTAID, 1) | SP(SR_NCTAID, 2))))
    return false;
  int64_t t[3] = {tid, 0, 0}, b[3] = {0, 0, 0};
  return remat_eval(r, c->L, t, b, out);
}

/* the update `s[a] += s[b]`, `s[a] = s[a] + s[b]` (either order), `s[a] = max/min(s[a], s[b])` */
static bool update_of(Node *e, Obj *s, Node **ia, Node **ib, int *op) {
  e = rw_strip(e);
  Node *l = rw_strip(e->lhs);
  if (l->kind != ND_INDEX || rw_strip(l->lhs)->kind != ND_VAR || rw_strip(l->lhs)->var != s)
    return false;
  *ia = l->rhs;
  Node *other = NULL;
  if (e->kind == ND_ASSIGN_OP && e->op == ND_ADD) {
    other = rw_strip(e->rhs);
    *op = ND_ADD;
  } else if (e->kind == ND_ASSIGN) {
    Node *r = rw_strip(e->rhs), *x, *y;
    if (r->kind == ND_ADD) {
      x = rw_strip(r->lhs);
      y = rw_strip(r->rhs);
      *op = ND_ADD;
    } else if (r->kind == ND_CALL && (r->builtin == BI_MAX || r->builtin == BI_MIN) &&
               r->nargs == 2) {
      x = rw_strip(r->args);
      y = rw_strip(r->args->next);
      *op = r->builtin;
    } else return false;
    if (rw_same_expr(x, l)) other = y;
    else if (rw_same_expr(y, l)) other = x;
    else return false;
  } else return false;
  if (!other || other->kind != ND_INDEX || rw_strip(other->lhs)->kind != ND_VAR ||
      rw_strip(other->lhs)->var != s)
    return false;
  *ib = other->rhs;
  return true;
}

static bool is_barrier_stmt(Node *s) {
  return s && s->kind == ND_EXPR_STMT && rw_strip(s->lhs)->kind == ND_CALL &&
         rw_strip(s->lhs)->builtin == BI_SYNCTHREADS;
}

/* the loop's counter values: init, then inc while cond holds */
static bool levels(PassCtx *c, Tree *t, char *why, size_t len) {
  Node *l = t->loop;
  if (!l->init || l->init->kind != ND_DECL || l->init->next || !l->init->decl_init || !l->cond ||
      !l->inc) {
    snprintf(why, len, "the loop is not `for (T s = a; cond; s op= k)`");
    return false;
  }
  Obj *iv = l->init->var;
  if (iv->ty->kind != TY_INT || iv->ty->size != 4) {
    snprintf(why, len, "the loop counter is not a 32-bit integer");
    return false;
  }
  t->iv = iv;
  int64_t v;
  if (!eval_at(c, l->init->decl_init, NULL, 0, 0, &v)) {
    snprintf(why, len, "the loop's first value is not known for the launch");
    return false;
  }
  Node *inc = l->inc;
  int op;
  int64_t k;
  if (inc->kind == ND_ASSIGN_OP && rw_strip(inc->lhs)->kind == ND_VAR &&
      rw_strip(inc->lhs)->var == iv && node_int_constant(inc->rhs, &k))
    op = inc->op;
  else {
    snprintf(why, len, "the loop's step is not `s *= k`, `s /= k`, `s <<= k` or `s >>= k`");
    return false;
  }
  if (!((op == ND_MUL && k >= 2) || (op == ND_DIV && k >= 2) ||
        ((op == ND_SHL || op == ND_SHR) && k >= 1 && k < 31))) {
    snprintf(why, len, "the loop's step does not change the counter");
    return false;
  }
  t->nlevels = 0;
  for (;;) {
    int64_t go;
    if (!eval_at(c, l->cond, iv, v, 0, &go)) {
      snprintf(why, len, "the loop's test is not known for the launch");
      return false;
    }
    if (!go) break;
    if (t->nlevels == MAX_LEVELS) {
      snprintf(why, len, "the loop runs more than %d times", MAX_LEVELS);
      return false;
    }
    t->vals[t->nlevels++] = v;
    v = op == ND_MUL ? v * k : op == ND_DIV ? v / k : op == ND_SHL ? v << k : v >> k;
    v = iv->ty->is_unsigned ? (int64_t)(uint32_t)v : (int64_t)(int32_t)v;
  }
  return true;
}

/* the tree run for the launch's block: each slot's set of the threads' values (bitsets); every
 * level's writes race with no other thread's access; s[0] must end with every value once */
static bool simulate(PassCtx *c, Tree *t, Node *cond, Node *ia, Node *ib, char *why, size_t len) {
  int B = (int)c->L->block[0], W = (B + 63) / 64;
  uint64_t *set = xmalloc(sizeof(uint64_t) * (size_t)B * (size_t)W);
  int *writer = xmalloc(sizeof(int) * (size_t)B), *ra = xmalloc(sizeof(int) * (size_t)B),
      *rb = xmalloc(sizeof(int) * (size_t)B);
  bool ok = false;
  memset(set, 0, sizeof(uint64_t) * (size_t)B * (size_t)W);
  /* s[I(t)] = X(t): a permutation of the slots */
  for (int tid = 0; tid < B; tid++) writer[tid] = -1;
  for (int tid = 0; tid < B; tid++) {
    int64_t slot;
    Node *idx = rw_strip(rw_strip(t->store->lhs)->lhs)->rhs;
    if (!eval_at(c, idx, NULL, 0, tid, &slot) || slot < 0 || slot >= B || writer[slot] >= 0) {
      snprintf(why, len,
               "the store before the loop does not give each thread its own slot of %s[0..%d)",
               t->s->name, B);
      goto out;
    }
    writer[slot] = tid;
    set[(size_t)slot * (size_t)W + (size_t)tid / 64] |= 1ull << (tid % 64);
  }
  for (int lv = 0; lv < t->nlevels; lv++) {
    for (int i = 0; i < B; i++) writer[i] = -1;
    for (int tid = 0; tid < B; tid++) {
      int64_t on, a = -1, b = -1;
      if (!eval_at(c, cond, t->iv, t->vals[lv], tid, &on)) {
        snprintf(why, len, "the tree's condition is not known for thread %d", tid);
        goto out;
      }
      if (on && (!eval_at(c, ia, t->iv, t->vals[lv], tid, &a) ||
                 !eval_at(c, ib, t->iv, t->vals[lv], tid, &b))) {
        snprintf(why, len, "the tree's indices are not known for thread %d", tid);
        goto out;
      }
      if (on && (a < 0 || a >= B || b < 0 || b >= B)) {
        snprintf(why, len, "thread %d reads or writes outside %s[0..%d) at step %lld", tid,
                 t->s->name, B, (long long)t->vals[lv]);
        goto out;
      }
      ra[tid] = on ? (int)a : -1;
      rb[tid] = on ? (int)b : -1;
      if (on && writer[a] >= 0) {
        snprintf(why, len, "two threads write %s[%lld] in one step", t->s->name, (long long)a);
        goto out;
      }
      if (on) writer[a] = tid;
    }
    for (int tid = 0; tid < B; tid++)
      if (rb[tid] >= 0 && writer[rb[tid]] >= 0 && writer[rb[tid]] != tid) {
        snprintf(why, len, "%s[%d] is written and read by different threads in one step (a race)",
                 t->s->name, rb[tid]);
        goto out;
      }
    for (int tid = 0; tid < B; tid++) {
      if (ra[tid] < 0) continue;
      uint64_t *x = set + (size_t)ra[tid] * (size_t)W, *y = set + (size_t)rb[tid] * (size_t)W;
      for (int w = 0; w < W; w++) {
        if (x[w] & y[w]) {
          snprintf(why, len, "a value is counted twice at step %lld", (long long)t->vals[lv]);
          goto out;
        }
        x[w] |= y[w];
      }
    }
    /* the slot read is consumed: later reads of it would count its values again */
    for (int tid = 0; tid < B; tid++)
      if (rb[tid] >= 0 && rb[tid] != ra[tid])
        memset(set + (size_t)rb[tid] * (size_t)W, 0, sizeof(uint64_t) * (size_t)W);
  }
  for (int tid = 0; tid < B; tid++)
    if (!(set[tid / 64] >> (tid % 64) & 1)) {
      snprintf(why, len, "the tree does not cover the block: thread %d's value never reaches %s[0]",
               tid, t->s->name);
      goto out;
    }
  ok = true;
out:
  free(set);
  free(writer);
  free(ra);
  free(rb);
  return ok;
}

/* every read of s in the post is s[0], inside an `if` only thread 0 passes */
typedef struct {
  Obj *s;
  bool bad;
} S0;
static bool s0_pre(Node *n, void *ctx) {
  S0 *z = ctx;
  if (n->kind == ND_INDEX && rw_strip(n->lhs)->kind == ND_VAR && rw_strip(n->lhs)->var == z->s) {
    int64_t i;
    if (!node_int_constant(n->rhs, &i) || i != 0) z->bad = true;
    return false;
  }
  if (n->kind == ND_VAR && n->var == z->s) z->bad = true;
  if (n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP) {
    Node *l = rw_strip(n->lhs);
    if (l->kind == ND_INDEX && rw_strip(l->lhs)->kind == ND_VAR && rw_strip(l->lhs)->var == z->s)
      z->bad = true;
  }
  return true;
}

static Legality find_tree(PassCtx *c, Tree *t) {
  memset(t, 0, sizeof *t);
  Node *st = c->k->body->stmts;
  for (; st && st->kind == ND_DECL; st = st->next) {
    if (st->var->sc == SC_SHARED) {
      if (t->s) {
        snprintf(c->why, sizeof c->why, "more than one shared array");
        return NOT_APPLICABLE;
      }
      t->s = st->var;
      if (st->decl_init) {
        snprintf(c->why, sizeof c->why, "the shared array is initialized");
        return NOT_APPLICABLE;
      }
      continue;
    }
    if (st->var->sc != SC_LOCAL || !rw_pure(st->decl_init) || uses_shared(st->decl_init)) {
      snprintf(c->why, sizeof c->why, "a declaration (line %d) is not pure", tok_loc(st->tok).line);
      return NOT_APPLICABLE;
    }
    if (t->npre == MAX_PRE) {
      snprintf(c->why, sizeof c->why, "more than %d declarations", MAX_PRE);
      return NOT_APPLICABLE;
    }
    t->pre[t->npre++] = st;
  }
  if (!t->s) {
    snprintf(c->why, sizeof c->why, "no shared array declared at the kernel's top");
    return NOT_APPLICABLE;
  }
  Type *ty = t->s->ty;
  if (ty->kind != TY_ARRAY) {
    snprintf(c->why, sizeof c->why, "'%s' is not an array", t->s->name);
    return NOT_APPLICABLE;
  }
  /* s[I] = X; __syncthreads(); for (...) { if (C) UPDATE; __syncthreads(); } POST */
  Node *store = st, *sync = st ? st->next : NULL, *loop = sync ? sync->next : NULL,
       *post = loop ? loop->next : NULL;
  Node *sl = store && store->kind == ND_EXPR_STMT ? rw_strip(store->lhs) : NULL;
  if (!sl || sl->kind != ND_ASSIGN || rw_strip(sl->lhs)->kind != ND_INDEX ||
      rw_strip(rw_strip(sl->lhs)->lhs)->kind != ND_VAR ||
      rw_strip(rw_strip(sl->lhs)->lhs)->var != t->s || !rw_pure(sl->rhs) || uses_shared(sl->rhs)) {
    snprintf(
      c->why, sizeof c->why,
      "the statement after the declarations is not a store `%s[i] = x` of a value free of side effects",
      t->s->name);
    return NOT_APPLICABLE;
  }
  if (!is_barrier_stmt(sync) || !loop || loop->kind != ND_FOR || !post || post->next) {
    snprintf(c->why, sizeof c->why,
             "the kernel is not `store; __syncthreads(); for (...) {...}; one statement`");
    return NOT_APPLICABLE;
  }
  Node *lb = loop->then;
  Node *u = lb && lb->kind == ND_BLOCK ? lb->stmts : NULL;
  /* declarations of the step's indices (`int index = 2*s*tid;`) are re-materialized in place */
  while (u && u->kind == ND_DECL && u->var->sc == SC_LOCAL && rw_pure(u->decl_init) &&
         !uses_shared(u->decl_init))
    u = u->next;
  if (!u || u->kind != ND_IF || u->els || !is_barrier_stmt(u->next) || u->next->next) {
    snprintf(c->why, sizeof c->why,
             "the loop's body is not `if (c) %s[a] += %s[b]; __syncthreads();`", t->s->name,
             t->s->name);
    return NOT_APPLICABLE;
  }
  Node *us = only_stmt(u->then), *ia, *ib;
  int op;
  if (!us || us->kind != ND_EXPR_STMT || !update_of(us->lhs, t->s, &ia, &ib, &op)) {
    snprintf(
      c->why, sizeof c->why,
      "the loop's update is not `%s[a] += %s[b]`, `%s[a] = %s[a] + %s[b]` or max/min (a commutative operation)",
      t->s->name, t->s->name, t->s->name, t->s->name, t->s->name);
    return NOT_APPLICABLE;
  }
  t->op = op;
  Type *et = unqual(ty->base);
  if (!reducible(et, op)) {
    snprintf(c->why, sizeof c->why,
             "the tree reduces %s (+ on float, double, int, unsigned; max/min on int, unsigned)",
             type_name(et));
    return NOT_APPLICABLE;
  }
  if (floating(et) && !has_tolerance(c)) {
    snprintf(
      c->why, sizeof c->why,
      "a floating-point sum would be reassociated and the launch spec gives no tolerance (#pragma carve tol)");
    return ILLEGAL;
  }
  const Launch *L = c->L;
  int64_t B = L->block[0];
  if (L->block[1] != 1 || L->block[2] != 1 || B < 32 || B > 1024 || (B & (B - 1))) {
    snprintf(c->why, sizeof c->why,
             "the block is not 1-D with a power-of-two size of 32 to 1024 threads");
    return NOT_APPLICABLE;
  }
  if (ty->array_len < B) {
    snprintf(c->why, sizeof c->why, "'%s' has fewer than blockDim.x elements", t->s->name);
    return NOT_APPLICABLE;
  }
  S0 z = {t->s, false};
  walk_one(post, s0_pre, NULL, &z);
  if (z.bad) {
    snprintf(c->why, sizeof c->why,
             "after the loop '%s' is read at an element other than %s[0] (or written)", t->s->name,
             t->s->name);
    return ILLEGAL;
  }
  Node *pi = post;
  if (pi->kind != ND_IF || pi->els || uses_shared(pi->cond) || !rw_pure(pi->cond)) {
    snprintf(c->why, sizeof c->why, "the statement after the loop is not `if (tid == 0) ...`");
    return NOT_APPLICABLE;
  }
  for (int tid = 1; tid < B; tid++) {
    int64_t on;
    if (!eval_at(c, pi->cond, NULL, 0, tid, &on) || on) {
      snprintf(c->why, sizeof c->why,
               "a thread other than thread 0 (%d) may read %s[0] after the loop", tid, t->s->name);
      return NOT_APPLICABLE;
    }
  }
  if (rw_has_barrier(post) || other_shared(c->k->body, t->s)) {
    snprintf(c->why, sizeof c->why,
             "the statement after the loop synchronizes or uses other shared memory");
    return NOT_APPLICABLE;
  }
  if (count_refs(c->k->body, t->s) !=
      count_refs(store, t->s) + count_refs(loop, t->s) + count_refs(post, t->s)) {
    snprintf(c->why, sizeof c->why, "'%s' is used elsewhere", t->s->name);
    return NOT_APPLICABLE;
  }
  t->store = store;
  t->loop = loop;
  t->post = post;
  if (!levels(c, t, c->why, sizeof c->why)) return NOT_APPLICABLE;
  if (rw_has_call(u->cond) || !rw_pure(u->cond)) {
    snprintf(c->why, sizeof c->why, "the tree's condition has side effects");
    return NOT_APPLICABLE;
  }
  if (!simulate(c, t, u->cond, ia, ib, c->why, sizeof c->why)) return NOT_APPLICABLE;
  c->site = loop;
  return LEGAL;
}

static bool apply_tree(PassCtx *c, Tree *t) {
  c->spec |= OPT_SPEC_ARGS; /* the tree was run symbolically at the recorded arguments */
  int B = (int)c->L->block[0], nw = B / 32;
  RwNames nm = {.c = c};
  const char *acc = rw_fresh(&nm, "carve_acc"), *ws = rw_fresh(&nm, "carve_warp");
  Type *et = unqual(t->s->ty->base);
  const char *tname = type_name(et);
  if (floating(et)) c->spec |= OPT_SPEC_REASSOC;
  Buf o = {0};
  signature(&o, c);
  buf_printf(&o, "  __shared__ %s %s[%d];\n", tname, ws, nw);
  for (int i = 0; i < t->npre; i++) print_one(&o, t->pre[i], 1, NULL, NULL);
  Sub none = {0};
  buf_printf(&o, "  %s %s = (%s)(%s);\n", tname, acc, tname,
             expr_with(rw_strip(t->store->lhs)->rhs, &none));
  shuffles(&o, c, "  ", t->op, acc, 16);
  const char *lane0 =
    c->mutation == 3 ? "true"
                     : "(threadIdx.x & 31u) == 0u"; /* broken: every lane writes the warp's slot */
  buf_printf(&o, "  if (%s) %s[threadIdx.x / 32u] = %s;\n  __syncthreads();\n", lane0, ws, acc);
  int take = c->mutation == 1 && nw > 1 ? nw / 2 : nw; /* broken: the last warps' sums dropped */
  buf_printf(&o, "  if (threadIdx.x < 32u) {\n    %s = threadIdx.x < %du ? %s[threadIdx.x] : %s;\n",
             acc, take, ws, identity(et, t->op));
  shuffles(&o, c, "    ", t->op, acc, pow2_at_least(nw) / 2);
  buf_printf(&o, "  }\n");
  Sub s0 = {.s = t->s, .s0 = acc};
  print_one(&o, t->post, 1, sub_fn, &s0);
  buf_printf(&o, "}\n");
  bool ok = rw_replace_kernel(c, o.s, c->why, sizeof c->why);
  buf_free(&o);
  if (!ok) return false;
  snprintf(
    c->did, sizeof c->did,
    "the tree over %s[0..%d) (line %d, %d steps) as __shfl_down_sync in each warp, one shared slot per warp (%d), the first warp combining",
    t->s->name, B, tok_loc(t->loop->tok).line, t->nlevels, nw);
  return true;
}

/* =================== the pass =================== */
static Legality legal(PassCtx *c) {
  Atomic a;
  Legality la = find_atomic(c, &a);
  if (la != NOT_APPLICABLE) {
    if (la == LEGAL)
      snprintf(
        c->why, sizeof c->why,
        "one %s per thread into %s: %d threads folded per thread, shuffles, one atomic per %s%s",
        type_name(a.ty), a.out->name, c->param[0], c->param[2] == LEVEL_WARP ? "warp" : "block",
        floating(a.ty)
          ? " (a floating-point sum reassociated: verified within the spec's tolerance, and on signed data within 2*n*eps*sum|terms|)"
          : "");
    return la;
  }
  char atomic_why[512];
  snprintf(atomic_why, sizeof atomic_why, "%s", c->why);
  Tree t;
  Legality lt = find_tree(c, &t);
  if (lt == LEGAL) {
    snprintf(c->why, sizeof c->why,
             "a tree over %s[0..%lld) folding every slot once into %s[0] in %d steps", t.s->name,
             (long long)c->L->block[0], t.s->name, t.nlevels);
    return LEGAL;
  }
  if (lt == NOT_APPLICABLE && !t.s)
    snprintf(c->why, sizeof c->why, "%.400s; no shared-memory tree either", atomic_why);
  return lt;
}

static bool apply(PassCtx *c) {
  Atomic a;
  if (find_atomic(c, &a) == LEGAL) return apply_atomic(c, &a);
  Tree t;
  if (find_tree(c, &t) == LEGAL) return apply_tree(c, &t);
  return false;
}

const Pass pass_reduce = {
  .name = "reduce",
  .summary =
    "a reduction by atomics over the grid or by a tree in shared memory becomes warp shuffles, vector loads and one atomic per warp or block",
  .source =
    "Harris, Optimizing Parallel Reduction in CUDA (NVIDIA, 2007); Luitjens, Faster Parallel Reductions on Kepler (NVIDIA, 2014)",
  .params =
    {{"merge",
      "original threads a new thread folds (the grid shrinks by this factor; atomic shape only)",
      {4, 8, 16, 32, 64},
      16},
     {"vec",
      "16-byte vector loads where a block's chunk is whole and aligned (4) or scalar loads (1)",
      {4, 1},
      4},
     {"level",
      "one atomic per warp (0) or per block through shared memory and the first warp (1)",
      {0, 1},
      1}},
  .nparams = 3,
  .model_chooses = true,
  .motivation = "divergence", /* the tree's interleaved branch; no rule names atomic contention */
  .legal = legal,
  .apply = apply,
  .nmutations = 4,
  .mutation_names = {"the tail dropped (a chunk past the guard, or the last warps' partial sums)",
                     "a shuffle step missing",
                     "the atomic (or the warp's shared slot) written by every lane",
                     "the recorded grid written into a kernel called grid-generic"},
};
