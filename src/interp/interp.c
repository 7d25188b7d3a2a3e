/* interp: the SIMT reference interpreter (see interp.h for the model, interp_impl.h for its files):
 * evaluation of expressions and statements for a whole warp, calls, host calls and launches. */
#include "interp_impl.h"

/* ---------------- conversions ---------------- */

/* float -> integer as the GPU does it (cvt.rzi saturates, NaN gives 0) */
static int64_t f2i(double x, Type *t) {
  if (x != x) return 0;
  if (t->kind == TY_BOOL) return x != 0;
  int bits = t->size * 8;
  if (t->is_unsigned) {
    double max = bits == 64 ? 18446744073709551615.0 : (double)((1ull << bits) - 1);
    if (x <= 0) return 0;
    if (x >= max) return bits == 64 ? (int64_t)UINT64_MAX : (int64_t)((1ull << bits) - 1);
    return (int64_t)(uint64_t)x;
  }
  double max = bits == 64 ? 9223372036854775807.0 : (double)((1ll << (bits - 1)) - 1);
  double min = bits == 64 ? -9223372036854775808.0 : -(double)(1ll << (bits - 1));
  if (x >= max) return bits == 64 ? INT64_MAX : (1ll << (bits - 1)) - 1;
  if (x <= min) return bits == 64 ? INT64_MIN : -(1ll << (bits - 1));
  return (int64_t)x;
}

static Val convert(Val v, Type *from, Type *to) {
  Val r;
  if (to->kind == TY_FLOAT) {
    if (from->kind == TY_FLOAT) return v;
    if (from->kind == TY_DOUBLE) r.f = (float)v.d;
    else if (from->is_unsigned && from->size == 8) r.f = (float)v.u;
    else r.f = (float)v.i;
    return r;
  }
  if (to->kind == TY_DOUBLE) {
    if (from->kind == TY_DOUBLE) return v;
    if (from->kind == TY_FLOAT) r.d = (double)v.f;
    else if (from->is_unsigned && from->size == 8) r.d = (double)v.u;
    else r.d = (double)v.i;
    return r;
  }
  if (to->kind == TY_BOOL) {
    r.i = from->kind == TY_FLOAT ? v.f != 0 : from->kind == TY_DOUBLE ? v.d != 0 : v.i != 0;
    return r;
  }
  if (to->kind == TY_PTR) {
    r.u = v.u;
    return r;
  }
  if (from->kind == TY_FLOAT) {
    r.i = f2i(v.f, to);
    return r;
  }
  if (from->kind == TY_DOUBLE) {
    r.i = f2i(v.d, to);
    return r;
  }
  r.i = norm_int(to, v.i);
  return r;
}

/* ---------------- evaluation ---------------- */
static void eval_launch(Warp *w, Node *n, Mask m);
static void eval_addr(Warp *w, Node *n, Mask m, uint64_t *out);

/* the second line of defence behind the parser's nesting limits (see WARP_STACK) */
static _Noreturn __attribute__((noinline, cold)) void stack_exhausted(Warp *w, Node *n) {
  fault_at(
    w, FAULT_STACK_OVERFLOW, n, -1,
    "code nested too deeply to interpret: the warp's stack (%zu MiB) is used up at call depth %d "
    "(recursion through deeply nested expressions?)",
    STACK_BYTES(w->I) >> 20, w->depth);
}
#define STACK_GUARD(w, n)                                                                  \
  do {                                                                                     \
    char probe_;                                                                           \
    if (__builtin_expect((uintptr_t)&probe_ < (w)->stack_floor, 0)) stack_exhausted(w, n); \
  } while (0)

/* The step limit is not a fault: the code may be correct and only long. The run stops, says
 * where it was and how to go on, and the launch's status is 2. */
static _Noreturn NOINLINE void stop_at(Warp *w, Node *n) {
  Interp *I = w->I;
  I->fault = I->stopped = true;
  I->st->stopped = true;
  if (I->progress_shown) fputs("\r\033[K", stderr);
  I->progress_shown = false;
  const char *who = I->L->host_code ? fmt("the host function '%s'", I->L->kernel->name)
                                    : fmt("kernel '%s'", I->L->kernel->name);
  if (I->time_out)
    fprintf(
      diag_out,
      "carve: stopped: %s ran past its time limit of %g s (raise with --max-seconds, or give --max-steps for an exact step limit)\n",
      who, I->opt->max_seconds);
  else
    fprintf(diag_out, "carve: stopped: step limit %llu reached in %s (raise with --max-steps)\n",
            (unsigned long long)I->max_steps, who);
  if (I->L->host_code) diag_at(DIAG_NOTE, tok_loc(n->tok), "the host program was here");
  else {
    char where[128];
    thread_desc(w, __builtin_ctz(w->valid), where, sizeof where);
    int64_t total = I->L->grid[0] * I->L->grid[1] * I->L->grid[2];
    diag_at(DIAG_NOTE, tok_loc(n->tok), "warp %d of %s was here, after %llu of %lld blocks",
            w->index, where, (unsigned long long)I->st->blocks_run, (long long)total);
  }
  unwind_warp(w);
}

/* the host program's progress line: how long it has run and where it is (its loops can be long:
 * one thread interpreted) */
static NOINLINE void host_progress(Warp *w, Node *n) {
  Interp *I = w->I;
  double t = now_seconds(), el = t - I->t0;
  if (I->opt->max_seconds > 0 && el - I->opt->seconds_excluded > I->opt->max_seconds) {
    I->time_out = true;
    stop_at(w, n);
  }
  if (!I->opt->progress) return;
  if (el < 1.0 || t - I->last_progress < 0.5) return;
  I->last_progress = t;
  I->progress_shown = true;
  SrcLoc at = tok_loc(n->tok);
  fprintf(stderr, "\r\033[K%s: host code running for %.0f s (%.0f M steps/s), at %s:%d",
          I->L->kernel->name, el, (double)I->st->warp_steps / el / 1e6,
          at.file ? at.file->name : "?", at.line);
  fflush(stderr);
}

static inline void step(Warp *w, Node *n, Mask m) {
  RunStats *st = w->I->st;
  st->warp_steps++;
  if (__builtin_expect(w->I->opt->warp_step_cap && ++w->steps > w->I->opt->warp_step_cap, 0)) {
    /* sampling: this warp has shown enough; it stops as if it had exited */
    st->warps_truncated++;
    unwind_warp(w);
  }
  st->lane_ops += (uint64_t)__builtin_popcount(m);
  if (__builtin_expect(st->warp_steps > w->I->max_steps, 0)) stop_at(w, n);
}

static Mask truth(Type *t, const Val *v, Mask m) {
  Mask r = 0;
  if (t->kind == TY_FLOAT) {
    for (int l = 0; l < W; l++) r |= (Mask)(v[l].f != 0) << l;
  } else if (t->kind == TY_DOUBLE) {
    for (int l = 0; l < W; l++) r |= (Mask)(v[l].d != 0) << l;
  } else {
    for (int l = 0; l < W; l++) r |= (Mask)(v[l].i != 0) << l;
  }
  return r & m;
}

static Mask eval_cond(Warp *w, Node *n, Mask m) {
  Val v[W];
  eval(w, n, m, v);
  return truth(n->ty, v, m);
}

/* the value of an lvalue that names memory or a register */
static bool is_reg_var(Node *n) {
  return n->kind == ND_VAR && (n->var->sc == SC_LOCAL || n->var->sc == SC_PARAM) &&
         !n->var->in_memory;
}

static int elem_size(Type *t) { return t->base->size > 0 ? t->base->size : 1; }

/* integer binary operation on 64-bit canonical values, wrapped to t */
static void int_binop(Warp *w, Node *n, Mask m, const Val *a, const Val *b, Val *out, NodeKind k,
                      Type *t) {
  bool u = t->is_unsigned;
  int bits = t->size * 8;
  switch (k) {
  case ND_ADD:
    for (int l = 0; l < W; l++) out[l].i = norm_int(t, (int64_t)(a[l].u + b[l].u));
    return;
  case ND_SUB:
    for (int l = 0; l < W; l++) out[l].i = norm_int(t, (int64_t)(a[l].u - b[l].u));
    return;
  case ND_MUL:
    for (int l = 0; l < W; l++) out[l].i = norm_int(t, (int64_t)(a[l].u * b[l].u));
    return;
  case ND_DIV:
  case ND_MOD:
    for (int l = 0; l < W; l++) {
      if (!(m >> l & 1)) {
        out[l].i = 0;
        continue;
      }
      if (b[l].i == 0)
        fault_at(w, FAULT_DIVISION_BY_ZERO, n, l, "integer %s by zero",
                 k == ND_DIV ? "division" : "remainder");
      if (u) {
        uint64_t x = bits == 64 ? a[l].u : a[l].u & ((1ull << bits) - 1),
                 y = bits == 64 ? b[l].u : b[l].u & ((1ull << bits) - 1);
        out[l].i = norm_int(t, (int64_t)(k == ND_DIV ? x / y : x % y));
      } else if (b[l].i == -1) {
        out[l].i = norm_int(t, k == ND_DIV ? (int64_t)(0 - a[l].u)
                                           : 0); /* INT_MIN / -1 wraps, as on the GPU */
      } else {
        out[l].i = norm_int(t, k == ND_DIV ? a[l].i / b[l].i : a[l].i % b[l].i);
      }
    }
    return;
  case ND_BITAND:
    for (int l = 0; l < W; l++) out[l].i = a[l].i & b[l].i;
    return;
  case ND_BITOR:
    for (int l = 0; l < W; l++) out[l].i = a[l].i | b[l].i;
    return;
  case ND_BITXOR:
    for (int l = 0; l < W; l++) out[l].i = a[l].i ^ b[l].i;
    return;
  case ND_SHL:
    /* PTX shl clamps the shift amount: shifting by the width or more gives 0 */
    for (int l = 0; l < W; l++) {
      uint64_t s = b[l].u;
      out[l].i = (s >= (uint64_t)bits) ? 0 : norm_int(t, (int64_t)(a[l].u << s));
    }
    return;
  case ND_SHR:
    for (int l = 0; l < W; l++) {
      uint64_t s = b[l].u;
      if (u) {
        uint64_t x = bits == 64 ? a[l].u : a[l].u & ((1ull << bits) - 1);
        out[l].i = s >= (uint64_t)bits ? 0 : (int64_t)(x >> s);
      } else {
        out[l].i = s >= (uint64_t)bits ? (a[l].i < 0 ? -1 : 0) : a[l].i >> s;
      }
    }
    return;
  default: break;
  }
#define CMP(op)                                              \
  if (u)                                                     \
    for (int l = 0; l < W; l++) out[l].i = a[l].u op b[l].u; \
  else                                                       \
    for (int l = 0; l < W; l++) out[l].i = a[l].i op b[l].i; \
  return;
  switch (k) {
  case ND_EQ: CMP(==)
  case ND_NE: CMP(!=)
  case ND_LT: CMP(<)
  case ND_LE: CMP(<=)
  case ND_GT: CMP(>)
  case ND_GE: CMP(>=)
  default: break;
  }
#undef CMP
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: integer operator %d", k);
}

#define FLOAT_OPS(T, F)                                      \
  switch (k) {                                               \
  case ND_ADD:                                               \
    for (int l = 0; l < W; l++) out[l].F = a[l].F + b[l].F;  \
    return;                                                  \
  case ND_SUB:                                               \
    for (int l = 0; l < W; l++) out[l].F = a[l].F - b[l].F;  \
    return;                                                  \
  case ND_MUL:                                               \
    for (int l = 0; l < W; l++) out[l].F = a[l].F * b[l].F;  \
    return;                                                  \
  case ND_DIV:                                               \
    for (int l = 0; l < W; l++) out[l].F = a[l].F / b[l].F;  \
    return;                                                  \
  case ND_EQ:                                                \
    for (int l = 0; l < W; l++) out[l].i = a[l].F == b[l].F; \
    return;                                                  \
  case ND_NE:                                                \
    for (int l = 0; l < W; l++) out[l].i = a[l].F != b[l].F; \
    return;                                                  \
  case ND_LT:                                                \
    for (int l = 0; l < W; l++) out[l].i = a[l].F < b[l].F;  \
    return;                                                  \
  case ND_LE:                                                \
    for (int l = 0; l < W; l++) out[l].i = a[l].F <= b[l].F; \
    return;                                                  \
  case ND_GT:                                                \
    for (int l = 0; l < W; l++) out[l].i = a[l].F > b[l].F;  \
    return;                                                  \
  case ND_GE:                                                \
    for (int l = 0; l < W; l++) out[l].i = a[l].F >= b[l].F; \
    return;                                                  \
  default: break;                                            \
  }

static void float_binop(Warp *w, Node *n, const Val *a, const Val *b, Val *out, NodeKind k,
                        Type *t) {
  if (t->kind == TY_FLOAT) {
    FLOAT_OPS(float, f)
  } else {
    FLOAT_OPS(double, d)
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: float operator %d", k);
}

/* a op b where both have the operation type t (after the usual conversions) */
static void binop(Warp *w, Node *n, Mask m, const Val *a, const Val *b, Val *out, NodeKind k,
                  Type *t) {
  if (is_flonum(t)) float_binop(w, n, a, b, out, k, t);
  else int_binop(w, n, m, a, b, out, k, t);
}

/* x*y + z fused as nvcc does by default (-fmad=true); sub: x*y - z or z - x*y */
static NOINLINE void fused(Warp *w, Node *mul, Node *other, bool mul_is_lhs, bool sub, Mask m,
                           Val *out, Type *t) {
  Val x[W], y[W], *z = out; /* the addend goes straight into out: a smaller frame per level */
  step(w, mul, m);
  eval(w, mul->lhs, m, x);
  eval(w, mul->rhs, m, y);
  eval(w, other, m, z);
  if (t->kind == TY_FLOAT) {
    for (int l = 0; l < W; l++) {
      float p = x[l].f, q = y[l].f, c = z[l].f;
      out[l].f = !sub ? fmaf(p, q, c) : mul_is_lhs ? fmaf(p, q, -c) : fmaf(-p, q, c);
    }
  } else {
    for (int l = 0; l < W; l++) {
      double p = x[l].d, q = y[l].d, c = z[l].d;
      out[l].d = !sub ? fma(p, q, c) : mul_is_lhs ? fma(p, q, -c) : fma(-p, q, c);
    }
  }
}

static void eval_add_sub(Warp *w, Node *n, Mask m, Val *out) {
  Type *lt = n->lhs->ty, *rt = n->rhs->ty;
  bool sub = n->kind == ND_SUB;
  /* nvcc contracts a*b + c on the device; the host compiler for x86-64 has no FMA by default */
  if (n->contract && !w->I->host) {
    bool lhs_mul = n->lhs->kind == ND_MUL && n->lhs->ty->kind == n->ty->kind;
    if (lhs_mul) fused(w, n->lhs, n->rhs, true, sub, m, out, n->ty);
    else fused(w, n->rhs, n->lhs, false, sub, m, out, n->ty);
    return;
  }
  Val a[W], b[W];
  eval(w, n->lhs, m, a);
  eval(w, n->rhs, m, b);
  if (is_pointer_like(lt) && is_pointer_like(rt)) {
    int sz = elem_size(lt);
    for (int l = 0; l < W; l++) out[l].i = (int64_t)(a[l].u - b[l].u) / sz;
    return;
  }
  if (is_pointer_like(lt)) {
    int sz = elem_size(lt);
    for (int l = 0; l < W; l++)
      out[l].u =
        sub ? a[l].u - (uint64_t)b[l].i * (uint64_t)sz : a[l].u + (uint64_t)b[l].i * (uint64_t)sz;
    return;
  }
  if (is_pointer_like(rt)) {
    int sz = elem_size(rt);
    for (int l = 0; l < W; l++) out[l].u = b[l].u + (uint64_t)a[l].i * (uint64_t)sz;
    return;
  }
  binop(w, n, m, a, b, out, n->kind, n->ty);
}

/* the address of a variable (memory-resident locals, shared, constant, device globals) */
static uint64_t var_base(Warp *w, Obj *v) {
  Interp *I = w->I;
  switch (v->sc) {
  case SC_SHARED: return ((uint64_t)SPACE_SHARED << 60) | (uint64_t)v->offset;
  case SC_EXTERN_SHARED: return ((uint64_t)SPACE_SHARED << 60) | (uint64_t)I->dyn_base;
  case SC_CONSTANT: return ((uint64_t)SPACE_CONST << 60) | (uint64_t)v->offset;
  case SC_DEVICE_GLOBAL: return GLOBAL_ADDR(0, v->offset);
  case SC_HOST_GLOBAL: return I->L->host_vars ? HOST_ADDR(I->L->host_vars, v->offset) : 0;
  default: return 0;
  }
}

static void eval_addr(Warp *w, Node *n, Mask m, uint64_t *out) {
  switch (n->kind) {
  case ND_VAR: {
    Obj *v = n->var;
    if (v->sc == SC_LOCAL || v->sc == SC_PARAM) {
      if (!v->in_memory)
        fault_at(w, FAULT_INTERNAL, n, -1, "internal: address of register variable '%s'", v->name);
      uint64_t off = w->frame->base + (uint64_t)v->offset;
      for (int l = 0; l < W; l++) out[l] = local_addr(w, l, off);
      return;
    }
    uint64_t a = var_base(w, v);
    for (int l = 0; l < W; l++) out[l] = a;
    return;
  }
  case ND_DEREF: {
    Val p[W];
    eval(w, n->lhs, m, p);
    for (int l = 0; l < W; l++) out[l] = p[l].u;
    return;
  }
  case ND_INDEX: {
    Val p[W], i[W];
    int access = w->access;
    eval(w, n->lhs, m, p);
    eval(w, n->rhs, m, i);
    uint64_t sz = (uint64_t)elem_size(n->lhs->ty);
    Type *at = n->lhs->ty;
    if (at->kind == TY_ARRAY && at->array_len > 0) {
      /* a declared array: its own bounds, not just its memory area's (a[32] must not reach b) */
      int64_t hi = at->array_len + (access == 2 ? 1 : 0);
      for (int l = 0; l < W; l++)
        if ((m >> l & 1) && (i[l].i < 0 || i[l].i >= hi)) {
          Buf name = {0};
          print_expr(&name, n->lhs);
          char *nm = arena_strdup(name.s ? name.s : "?");
          buf_free(&name);
          fault_at(w, FAULT_OUT_OF_BOUNDS, n, l,
                   "out-of-bounds %s %s of %d bytes: element %lld of '%s' (%d elements)",
                   space_name(ADDR_SPACE(p[l].u)),
                   access == 1   ? "write"
                   : access == 2 ? "address"
                                 : "read",
                   (int)sz, (long long)i[l].i, nm, at->array_len);
        }
    }
    for (int l = 0; l < W; l++) out[l] = p[l].u + (uint64_t)i[l].i * sz;
    return;
  }
  case ND_MEMBER: {
    if (n->arrow) {
      Val p[W];
      eval(w, n->lhs, m, p);
      for (int l = 0; l < W; l++) out[l] = p[l].u + (uint64_t)n->member->offset;
    } else {
      Val s[W];
      eval(w, n->lhs, m, s); /* a struct value is its address */
      for (int l = 0; l < W; l++) out[l] = s[l].u + (uint64_t)n->member->offset;
    }
    return;
  }
  case ND_CAST:
    if (n->implicit) {
      eval_addr(w, n->lhs, m, out);
      return;
    }
    break;
  default: break;
  }
  if (n->ty->kind == TY_STRUCT) { /* an rvalue struct (call result, make_float4) */
    Val s[W];
    eval(w, n, m, s);
    for (int l = 0; l < W; l++) out[l] = s[l].u;
    return;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: not an lvalue");
}

/* read an lvalue */
static void read_lvalue(Warp *w, Node *n, Mask m, Val *out) {
  if (is_reg_var(n)) {
    memcpy(out, w->frame->regs + (size_t)n->var->slot * W, sizeof(Val) * W);
    return;
  }
  uint64_t a[W];
  w->access = (n->ty->kind == TY_ARRAY || n->ty->kind == TY_STRUCT) ? 2 : 0;
  eval_addr(w, n, m, a);
  if (n->ty->kind == TY_ARRAY || n->ty->kind == TY_STRUCT) {
    for (int l = 0; l < W; l++) out[l].u = a[l];
    return;
  }
  load(w, n, n->ty, a, m, out);
}

static void write_lvalue(Warp *w, Node *n, Mask m, const Val *v, const uint64_t *addr) {
  if (is_reg_var(n)) {
    Val *r = w->frame->regs + (size_t)n->var->slot * W;
    for (int l = 0; l < W; l++)
      if (m >> l & 1) r[l] = v[l];
    return;
  }
  if (n->ty->kind == TY_STRUCT) {
    uint64_t src[W];
    for (int l = 0; l < W; l++) src[l] = v[l].u;
    copy_bytes(w, n, n->ty->size, addr, src, m);
    return;
  }
  store(w, n, n->ty, addr, m, v);
}

static NOINLINE void eval_assign(Warp *w, Node *n, Mask m, Val *out) {
  Val v[W];
  uint64_t a[W];
  eval(w, n->rhs, m, v);
  if (!is_reg_var(n->lhs)) {
    w->access = 1;
    eval_addr(w, n->lhs, m, a);
  }
  write_lvalue(w, n->lhs, m, v, a);
  if (n->ty->kind == TY_STRUCT) {
    for (int l = 0; l < W; l++) out[l].u = a[l];
    return;
  }
  memcpy(out, v, sizeof v);
}

/* lhs op= rhs, ++, --: read, compute in the operation type, convert back, write */
static NOINLINE void eval_rmw(Warp *w, Node *n, Mask m, Val *out) {
  Node *lv = n->lhs;
  Type *lt = lv->ty;
  uint64_t a[W];
  Val old[W], rhs[W], res[W];
  bool reg = is_reg_var(lv);
  if (!reg) {
    w->access = 1;
    eval_addr(w, lv, m, a);
  }
  if (reg) memcpy(old, w->frame->regs + (size_t)lv->var->slot * W, sizeof old);
  else load(w, lv, lt, a, m, old);
  if (n->kind == ND_ASSIGN_OP) {
    Type *ct = n->cast_ty;
    if (lt->kind == TY_PTR) {
      eval(w, n->rhs, m, rhs);
      int sz = elem_size(lt);
      for (int l = 0; l < W; l++)
        res[l].u = n->op == ND_ADD ? old[l].u + (uint64_t)rhs[l].i * (uint64_t)sz
                                   : old[l].u - (uint64_t)rhs[l].i * (uint64_t)sz;
    } else if (n->contract && !w->I->host) {
      /* s += a*b  ->  fma(a, b, s);  s -= a*b  ->  fma(-a, b, s) */
      Val x[W], y[W];
      eval(w, n->rhs->lhs, m, x);
      eval(w, n->rhs->rhs, m, y);
      bool sub = n->op == ND_SUB;
      for (int l = 0; l < W; l++) {
        Val c = convert(old[l], lt, ct);
        if (ct->kind == TY_FLOAT) res[l].f = fmaf(sub ? -x[l].f : x[l].f, y[l].f, c.f);
        else res[l].d = fma(sub ? -x[l].d : x[l].d, y[l].d, c.d);
        res[l] = convert(res[l], ct, lt);
      }
    } else {
      eval(w, n->rhs, m, rhs);
      Val c[W];
      for (int l = 0; l < W; l++) c[l] = convert(old[l], lt, ct);
      binop(w, n, m, c, rhs, res, n->op, ct);
      for (int l = 0; l < W; l++) res[l] = convert(res[l], ct, lt);
    }
    write_lvalue(w, lv, m, res, a);
    memcpy(out, res, sizeof res);
    return;
  }
  int delta = (n->kind == ND_PREINC || n->kind == ND_POSTINC) ? 1 : -1;
  for (int l = 0; l < W; l++) {
    if (lt->kind == TY_PTR) res[l].u = old[l].u + (uint64_t)(int64_t)(delta * elem_size(lt));
    else if (lt->kind == TY_FLOAT) res[l].f = old[l].f + (float)delta;
    else if (lt->kind == TY_DOUBLE) res[l].d = old[l].d + delta;
    else if (lt->kind == TY_BOOL) res[l].i = delta > 0 ? 1 : !old[l].i;
    else res[l].i = norm_int(lt, (int64_t)(old[l].u + (uint64_t)(int64_t)delta));
  }
  write_lvalue(w, lv, m, res, a);
  memcpy(out, (n->kind == ND_PREINC || n->kind == ND_PREDEC) ? res : old, sizeof res);
}

/* ---- builtins ---- */
/* ---- calls ---- */
void bind_param(Warp *w, Frame *f, Obj *p, Mask m, const Val *v, Node *at) {
  if (!p->in_memory) {
    Val *r = f->regs + (size_t)p->slot * W;
    memcpy(r, v, sizeof(Val) * W);
    return;
  }
  uint64_t dst[W];
  for (int l = 0; l < W; l++) dst[l] = local_addr(w, l, f->base + (uint64_t)p->offset);
  if (p->ty->kind == TY_STRUCT) {
    uint64_t src[W];
    for (int l = 0; l < W; l++) src[l] = v[l].u;
    copy_bytes(w, at, p->ty->size, dst, src, m);
  } else {
    for (int l = 0; l < W; l++)
      if (m >> l & 1) write_scalar(resolve(w, at, l, dst[l], p->ty->size, true), p->ty, v[l]);
  }
}

Frame *push_frame(Warp *w, Obj *fn, Node *at) {
  int limit = w->I->host ? MAX_HOST_CALL_DEPTH : MAX_CALL_DEPTH;
  if (w->depth > limit) /* the entry frame (the kernel, main) and `limit` calls inside it */
    fault_at(w, FAULT_STACK_OVERFLOW, at, -1,
             "call depth exceeds %d (runaway recursion? docs/limits.md)", limit);
  int d = w->depth;
  if (d == w->nframes) {
    int cap = w->nframes ? w->nframes * 2 : 4;
    if (cap > limit + 1) cap = limit + 1;
    w->frames = xrealloc(w->frames, sizeof(Frame *) * (size_t)cap);
    w->reg_cap = xrealloc(w->reg_cap, sizeof(int) * (size_t)cap);
    for (int i = w->nframes; i < cap; i++) {
      w->frames[i] = NULL;
      w->reg_cap[i] = 0;
    }
    w->nframes = cap;
  }
  if (!w->frames[d]) w->frames[d] = xmalloc(sizeof(Frame));
  Frame *f = w->frames[d];
  int need = fn->nslots ? fn->nslots : 1;
  if (w->reg_cap[d] < need) {
    free(f->regs);
    f->regs = xmalloc(sizeof(Val) * W * (size_t)need);
    w->reg_cap[d] = need;
  } else {
    memset(f->regs, 0, sizeof(Val) * W * (size_t)need);
  }
  f->fn = fn;
  f->ret_mask = 0;
  f->ret_addr = 0;
  f->base = alloc_local(w, at, fn->frame_size ? fn->frame_size : 16);
  w->depth++;
  return f;
}

void pop_frame(Warp *w, Frame *f) {
  (void)f;
  w->depth--;
}

static NOINLINE void eval_call(Warp *w, Node *n, Mask m, Val *out) {
  Obj *fn = n->fn;
  if (!fn->body &&
      fn->unread) /* defined, but its definition did not parse: the cause (front end) */
    fault_at(w, FAULT_UNDEFINED_FUNCTION, n, -1,
             "call to '%s', whose definition carve could not read: %s", fn->name, fn->unread);
  if (!fn->body)
    fault_at(w, FAULT_UNDEFINED_FUNCTION, n, -1,
             "call to '%s', which is declared but never defined", fn->name);
  uint64_t saved_sp = w->sp;
  uint64_t ret_tmp = 0;
  if (n->ty->kind == TY_STRUCT) ret_tmp = alloc_local(w, n, n->ty->size);
  Frame *caller = w->frame;
  Frame *f = push_frame(w, fn, n);
  /* arguments are evaluated in the caller's frame and bound one by one into the callee's */
  Node *a = n->args;
  for (Obj *p = fn->params; p && a; p = p->next, a = a->next) {
    Val v[W];
    eval(w, a, m, v);
    bind_param(w, f, p, m, v, n);
  }
  f->ret_addr = ret_tmp;
  Mask *brk = w->brk, *cont = w->cont;
  w->brk = w->cont = NULL;
  w->frame = f;
  /* a fault inside unwinds through longjmp; the frame leaks only then (the launch stops) */
  exec(w, fn->body, m);
  w->frame = caller;
  w->brk = brk;
  w->cont = cont;
  if (n->ty->kind == TY_STRUCT) {
    for (int l = 0; l < W; l++) out[l].u = local_addr(w, l, ret_tmp);
    uint64_t src[W], dst[W];
    for (int l = 0; l < W; l++) {
      src[l] = f->ret[l].u;
      dst[l] = out[l].u;
    }
    copy_bytes(w, n, n->ty->size, dst, src, m & f->ret_mask);
    w->sp = ret_tmp + (uint64_t)n->ty->size;
  } else {
    memcpy(out, f->ret, sizeof f->ret);
    w->sp = saved_sp;
  }
  pop_frame(w, f);
}

/* ---- host programs: runtime calls and launches (host.c) ---- */
static unsigned char *host_mem(HostCtx *c, uint64_t a, size_t n, bool write, bool device) {
  Warp *w = c->warp;
  Interp *I = w->I;
  bool saved = I->dev_ok;
  I->dev_ok = device;
  uint64_t one[W] = {a};
  host_device_check(w, c->at, one, 1, write);
  unsigned char *p = resolve(w, c->at, 0, a, 1, write);
  if (n > 1) {
    unsigned char *q = resolve(w, c->at, 0, a + n - 1, 1, write);
    if (q != p + n - 1)
      fault_at(w, FAULT_OUT_OF_BOUNDS, c->at, -1,
               "the %zu bytes from address 0x%llx run past the end of their memory", n,
               (unsigned long long)a);
  }
  I->dev_ok = saved;
  return p;
}

HostCtx host_ctx(Warp *w, Node *at) {
  HostCtx c = {w->I->L->world, w, at, host_mem, w->I->st->warp_steps};
  return c;
}

/* a call of the host runtime (or printf in host code): arguments for lane 0 */
NOINLINE void eval_host_call(Warp *w, Node *n, Mask m, Val *out) {
  enum { MAXA = 32 };
  Interp *I = w->I;
  if (!I->L->host_code)
    fault_at(w, FAULT_UNSUPPORTED, n, -1, "call of the host function '%s' in device code",
             n->fn->name);
  Val args[MAXA], v[W], ret = {0};
  Type *tys[MAXA];
  int na = 0;
  for (Node *a = n->args; a; a = a->next, na++) {
    if (na == MAXA)
      fault_at(w, FAULT_UNSUPPORTED, n, -1, "more than %d arguments to a host runtime function",
               MAXA);
    eval(w, a, m, v);
    args[na] = v[0];
    tys[na] = a->ty;
  }
  if (I->progress_shown) {
    fputs("\r\033[K", stderr);
    I->progress_shown = false;
  } /* the program's output, not on our line */
  HostCtx c = host_ctx(w, n);
  const char *msg = NULL;
  HostStatus hs = n->fn ? host_call(&c, n->fn, args, tys, na, &ret, &msg)
                        : host_printf(&c, n->args->tok->str, args + 1, tys + 1, na - 1, &msg);
  if (hs == HC_ERROR) fault_at(w, FAULT_RUNTIME_ERROR, n, -1, "%s", msg);
  if (hs == HC_EXIT) unwind_warp(w); /* exit(): the program ends, not a fault */
  for (int l = 0; l < W; l++) out[l] = ret;
}

/* a launch's grid or block: an integer, or a dim3 (a struct: its address) */
static void launch_dims(Warp *w, Node *e, Mask m, int64_t d[3]) {
  Val v[W];
  eval(w, e, m, v);
  if (e->ty->kind != TY_STRUCT) {
    d[0] = e->ty->is_unsigned ? (int64_t)v[0].u : v[0].i;
    d[1] = d[2] = 1;
    return;
  }
  for (int i = 0; i < 3; i++) {
    uint32_t x;
    memcpy(&x, resolve(w, e, 0, v[0].u + 4 * (uint64_t)i, 4, false), 4);
    d[i] = x;
  }
}

static NOINLINE void eval_launch(Warp *w, Node *n, Mask m) {
  Interp *I = w->I;
  if (!I->L->host_code)
    fault_at(w, FAULT_UNSUPPORTED, n, -1, "a kernel launch inside a kernel is not supported");
  int64_t g[3], b[3], sh = 0;
  launch_dims(w, n->cond, m, g);
  launch_dims(w, n->then, m, b);
  Val v[W];
  if (n->els) {
    eval(w, n->els, m, v);
    sh = v[0].i;
  }
  if (n->inc) eval(w, n->inc, m, v); /* the stream: every stream runs in program order */
  /* on this frame, not the heap: evaluating an argument may fault and unwind */
  enum { MAX_LAUNCH_ARGS = 512 }; /* CUDA's 4 KB of parameters holds at most 512 pointers */
  Val args[MAX_LAUNCH_ARGS];
  if (n->nargs > MAX_LAUNCH_ARGS)
    fault_at(w, FAULT_UNSUPPORTED, n, -1, "a launch with more than %d arguments", MAX_LAUNCH_ARGS);
  int i = 0;
  for (Node *a = n->args; a; a = a->next, i++) {
    eval(w, a, m, v);
    args[i] = v[0];
  }
  if (I->progress_shown) {
    fputs("\r\033[K", stderr);
    I->progress_shown = false;
  }
  HostCtx c = host_ctx(w, n);
  int status;
  host_launch(&c, n, g, b, sh, args, &status);
  if (!status) return;
  /* the kernel's fault or stop was reported where it happened; this is where it was launched */
  diag_at(DIAG_NOTE, tok_loc(n->tok),
          "in this launch of '%s' (grid (%lld,%lld,%lld), block (%lld,%lld,%lld))", n->fn->name,
          (long long)g[0], (long long)g[1], (long long)g[2], (long long)b[0], (long long)b[1],
          (long long)b[2]);
  I->fault = true;
  if (status == 1) {
    I->st->faults++;
    record_fault(I, FAULT_KERNEL_LAUNCH, n, NULL, w, -1,
                 fmt("the launch of '%s' faulted", n->fn->name));
  } else I->stopped = I->st->stopped = true;
  unwind_warp(w);
}

/* ---- the expression dispatcher ---- */
void eval(Warp *w, Node *n, Mask m, Val *out) {
  STACK_GUARD(w, n);
  step(w, n, m);
  const Hooks *hk = w->I->opt->hooks;
  if (__builtin_expect(hk && hk->node != NULL, 0)) hk->node(hk->ctx, n, m);
  switch (n->kind) {
  case ND_NUM:
    if (n->ty->kind == TY_FLOAT) {
      float f = (float)n->fval;
      for (int l = 0; l < W; l++) out[l].f = f;
    } else if (n->ty->kind == TY_DOUBLE) {
      for (int l = 0; l < W; l++) out[l].d = n->fval;
    } else {
      int64_t v = norm_int(n->ty, n->ival);
      for (int l = 0; l < W; l++) out[l].i = v;
    }
    return;
  case ND_SIZEOF:
    for (int l = 0; l < W; l++) out[l].i = n->ival;
    return;
  case ND_STR: {
    /* a string literal is never null: in device code an address in the constant space past
     * any __constant__ area (which can hold 64 KiB), one per literal (line, column); conditions
     * (assert(p && "why"), if ("x")) see it true, and a read of its characters is a fault */
    uint64_t a = (uint64_t)SPACE_CONST << 60 | 1ull << 39 | (uint64_t)(uint32_t)n->tok->line << 16 |
                 (uint16_t)n->tok->col;
    if (w->I->L->host_code) {
      HostCtx c = host_ctx(w, n);
      a = host_string(&c, n);
    }
    for (int l = 0; l < W; l++) out[l].u = a;
    return;
  }
  case ND_LAUNCH: eval_launch(w, n, m); return;
  case ND_VAR:
    if (is_reg_var(n)) {
      memcpy(out, w->frame->regs + (size_t)n->var->slot * W, sizeof(Val) * W);
      return;
    }
    read_lvalue(w, n, m, out);
    return;
  case ND_SPECIAL: {
    Interp *I = w->I;
    switch (n->sreg) {
    case SR_TID:
      for (int l = 0; l < W; l++) out[l].i = w->tid[n->dim][l];
      return;
    case SR_CTAID:
      for (int l = 0; l < W; l++) out[l].i = I->block_id[n->dim];
      return;
    case SR_NTID:
      for (int l = 0; l < W; l++) out[l].i = I->L->block[n->dim];
      return;
    case SR_NCTAID:
      for (int l = 0; l < W; l++) out[l].i = I->L->grid[n->dim];
      return;
    default:
      for (int l = 0; l < W; l++) out[l].i = 32;
      return;
    }
  }
  case ND_ADD:
  case ND_SUB: eval_add_sub(w, n, m, out); return;
  case ND_MUL:
  case ND_DIV:
  case ND_MOD:
  case ND_BITAND:
  case ND_BITOR:
  case ND_BITXOR:
  case ND_SHL:
  case ND_SHR: {
    Val a[W], b[W];
    eval(w, n->lhs, m, a);
    eval(w, n->rhs, m, b);
    binop(w, n, m, a, b, out, n->kind, n->ty);
    return;
  }
  case ND_EQ:
  case ND_NE:
  case ND_LT:
  case ND_LE:
  case ND_GT:
  case ND_GE: {
    Val a[W], b[W];
    eval(w, n->lhs, m, a);
    eval(w, n->rhs, m, b);
    Type *t = n->lhs->ty;
    if (is_pointer_like(t) || is_pointer_like(n->rhs->ty)) t = ty_ulong;
    binop(w, n, m, a, b, out, n->kind, t);
    return;
  }
  case ND_LOGAND:
  case ND_LOGOR: {
    Mask l = eval_cond(w, n->lhs, m);
    bool and = n->kind == ND_LOGAND;
    Mask need = and? l : m & ~l;
    hook_branch(w, n, m, need);
    Mask r = need ? eval_cond(w, n->rhs, need) : 0;
    Mask res = and? r : (l | r);
    for (int i = 0; i < W; i++) out[i].i = res >> i & 1;
    return;
  }
  case ND_NOT: {
    Mask t = eval_cond(w, n->lhs, FULL);
    for (int l = 0; l < W; l++) out[l].i = !(t >> l & 1);
    return;
  }
  case ND_NEG: {
    Val a[W];
    eval(w, n->lhs, m, a);
    if (n->ty->kind == TY_FLOAT)
      for (int l = 0; l < W; l++) out[l].f = -a[l].f;
    else if (n->ty->kind == TY_DOUBLE)
      for (int l = 0; l < W; l++) out[l].d = -a[l].d;
    else
      for (int l = 0; l < W; l++) out[l].i = norm_int(n->ty, (int64_t)(0 - a[l].u));
    return;
  }
  case ND_POS: eval(w, n->lhs, m, out); return;
  case ND_BITNOT: {
    Val a[W];
    eval(w, n->lhs, m, a);
    for (int l = 0; l < W; l++) out[l].i = norm_int(n->ty, ~a[l].i);
    return;
  }
  case ND_COND: {
    Mask c = eval_cond(w, n->cond, m);
    hook_branch(w, n, m, c);
    Val a[W], b[W];
    if (c) eval(w, n->then, c, a);
    if (m & ~c) eval(w, n->els, m & ~c, b);
    for (int l = 0; l < W; l++) out[l] = (c >> l & 1) ? a[l] : b[l];
    return;
  }
  case ND_COMMA: {
    Val t[W];
    eval(w, n->lhs, m, t);
    eval(w, n->rhs, m, out);
    return;
  }
  case ND_CAST: {
    Val a[W];
    eval(w, n->lhs, m, a);
    Type *from = n->lhs->ty, *to = n->ty;
    if (to->kind == TY_VOID || to->kind == TY_STRUCT) {
      memcpy(out, a, sizeof a);
      return;
    }
    if (from->kind == TY_ARRAY) from = ty_ulong;
    for (int l = 0; l < W; l++) out[l] = convert(a[l], from, to);
    return;
  }
  case ND_ADDR: {
    uint64_t a[W];
    w->access = 2;
    eval_addr(w, n->lhs, m, a);
    for (int l = 0; l < W; l++) out[l].u = a[l];
    return;
  }
  case ND_DEREF:
  case ND_INDEX:
  case ND_MEMBER: read_lvalue(w, n, m, out); return;
  case ND_ASSIGN: eval_assign(w, n, m, out); return;
  case ND_ASSIGN_OP:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC: eval_rmw(w, n, m, out); return;
  case ND_CALL:
    if (n->fn && !n->fn->body && n->fn->is_host_lib) eval_host_call(w, n, m, out);
    else if (n->fn) eval_call(w, n, m, out);
    else eval_builtin(w, n, m, out);
    return;
  default: break;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: cannot evaluate node kind %d", n->kind);
}

/* ---------------- statements ---------------- */
static void init_memory(Warp *w, Node *at, Type *t, const uint64_t *addr, Node *init, Mask m) {
  if (init->kind == ND_INIT_LIST) {
    Node *e = init->elems;
    if (t->kind == TY_ARRAY) {
      for (int i = 0; i < t->array_len; i++) {
        uint64_t a[W];
        for (int l = 0; l < W; l++) a[l] = addr[l] + (uint64_t)i * (uint64_t)t->base->size;
        if (e) {
          init_memory(w, at, t->base, a, e, m);
          e = e->next;
        } else {
          /* zero the rest */
          for (int l = 0; l < W; l++)
            if (m >> l & 1)
              memset(resolve(w, at, l, a[l], t->base->size, true), 0, (size_t)t->base->size);
        }
      }
      return;
    }
    for (Member *mem = t->members; mem; mem = mem->next) {
      uint64_t a[W];
      for (int l = 0; l < W; l++) a[l] = addr[l] + (uint64_t)mem->offset;
      if (e) {
        init_memory(w, at, mem->ty, a, e, m);
        e = e->next;
      } else
        for (int l = 0; l < W; l++)
          if (m >> l & 1)
            memset(resolve(w, at, l, a[l], mem->ty->size, true), 0, (size_t)mem->ty->size);
    }
    return;
  }
  Val v[W];
  eval(w, init, m, v);
  if (t->kind == TY_STRUCT) {
    uint64_t src[W];
    for (int l = 0; l < W; l++) src[l] = v[l].u;
    copy_bytes(w, at, t->size, addr, src, m);
    return;
  }
  for (int l = 0; l < W; l++)
    if (m >> l & 1) write_scalar(resolve(w, at, l, addr[l], t->size, true), t, v[l]);
}

static void exec_decl(Warp *w, Node *n, Mask m) {
  Obj *v = n->var;
  if (v->sc != SC_LOCAL || !n->decl_init) return;
  if (!v->in_memory) {
    Val val[W];
    eval(w, n->decl_init, m, val);
    Val *r = w->frame->regs + (size_t)v->slot * W;
    for (int l = 0; l < W; l++)
      if (m >> l & 1) r[l] = val[l];
    return;
  }
  uint64_t a[W];
  for (int l = 0; l < W; l++) a[l] = local_addr(w, l, w->frame->base + (uint64_t)v->offset);
  init_memory(w, n, v->ty, a, n->decl_init, m);
}

/* run a loop body with its own break/continue masks */
static Mask loop(Warp *w, Node *n, Mask m) {
  const Hooks *hk = w->I->opt->hooks;
  if (hk && hk->node) hk->node(hk->ctx, n, m); /* the loop is entered (loop nodes are statements) */
  Mask active = m, done = 0;
  Mask *sb = w->brk, *sc = w->cont;
  bool first = true;
  for (;;) {
    if (n->kind != ND_DO || !first) {
      if (n->cond) {
        Mask c = eval_cond(w, n->cond, active);
        hook_branch(w, n, active, c);
        done |= active & ~c;
        active &= c;
      }
    }
    first = false;
    if (!active) break;
    /* host code: now and then, the progress line and the wall-clock limit (per iteration, not
     * per node: the hot path) */
    if (__builtin_expect(w->I->host, 0) && !(++w->I->host_ticks & 0xffff) &&
        (w->I->opt->progress || w->I->opt->max_seconds > 0))
      host_progress(w, n);
    Mask brk = 0, cont = 0;
    w->brk = &brk;
    w->cont = &cont;
    Mask normal = exec(w, n->then, active);
    w->brk = sb;
    w->cont = sc;
    done |= brk;
    active = normal | cont;
    if (n->kind == ND_FOR && n->inc && active) {
      Val t[W];
      uint64_t save = w->sp;
      eval(w, n->inc, active, t);
      w->sp = save;
    }
  }
  return done;
}

static Mask exec_switch(Warp *w, Node *n, Mask m) {
  Val v[W];
  eval(w, n->cond, m, v);
  Mask matched = 0;
  for (Node *c = n->cases; c; c = c->case_next) {
    if (c->is_default) continue;
    for (int l = 0; l < W; l++)
      if ((m >> l & 1) && v[l].i == c->case_val) matched |= 1u << l;
  }
  Mask brk = 0;
  Mask *sb = w->brk;
  w->brk = &brk;
  Mask active = 0, entered = 0;
  Node *body = n->then;
  Node *stmts = body->kind == ND_BLOCK ? body->stmts : body;
  for (Node *s = stmts; s; s = s->next) {
    if (s->kind == ND_CASE) {
      Mask enter = 0;
      if (s->is_default) enter = m & ~matched;
      else
        for (int l = 0; l < W; l++)
          if ((m >> l & 1) && v[l].i == s->case_val) enter |= 1u << l;
      hook_branch(w, s, m, enter);
      active |= enter;
      entered |= enter;
      if (active) active = exec(w, s->lhs, active);
      continue;
    }
    if (active) active = exec(w, s, active);
    if (body->kind != ND_BLOCK) break;
  }
  w->brk = sb;
  return active | brk | (m & ~entered); /* no case matched and no default: past the switch */
}

/* Execute a statement for the lanes in m; returns the lanes that continue normally after it
 * (lanes that break, continue or return leave through the warp's masks). */
Mask exec(Warp *w, Node *n, Mask m) {
  if (!m) return 0;
  STACK_GUARD(w, n);
  switch (n->kind) {
  case ND_BLOCK: {
    uint64_t save = w->sp;
    for (Node *s = n->stmts; s && m; s = s->next) m = exec(w, s, m);
    w->sp = save;
    return m;
  }
  case ND_DECL: {
    uint64_t save = w->sp;
    exec_decl(w, n, m);
    w->sp = save;
    return m;
  }
  case ND_EXPR_STMT: {
    Val t[W];
    uint64_t save = w->sp;
    eval(w, n->lhs, m, t);
    w->sp = save;
    return m;
  }
  case ND_NULL_STMT:
  case ND_PRAGMA: return m;
  case ND_IF: {
    Mask c = eval_cond(w, n->cond, m);
    hook_branch(w, n, m, c);
    Mask out = 0;
    if (c) out |= exec(w, n->then, c);
    if (m & ~c) out |= n->els ? exec(w, n->els, m & ~c) : (m & ~c);
    return out;
  }
  case ND_FOR: {
    uint64_t save = w->sp;
    if (n->init)
      for (Node *d = n->init; d; d = d->next) exec(w, d, m);
    Mask r = loop(w, n, m);
    w->sp = save;
    return r;
  }
  case ND_WHILE:
  case ND_DO: return loop(w, n, m);
  case ND_SWITCH: return exec_switch(w, n, m);
  case ND_CASE: return exec(w, n->lhs, m);
  case ND_BREAK: *w->brk |= m; return 0;
  case ND_CONTINUE: *w->cont |= m; return 0;
  case ND_RETURN: {
    Frame *f = w->frame;
    if (n->lhs) {
      Val v[W];
      eval(w, n->lhs, m, v);
      for (int l = 0; l < W; l++)
        if (m >> l & 1) f->ret[l] = v[l];
    }
    f->ret_mask |= m;
    if (w->depth == 1) w->exited |= m;
    return 0;
  }
  default: {
    Val t[W];
    eval(w, n, m, t);
    return m;
  }
  }
}

/* ---------------- barriers and warps ---------------- */
