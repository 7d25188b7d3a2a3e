/* interp builtins: math functions, atomics, shuffles, printf, __half intrinsics, cooperative
 * groups, and async copies (__pipeline_memcpy_async, performed at the wait that covers them). */
#include "interp_impl.h"

static inline int bits_f2i(float f) {
  int i;
  memcpy(&i, &f, 4);
  return i;
}
static inline float bits_i2f(int i) {
  float f;
  memcpy(&f, &i, 4);
  return f;
}
static inline long long bits_d2l(double d) {
  long long i;
  memcpy(&i, &d, 8);
  return i;
}
static inline double bits_l2d(long long i) {
  double d;
  memcpy(&d, &i, 8);
  return d;
}
static inline int sat_i32(double x) {
  return x != x               ? 0
         : x >= 2147483647.0  ? 2147483647
         : x <= -2147483648.0 ? (-2147483647 - 1)
                              : (int)x;
}
static inline unsigned sat_u32(double x) {
  return x != x ? 0 : x >= 4294967295.0 ? 4294967295u : x <= 0 ? 0 : (unsigned)x;
}
static inline long long sat_i64(double x) {
  return x != x                        ? 0
         : x >= 9.2233720368547758e18  ? INT64_MAX
         : x <= -9.2233720368547758e18 ? INT64_MIN
                                       : (long long)x;
}
static inline int sx24(int x) { return (int)((unsigned)x << 8) >> 8; }

static void eval_math(Warp *w, Node *n, Mask m, Val *out) {
  Val av[3][W];
  memset(av, 0, sizeof av);
  int i = 0;
  for (Node *a = n->args; a && i < 3; a = a->next, i++) eval(w, a, m, av[i]);
  if (n->ival == 1) { /* sincos(x, &s, &c) */
    Val s[W], c[W];
    bool fl = n->args->ty->kind == TY_FLOAT;
    for (int l = 0; l < W; l++) {
      if (fl) {
        s[l].f = sinf(av[0][l].f);
        c[l].f = cosf(av[0][l].f);
      } else {
        s[l].d = sin(av[0][l].d);
        c[l].d = cos(av[0][l].d);
      }
    }
    uint64_t ps[W], pc[W];
    for (int l = 0; l < W; l++) {
      ps[l] = av[1][l].u;
      pc[l] = av[2][l].u;
    }
    Type *t = fl ? ty_float : ty_double;
    store(w, n, t, ps, m, s);
    store(w, n, t, pc, m, c);
    return;
  }
#define ARG_F(k, l) av[k][l].f
#define ARG_D(k, l) av[k][l].d
#define ARG_I(k, l) (int)av[k][l].i
#define ARG_U(k, l) (unsigned)av[k][l].u
#define ARG_L(k, l) (long long)av[k][l].i
#define ARG_Q(k, l) (unsigned long long)av[k][l].u
#define SET_F(l, v) out[l].f = (float)(v)
#define SET_D(l, v) out[l].d = (double)(v)
#define SET_I(l, v) out[l].i = (int)(v)
#define SET_U(l, v) out[l].i = (int64_t)(unsigned)(v)
#define SET_L(l, v) out[l].i = (long long)(v)
#define SET_Q(l, v) out[l].u = (unsigned long long)(v)
#define T_F float
#define T_D double
#define T_I int
#define T_U unsigned
#define T_L long long
#define T_Q unsigned long long
#define T__ int
#define GET_F(v) (v).f
#define GET_D(v) (v).d
#define GET_I(v) (int)(v).i
#define GET_U(v) (unsigned)(v).u
#define GET_L(v) (long long)(v).i
#define GET_Q(v) (unsigned long long)(v).u
#define GET__(v) 0
  switch (n->math->id) {
#define M(name, ret, t1, t2, t3, expr) \
  case MATH_##name:                    \
    for (int l = 0; l < W; l++) {      \
      T_##t1 a = GET_##t1(av[0][l]);   \
      T_##t2 b = GET_##t2(av[1][l]);   \
      T_##t3 c = GET_##t3(av[2][l]);   \
      (void)a;                         \
      (void)b;                         \
      (void)c;                         \
      SET_##ret(l, (expr));            \
    }                                  \
    return;
#include "../front/mathfns.def"
#undef M
  default: break;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: math function");
}

static Val atomic_op(Builtin b, Type *t, Val old, Val v, Val cmp) {
  Val r = old;
  bool fl = t->kind == TY_FLOAT, db = t->kind == TY_DOUBLE, u = t->is_unsigned;
  switch (b) {
  case BI_ATOMIC_ADD:
    if (fl) r.f = old.f + v.f;
    else if (db) r.d = old.d + v.d;
    else r.i = norm_int(t, (int64_t)(old.u + v.u));
    return r;
  case BI_ATOMIC_SUB: r.i = norm_int(t, (int64_t)(old.u - v.u)); return r;
  case BI_ATOMIC_EXCH: return v;
  case BI_ATOMIC_MIN: return (u ? v.u < old.u : v.i < old.i) ? v : old;
  case BI_ATOMIC_MAX: return (u ? v.u > old.u : v.i > old.i) ? v : old;
  case BI_ATOMIC_INC: r.i = (old.u >= v.u) ? 0 : norm_int(t, (int64_t)(old.u + 1)); return r;
  case BI_ATOMIC_DEC:
    r.i = (old.u == 0 || old.u > v.u) ? v.i : norm_int(t, (int64_t)(old.u - 1));
    return r;
  case BI_ATOMIC_CAS: return old.u == cmp.u ? v : old;
  case BI_ATOMIC_AND: r.i = old.i & v.i; return r;
  case BI_ATOMIC_OR: r.i = old.i | v.i; return r;
  case BI_ATOMIC_XOR: r.i = old.i ^ v.i; return r;
  default: return r;
  }
}

static NOINLINE void eval_atomic(Warp *w, Node *n, Mask m, Val *out) {
  Val p[W], a1[W], a2[W];
  eval(w, n->args, m, p);
  eval(w, n->args->next, m, a1);
  if (n->builtin == BI_ATOMIC_CAS) eval(w, n->args->next->next, m, a2);
  Type *t = n->ty;
  uint64_t addr[W];
  for (int l = 0; l < W; l++) addr[l] = p[l].u;
  hook_access(w, n, ACC_ATOMIC, t->size, addr, m);
  host_device_check(w, n, addr, m, true);
  /* lanes in order: a deterministic serialization of the warp's atomics */
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) {
      out[l].u = 0;
      continue;
    }
    unsigned char *q = resolve(w, n, l, addr[l], t->size, true);
    Val old = read_scalar(q, t);
    Val nv = n->builtin == BI_ATOMIC_CAS ? atomic_op(n->builtin, t, old, a2[l], a1[l])
                                         : atomic_op(n->builtin, t, old, a1[l], a1[l]);
    write_scalar(q, t, nv);
    out[l] = old;
  }
}

static NOINLINE void eval_shfl(Warp *w, Node *n, Mask m, Val *out) {
  Val mask[W], v[W], s[W], wd[W];
  eval(w, n->args, m, mask);
  eval(w, n->args->next, m, v);
  eval(w, n->args->next->next, m, s);
  if (n->nargs == 4) eval(w, n->args->next->next->next, m, wd);
  else
    for (int l = 0; l < W; l++) wd[l].i = 32;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) {
      out[l].u = 0;
      continue;
    }
    int width = (int)wd[l].i;
    if (width < 1 || width > 32 || (width & (width - 1)))
      fault_at(w, FAULT_SHUFFLE, n, l, "shuffle width %d is not a power of 2 between 1 and 32",
               width);
    if (!((uint32_t)mask[l].u >> l & 1))
      fault_at(w, FAULT_SHUFFLE, n, l,
               "lane calls a shuffle with a mask (0x%08x) that excludes itself",
               (unsigned)mask[l].u);
    int seg = l & ~(width - 1), src = l;
    switch (n->builtin) {
    case BI_SHFL: src = seg + (int)(s[l].i & (width - 1)); break;
    case BI_SHFL_UP: src = (l - seg) >= (int)s[l].u ? l - (int)s[l].u : l; break;
    case BI_SHFL_DOWN: src = (l - seg) + (int64_t)s[l].u < width ? l + (int)s[l].u : l; break;
    default: {
      int x = l ^ (int)(s[l].i & 31);
      src = (x & ~(width - 1)) == seg ? x : l;
      break;
    }
    }
    /* the value of a lane that is not active or not in the mask is undefined (CUDA C++
     * Programming Guide, Warp Shuffle Functions): the interpreter reports it */
    if (src != l && (!(m >> src & 1) || !((uint32_t)mask[l].u >> src & 1)))
      fault_at(w, FAULT_SHUFFLE, n, l, "shuffle reads lane %d, which is %s: its value is undefined",
               src, !(m >> src & 1) ? "not active" : "not in the mask");
    out[l] = v[src];
  }
}

static int popc64(uint64_t x) { return __builtin_popcountll(x); }

static NOINLINE void eval_printf(Warp *w, Node *n, Mask m) {
  enum { MAXA = 16 };
  Val vals[MAXA][W];
  Type *tys[MAXA];
  int na = 0;
  for (Node *a = n->args->next; a && na < MAXA; a = a->next) na++;
  int i = 0;
  for (Node *a = n->args->next; a && i < MAXA; a = a->next, i++) {
    Node *e = a;
    tys[i] = e->ty;
    eval(w, e, m, vals[i]);
  }
  FILE *o = w->I->opt->printf_out ? w->I->opt->printf_out : stdout;
  const char *f = n->args->tok->str;
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    int k = 0;
    for (const char *p = f; *p; p++) {
      if (*p != '%') {
        fputc(*p, o);
        continue;
      }
      if (p[1] == '%') {
        fputc('%', o);
        p++;
        continue;
      }
      char spec[32];
      int sl = 0;
      spec[sl++] = *p++;
      while (*p && strchr("-+ #0123456789.", *p) && sl < 20) spec[sl++] = *p++;
      while (*p && strchr("hlLzjt", *p)) p++;
      if (!*p) break;
      char conv = *p;
      if (k >= na) {
        fputs("<missing>", o);
        continue;
      }
      Val v = vals[k][l];
      Type *t = tys[k++];
      if (strchr("diouxXc", conv)) {
        spec[sl++] = 'l';
        spec[sl++] = 'l';
        spec[sl++] = conv;
        spec[sl] = 0;
        long long x = is_flonum(t) ? (long long)(t->kind == TY_FLOAT ? v.f : v.d) : v.i;
        if (strchr("ouxX", conv) && t->size == 4) x = (long long)(uint32_t)x;
        fprintf(o, spec, x);
      } else if (strchr("fFeEgGaA", conv)) {
        spec[sl++] = conv;
        spec[sl] = 0;
        fprintf(o, spec,
                t->kind == TY_FLOAT    ? (double)v.f
                : t->kind == TY_DOUBLE ? v.d
                                       : (double)v.i);
      } else if (conv == 'p') {
        fprintf(o, "0x%llx", (unsigned long long)v.u);
      } else if (conv == 's') {
        fputs("(string)", o);
      } else {
        fputc(conv, o);
      }
    }
  }
}

/* C++ (docs/cxx.md): __half and __half2 intrinsics and operators; halves are bits (half.c) */
static NOINLINE void eval_half(Warp *w, Node *n, Mask m, Val *out) {
  Val v[3][W];
  int k = 0;
  for (Node *a = n->args; a && k < 3; a = a->next, k++) eval(w, a, m, v[k]);
  Type *t0 = n->args ? n->args->ty : NULL;
  if (n->ival == HOP_H22F2) {
    uint64_t tmp = alloc_local(w, n, 8);
    for (int l = 0; l < W; l++) {
      out[l].u = local_addr(w, l, tmp);
      if (!(m >> l & 1)) continue;
      for (int h = 0; h < 2; h++) {
        Val f = {0};
        f.f = (float)half_to_double((uint16_t)(v[0][l].u >> (16 * h)));
        write_scalar(resolve(w, n, l, local_addr(w, l, tmp + 4u * (unsigned)h), 4, true), ty_float,
                     f);
      }
    }
    return;
  }
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) {
      out[l].u = 0;
      continue;
    }
    Val a = v[0][l], b = k > 1 ? v[1][l] : a, c = k > 2 ? v[2][l] : a;
    double x = t0 && t0->kind == TY_DOUBLE  ? a.d
               : t0 && t0->kind == TY_FLOAT ? a.f
               : t0 && t0->is_unsigned      ? (double)a.u
                                            : (double)a.i;
    switch (n->ival) {
    case HOP_F2H:
    case HOP_I2H: out[l].u = half_from_double(t0->kind == TY_FLOAT ? (double)a.f : x); break;
    case HOP_F2H2: out[l].u = half_from_double(a.f) * 0x10001u; break;
    case HOP_FLOATS2H2:
      out[l].u = half_from_double(a.f) | (uint64_t)half_from_double(b.f) << 16;
      break;
    case HOP_H2F:
    case HOP_LOWF:
      out[l].u = 0;
      out[l].f = (float)half_to_double((uint16_t)a.u);
      break;
    case HOP_HIGHF:
      out[l].u = 0;
      out[l].f = (float)half_to_double((uint16_t)(a.u >> 16));
      break;
    case HOP_H2I: {
      double d = trunc(half_to_double((uint16_t)a.u));
      out[l].i = isnan(d)             ? 0
                 : d >= 2147483647.0  ? 2147483647
                 : d <= -2147483648.0 ? INT32_MIN
                                      : (int64_t)d;
      break;
    }
    default: out[l].u = half_op((int)n->ival, a.u, b.u, c.u); break;
    }
  }
}

/* C++ (docs/cxx.md): cooperative groups. Methods run what they lowered to (lhs); reduce over
 * a tile is the xor butterfly of shuffles CUDA's implementation does, so every lane of a tile
 * gets the same value, combined in that order */
static Val cg_combine(NodeKind op, Type *t, Val a, Val b) {
  Val r = a;
  bool f = t->kind == TY_FLOAT, d = t->kind == TY_DOUBLE, u = t->is_unsigned;
  switch (op) {
  case ND_ADD:
    if (f) {
      r.u = 0;
      r.f = a.f + b.f;
    } else if (d) r.d = a.d + b.d;
    else r.u = a.u + b.u;
    break;
  case ND_LT:
  case ND_GT: {
    bool lt = f ? a.f < b.f : d ? a.d < b.d : u ? a.u < b.u : a.i < b.i;
    bool gt = f ? a.f > b.f : d ? a.d > b.d : u ? a.u > b.u : a.i > b.i;
    r = (op == ND_LT ? lt : gt) ? a : b;
    break;
  }
  case ND_BITAND: r.u = a.u & b.u; break;
  case ND_BITOR: r.u = a.u | b.u; break;
  default: r.u = a.u ^ b.u; break;
  }
  if (!f && !d) { /* back to the type's width */
    unsigned char buf[8];
    write_scalar(buf, t, r);
    r = read_scalar(buf, t);
  }
  return r;
}

static NOINLINE void eval_cg(Warp *w, Node *n, Mask m, Val *out) {
  switch (n->ival) {
  case CG_THIS_BLOCK:
    for (int l = 0; l < W; l++) out[l].i = 0;
    return;
  case CG_TILED:
    for (int l = 0; l < W; l++) out[l].i = n->ty->cg_group;
    return;
  case CG_METHOD:
  case CG_SYNC:
  case CG_CALL: eval(w, n->lhs, m, out); return;
  case CG_GRID_SYNC: grid_barrier(w, n, m); return;
  default: break;
  }
  Val v[W], nv[W];
  int size = n->args->ty->cg_group;
  if (size == -5) { /* a coalesced_group: each thread combines its group's lanes, in lane order */
    Val g[W];
    eval(w, n->args, m, g);
    eval(w, n->args->next, m, v);
    for (int l = 0; l < W; l++) {
      if (!(m >> l & 1)) continue;
      Mask grp = (Mask)g[l].u;
      if ((m & grp) != grp || !(grp >> l & 1))
        fault_at(w, FAULT_DIVERGENT_COLLECTIVE, n, l,
                 "cooperative_groups::reduce: only some threads of the coalesced group call it");
      bool first = true;
      for (int k = 0; k < W; k++)
        if (grp >> k & 1) {
          nv[l] = first ? v[k] : cg_combine(n->op, n->ty, nv[l], v[k]);
          first = false;
        }
    }
    for (int l = 0; l < W; l++)
      if (m >> l & 1) out[l] = nv[l];
    return;
  }
  eval(w, n->args->next, m, v);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    Mask seg = (size == 32 ? FULL : ((1u << size) - 1) << (l & ~(size - 1)));
    if ((m & seg) != seg)
      fault_at(w, FAULT_DIVERGENT_COLLECTIVE, n, l,
               "cooperative_groups::reduce: only some threads of the tile of %d call it", size);
  }
  for (int o = size / 2; o >= 1; o /= 2) {
    for (int l = 0; l < W; l++)
      nv[l] = (m >> l & 1) ? cg_combine(n->op, n->ty, v[l], v[l ^ o]) : v[l];
    memcpy(v, nv, sizeof v);
  }
  memcpy(out, v, sizeof v);
}

/* ---- async copies (<cuda_pipeline_primitives.h>; docs/DESIGN.md, "Async copies") ----
 * A copy is checked and recorded where a thread issues it and performed at the
 * __pipeline_wait_prior that covers its group: a copy never waited for never arrives. The
 * hardware may write the destination at any time from issue to wait, so the race shadow has it
 * written by the thread at the issue, in every barrier interval the copy stays pending, and at
 * the wait. */
static NOINLINE void eval_pipe_copy(Warp *w, Node *n, Mask m) {
  Interp *I = w->I;
  Val d[W], s[W], sz[W], zf[W];
  Node *a = n->args;
  eval(w, a, m, d);
  eval(w, a->next, m, s);
  eval(w, a->next->next, m, sz);
  if (a->next->next->next) eval(w, a->next->next->next, m, zf);
  else
    for (int l = 0; l < W; l++) zf[l].u = 0;
  uint64_t dst[W], src[W];
  Mask reads = 0;
  for (int l = 0; l < W; l++) {
    dst[l] = d[l].u;
    src[l] = s[l].u;
    if (!(m >> l & 1)) continue;
    unsigned long long size = sz[l].u, z = zf[l].u;
    if (size != 4 && size != 8 && size != 16)
      fault_at(w, FAULT_RUNTIME_ERROR, n, l,
               "__pipeline_memcpy_async of %llu bytes: size_and_align must be 4, 8 or 16", size);
    if (z > size)
      fault_at(w, FAULT_RUNTIME_ERROR, n, l,
               "__pipeline_memcpy_async with zfill %llu, more than its size_and_align %llu", z,
               size);
    resolve(w, n, l, dst[l], (int)size, true); /* null, aligned to its size, in bounds */
    if (ADDR_SPACE(dst[l]) != SPACE_SHARED)
      fault_at(w, FAULT_MEMORY_SPACE, n, l,
               "the destination of __pipeline_memcpy_async is %s memory: it must be shared memory",
               space_name(ADDR_SPACE(dst[l])));
    if (src[l] && ADDR_SPACE(src[l]) != SPACE_GLOBAL)
      fault_at(w, FAULT_MEMORY_SPACE, n, l,
               "the source of __pipeline_memcpy_async is %s memory: it must be global memory",
               space_name(ADDR_SPACE(src[l])));
    if (src[l] & (size - 1))
      fault_at(
        w, FAULT_MISALIGNED, n, l,
        "misaligned __pipeline_memcpy_async source: global offset %llu is not a multiple of its size_and_align %llu",
        (unsigned long long)(src[l] & OFF_MASK), size);
    if (size > z) {
      resolve(w, n, l, src[l], (int)(size - z), false);
      reads |= 1u << l;
    } else if (!src[l])
      fault_at(w, FAULT_NULL_POINTER, n, l, "__pipeline_memcpy_async from a null pointer");
  }
  if (!m) return;
  /* lanes of one warp copying different data to one address in one instruction: a race, as for
   * stores */
  for (int l = 0; l < W && !I->opt->no_race_check; l++)
    for (int k = 0; k < l && (m >> l & 1); k++)
      if ((m >> k & 1) && dst[k] == dst[l] &&
          (src[k] != src[l] || sz[k].u != sz[l].u || zf[k].u != zf[l].u))
        fault_at(
          w, FAULT_RACE, n, -1,
          "shared-memory race: threads (%u,%u,%u) and (%u,%u,%u) of block (%lld,%lld,%lld), in one warp, copy different "
          "data to byte %llu in one __pipeline_memcpy_async (which remains is undefined)",
          w->tid[0][k], w->tid[1][k], w->tid[2][k], w->tid[0][l], w->tid[1][l], w->tid[2][l],
          (long long)I->block_id[0], (long long)I->block_id[1], (long long)I->block_id[2],
          (unsigned long long)(dst[l] & OFF_MASK));
  int size = (int)sz[__builtin_ctz(m)].u;
  hook_access(w, n, ACC_LOAD, size, src, reads);
  hook_access(w, n, ACC_STORE, size, dst, m);
  for (int l = 0; l < W; l++) {
    if (!(m >> l & 1)) continue;
    race_check(w, n, l, dst[l], (int)sz[l].u, true);
    if (I->async_pending >= ASYNC_MAX_PENDING)
      fault_at(
        w, FAULT_UNSUPPORTED, n, l,
        "more than %lld async copies pending in one block (carve's limit): wait for them sooner",
        (long long)ASYNC_MAX_PENDING);
    if (w->npending == w->pending_cap) {
      w->pending_cap = w->pending_cap ? 2 * w->pending_cap : 64;
      w->pending = xrealloc(w->pending, sizeof *w->pending * (size_t)w->pending_cap);
    }
    w->pending[w->npending++] = (AsyncCopy){
      n, dst[l], src[l], w->committed[l], (uint8_t)l, (uint8_t)sz[l].u, (uint8_t)zf[l].u};
    I->async_pending++;
  }
}

/* the copy arrives: its bytes read now, its destination written by its thread now */
static void perform_copy(Warp *w, const AsyncCopy *c) {
  int bytes = c->size - c->zfill;
  unsigned char *d = resolve(w, c->at, c->lane, c->dst, c->size, true);
  race_check(w, c->at, c->lane, c->dst, c->size, true);
  if (bytes) memmove(d, resolve(w, c->at, c->lane, c->src, bytes, false), (size_t)bytes);
  memset(d + bytes, 0, c->zfill);
}

/* __pipeline_wait_prior(N): every copy of the thread's committed groups but the N most recent */
static NOINLINE void eval_pipe_wait(Warp *w, Node *n, Mask m) {
  Val a[W];
  eval(w, n->args, m, a);
  uint32_t upto[W]; /* groups below this are complete */
  for (int l = 0; l < W; l++)
    upto[l] = (m >> l & 1) && a[l].u < w->committed[l] ? w->committed[l] - (uint32_t)a[l].u : 0;
  int k = 0;
  for (int i = 0; i < w->npending; i++) {
    AsyncCopy c = w->pending[i];
    if (c.group < upto[c.lane]) {
      perform_copy(w, &c);
      w->I->async_pending--;
    } else w->pending[k++] = c;
  }
  w->npending = k;
}

/* a new barrier interval: the copies still pending may land in it */
void pending_written(Warp *w) {
  for (int i = 0; i < w->npending; i++) {
    const AsyncCopy *c = &w->pending[i];
    race_check(w, c->at, c->lane, c->dst, c->size, true);
  }
}

NOINLINE void eval_builtin(Warp *w, Node *n, Mask m, Val *out) {
  Val a[W];
  switch (n->builtin) {
  case BI_SYNCTHREADS: barrier(w, n, m, 0); return;
  case BI_SYNCTHREADS_COUNT:
  case BI_SYNCTHREADS_AND:
  case BI_SYNCTHREADS_OR: {
    eval(w, n->args, m, a);
    int c = 0;
    for (int l = 0; l < W; l++)
      if ((m >> l & 1) && a[l].i) c++;
    barrier(w, n, m, c);
    int total = w->barrier_result, all = w->I->nthreads;
    int r = n->builtin == BI_SYNCTHREADS_COUNT ? total
            : n->builtin == BI_SYNCTHREADS_AND ? total == all
                                               : total > 0;
    for (int l = 0; l < W; l++) out[l].i = r;
    return;
  }
  case BI_SYNCWARP:
  case BI_THREADFENCE:
  case BI_THREADFENCE_BLOCK:
    if (n->args) eval(w, n->args, m, a);
    return;
  case BI_ATOMIC_ADD:
  case BI_ATOMIC_SUB:
  case BI_ATOMIC_EXCH:
  case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX:
  case BI_ATOMIC_INC:
  case BI_ATOMIC_DEC:
  case BI_ATOMIC_CAS:
  case BI_ATOMIC_AND:
  case BI_ATOMIC_OR:
  case BI_ATOMIC_XOR: eval_atomic(w, n, m, out); return;
  case BI_SHFL:
  case BI_SHFL_UP:
  case BI_SHFL_DOWN:
  case BI_SHFL_XOR: eval_shfl(w, n, m, out); return;
  case BI_BALLOT:
  case BI_ANY:
  case BI_ALL: {
    Val mk[W];
    eval(w, n->args, m, mk);
    eval(w, n->args->next, m, a);
    Mask bits = 0;
    for (int l = 0; l < W; l++)
      if ((m >> l & 1) && a[l].i) bits |= 1u << l;
    for (int l = 0; l < W; l++) {
      Mask sel = (Mask)mk[l].u & m;
      Mask b = bits & sel;
      out[l].i = n->builtin == BI_BALLOT ? (int64_t)b : n->builtin == BI_ANY ? b != 0 : b == sel;
    }
    return;
  }
  case BI_ACTIVEMASK:
    for (int l = 0; l < W; l++) out[l].i = (int64_t)m;
    return;
  case BI_POPC:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) out[l].i = __builtin_popcount((uint32_t)a[l].u);
    return;
  case BI_POPCLL:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) out[l].i = popc64(a[l].u);
    return;
  case BI_CLZ:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) out[l].i = (uint32_t)a[l].u ? __builtin_clz((uint32_t)a[l].u) : 32;
    return;
  case BI_CLZLL:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) out[l].i = a[l].u ? __builtin_clzll(a[l].u) : 64;
    return;
  case BI_FFS:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) out[l].i = __builtin_ffs((int)(uint32_t)a[l].u);
    return;
  case BI_FFSLL:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) out[l].i = __builtin_ffsll((long long)a[l].u);
    return;
  case BI_BREV:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++) {
      uint32_t x = (uint32_t)a[l].u, r = 0;
      for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
      out[l].i = r;
    }
    return;
  case BI_LDG: {
    eval(w, n->args, m, a);
    uint64_t addr[W];
    for (int l = 0; l < W; l++) addr[l] = a[l].u;
    if (n->ty->kind == TY_STRUCT) {
      uint64_t tmp = alloc_local(w, n, n->ty->size), dst[W];
      for (int l = 0; l < W; l++) {
        dst[l] = local_addr(w, l, tmp);
        out[l].u = dst[l];
      }
      copy_bytes(w, n, n->ty->size, dst, addr, m);
      return;
    }
    load(w, n, n->ty, addr, m, out);
    return;
  }
  case BI_MIN:
  case BI_MAX: {
    Val b[W];
    eval(w, n->args, m, a);
    eval(w, n->args->next, m, b);
    Type *t = n->ty;
    bool mx = n->builtin == BI_MAX;
    for (int l = 0; l < W; l++) {
      bool lt;
      if (t->kind == TY_FLOAT) {
        out[l].f = mx ? fmaxf(a[l].f, b[l].f) : fminf(a[l].f, b[l].f);
        continue;
      }
      if (t->kind == TY_DOUBLE) {
        out[l].d = mx ? fmax(a[l].d, b[l].d) : fmin(a[l].d, b[l].d);
        continue;
      }
      lt = t->is_unsigned ? a[l].u < b[l].u : a[l].i < b[l].i;
      out[l] = (lt != mx) ? a[l] : b[l];
    }
    return;
  }
  case BI_ABS:
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++)
      out[l].i = norm_int(n->ty, a[l].i < 0 ? (int64_t)(0 - a[l].u) : a[l].i);
    return;
  case BI_MATH: eval_math(w, n, m, out); return;
  case BI_MAKE_VECTOR: {
    Type *t = n->ty;
    uint64_t tmp = alloc_local(w, n, t->size);
    uint64_t dst[W];
    Member *mem = t->members;
    for (Node *arg = n->args; arg; arg = arg->next, mem = mem->next) {
      eval(w, arg, m, a);
      for (int l = 0; l < W; l++) dst[l] = local_addr(w, l, tmp + (uint64_t)mem->offset);
      for (int l = 0; l < W; l++)
        if (m >> l & 1) write_scalar(resolve(w, n, l, dst[l], mem->ty->size, true), mem->ty, a[l]);
    }
    for (int l = 0; l < W; l++) out[l].u = local_addr(w, l, tmp);
    return;
  }
  case BI_PRINTF:
    if (w->I->L->host_code) {
      eval_host_call(w, n, m, out);
      return;
    }
    eval_printf(w, n, m);
    for (int l = 0; l < W; l++) out[l].i = 0;
    return;
  case BI_CLOCK:
    if (w->I->L->host_code) {
      HostCtx c = host_ctx(w, n);
      int64_t t = host_clock(&c);
      for (int l = 0; l < W; l++) out[l].i = t;
      return;
    }
    for (int l = 0; l < W; l++) out[l].i = (int64_t)w->I->st->warp_steps;
    return;
  case BI_HALF: eval_half(w, n, m, out); return;
  case BI_CG: eval_cg(w, n, m, out); return;
  case BI_PIPE_COPY: eval_pipe_copy(w, n, m); return;
  case BI_PIPE_COMMIT:
    for (int l = 0; l < W; l++) w->committed[l] += m >> l & 1;
    return;
  case BI_PIPE_WAIT: eval_pipe_wait(w, n, m); return;
  case BI_ASSERT: /* C++ (docs/cxx.md): a failed assert is a fault with its text; a string
                     * literal is a non-null pointer, so assert(c && "why") and assert(!"why") need nothing special */
    eval(w, n->args, m, a);
    for (int l = 0; l < W; l++)
      if ((m >> l & 1) &&
          !a[l].i) { /* the front end's checks of what carve cannot run say "unsupported: ..." */
        const char *t = n->args->next->tok->str;
        if (!strncmp(t, "unsupported: ", 13)) fault_at(w, FAULT_ASSERTION, n, l, "%s", t);
        fault_at(w, FAULT_ASSERTION, n, l, "assertion '%s' failed", t);
      }
    return;
  default: break;
  }
  fault_at(w, FAULT_INTERNAL, n, -1, "internal: builtin %d", n->builtin);
}
