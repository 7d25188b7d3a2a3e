/* launch: turn a kernel's launch spec (and flags overriding it) into buffers and argument
 * values, exactly as docs/launch-spec.md defines the initializers. */
#include "interp.h"
#include "half.h"
#include "../hash.h"
#include "../arch/arch.h"

/* every buffer of one launch together, in bytes: half of a 16 GiB machine */
#ifndef LIMIT_LAUNCH_BYTES
#define LIMIT_LAUNCH_BYTES (8ull << 30)
#endif
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define FILL_CODE(...) __VA_ARGS__
#include "fill.inc"
#undef FILL_CODE

uint64_t random_bits(uint64_t seed, uint64_t i) { return carve_random_bits(seed, i); }

uint64_t buffer_checksum(const Buffer *b) { return fnv1a64(b->data, b->bytes); }

/* the component description carve_fill works on */
typedef struct {
  int kind, size, ncomp, off[4];
} Layout;
static Layout layout_of(Type *et) {
  Layout L = {0, et->size, 1, {0}};
  Type *comp = et;
  if (et->kind == TY_STRUCT) {
    L.ncomp = 0;
    for (Member *m = et->members; m && L.ncomp < 4; m = m->next) L.off[L.ncomp++] = m->offset;
    comp = et->members->ty;
  }
  L.kind = comp->kind == TY_FLOAT ? 1 : comp->kind == TY_DOUBLE ? 2 : comp->kind == TY_BOOL ? 3 : 0;
  L.size = comp->size;
  return L;
}

static void put(unsigned char *p, Type *t, double d, int64_t i, bool is_int) {
  Layout L = layout_of(t);
  carve_put(p, L.kind, L.size, d, i, is_int);
}

/* __half and __half2 buffers hold values: the initializer's numbers, made by carve_fill as
 * doubles (a __half2 element is two components, like a float2), each rounded to half to
 * nearest even. The GPU harness does the same with cuda_fp16.h's __double2half. */
static int half_fill(Buffer *b, const ArgSpec *a, int code) {
  int nc = b->elem_ty->is_half;
  size_t n = (size_t)a->count * (size_t)nc;
  double *t = malloc(n ? n * sizeof *t : 1);
  if (!t) {
    diag_at(DIAG_ERROR, tok_loc(a->tok), "cannot allocate %zu bytes to fill buffer '%s'",
            n * sizeof *t, a->name);
    return 2;
  }
  const int off[4] = {0, 8, 0, 0};
  carve_fill((unsigned char *)t, a->count, 8 * nc, nc, off, 2, 8, code, a->a, a->b, a->has_range,
             a->seed);
  for (size_t k = 0; k < n; k++) {
    uint16_t h = half_from_double(t[k]);
    memcpy(b->data + 2 * k, &h, 2);
  }
  free(t);
  return 0;
}

int buffer_init(Buffer *b, const ArgSpec *a) {
  Type *et = a->elem_ty;
  b->name = a->name;
  b->elem_ty = et;
  b->count = a->count;
  b->bytes = (size_t)a->count * (size_t)et->size;
  b->data = calloc(1, b->bytes ? b->bytes : 1);
  b->out = a->out;
  b->spec = a;
  if (!b->data) {
    diag_at(DIAG_ERROR, tok_loc(a->tok), "cannot allocate %zu bytes for buffer '%s'", b->bytes,
            a->name);
    return 2;
  }
  if (a->init == INIT_BYTES) {
    memcpy(b->data, a->bytes, b->bytes);
    return 0;
  }
  if (a->init == INIT_FILE) {
    struct stat sb;
    if (stat(a->path, &sb) != 0 || !S_ISREG(sb.st_mode) || (size_t)sb.st_size != b->bytes) {
      if (stat(a->path, &sb) != 0)
        diag_at(DIAG_ERROR, tok_loc(a->tok), "cannot read '%s' for buffer '%s': %s", a->path,
                a->name, strerror(errno));
      else if (!S_ISREG(sb.st_mode))
        diag_at(DIAG_ERROR, tok_loc(a->tok), "'%s' is not a regular file (buffer '%s')", a->path,
                a->name);
      else
        diag_at(DIAG_ERROR, tok_loc(a->tok),
                "'%s' has %lld bytes; buffer '%s' needs %zu (%lld x %d)", a->path,
                (long long)sb.st_size, a->name, b->bytes, (long long)a->count, et->size);
      return 2;
    }
    size_t len;
    char *d = read_file(a->path, &len);
    if (!d) {
      diag_at(DIAG_ERROR, tok_loc(a->tok), "cannot read '%s' for buffer '%s': %s", a->path, a->name,
              strerror(errno));
      return 2;
    }
    if (len != b->bytes) {
      diag_at(DIAG_ERROR, tok_loc(a->tok), "'%s' has %zu bytes; buffer '%s' needs %zu (%lld x %d)",
              a->path, len, a->name, b->bytes, (long long)a->count, et->size);
      free(d);
      return 2;
    }
    memcpy(b->data, d, len);
    free(d);
    return 0;
  }
  Layout lay = layout_of(et);
  static const int init_code[] = {[INIT_ZEROS] = 0,  [INIT_FILL] = 1, [INIT_IOTA] = 2,
                                  [INIT_RANDOM] = 3, [INIT_FILE] = 0, [INIT_BYTES] = 0};
  if (et->is_half) return half_fill(b, a, init_code[a->init]);
  carve_fill(b->data, a->count, et->size, lay.ncomp, lay.off, lay.kind, lay.size,
             init_code[a->init], a->a, a->b, a->has_range, a->seed);
  return 0;
}

static const ArgSpec *find_arg(const LaunchSpec *s, const LaunchOverrides *ov, const char *name) {
  if (ov)
    for (int i = ov->nargs - 1; i >= 0; i--)
      if (ov->args[i] && !strcmp(ov->args[i]->name, name)) return ov->args[i];
  if (s)
    for (ArgSpec *a = s->args; a; a = a->next)
      if (!strcmp(a->name, name)) return a;
  return NULL;
}

static bool scalar_fits(Type *t, CValue v) {
  if (t->kind == TY_BOOL) return true;
  int bits = t->size * 8;
  if (bits == 64) return true;
  if (t->is_unsigned) return v.i >= 0 && v.i <= (int64_t)((1ull << bits) - 1);
  return v.i >= -(1ll << (bits - 1)) && v.i <= (1ll << (bits - 1)) - 1;
}

/* a float value for an integer parameter: exactly an integer, in the type's range */
static bool float_fits_integer(Type *t, double d) {
  if (t->kind == TY_BOOL) return true;
  double lo, hi; /* hi is exclusive: 2^(bits-1) or 2^bits, exact in double */
  if (t->is_unsigned) {
    lo = 0;
    hi = ldexp(1.0, t->size * 8);
  } else {
    lo = -ldexp(1.0, t->size * 8 - 1);
    hi = ldexp(1.0, t->size * 8 - 1);
  }
  return d >= lo && d < hi;
}

/* d as written by a person: the shortest %g that reads back as d */
static const char *show_double(double d) {
  char *s = fmt("%.15g", d);
  return strtod(s, NULL) == d || d != d ? s : fmt("%.17g", d);
}

/* a __half parameter receives the value rounded to half (a __half2 the same in both halves);
 * a finite value that rounds to infinity is refused, as for float */
static int bind_half(const ArgSpec *a, Obj *q, Val *out) {
  double d = a->scalar.is_float ? a->scalar.d : (double)a->scalar.i;
  uint16_t h = half_from_double(d);
  if (isfinite(d) && (h & 0x7fff) == 0x7c00) {
    diag_at(DIAG_ERROR, tok_loc(a->tok),
            "value %s for parameter '%s' of type '%s' is out of its range", show_double(d), q->name,
            type_name(q->ty));
    return 2;
  }
  *out = (Val){0};
  out->u = q->ty->is_half == 2 ? h * 0x10001u : h;
  return 0;
}

/* The value a scalar parameter receives. The launch refuses what C would silently change:
 * a non-finite or fractional value for an integer parameter, a value outside its type's range
 * (2.7 is not 2, 1e400 is not 0). 0, or 2 after a diagnostic naming the parameter and type. */
static int bind_scalar(const ArgSpec *a, Obj *q, Val *out) {
  Type *t = q->ty;
  CValue v = a->scalar;
  SrcLoc at = tok_loc(a->tok);
  if (t->is_half) return bind_half(a, q, out);
  if (is_integer(t) && v.is_float) {
    const char *why = !isfinite(v.d)                ? "is not finite"
                      : v.d != trunc(v.d)           ? "is not an integer"
                      : !float_fits_integer(t, v.d) ? "is out of its range"
                                                    : NULL;
    if (why) {
      diag_at(DIAG_ERROR, at, "value %s for parameter '%s' of type '%s' %s", show_double(v.d),
              q->name, type_name(t), why);
      return 2;
    }
    if (t->kind == TY_BOOL) out->i = v.d != 0;
    else if (t->is_unsigned) out->u = (uint64_t)v.d;
    else out->i = (int64_t)v.d;
    return 0;
  }
  if (is_integer(t)) {
    if (!scalar_fits(t, v)) {
      diag_at(DIAG_ERROR, at, "value %lld does not fit parameter '%s' of type '%s'", (long long)v.i,
              q->name, type_name(t));
      return 2;
    }
    out->i = t->kind == TY_BOOL ? v.i != 0 : v.i;
    return 0;
  }
  double d = v.is_float ? v.d : (double)v.i;
  if (t->kind == TY_FLOAT && isfinite(d) && fabs(d) > FLT_MAX) {
    diag_at(DIAG_ERROR, at, "value %s for parameter '%s' of type 'float' is out of its range",
            show_double(d), q->name);
    return 2;
  }
  *out = (Val){0};
  if (t->kind == TY_FLOAT) out->f = (float)d;
  else out->d = d;
  return 0;
}

/* one file-scope variable's initial contents at base + its offset */
static void init_one(Obj *v, unsigned char *base) {
  /* flatten the initializer: scalars in order */
  Node *stack[64];
  int sp = 0;
  Type *tys[64];
  size_t offs[64];
  stack[sp] = v->init;
  tys[sp] = v->ty;
  offs[sp] = (size_t)v->offset;
  sp++;
  while (sp > 0) {
    sp--;
    Node *n = stack[sp];
    Type *t = tys[sp];
    size_t off = offs[sp];
    if (n->kind == ND_INIT_LIST) {
      /* push elements in reverse so they pop in order */
      Node *els[4096];
      int ne = 0;
      for (Node *e = n->elems; e && ne < 4096; e = e->next) els[ne++] = e;
      Member *mem = t->kind == TY_STRUCT ? t->members : NULL;
      Member *mems[4096];
      int nm = 0;
      for (Member *m = mem; m && nm < 4096; m = m->next) mems[nm++] = m;
      for (int i = ne - 1; i >= 0 && sp < 63; i--) {
        stack[sp] = els[i];
        tys[sp] = t->kind == TY_ARRAY ? t->base : mems[i]->ty;
        offs[sp] =
          off + (t->kind == TY_ARRAY ? (size_t)i * (size_t)t->base->size : (size_t)mems[i]->offset);
        sp++;
      }
      continue;
    }
    /* a constant scalar */
    Node *e = n;
    while (e->kind == ND_CAST) e = e->lhs;
    double d = 0;
    int64_t iv = 0;
    bool neg = false;
    while (e->kind == ND_NEG) {
      neg = !neg;
      e = e->lhs;
      while (e->kind == ND_CAST) e = e->lhs;
    }
    if (e->kind == ND_NUM) {
      d = is_flonum(e->ty) ? e->fval : (double)e->ival;
      iv = is_flonum(e->ty) ? carve_d2ll(e->fval) : e->ival;
    }
    if (neg) {
      d = -d;
      iv = (int64_t)(0 - (uint64_t)iv);
    }
    if (is_scalar(t))
      put(base + off, t, d, iv, !is_flonum(t) && !(e->kind == ND_NUM && is_flonum(e->ty)));
  }
}

void init_variables(Obj *list, unsigned char *base) {
  for (Obj *v = list; v; v = v->next)
    if (v->init) init_one(v, base);
}

/* the __constant__ and __device__ variables' initial contents */
void launch_init_globals(Launch *L) {
  for (Obj *v = L->prog->globals; v; v = v->next)
    if (v->init) init_one(v, v->sc == SC_CONSTANT ? L->constant : L->bufs[0].data);
}

/* CUDA's limits on a launch's shape, the same on every machine carve describes from cc 2.0 on
 * (maxThreadsDim 1024 x 1024 x 64, 1024 threads per block, maxGridSize 2^31-1 x 65535 x 65535;
 * cc 1.x allows less, which interp_run checks against the launch's Machine). Products of
 * dimensions are checked for overflow before they are compared; once this passes, the thread
 * count fits an int and the block count an int64_t. */
int launch_check_dims(const Launch *L) {
  SrcLoc at = L->where.file ? L->where : tok_loc(L->kernel->tok);
  long long b[3], g[3]; /* for printing */
  for (int d = 0; d < 3; d++) {
    b[d] = L->block[d];
    g[d] = L->grid[d];
  }
  for (int d = 0; d < 3; d++)
    if (b[d] < 1 || g[d] < 1) {
      diag_at(
        DIAG_ERROR, at,
        "grid (%lld,%lld,%lld) and block (%lld,%lld,%lld): every dimension must be at least 1",
        g[0], g[1], g[2], b[0], b[1], b[2]);
      return 2;
    }
  int64_t n;
  if (__builtin_mul_overflow(L->block[0], L->block[1], &n) ||
      __builtin_mul_overflow(n, L->block[2], &n)) {
    diag_at(DIAG_ERROR, at, "block (%lld,%lld,%lld) has more threads than CUDA allows (1 to 1024)",
            b[0], b[1], b[2]);
    return 2;
  }
  if (n > 1024) {
    diag_at(DIAG_ERROR, at, "block of %lld threads: CUDA allows 1 to 1024", (long long)n);
    return 2;
  }
  if (b[2] > 64) {
    diag_at(DIAG_ERROR, at, "block z dimension %lld exceeds 64", b[2]);
    return 2;
  }
  if (g[1] > 65535 || g[2] > 65535 || g[0] > 2147483647) {
    diag_at(DIAG_ERROR, at, "grid (%lld,%lld,%lld) exceeds CUDA's limits", g[0], g[1], g[2]);
    return 2;
  }
  return 0;
}

/* a block given by --block (ov->has_block) that CUDA or ov's machine does not allow is the flag's
 * error: located at the flag, not at the launch spec's line; 0, or 2 after a diagnostic */
static int check_flag_block(const LaunchOverrides *ov) {
  const Machine *m = ov->machine ? ov->machine : machine_find("h100");
  const int64_t *b = ov->block;
  const char *flag =
    b[2] != 1   ? fmt("--block %lld,%lld,%lld", (long long)b[0], (long long)b[1], (long long)b[2])
    : b[1] != 1 ? fmt("--block %lld,%lld", (long long)b[0], (long long)b[1])
                : fmt("--block %lld", (long long)b[0]);
  SrcLoc none = {0};
  if (b[0] < 1 || b[1] < 1 || b[2] < 1) {
    diag_at(DIAG_ERROR, none, "%s: block (%lld,%lld,%lld): every dimension must be at least 1",
            flag, (long long)b[0], (long long)b[1], (long long)b[2]);
    return 2;
  }
  int64_t n;
  if (__builtin_mul_overflow(b[0], b[1], &n) || __builtin_mul_overflow(n, b[2], &n)) {
    diag_at(DIAG_ERROR, none,
            "%s: block (%lld,%lld,%lld) has more threads than CUDA allows (1 to 1024)", flag,
            (long long)b[0], (long long)b[1], (long long)b[2]);
    return 2;
  }
  if (n > m->max_threads_per_block) {
    diag_at(DIAG_ERROR, none, "%s: block of %lld threads: CUDA allows 1 to %d on the %s", flag,
            (long long)n, m->max_threads_per_block, m->long_name);
    return 2;
  }
  if (b[2] > 64) {
    diag_at(DIAG_ERROR, none, "%s: block z dimension %lld exceeds 64", flag, (long long)b[2]);
    return 2;
  }
  return 0;
}

int launch_prepare(Launch *L, Program *p, Obj *k, const LaunchOverrides *ov) {
  memset(L, 0, sizeof *L);
  L->prog = p;
  L->kernel = k;
  LaunchSpec *s = find_spec(p, k->name);
  SrcLoc at = s ? tok_loc(s->tok) : tok_loc(k->tok);
  L->where = at;
  for (int i = 0; i < 3; i++) L->grid[i] = L->block[i] = 1;
  if (s) {
    memcpy(L->grid, s->grid, sizeof L->grid);
    memcpy(L->block, s->block, sizeof L->block);
    L->dyn_shared = s->dyn_shared;
  }
  if (ov && ov->has_grid) memcpy(L->grid, ov->grid, sizeof L->grid);
  if (ov && ov->has_block) memcpy(L->block, ov->block, sizeof L->block);
  if (ov && ov->dyn_shared >= 0) L->dyn_shared = ov->dyn_shared;
  if (!(s && s->has_grid) && !(ov && ov->has_grid)) {
    diag_at(
      DIAG_ERROR, at,
      "no grid for kernel '%s': add '#pragma carve launch %s grid(...) block(...)' or pass --grid",
      k->name, k->name);
    return 2;
  }
  if (!(s && s->has_block) && !(ov && ov->has_block)) {
    diag_at(DIAG_ERROR, at,
            "no block size for kernel '%s': add block(...) to its launch spec or pass --block",
            k->name);
    return 2;
  }
  if (ov && ov->has_block && check_flag_block(ov)) return 2;
  if (launch_check_dims(L)) return 2;
  int np = 0;
  for (Obj *q = k->params; q; q = q->next) np++;
  L->args = xmalloc(sizeof(Val) * (size_t)(np ? np : 1));
  L->bufs = xmalloc(sizeof(Buffer) * (size_t)(np + 1));
  L->nbufs = 1;
  L->bufs[0].name = "__device__ variables";
  L->bufs[0].bytes = (size_t)p->device_global_size;
  L->bufs[0].data = xmalloc((size_t)p->device_global_size + 1);
  L->bufs[0].elem_ty = ty_uchar;
  L->bufs[0].count = p->device_global_size;
  L->constant = xmalloc((size_t)p->constant_size + 1);
  launch_init_globals(L);
  /* a recorded launch: the contents the host program had given them */
  if (ov && ov->constant) memcpy(L->constant, ov->constant, (size_t)p->constant_size);
  if (ov && ov->device_vars)
    memcpy(L->bufs[0].data, ov->device_vars, (size_t)p->device_global_size);
  int i = 0;
  for (Obj *q = k->params; q; q = q->next, i++) {
    const ArgSpec *a = find_arg(s, ov, q->name);
    Type *t = q->ty;
    if (!a) {
      diag_at(
        DIAG_ERROR, tok_loc(q->tok),
        "no value for parameter '%s' of '%s': add '#pragma carve arg %s = ...' or pass --arg %s=...",
        q->name, k->name, q->name, q->name);
      return 2;
    }
    if (t->kind == TY_PTR) {
      if (!a->is_buffer) {
        diag_at(DIAG_ERROR, tok_loc(a->tok),
                "parameter '%s' is a pointer ('%s'); give it a buffer: %s = TYPE[COUNT] : INIT",
                q->name, type_name(t), q->name);
        return 2;
      }
      if (a->alias) continue; /* bound below, once every buffer is */
      Type *bt = unqual(t->base);
      if (bt->kind != TY_VOID && !same_type(bt, unqual(a->elem_ty)) &&
          bt->size != a->elem_ty->size) {
        diag_at(DIAG_ERROR, tok_loc(a->tok),
                "buffer '%s' holds '%s' but the parameter points to '%s'", q->name,
                type_name(a->elem_ty), type_name(bt));
        return 2;
      }
      if (bt->kind != TY_VOID && !same_type(bt, unqual(a->elem_ty)))
        diag_at(
          DIAG_WARNING, tok_loc(a->tok),
          "buffer '%s' holds '%s' but the parameter points to '%s' (same size; bytes reinterpreted)",
          q->name, type_name(a->elem_ty), type_name(bt));
      /* the launch's buffers live in this process: their total is a named limit, checked before
       * any is allocated past it (a size given by a flag must not exhaust the machine) */
      size_t need = (size_t)a->count * (size_t)a->elem_ty->size;
      if (need > LIMIT_LAUNCH_BYTES - L->buffer_bytes) {
        diag_at(
          DIAG_ERROR, tok_loc(a->tok),
          "buffer '%s' takes the launch's buffers past the limit of %llu bytes (LIMIT_LAUNCH_BYTES, "
          "docs/limits.md): run a smaller size (-D) in the interpreter",
          q->name, (unsigned long long)LIMIT_LAUNCH_BYTES);
        return 2;
      }
      L->buffer_bytes += need;
      Buffer *b = &L->bufs[L->nbufs];
      if (buffer_init(b, a)) {
        free(b->data);
        b->data = NULL;
        return 2;
      } /* not yet counted in nbufs */
      L->args[i].u = GLOBAL_ADDR(L->nbufs, 0);
      L->nbufs++;
      continue;
    }
    if (a->is_buffer) {
      diag_at(DIAG_ERROR, tok_loc(a->tok),
              "parameter '%s' is a scalar ('%s'), not a pointer; give it a value: %s = EXPR",
              q->name, type_name(t), q->name);
      return 2;
    }
    if (!is_numeric(t)) {
      diag_at(DIAG_ERROR, tok_loc(q->tok),
              "parameter '%s' has type '%s'; carve passes numbers and pointers only", q->name,
              type_name(t));
      return 2;
    }
    if (bind_scalar(a, q, &L->args[i])) return 2;
  }
  /* alias(P, OFF): the buffer of pointer parameter P (itself given a buffer), OFF bytes in */
  i = 0;
  for (Obj *q = k->params; q; q = q->next, i++) {
    const ArgSpec *a = q->ty->kind == TY_PTR ? find_arg(s, ov, q->name) : NULL;
    if (!a || !a->alias) continue;
    int j = 0;
    Obj *r = k->params;
    for (; r && strcmp(r->name, a->alias); r = r->next) j++;
    const ArgSpec *ra = r ? find_arg(s, ov, r->name) : NULL;
    if (!r || r == q || r->ty->kind != TY_PTR || !ra || ra->alias) {
      diag_at(DIAG_ERROR, tok_loc(a->tok),
              "alias(%s): '%s' has no pointer parameter of that name with a buffer of its own",
              a->alias, k->name);
      return 2;
    }
    uint64_t base = L->args[j].u, b = (base >> 40) & 0xfffff,
             off = (base & ((1ull << 40) - 1)) + (uint64_t)a->alias_off;
    if (b >= (uint64_t)L->nbufs || off > L->bufs[b].bytes) {
      diag_at(DIAG_ERROR, tok_loc(a->tok), "alias(%s, %lld) lies past the end of '%s''s buffer",
              a->alias, (long long)a->alias_off, a->alias);
      return 2;
    }
    L->args[i].u = GLOBAL_ADDR(b, off);
  }
  /* flags may name parameters that do not exist */
  if (ov)
    for (int j = 0; j < ov->nargs; j++) {
      bool found = false;
      for (Obj *q = k->params; q; q = q->next)
        if (ov->args[j] && !strcmp(q->name, ov->args[j]->name)) found = true;
      if (ov->args[j] && !found) {
        diag_at(DIAG_ERROR, (SrcLoc){0}, "--arg %s: kernel '%s' has no parameter named '%s'",
                ov->args[j]->name, k->name, ov->args[j]->name);
        return 2;
      }
    }
  return 0;
}

void launch_free(Launch *L) {
  for (int i = 0; i < L->nbufs; i++) free(L->bufs[i].data);
  free(L->bufs);
  free(L->args);
  free(L->constant);
  memset(L, 0, sizeof *L);
}

/* every --arg text into ov->args (arena); false at the first that does not parse (diagnosed) */
bool parse_arg_settings(Program *p, const char **texts, int n, LaunchOverrides *ov) {
  ov->args = arena_alloc(sizeof(ArgSpec *) * (size_t)(n + 1));
  ov->nargs = 0;
  for (int i = 0; i < n; i++) {
    ArgSpec *a = parse_arg_setting(p, texts[i], ".");
    if (!a) return false;
    ov->args[ov->nargs++] = a;
  }
  return true;
}

int launch_sample_blocks(int64_t total, int want, int64_t *out) {
  int n = 0;
  if (total <= 0 || want <= 0) return 0;
  if (want >= total) {
    for (int64_t b = 0; b < total; b++) out[n++] = b;
    return n;
  }
  if (want == 1) {
    out[0] = total / 2;
    return 1;
  }
  for (int i = 0; i < want; i++) {
    int64_t b = (int64_t)((double)i * (double)(total - 1) / (double)(want - 1));
    if (!n || out[n - 1] != b) out[n++] = b;
  }
  return n;
}

void written_init(Written *w, const Launch *L) {
  memset(w, 0, sizeof *w);
  w->L = L;
  w->bytes = xmalloc(sizeof(unsigned char *) * (size_t)(L->nbufs + 1));
  w->atomic = xmalloc(sizeof(bool) * (size_t)(L->nbufs + 1));
  for (int i = 0; i < L->nbufs; i++) {
    size_t n = L->bufs[i].kind == BUF_HOST || L->bufs[i].unreached
                 ? 0
                 : L->bufs[i].bytes; /* host memory: a kernel's store there faults */
    w->bytes[i] = xmalloc(n + 1);    /* zeroed (calloc): fresh pages, touched only where written */
    w->atomic[i] = false;
  }
}

static bool written_want(void *ctx, int64_t b) {
  const Written *w = ctx;
  for (int i = 0; i < w->nblocks; i++)
    if (w->blocks[i] == b) return true;
  return false;
}

static void written_access(void *ctx, Node *at, int space, AccessKind kind, int size,
                           const uint64_t *addr, Mask m, int64_t blk, int warp) {
  Written *w = ctx;
  if (space != SPACE_GLOBAL || kind == ACC_LOAD) return;
  for (int l = 0; l < 32; l++) {
    if (!(m >> l & 1)) continue;
    if (w->keep && !w->keep(w->keep_ctx, blk, warp * 32 + l)) continue;
    uint64_t b = (addr[l] >> 40) & 0xfffff, off = addr[l] & ((1ull << 40) - 1);
    if (b == 0 || b >= (uint64_t)w->L->nbufs || off + (uint64_t)size > w->L->bufs[b].bytes ||
        w->L->bufs[b].kind == BUF_HOST)
      continue;
    if (kind == ACC_ATOMIC) w->atomic[b] = true;
    memset(w->bytes[b] + off, 1, (size_t)size);
  }
}

Hooks written_hooks(Written *w) {
  return (Hooks){.ctx = w, .access = written_access, .want_block = w->blocks ? written_want : NULL};
}

void written_free(Written *w) {
  for (int i = 0; w->bytes && i < w->L->nbufs; i++) free(w->bytes[i]);
  free(w->bytes);
  free(w->atomic);
  w->bytes = NULL;
  w->atomic = NULL;
}
