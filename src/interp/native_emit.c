/* native_emit: a kernel of carve's AST written as C that computes what the interpreter computes.
 *
 * The C is a shared object with one entry, carve_block(ctx, bx, by, bz, shared, tstate), that runs
 * every thread of one block. Kernels without barriers: one C function per thread, called in the
 * order of the threads' linear ids. Kernels with __syncthreads (or __syncwarp, run as a block-wide
 * barrier): the body is split at the barriers into thread loops (MCUDA's loop fission), the
 * locals declared at the level of the barriers are promoted to a record per thread (tstate), and
 * the control statements that contain barriers run once for the block with their conditions
 * evaluated by every live thread (they must agree: otherwise the native run reports a divergent
 * barrier and the interpreter runs the launch). A thread that returns is done: it skips the rest.
 * Semantics are interp.c's (see native.h); the unsupported constructs are refused with their
 * line. */
#include "native.h"
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct Emit {
  Program *p;
  Obj *k;
  Buf types, protos, fns, *o;
  Obj **vars;
  int nvars, capvars; /* variable names: v<index>_<name> */
  bool *promoted;     /* per vars[i]: a field of the per-thread record */
  const void **structs;
  int nstructs, capstructs; /* struct types by member list: struct S<i> */
  Obj **funcs;
  int nfuncs, capfuncs; /* device functions emitted: f<i> */
  bool math_used[MATH_COUNT];
  bool barrier_mode, in_kernel; /* emitting the kernel's own body (locals may be promoted) */
  bool in_region;               /* barrier mode: inside a thread loop */
  int region;                   /* the current thread loop's label number */
  int brk_depth, cont_depth;    /* loops/switches open inside the current region or function */
  int tmp;
  bool ordered;  /* atomics in serial order (one worker, blocks in order) */
  int grp, ngrp; /* barrier mode: the current group of threads (0 the block, else a warp loop) */
  Buf tsx;       /* extra fields of the per-thread record (warp operands, inlined results) */
  Node **pref;
  int *prefslot;
  int npref, cappref; /* nodes computed before their statement */
  Obj *inl[8];
  Node *inl_last[8];
  int inl_ret[8];
  int ninl; /* synchronizing functions being inlined */
  Buf **tmp_bufs;
  int ntmp_bufs, captmp_bufs; /* scratch buffers, freed at the end (also after an unwind) */
  Node *at;                   /* the node being translated, for messages */
  Token *at_tok;              /* or the declaration */
  jmp_buf fail;
  char *why;
  size_t nwhy;
} Emit;

/* a scratch buffer that lives until native_emit returns, whichever way it leaves */
static Buf *tmpbuf(Emit *e) {
  if (e->ntmp_bufs == e->captmp_bufs) {
    e->captmp_bufs = e->captmp_bufs ? e->captmp_bufs * 2 : 64;
    e->tmp_bufs = realloc(e->tmp_bufs, sizeof *e->tmp_bufs * (size_t)e->captmp_bufs);
    if (!e->tmp_bufs) abort();
  }
  Buf *b = calloc(1, sizeof *b);
  if (!b) abort();
  return e->tmp_bufs[e->ntmp_bufs++] = b;
}

static _Noreturn void unsupported(Emit *e, Node *at, const char *what) {
  if (!at || !at->tok) at = e->at;
  Token *t = at && at->tok ? at->tok : e->at_tok;
  snprintf(e->why, e->nwhy, "%s (line %d)", what, t ? tok_loc(t).line : 0);
  longjmp(e->fail, 1);
}

/* ---------------- names and types ---------------- */
static int var_index(Emit *e, Obj *v) {
  for (int i = 0; i < e->nvars; i++)
    if (e->vars[i] == v) return i;
  if (e->nvars == e->capvars) {
    e->capvars = e->capvars ? e->capvars * 2 : 64;
    e->vars = realloc(e->vars, sizeof *e->vars * (size_t)e->capvars);
    e->promoted = realloc(e->promoted, sizeof *e->promoted * (size_t)e->capvars);
    if (!e->vars || !e->promoted) abort();
  }
  e->vars[e->nvars] = v;
  e->promoted[e->nvars] = false;
  return e->nvars++;
}

/* an identifier's letters and digits, for readable generated names */
static const char *clean(const char *s) {
  char b[48];
  int n = 0;
  for (; *s && n < 40; s++) b[n++] = (isalnum((unsigned char)*s) || *s == '_') ? *s : '_';
  b[n] = 0;
  return fmt("%s", b);
}

static void promote(Emit *e, Obj *v) {
  int i = var_index(e, v); /* first: it may move the arrays */
  e->promoted[i] = true;
}

static const char *var_cname(Emit *e, Obj *v) {
  int i = var_index(e, v);
  return fmt("v%d_%s", i, clean(v->name));
}

static const char *decl(Emit *e, Type *t, const char *inner);

/* struct S<i> for a struct type (copies of one type share its member list), defined on first use */
static const char *struct_name(Emit *e, Type *t) {
  const void *key = t->members ? (const void *)t->members : (const void *)t;
  for (int i = 0; i < e->nstructs; i++)
    if (e->structs[i] == key) return fmt("struct S%d", i);
  if (t->size <= 0) unsupported(e, NULL, "an incomplete struct type");
  if (e->nstructs == e->capstructs) {
    e->capstructs = e->capstructs ? e->capstructs * 2 : 16;
    e->structs = realloc(e->structs, sizeof *e->structs * (size_t)e->capstructs);
    if (!e->structs) abort();
  }
  int id = e->nstructs++;
  e->structs[id] = key;
  Buf *def = tmpbuf(e);
  buf_printf(def, "struct S%d {", id);
  for (Member *m = t->members; m; m = m->next)
    buf_printf(def, " %s;", decl(e, m->ty, fmt("m_%s", clean(tok_text(m->name)))));
  buf_printf(def, " } __attribute__((aligned(%d)));\n", t->align > 0 ? t->align : 1);
  buf_printf(def, "_Static_assert(sizeof(struct S%d) == %d, \"layout\");\n", id, t->size);
  for (Member *m = t->members; m; m = m->next)
    buf_printf(def, "_Static_assert(__builtin_offsetof(struct S%d, m_%s) == %d, \"layout\");\n", id,
               clean(tok_text(m->name)), m->offset);
  buf_puts(&e->types, def->s ? def->s : "");
  return fmt("struct S%d", id);
}

static const char *base_name(Emit *e, Type *t) {
  if (t->cg_group) return "int"; /* a cooperative group is its kind: 0 the block, N a tile of N */
  switch (t->kind) {
  case TY_VOID: return "void";
  case TY_BOOL: return "_Bool";
  case TY_CHAR: return t->is_unsigned ? "unsigned char" : "signed char";
  case TY_SHORT: return t->is_unsigned ? "unsigned short" : "short";
  case TY_INT: return t->is_unsigned ? "unsigned int" : "int";
  case TY_ENUM:
    return t->size == 8 ? (t->is_unsigned ? "unsigned long" : "long")
                        : (t->is_unsigned ? "unsigned int" : "int");
  case TY_LONG: return t->is_unsigned ? "unsigned long" : "long";
  case TY_LLONG: return t->is_unsigned ? "unsigned long long" : "long long";
  case TY_FLOAT: return "float";
  case TY_DOUBLE: return "double";
  case TY_STRUCT: return struct_name(e, t);
  default: unsupported(e, NULL, "a function type");
  }
}

/* a C declarator of type t around inner ("" for an abstract one); qualifiers are dropped */
static const char *decl(Emit *e, Type *t, const char *inner) {
  switch (t->kind) {
  case TY_PTR:
    if (t->base->kind == TY_ARRAY) return decl(e, t->base, fmt("(*%s)", inner));
    return decl(e, t->base, fmt("*%s", inner));
  case TY_ARRAY:
    if (t->array_len < 0) return decl(e, t->base, fmt("%s[]", inner));
    return decl(e, t->base, fmt("%s[%d]", inner, t->array_len));
  default: return *inner ? fmt("%s %s", base_name(e, t), inner) : base_name(e, t);
  }
}
static const char *ctype(Emit *e, Type *t) { return decl(e, t, ""); }

/* the helper suffix of an integer or float type: s32, u64, f32, ... */
static const char *suffix(Emit *e, Node *at, Type *t) {
  if (t->kind == TY_FLOAT) return "f32";
  if (t->kind == TY_DOUBLE) return "f64";
  if (!is_integer(t)) unsupported(e, at, "an operation on a non-numeric type");
  if (t->kind == TY_BOOL) return "b";
  return fmt("%c%d", t->is_unsigned ? 'u' : 's', t->size * 8);
}

/* ---------------- expressions ---------------- */
static const char *ex(Emit *e, Node *n);
static const char *warp_value(Emit *e, Node *n, int j);
static int pref_find(Emit *e, Node *n);

/* the C text converting x (of type from) to type to, as interp.c's convert does */
static const char *conv(Emit *e, Node *at, const char *x, Type *from, Type *to) {
  if (to->kind == TY_VOID) return fmt("((void)(%s))", x);
  if (to->kind == TY_STRUCT) return x;
  if (from->kind == TY_ARRAY) from = pointer_to(from->base);
  /* pointers as integers are carve's addresses (space, buffer, offset), as the interpreter sees
   * them */
  if (to->kind == TY_PTR) {
    if (from->kind != TY_PTR && !(at && at->lhs && at->lhs->kind == ND_NUM && at->lhs->ival == 0))
      return fmt("((%s)cint2ptr(_e, (uint64_t)(%s)))", ctype(e, to), x);
    return fmt("((%s)(%s))", ctype(e, to), x);
  }
  if (from->kind == TY_PTR) {
    if (to->kind == TY_BOOL) return fmt("((_Bool)(%s))", x);
    return fmt("((%s)cptr2int(_e, (const void *)(%s)))", ctype(e, to), x);
  }
  if (is_flonum(from) && is_integer(to) && to->kind != TY_BOOL)
    return fmt("cf2i_%s((double)(%s))", suffix(e, at, to), x);
  return fmt("((%s)(%s))", ctype(e, to), x);
}

static const char *num(Emit *e, Node *n) {
  Type *t = n->ty;
  if (is_flonum(t)) {
    double d = t->kind == TY_FLOAT ? (double)(float)n->fval : n->fval;
    const char *c = d != d     ? "__builtin_nan(\"\")"
                    : isinf(d) ? (d > 0 ? "__builtin_inf()" : "(-__builtin_inf())")
                               : fmt("%a", d);
    return fmt("((%s)%s)", t->kind == TY_FLOAT ? "float" : "double", c);
  }
  int64_t v = n->ival;
  switch (t->size) { /* interp_impl.h's norm_int */
  case 1:
    v = t->kind == TY_BOOL ? v != 0 : t->is_unsigned ? (int64_t)(uint8_t)v : (int64_t)(int8_t)v;
    break;
  case 2: v = t->is_unsigned ? (int64_t)(uint16_t)v : (int64_t)(int16_t)v; break;
  case 4: v = t->is_unsigned ? (int64_t)(uint32_t)v : (int64_t)(int32_t)v; break;
  default: break;
  }
  if (t->is_unsigned) return fmt("((%s)%lluULL)", ctype(e, t), (unsigned long long)v);
  if (v == INT64_MIN) return fmt("((%s)(-9223372036854775807LL - 1))", ctype(e, t));
  return fmt("((%s)%lldLL)", ctype(e, t), (long long)v);
}

static const char *var_ref(Emit *e, Node *n) {
  Obj *v = n->var;
  switch (v->sc) {
  case SC_LOCAL:
  case SC_PARAM: {
    int i = var_index(e, v);
    return e->promoted[i] ? fmt("(_S->%s)", var_cname(e, v)) : var_cname(e, v);
  }
  /* the kernel's own code reads the block's constants from locals (a store through a pointer
   * cannot change them, so the compiler keeps them in registers); device functions from _e */
  case SC_SHARED:
    return fmt("(*(%s)(%s + %d))", decl(e, v->ty, "(*)"), e->in_kernel ? "_sh" : "_e->sh",
               v->offset);
  case SC_EXTERN_SHARED:
    return fmt("(*(%s)(%s + _e->dyn_base))", decl(e, v->ty, "(*)"),
               e->in_kernel ? "_sh" : "_e->sh");
  case SC_CONSTANT: return fmt("(*(%s)(_e->c->constant + %d))", decl(e, v->ty, "(*)"), v->offset);
  case SC_DEVICE_GLOBAL:
    return fmt("(*(%s)(_e->c->globals + %d))", decl(e, v->ty, "(*)"), v->offset);
  default: unsupported(e, n, fmt("the variable '%s' of this storage class", v->name));
  }
}

/* x*y + z as interp.c's fused computes it */
static const char *fused(Emit *e, Node *n) {
  bool sub = n->kind == ND_SUB;
  bool lhs_mul = n->lhs->kind == ND_MUL && n->lhs->ty->kind == n->ty->kind;
  Node *mul = lhs_mul ? n->lhs : n->rhs, *other = lhs_mul ? n->rhs : n->lhs;
  const char *f = n->ty->kind == TY_FLOAT ? "fmaf" : "fma";
  const char *p = ex(e, mul->lhs), *q = ex(e, mul->rhs), *c = ex(e, other);
  if (!sub) return fmt("%s(%s, %s, %s)", f, p, q, c);
  if (lhs_mul) return fmt("%s(%s, %s, -(%s))", f, p, q, c);
  return fmt("%s(-(%s), %s, %s)", f, p, q, c);
}

/* a op b in type t (operands already of type t) */
static const char *binop(Emit *e, Node *at, NodeKind k, const char *a, const char *b, Type *t) {
  static const char *ops[] = {
    [ND_ADD] = "+",   [ND_SUB] = "-",    [ND_MUL] = "*", [ND_DIV] = "/", [ND_BITAND] = "&",
    [ND_BITOR] = "|", [ND_BITXOR] = "^", [ND_EQ] = "==", [ND_NE] = "!=", [ND_LT] = "<",
    [ND_LE] = "<=",   [ND_GT] = ">",     [ND_GE] = ">="};
  bool cmp = k == ND_EQ || k == ND_NE || k == ND_LT || k == ND_LE || k == ND_GT || k == ND_GE;
  if (cmp) return fmt("((%s) %s (%s))", a, ops[k], b);
  if (is_flonum(t)) {
    if (k != ND_ADD && k != ND_SUB && k != ND_MUL && k != ND_DIV)
      unsupported(e, at, "this operator on a floating-point value");
    return fmt("((%s) %s (%s))", a, ops[k], b);
  }
  const char *s = suffix(e, at, t);
  switch (k) {
  case ND_DIV: return fmt("cdiv_%s(%s, %s, &_e->fault)", s, a, b);
  case ND_MOD: return fmt("cmod_%s(%s, %s, &_e->fault)", s, a, b);
  case ND_SHL: return fmt("cshl_%s(%s, (uint64_t)(int64_t)(%s))", s, a, b);
  case ND_SHR: return fmt("cshr_%s(%s, (uint64_t)(int64_t)(%s))", s, a, b);
  case ND_ADD:
  case ND_SUB:
  case ND_MUL:
  case ND_BITAND:
  case ND_BITOR:
  case ND_BITXOR: return fmt("((%s)((%s) %s (%s)))", ctype(e, t), a, ops[k], b);
  default: unsupported(e, at, "this operator");
  }
}

static const char *atomic(Emit *e, Node *n) {
  static const char *names[] = {
    [BI_ATOMIC_ADD] = "add", [BI_ATOMIC_SUB] = "sub", [BI_ATOMIC_EXCH] = "exch",
    [BI_ATOMIC_MIN] = "min", [BI_ATOMIC_MAX] = "max", [BI_ATOMIC_INC] = "inc",
    [BI_ATOMIC_DEC] = "dec", [BI_ATOMIC_CAS] = "cas", [BI_ATOMIC_AND] = "and",
    [BI_ATOMIC_OR] = "or",   [BI_ATOMIC_XOR] = "xor"};
  Type *t = n->ty;
  if (t->size != 4 && t->size != 8) unsupported(e, n, "an atomic on this type");
  const char *s = suffix(e, n, t);
  const char *p = ex(e, n->args), *a = ex(e, n->args->next);
  /* ordered: one worker, blocks and threads in the interpreter's order, plain read-modify-write */
  const char *mode = e->ordered ? "cas_" : "cap_";
  if (n->builtin == BI_ATOMIC_CAS)
    return fmt("%scas_%s(%s, %s, %s)", mode, s, p, a, ex(e, n->args->next->next));
  return fmt("%s%s_%s(%s, %s)", mode, names[n->builtin], s, p, a);
}

/* a __half operation as builtins.c's eval_half does it, through carve's own half.c (the context
 * carries its functions): binary16 values are their bits (unsigned short, __half2 unsigned int) */
static const char *half(Emit *e, Node *n) {
  const char *a = n->args ? ex(e, n->args) : "0";
  const char *b = n->args && n->args->next ? ex(e, n->args->next) : a;
  const char *c = n->args && n->args->next && n->args->next->next ? ex(e, n->args->next->next) : a;
  const char *T = ctype(e, n->ty);
  switch (n->ival) {
  case HOP_F2H:
  case HOP_I2H: return fmt("((%s)_e->c->hfd((double)(%s)))", T, a);
  case HOP_F2H2: return fmt("((%s)((uint64_t)_e->c->hfd((double)(%s)) * 0x10001u))", T, a);
  case HOP_FLOATS2H2:
    return fmt(
      "((%s)((uint64_t)_e->c->hfd((double)(%s)) | (uint64_t)_e->c->hfd((double)(%s)) << 16))", T, a,
      b);
  case HOP_H2F:
  case HOP_LOWF: return fmt("((float)_e->c->h2d((uint16_t)(%s)))", a);
  case HOP_HIGHF: return fmt("((float)_e->c->h2d((uint16_t)((uint64_t)(%s) >> 16)))", a);
  case HOP_H2I: {
    int i = e->tmp++;
    return fmt(
      "({ double _d%d = trunc(_e->c->h2d((uint16_t)(%s))); (%s)(isnan(_d%d) ? 0 : _d%d >= 2147483647.0 ? 2147483647 : _d%d <= -2147483648.0 ? "
      "(-2147483647 - 1) : (int64_t)_d%d); })",
      i, a, T, i, i, i, i);
  }
  case HOP_H22F2: {
    int i = e->tmp++;
    return fmt(
      "({ uint64_t _h%d = (uint64_t)(%s); (%s){(float)_e->c->h2d((uint16_t)_h%d), (float)_e->c->h2d((uint16_t)(_h%d >> 16))}; })",
      i, a, T, i, i);
  }
  default:
    return fmt("((%s)_e->c->hop(%d, (uint64_t)(%s), (uint64_t)(%s), (uint64_t)(%s)))", T,
               (int)n->ival, a, b, c);
  }
}

static const char *builtin(Emit *e, Node *n) {
  Node *a = n->args;
  Type *t = n->ty;
  switch (n->builtin) {
  case BI_THREADFENCE:
  case BI_THREADFENCE_BLOCK: return "((void)0)";
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
  case BI_ATOMIC_XOR: return atomic(e, n);
  case BI_POPC: return fmt("((int)__builtin_popcount((uint32_t)(%s)))", ex(e, a));
  case BI_POPCLL: return fmt("((int)__builtin_popcountll((uint64_t)(%s)))", ex(e, a));
  case BI_CLZ: return fmt("cclz32((uint32_t)(%s))", ex(e, a));
  case BI_CLZLL: return fmt("cclz64((uint64_t)(%s))", ex(e, a));
  case BI_FFS: return fmt("__builtin_ffs((int)(uint32_t)(%s))", ex(e, a));
  case BI_FFSLL: return fmt("__builtin_ffsll((long long)(%s))", ex(e, a));
  case BI_BREV: return fmt("cbrev((uint32_t)(%s))", ex(e, a));
  case BI_LDG: return fmt("(*(%s))", ex(e, a));
  case BI_MIN:
  case BI_MAX: {
    bool mx = n->builtin == BI_MAX;
    if (t->kind == TY_FLOAT)
      return fmt("%s(%s, %s)", mx ? "fmaxf" : "fminf", ex(e, a), ex(e, a->next));
    if (t->kind == TY_DOUBLE)
      return fmt("%s(%s, %s)", mx ? "fmax" : "fmin", ex(e, a), ex(e, a->next));
    int i = e->tmp++;
    const char *T = ctype(e, t);
    return fmt("({ %s _a%d = (%s)(%s), _b%d = (%s)(%s); (_a%d < _b%d) != %d ? _a%d : _b%d; })", T,
               i, T, ex(e, a), i, T, ex(e, a->next), i, i, mx, i, i);
  }
  case BI_ABS: {
    int i = e->tmp++;
    return fmt(
      "({ int64_t _x%d = (int64_t)(%s); (%s)(_x%d < 0 ? (int64_t)(0 - (uint64_t)_x%d) : _x%d); })",
      i, ex(e, a), ctype(e, t), i, i, i);
  }
  case BI_MATH: {
    if (n->ival == 1) { /* sincos(x, &s, &c) */
      bool fl = a->ty->kind == TY_FLOAT;
      int i = e->tmp++;
      return fmt("({ %s _x%d = %s; *(%s) = %s(_x%d); *(%s) = %s(_x%d); })", fl ? "float" : "double",
                 i, ex(e, a), ex(e, a->next), fl ? "sinf" : "sin", i, ex(e, a->next->next),
                 fl ? "cosf" : "cos", i);
    }
    e->math_used[n->math->id] = true;
    const char *args[3] = {"0", "0", "0"};
    int k = 0;
    for (Node *x = a; x && k < 3; x = x->next) args[k++] = ex(e, x);
    return fmt("m_%s(%s, %s, %s)", n->math->name, args[0], args[1], args[2]);
  }
  case BI_MAKE_VECTOR: {
    Buf *b = tmpbuf(e);
    buf_printf(b, "((%s){", ctype(e, t));
    Member *m = t->members;
    for (Node *x = a; x && m; x = x->next, m = m->next)
      buf_printf(b, "%s(%s)(%s)", x == a ? "" : ", ", ctype(e, m->ty), ex(e, x));
    buf_puts(b, "})");
    const char *r = fmt("%s", b->s);
    return r;
  }
  case BI_ASSERT: return fmt("((%s) ? (void)0 : (void)(_e->fault |= CF_ASSERT))", ex(e, a));
  case BI_SYNCTHREADS:
  case BI_SYNCWARP: unsupported(e, n, "a barrier inside an expression");
  case BI_SHFL:
  case BI_SHFL_UP:
  case BI_SHFL_DOWN:
  case BI_SHFL_XOR: unsupported(e, n, "warp shuffles");
  case BI_BALLOT:
  case BI_ANY:
  case BI_ALL:
  case BI_ACTIVEMASK: unsupported(e, n, "warp votes");
  case BI_SYNCTHREADS_COUNT:
  case BI_SYNCTHREADS_AND:
  case BI_SYNCTHREADS_OR: unsupported(e, n, "__syncthreads_count/and/or");
  case BI_PRINTF: unsupported(e, n, "printf");
  case BI_CLOCK: unsupported(e, n, "clock()");
  case BI_HALF: return half(e, n);
  case BI_CG: /* builtins.c's eval_cg: a method runs what it lowered to (lhs) */
    if (n->ival == CG_THIS_BLOCK) return "((int)0)";
    if (n->ival == CG_TILED) return fmt("((int)%d)", n->ty->cg_group);
    if (n->ival == CG_METHOD || n->ival == CG_SYNC || n->ival == CG_CALL) return ex(e, n->lhs);
    if (n->ival == CG_GRID_SYNC)
      unsupported(e, n, "a grid-wide sync (cooperative_groups::grid_group::sync)");
    unsupported(e, n, "a cooperative groups reduce outside the level of the barriers");
  case BI_PIPE_COPY:
  case BI_PIPE_COMMIT:
  case BI_PIPE_WAIT: unsupported(e, n, "async copies (__pipeline_*)");
  default: unsupported(e, n, "this builtin");
  }
}

static void emit_function(Emit *e, Obj *fn, Node *at);

static const char *call(Emit *e, Node *n) {
  if (!n->fn) return builtin(e, n);
  Obj *fn = n->fn;
  if (!fn->body || fn->is_host_lib)
    unsupported(e, n, fmt("a call of '%s', which has no device definition", fn->name));
  if (fn->uses_barrier)
    unsupported(e, n, fmt("a barrier inside the device function '%s'", fn->name));
  emit_function(e, fn, n);
  int id = 0;
  while (e->funcs[id] != fn) id++;
  Buf *b = tmpbuf(e);
  buf_printf(b, "f%d_%s(_e", id, clean(fn->name));
  for (Node *x = n->args; x; x = x->next) buf_printf(b, ", %s", ex(e, x));
  buf_puts(b, ")");
  const char *r = fmt("%s", b->s);
  return r;
}

/* lhs op= rhs with interp.c's conversions: old value to the operation type, back to lhs's */
static const char *assign_op(Emit *e, Node *n) {
  Type *lt = n->lhs->ty, *ct = n->cast_ty;
  int i = e->tmp++;
  const char *L = ctype(e, lt);
  const char *lv = ex(e, n->lhs);
  if (lt->kind == TY_PTR)
    return fmt("({ %s *_p%d = &(%s); *_p%d %s= (%s); *_p%d; })", L, i, lv, i,
               n->op == ND_ADD ? "+" : "-", ex(e, n->rhs), i);
  const char *old = conv(e, n, fmt("(*_p%d)", i), lt, ct), *res;
  if (n->contract) {
    const char *x = ex(e, n->rhs->lhs), *y = ex(e, n->rhs->rhs);
    bool sub = n->op == ND_SUB;
    res =
      fmt("%s(%s(%s), %s, %s)", ct->kind == TY_FLOAT ? "fmaf" : "fma", sub ? "-" : "", x, y, old);
  } else {
    res = binop(e, n, n->op, old, ex(e, n->rhs), ct);
  }
  return fmt("({ %s *_p%d = &(%s); *_p%d = %s; *_p%d; })", L, i, lv, i, conv(e, n, res, ct, lt), i);
}

static const char *ex(Emit *e, Node *n) {
  if (n->tok) {
    e->at = n;
    e->at_tok = NULL;
  }
  if (e->npref) { /* computed before its statement: a warp operation, an inlined call */
    int j = pref_find(e, n);
    if (j >= 0 && n->fn) return fmt("(_S->_r%d)", j);
    if (j == -3) return "((void)0)";
    if (j >= 0 || j == -2) return warp_value(e, n, j);
  }
  switch (n->kind) {
  case ND_NUM: return num(e, n);
  case ND_SIZEOF: return fmt("((%s)%lldLL)", ctype(e, n->ty), (long long)n->ival);
  case ND_VAR: return var_ref(e, n);
  case ND_SPECIAL: {
    static const char *f[4][3] = {
      {"tx", "ty", "tz"}, {"bx", "by", "bz"}, {"ntx", "nty", "ntz"}, {"nbx", "nby", "nbz"}};
    if (n->sreg == SR_WARPSIZE) return "((int)32)";
    return fmt("((%s)%s%s)", ctype(e, n->ty), e->in_kernel ? "_" : "_e->", f[n->sreg][n->dim]);
  }
  case ND_ADD:
  case ND_SUB:
    if (n->contract) return fused(e, n);
    if (is_pointer_like(n->lhs->ty) || is_pointer_like(n->rhs->ty))
      return fmt("((%s) %s (%s))", ex(e, n->lhs), n->kind == ND_ADD ? "+" : "-", ex(e, n->rhs));
    return binop(e, n, n->kind, ex(e, n->lhs), ex(e, n->rhs), n->ty);
  case ND_MUL:
  case ND_DIV:
  case ND_MOD:
  case ND_BITAND:
  case ND_BITOR:
  case ND_BITXOR:
  case ND_SHL:
  case ND_SHR: return binop(e, n, n->kind, ex(e, n->lhs), ex(e, n->rhs), n->ty);
  case ND_EQ:
  case ND_NE:
  case ND_LT:
  case ND_LE:
  case ND_GT:
  case ND_GE: return binop(e, n, n->kind, ex(e, n->lhs), ex(e, n->rhs), n->lhs->ty);
  case ND_LOGAND: return fmt("((%s) && (%s))", ex(e, n->lhs), ex(e, n->rhs));
  case ND_LOGOR: return fmt("((%s) || (%s))", ex(e, n->lhs), ex(e, n->rhs));
  case ND_NOT: return fmt("(!(%s))", ex(e, n->lhs));
  case ND_NEG:
    if (is_flonum(n->ty)) return fmt("(-(%s))", ex(e, n->lhs));
    return fmt("((%s)(0 - (%s)))", ctype(e, n->ty), ex(e, n->lhs));
  case ND_POS: return ex(e, n->lhs);
  case ND_BITNOT: return fmt("((%s)~(%s))", ctype(e, n->ty), ex(e, n->lhs));
  case ND_COND: return fmt("((%s) ? (%s) : (%s))", ex(e, n->cond), ex(e, n->then), ex(e, n->els));
  case ND_COMMA: return fmt("((%s), (%s))", ex(e, n->lhs), ex(e, n->rhs));
  case ND_CAST: return conv(e, n, ex(e, n->lhs), n->lhs->ty, n->ty);
  case ND_ADDR: return fmt("(&(%s))", ex(e, n->lhs));
  case ND_DEREF: return fmt("(*(%s))", ex(e, n->lhs));
  case ND_INDEX: return fmt("((%s)[%s])", ex(e, n->lhs), ex(e, n->rhs));
  case ND_MEMBER:
    return fmt("((%s)%sm_%s)", ex(e, n->lhs), n->arrow ? "->" : ".",
               clean(tok_text(n->member->name)));
  case ND_ASSIGN: return fmt("((%s) = (%s))", ex(e, n->lhs), ex(e, n->rhs));
  case ND_ASSIGN_OP: return assign_op(e, n);
  case ND_PREINC: return fmt("(++(%s))", ex(e, n->lhs));
  case ND_PREDEC: return fmt("(--(%s))", ex(e, n->lhs));
  case ND_POSTINC: return fmt("((%s)++)", ex(e, n->lhs));
  case ND_POSTDEC: return fmt("((%s)--)", ex(e, n->lhs));
  case ND_CALL: return call(e, n);
  case ND_STR: unsupported(e, n, "a string literal");
  case ND_INIT_LIST: unsupported(e, n, "an initializer list outside a declaration");
  default: unsupported(e, n, "this expression");
  }
}

/* ---------------- statements ---------------- */
static void out(Emit *e, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void out(Emit *e, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  buf_puts(e->o, vfmt(f, ap));
  va_end(ap);
}

static const char *init_list(Emit *e, Node *init) {
  if (init->kind != ND_INIT_LIST) return ex(e, init);
  Buf *b = tmpbuf(e);
  buf_puts(b, "{");
  for (Node *x = init->elems; x; x = x->next)
    buf_printf(b, "%s%s", x == init->elems ? "" : ", ", init_list(e, x));
  buf_puts(b, "}");
  const char *r = fmt("%s", b->s ? b->s : "{}");
  return r;
}

static void stmt(Emit *e, Node *n);

static void decl_stmt(Emit *e, Node *n) {
  Obj *v = n->var;
  if (v->tok) e->at = n;
  if (v->sc == SC_SHARED || v->sc == SC_EXTERN_SHARED) return; /* in the shared area by offset */
  if (v->sc != SC_LOCAL) unsupported(e, n, "a static local variable");
  if (v->is_volatile || (v->ty->qual & Q_VOLATILE)) unsupported(e, n, "a volatile variable");
  int i = var_index(e, v);
  if (e->promoted[i]) { /* a field of the per-thread record: the declaration is an assignment */
    if (!n->decl_init) return;
    if (n->decl_init->kind == ND_INIT_LIST) {
      int t = e->tmp++;
      out(e, "{ %s = %s; memcpy(&_S->%s, &_i%d, sizeof _i%d); }\n", decl(e, v->ty, fmt("_i%d", t)),
          init_list(e, n->decl_init), var_cname(e, v), t, t);
    } else {
      out(e, "_S->%s = %s;\n", var_cname(e, v), ex(e, n->decl_init));
    }
    return;
  }
  if (n->decl_init)
    out(e, "%s = %s;\n", decl(e, v->ty, var_cname(e, v)), init_list(e, n->decl_init));
  else out(e, "%s;\n", decl(e, v->ty, var_cname(e, v)));
}

static void body_stmt(Emit *e, Node *n) {
  e->brk_depth++;
  e->cont_depth++;
  stmt(e, n);
  e->brk_depth--;
  e->cont_depth--;
}

static void stmt(Emit *e, Node *n) {
  if (n->tok) {
    e->at = n;
    e->at_tok = NULL;
  }
  switch (n->kind) {
  case ND_BLOCK:
    out(e, "{\n");
    for (Node *s = n->stmts; s; s = s->next) stmt(e, s);
    out(e, "}\n");
    return;
  case ND_DECL: decl_stmt(e, n); return;
  case ND_EXPR_STMT: out(e, "(void)(%s);\n", ex(e, n->lhs)); return;
  case ND_NULL_STMT:
  case ND_PRAGMA: out(e, ";\n"); return;
  case ND_IF:
    out(e, "if (%s) ", ex(e, n->cond));
    stmt(e, n->then);
    if (n->els) {
      out(e, "else ");
      stmt(e, n->els);
    }
    return;
  case ND_FOR:
    out(e, "{\n");
    for (Node *d = n->init; d; d = d->next) stmt(e, d);
    out(e, "for (; %s; %s) ", n->cond ? ex(e, n->cond) : "1",
        n->inc ? fmt("(void)(%s)", ex(e, n->inc)) : "");
    body_stmt(e, n->then);
    out(e, "}\n");
    return;
  case ND_WHILE:
    out(e, "while (%s) ", ex(e, n->cond));
    body_stmt(e, n->then);
    return;
  case ND_DO:
    out(e, "do ");
    body_stmt(e, n->then);
    out(e, "while (%s);\n", ex(e, n->cond));
    return;
  case ND_SWITCH:
    out(e, "switch ((int64_t)(%s)) ", ex(e, n->cond));
    e->brk_depth++;
    stmt(e, n->then);
    e->brk_depth--;
    return;
  case ND_CASE:
    if (n->is_default) out(e, "default: ;\n");
    else out(e, "case %lldLL: ;\n", (long long)n->case_val);
    if (n->lhs) stmt(e, n->lhs);
    return;
  case ND_BREAK:
    if (!e->brk_depth) unsupported(e, n, "a break out of a loop that contains a barrier");
    out(e, "break;\n");
    return;
  case ND_CONTINUE:
    if (!e->cont_depth) unsupported(e, n, "a continue in a loop that contains a barrier");
    out(e, "continue;\n");
    return;
  case ND_RETURN:
    if (e->ninl) { /* the end of an inlined synchronizing function: its value to its field */
      if (n != e->inl_last[e->ninl - 1] || !e->in_region)
        unsupported(e, n, "a return before the end of a function with barriers or warp operations");
      if (n->lhs && e->inl_ret[e->ninl - 1] >= 0)
        out(e, "_S->_r%d = %s;\n", e->inl_ret[e->ninl - 1], ex(e, n->lhs));
      else if (n->lhs) out(e, "(void)(%s);\n", ex(e, n->lhs));
      return;
    }
    if (e->in_kernel && e->barrier_mode) { /* the thread is done: it skips the rest of the kernel */
      if (e->in_region) out(e, "{ _S->_done = 1; goto _next%d; }\n", e->region);
      else out(e, "goto _end;\n");
      return;
    }
    if (n->lhs) out(e, "return %s;\n", ex(e, n->lhs));
    else out(e, "return;\n");
    return;
  default: out(e, "(void)(%s);\n", ex(e, n)); return;
  }
}

/* ---------------- device functions ---------------- */
static void emit_function(Emit *e, Obj *fn, Node *at) {
  for (int i = 0; i < e->nfuncs; i++)
    if (e->funcs[i] == fn) return;
  if (e->nfuncs == e->capfuncs) {
    e->capfuncs = e->capfuncs ? e->capfuncs * 2 : 16;
    e->funcs = realloc(e->funcs, sizeof *e->funcs * (size_t)e->capfuncs);
    if (!e->funcs) abort();
  }
  int id = e->nfuncs++;
  e->funcs[id] = fn;
  Buf *b = tmpbuf(e);
  buf_printf(b, "f%d_%s(Env *_e", id, clean(fn->name));
  for (Obj *p = fn->params; p; p = p->next) {
    e->at = NULL;
    e->at_tok = p->tok;
    if (p->ty->kind == TY_ARRAY) unsupported(e, at, "an array parameter");
    buf_printf(b, ", %s", decl(e, p->ty, var_cname(e, p)));
  }
  buf_puts(b, ")");
  Type *rt = fn->ty->return_ty ? fn->ty->return_ty : ty_void;
  const char *head = decl(e, rt, b->s);
  buf_printf(&e->protos, "static %s;\n", head);
  /* the body, with the emitter's per-function state saved around it */
  Buf *body = tmpbuf(e), *save_o = e->o;
  bool save_k = e->in_kernel, save_r = e->in_region;
  int sb = e->brk_depth, sc = e->cont_depth, sinl = e->ninl;
  e->o = body;
  e->in_kernel = false;
  e->in_region = false;
  e->ninl = 0; /* first called from an inlined synchronizing function: its returns are its own */
  e->brk_depth = e->cont_depth = 0;
  out(e, "static inline %s {\n", head);
  for (Node *s = fn->body->kind == ND_BLOCK ? fn->body->stmts : fn->body; s; s = s->next)
    stmt(e, s);
  if (rt->kind != TY_VOID)
    out(e, "{ %s; memset(&_z, 0, sizeof _z); return _z; }\n", decl(e, rt, "_z"));
  out(e, "}\n");
  e->o = save_o;
  e->in_kernel = save_k;
  e->in_region = save_r;
  e->brk_depth = sb;
  e->cont_depth = sc;
  e->ninl = sinl;
  buf_puts(&e->fns, body->s);
}

/* ---------------- barriers: loop fission ---------------- */
/* what a subtree synchronizes: SYNC_BLOCK a block-wide barrier (__syncthreads, also through a
 * device function), SYNC_WARP a warp operation (shuffle, vote, __syncwarp, __activemask) */
enum { SYNC_BLOCK = 1, SYNC_WARP = 2 };
static bool is_warp_op(Node *n) {
  if (n->kind != ND_CALL || n->fn) return false;
  if (n->builtin == BI_CG) return n->ival == CG_REDUCE;
  switch (n->builtin) {
  case BI_SHFL:
  case BI_SHFL_UP:
  case BI_SHFL_DOWN:
  case BI_SHFL_XOR:
  case BI_BALLOT:
  case BI_ANY:
  case BI_ALL:
  case BI_ACTIVEMASK: return true;
  default: return false;
  }
}
static bool is_barrier_call(Node *n) {
  return n->kind == ND_CALL && !n->fn &&
         (n->builtin == BI_SYNCTHREADS || n->builtin == BI_SYNCWARP);
}
/* the statements of a compound statement, or the one statement */
static Node *stmts_of(Node *n) { return n && n->kind == ND_BLOCK ? n->stmts : n; }
static Node *strip_void(Node *x) {
  for (;;) {
    if (x->kind == ND_CAST && x->ty->kind == TY_VOID) x = x->lhs;
    else if (x->kind == ND_CALL && !x->fn && x->builtin == BI_CG &&
             (x->ival == CG_METHOD || x->ival == CG_SYNC || x->ival == CG_CALL) && x->lhs)
      x = x->lhs;
    else return x;
  }
}
typedef struct SyncScan {
  int kind, depth;
} SyncScan;
static int sync_kind(Node *n);
static bool find_sync(Node *n, void *ctx) {
  SyncScan *s = ctx;
  if (n->kind != ND_CALL) return true;
  if (!n->fn) {
    if (n->builtin == BI_SYNCTHREADS || n->builtin == BI_SYNCTHREADS_COUNT ||
        n->builtin == BI_SYNCTHREADS_AND || n->builtin == BI_SYNCTHREADS_OR)
      s->kind |= SYNC_BLOCK;
    if (n->builtin == BI_SYNCWARP || is_warp_op(n)) s->kind |= SYNC_WARP;
    return true;
  }
  if (n->fn->uses_barrier) s->kind |= SYNC_BLOCK;
  if (n->fn->body && s->depth < 8) { /* device functions: what they do is done here */
    s->depth++;
    walk(n->fn->body, find_sync, NULL, s);
    s->depth--;
  }
  return true;
}
static int sync_kind(Node *n) {
  SyncScan s = {0, 0};
  walk_one(n, find_sync, NULL, &s);
  return s.kind;
}
static bool has_barrier(Node *n) { return sync_kind(n) != 0; }

/* a node computed before its statement (a warp operation's operands, an inlined call's result) */
static void pref_add(Emit *e, Node *n, int slot) {
  if (e->npref == e->cappref) {
    e->cappref = e->cappref ? e->cappref * 2 : 32;
    e->pref = realloc(e->pref, sizeof *e->pref * (size_t)e->cappref);
    e->prefslot = realloc(e->prefslot, sizeof *e->prefslot * (size_t)e->cappref);
    if (!e->pref || !e->prefslot) abort();
  }
  e->pref[e->npref] = n;
  e->prefslot[e->npref++] = slot;
}
static int pref_find(Emit *e, Node *n) {
  for (int i = e->npref - 1; i >= 0; i--)
    if (e->pref[i] == n) return e->prefslot[i];
  return -1;
}

/* a thread loop: every live thread of the current group (the block, or one warp) runs the
 * statements */
static void region_begin(Emit *e) {
  e->region++;
  out(
    e,
    "for (int _t = _L%d; _t < _H%d; _t++) {\nTS *_S = &_ts[_t];\nif (_S->_done) continue;\n"
    "const unsigned _tx = _S->_tx, _ty = _S->_ty, _tz = _S->_tz;\n_e->tx = _tx; _e->ty = _ty; _e->tz = _tz;\n{\n",
    e->grp, e->grp);
  e->in_region = true;
  e->brk_depth = e->cont_depth = 0;
}
static void region_end(Emit *e) {
  out(e, "}\n_next%d:;\n}\nif (_e->fault) goto _end;\n", e->region);
  e->in_region = false;
}
/* where the group goes when none of its threads is live: the kernel's end, or the next warp */
static const char *group_exit(Emit *e) { return e->grp ? fmt("_wn%d", e->grp) : "_end"; }

/* the value of a warp operation for thread _t, from the operands every live lane of its warp
 * stored in the operation's slot (builtins.c's eval_shfl and votes; a read of an inactive lane or
 * a bad width or mask is a fault, and the interpreter then says where) */
static const char *warp_value(Emit *e, Node *n, int j) {
  int g = e->grp;
  switch (n->builtin) {
  case BI_SHFL:
  case BI_SHFL_UP:
  case BI_SHFL_DOWN:
  case BI_SHFL_XOR: {
    int kind = n->builtin == BI_SHFL        ? 0
               : n->builtin == BI_SHFL_UP   ? 1
               : n->builtin == BI_SHFL_DOWN ? 2
                                            : 3;
    return fmt(
      "({ int _l = _t - _L%d; int _s = _L%d + cshfl_src(%d, _l, _S->_sa%d, _S->_sw%d, _S->_sm%d, &_e->fault);"
      " if (_s != _t && (_s >= _H%d || _ts[_s]._done || !((_S->_sm%d >> (_s - _L%d)) & 1u))) { _e->fault |= CF_SHUFFLE; _s = _t; } _ts[_s]._sv%d; })",
      g, g, kind, j, j, j, g, j, g, j);
  }
  case BI_BALLOT:
  case BI_ANY:
  case BI_ALL: {
    int kind = n->builtin == BI_BALLOT ? 0 : n->builtin == BI_ANY ? 1 : 2;
    return fmt(
      "({ uint32_t _b = 0, _a = 0; for (int _k = _L%d; _k < _H%d; _k++) if (!_ts[_k]._done) { _a |= 1u << (_k - _L%d);"
      " if (_ts[_k]._sa%d) _b |= 1u << (_k - _L%d); } uint32_t _sel = _S->_sm%d & _a; _b &= _sel;"
      " (unsigned)(%d == 0 ? _b : %d == 1 ? _b != 0 : _b == _sel); })",
      g, g, g, j, g, j, kind, kind);
  }
  /* cooperative_groups::reduce: the xor butterfly over the tile, the whole tile live */
  case BI_CG: {
    int size = n->args->ty->cg_group;
    if (size < 0) unsupported(e, n, "a cooperative groups reduce over a coalesced_group");
    const char *T = ctype(e, n->ty);
    const char *comb = n->op == ND_ADD      ? "(%s)(_a + _b)"
                       : n->op == ND_LT     ? "(_a < _b ? _a : _b)"
                       : n->op == ND_GT     ? "(_a > _b ? _a : _b)"
                       : n->op == ND_BITAND ? "(%s)(_a & _b)"
                       : n->op == ND_BITOR  ? "(%s)(_a | _b)"
                                            : "(%s)(_a ^ _b)";
    return fmt(
      "({ int _l = _t - _L%d, _sb = _l & ~(%d - 1); %s _v[32], _n[32];"
      " for (int _k = 0; _k < %d; _k++) { int _g = _L%d + _sb + _k; if (_g >= _H%d || _ts[_g]._done) { _e->fault |= CF_SHUFFLE; _v[_k] = 0; } else _v[_k] = _ts[_g]._sv%d; }"
      " for (int _o = %d / 2; _o >= 1; _o /= 2) { for (int _k = 0; _k < %d; _k++) { %s _a = _v[_k], _b = _v[_k ^ _o]; _n[_k] = %s; }"
      " memcpy(_v, _n, sizeof(%s) * %d); } _v[_l - _sb]; })",
      g, size, T, size, g, g, j, size, size, T, fmt(comb, T), T, size);
  }
  default: /* __activemask: the live lanes */
    return fmt(
      "({ uint32_t _a = 0; for (int _k = _L%d; _k < _H%d; _k++) if (!_ts[_k]._done) _a |= 1u << (_k - _L%d); _a; })",
      g, g, g);
  }
}

static void block_level(Emit *e, Node *list);

/* the warp operations and calls of synchronizing device functions in expression n, computed
 * before the statement that holds n: operands stored by every live thread, calls inlined at
 * the level of the barriers; n then reads their results */
typedef struct Collect {
  Node *list[64];
  int n;
  int under_cond;
  Node *bad;
} Collect;
static bool collect_pre(Node *n, void *ctx) {
  Collect *c = ctx;
  bool sync = (n->kind == ND_CALL && n->fn && sync_kind(n)) || is_warp_op(n);
  if (sync) {
    if (c->under_cond || c->n == 64) c->bad = n;
    else c->list[c->n++] = n;
    /* operands holding another one: not supported */
    for (Node *a = n->args; a; a = a->next)
      if (sync_kind(a)) c->bad = n;
    return false;
  }
  if (n->kind == ND_COND || n->kind == ND_LOGAND || n->kind == ND_LOGOR) c->under_cond++;
  return true;
}
static bool collect_post(Node *n, void *ctx) {
  Collect *c = ctx;
  if (n->kind == ND_COND || n->kind == ND_LOGAND || n->kind == ND_LOGOR) c->under_cond--;
  return true;
}

static void inline_call(Emit *e, Node *call);

static void prefetch(Emit *e, Node *n) {
  if (!n || !sync_kind(n)) return;
  Collect c = {.n = 0};
  walk_one(n, collect_pre, collect_post, &c);
  if (c.bad)
    unsupported(
      e, c.bad,
      "a warp operation or synchronizing call inside a condition, or in another one's operands");
  bool ops = false;
  for (int i = 0; i < c.n; i++)
    if (!c.list[i]->fn && c.list[i]->builtin != BI_ACTIVEMASK) ops = true;
  if (ops) { /* one thread loop stores every operation's operands */
    region_begin(e);
    for (int i = 0; i < c.n; i++) {
      Node *x = c.list[i];
      if (x->fn || x->builtin == BI_ACTIVEMASK) continue;
      int j = e->tmp++;
      Node *m = x->args, *v = m->next;
      if (x->builtin == BI_CG) { /* reduce: the value */
        buf_printf(&e->tsx, "%s;\n", decl(e, x->ty, fmt("_sv%d", j)));
        out(e, "_S->_sv%d = (%s);\n", j, ex(e, v));
      } else if (x->builtin == BI_BALLOT || x->builtin == BI_ANY || x->builtin == BI_ALL) {
        buf_printf(&e->tsx, "int64_t _sa%d; uint32_t _sm%d;\n", j, j);
        out(e, "_S->_sm%d = (uint32_t)(%s); _S->_sa%d = (%s) != 0;\n", j, ex(e, m), j, ex(e, v));
      } else {
        Node *s = v->next, *w = s->next;
        buf_printf(&e->tsx, "%s; int64_t _sa%d; uint32_t _sm%d; int _sw%d;\n",
                   decl(e, x->ty, fmt("_sv%d", j)), j, j, j);
        out(
          e,
          "_S->_sm%d = (uint32_t)(%s); _S->_sv%d = (%s); _S->_sa%d = (int64_t)(%s); _S->_sw%d = %s;\n",
          j, ex(e, m), j, ex(e, v), j, ex(e, s), j, w ? fmt("(int)(%s)", ex(e, w)) : "32");
      }
      pref_add(e, x, j);
    }
    region_end(e);
  }
  for (int i = 0; i < c.n; i++) {
    if (c.list[i]->fn) inline_call(e, c.list[i]);
    else if (c.list[i]->builtin == BI_ACTIVEMASK) pref_add(e, c.list[i], -2);
  }
}

/* a call of a device function that synchronizes, inlined at the level of the barriers: its
 * parameters and the locals at its top level are fields of the per-thread record; its return
 * must be its last statement (its value goes to a field _r<j>) */
static void inline_call(Emit *e, Node *call) {
  Obj *fn = call->fn;
  if (!fn->body)
    unsupported(e, call, fmt("a call of '%s', which has no device definition", fn->name));
  for (int i = 0; i < e->ninl; i++)
    if (e->inl[i] == fn) unsupported(e, call, "a recursive call of a synchronizing function");
  if (e->ninl == 8) unsupported(e, call, "synchronizing calls nested more than 8 deep");
  Type *rt = fn->ty->return_ty ? fn->ty->return_ty : ty_void;
  int j = e->tmp++;
  if (rt->kind != TY_VOID) buf_printf(&e->tsx, "%s;\n", decl(e, rt, fmt("_r%d", j)));
  region_begin(e);
  Node *a = call->args;
  for (Obj *p = fn->params; p; p = p->next, a = a ? a->next : NULL) {
    if (!a) unsupported(e, call, "a call with too few arguments");
    promote(e, p);
    if (p->ty->kind == TY_ARRAY) unsupported(e, call, "an array parameter");
    out(e, "_S->%s = %s;\n", var_cname(e, p), ex(e, a));
  }
  region_end(e);
  Node *body = stmts_of(fn->body), *last = body;
  while (last && last->next) last = last->next;
  e->inl[e->ninl] = fn;
  e->inl_last[e->ninl] = last && last->kind == ND_RETURN ? last : NULL;
  e->inl_ret[e->ninl] = rt->kind != TY_VOID ? j : -1;
  e->ninl++;
  block_level(e, body);
  e->ninl--;
  pref_add(e, call, rt->kind != TY_VOID ? j : -3);
}

/* the block-wide (or warp-wide) value of a condition: every live thread evaluates it and all
 * must agree; leaves _u<id> = -1 when no thread is live */
static int uniform_cond(Emit *e, Node *cond) {
  prefetch(e, cond);
  int u = e->tmp++;
  out(e, "int _u%d = -1;\n", u);
  region_begin(e);
  out(
    e,
    "int _v = (%s) != 0;\nif (_u%d < 0) _u%d = _v; else if (_u%d != _v) _e->fault |= CF_DIVERGENT;\n",
    cond ? ex(e, cond) : "1", u, u, u);
  region_end(e);
  return u;
}

static void block_stmt(Emit *e, Node *n) {
  int k = sync_kind(n);
  if (e->grp == 0 && !(k & SYNC_BLOCK)) {
    /* only warp operations: the statement runs warp by warp, as the interpreter runs warps */
    int g = ++e->ngrp, outer = e->grp;
    out(
      e,
      "for (int _wb%d = _L%d; _wb%d < _H%d; _wb%d += 32) {\nint _L%d = _wb%d, _H%d = _wb%d + 32 < _H%d ? _wb%d + 32 : _H%d;\n",
      g, outer, g, outer, g, g, g, g, g, outer, g, outer);
    e->grp = g;
    block_stmt(e, n);
    e->grp = outer;
    out(e, "_wn%d:;\n}\n", g);
    return;
  }
  switch (n->kind) {
  case ND_EXPR_STMT:
    if (is_barrier_call(strip_void(n->lhs))) {
      out(e, "/* barrier (line %d) */\n", tok_loc(n->tok).line);
      return;
    }
    /* fallthrough */
  case ND_DECL:
  case ND_RETURN:
    prefetch(e, n->kind == ND_DECL ? n->decl_init : n->lhs);
    if (n->kind == ND_DECL && n->decl_init && n->decl_init->kind == ND_INIT_LIST)
      unsupported(e, n, "an initializer list with a warp operation");
    region_begin(e);
    stmt(e, n);
    region_end(e);
    return;
  case ND_BLOCK: block_level(e, n->stmts); return;
  case ND_IF: {
    int u = uniform_cond(e, n->cond);
    out(e, "if (_u%d < 0) goto %s;\nif (_u%d) {\n", u, group_exit(e), u);
    block_level(e, stmts_of(n->then));
    out(e, "}\n");
    if (n->els) {
      out(e, "else {\n");
      block_level(e, stmts_of(n->els));
      out(e, "}\n");
    }
    return;
  }
  case ND_FOR:
  case ND_WHILE:
  case ND_DO: {
    if (n->kind == ND_FOR && n->init) block_level(e, n->init);
    if (n->kind == ND_FOR && n->inc && !sync_kind(n->inc) && (!n->cond || !sync_kind(n->cond))) {
      /* the increment and the next test in one thread loop (no barrier lies between them) */
      int u = uniform_cond(e, n->cond);
      out(e, "for (;;) {\nif (_u%d <= 0) break;\n", u);
      block_level(e, stmts_of(n->then));
      out(e, "_u%d = -1;\n", u);
      region_begin(e);
      out(
        e,
        "(void)(%s);\nint _v = (%s) != 0;\nif (_u%d < 0) _u%d = _v; else if (_u%d != _v) _e->fault |= CF_DIVERGENT;\n",
        ex(e, n->inc), n->cond ? ex(e, n->cond) : "1", u, u, u);
      region_end(e);
      out(e, "}\n");
      return;
    }
    out(e, "for (;;) {\n");
    if (n->kind != ND_DO) {
      int u = uniform_cond(e, n->cond);
      out(e, "if (_u%d <= 0) break;\n", u);
    }
    block_level(e, stmts_of(n->then));
    if (n->kind == ND_DO) {
      int u = uniform_cond(e, n->cond);
      out(e, "if (_u%d <= 0) break;\n", u);
    }
    if (n->kind == ND_FOR && n->inc) {
      prefetch(e, n->inc);
      region_begin(e);
      out(e, "(void)(%s);\n", ex(e, n->inc));
      region_end(e);
    }
    out(e, "}\n");
    return;
  }
  default: break;
  }
  unsupported(e, n,
              "a barrier or warp operation inside this statement (a switch, break, continue)");
}

/* a statement list at the level of the barriers: barrier-free runs become thread loops */
static void block_level(Emit *e, Node *list) {
  Node *s = list;
  /* the declarations at this level live across thread loops: fields of the per-thread record */
  for (Node *d = s; d; d = d->next)
    if (d->kind == ND_DECL && d->var->sc == SC_LOCAL) promote(e, d->var);
  while (s) {
    if (has_barrier(s)) {
      block_stmt(e, s);
      s = s->next;
      continue;
    }
    region_begin(e);
    for (; s && !has_barrier(s); s = s->next) stmt(e, s);
    region_end(e);
  }
}

/* ---------------- atomics: are they order-free? ---------------- */
typedef struct AtomScan {
  int sites, loops, in_loop;
  bool ordered;
  Node *unused[256];
  int nunused;
} AtomScan;
static bool atom_pre(Node *n, void *ctx) {
  AtomScan *a = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) a->loops++;
  if (n->kind == ND_EXPR_STMT) {
    Node *x = n->lhs;
    while (x->kind == ND_CAST && x->ty->kind == TY_VOID) x = x->lhs;
    if (x->kind == ND_CALL && a->nunused < 256) a->unused[a->nunused++] = x;
  }
  if (n->kind == ND_CALL && !n->fn && n->builtin >= BI_ATOMIC_ADD && n->builtin <= BI_ATOMIC_XOR) {
    a->sites++;
    if (a->loops) a->in_loop++;
    bool used = true;
    for (int i = 0; i < a->nunused; i++)
      if (a->unused[i] == n) used = false;
    Builtin b = n->builtin;
    if (used || is_flonum(n->ty) || b == BI_ATOMIC_EXCH || b == BI_ATOMIC_INC ||
        b == BI_ATOMIC_DEC || b == BI_ATOMIC_CAS)
      a->ordered = true;
  }
  if (n->kind == ND_CALL && n->fn && n->fn->body &&
      a->loops < 8000) { /* device functions: as if inlined (8 deep) */
    Obj *fn = n->fn;
    a->loops += 1000; /* an atomic in a function counts as in a loop: calls may repeat */
    walk(fn->body, atom_pre, NULL, ctx);
    a->loops -= 1000;
  }
  return true;
}
static bool atom_post(Node *n, void *ctx) {
  AtomScan *a = ctx;
  if (n->kind == ND_FOR || n->kind == ND_WHILE || n->kind == ND_DO) a->loops--;
  return true;
}

static bool find_volatile(Node *n, void *ctx) {
  bool *found = ctx;
  for (Type *t = n->ty; t && !*found;
       t = (t->kind == TY_PTR || t->kind == TY_ARRAY) ? t->base : NULL)
    if (t->qual & Q_VOLATILE) *found = true;
  if (n->kind == ND_VAR && n->var->is_volatile) *found = true;
  return !*found;
}

/* ---------------- the whole kernel ---------------- */
static const char prelude[] =
  "#include <stdint.h>\n#include <string.h>\n#include <math.h>\n"
  "typedef struct { const uint64_t *args; unsigned char *globals; const unsigned char *constant; int64_t grid[3], block[3]; uint64_t dyn_base;"
  " unsigned char *const *bufbase; const uint64_t *bufbytes; int nbufs; uint64_t shared_size, constant_size;"
  " double (*h2d)(uint16_t); uint16_t (*hfd)(double); uint64_t (*hop)(int, uint64_t, uint64_t, uint64_t); } CarveNativeCtx;\n"
  "typedef struct { const CarveNativeCtx *c; unsigned char *sh; uint64_t dyn_base; unsigned bx, by, bz, nbx, nby, nbz, ntx, nty, ntz, tx, ty, tz; int fault; } Env;\n"
  "enum { CF_DIVZERO = 1, CF_DIVERGENT = 2, CF_ASSERT = 4, CF_SHUFFLE = 16, CF_ADDRESS = 32 };\n"
  /* a pointer as the integer the interpreter sees: space in the top 4 bits, buffer, offset */
  "static uint64_t cptr2int(Env *e, const void *v) {\n"
  "  const unsigned char *p = v; const CarveNativeCtx *c = e->c;\n"
  "  if (!p) return 0;\n"
  "  if (p >= e->sh && p <= e->sh + c->shared_size) return (2ull << 60) | (uint64_t)(p - e->sh);\n"
  "  for (int b = 0; b < c->nbufs; b++) if (c->bufbase[b] && p >= c->bufbase[b] && p <= c->bufbase[b] + c->bufbytes[b]) return (1ull << 60) | ((uint64_t)b << 40) | (uint64_t)(p - c->bufbase[b]);\n"
  "  if (c->constant && p >= c->constant && p <= c->constant + c->constant_size) return (4ull << 60) | (uint64_t)(p - c->constant);\n"
  "  e->fault |= CF_ADDRESS; return 0;\n}\n"
  "static void *cint2ptr(Env *e, uint64_t a) {\n"
  "  const CarveNativeCtx *c = e->c; uint64_t sp = a >> 60, off = a & ((1ull << 40) - 1), b = (a >> 40) & 0xfffff;\n"
  "  if (!a) return 0;\n"
  "  if (sp == 2 && off <= c->shared_size) return e->sh + off;\n"
  "  if (sp == 1 && b < (uint64_t)c->nbufs && off <= c->bufbytes[b]) return c->bufbase[b] + off;\n"
  "  if (sp == 4 && off <= c->constant_size) return (void *)(c->constant + off);\n"
  "  e->fault |= CF_ADDRESS; return 0;\n}\n"
  /* a shuffle's source lane (builtins.c's eval_shfl) */
  "static inline int cshfl_src(int kind, int l, int64_t s, int width, uint32_t mask, int *f) {\n"
  "  if (width < 1 || width > 32 || (width & (width - 1)) || !((mask >> l) & 1)) { *f |= CF_SHUFFLE; return l; }\n"
  "  int seg = l & ~(width - 1);\n"
  "  switch (kind) { case 0: return seg + (int)(s & (width - 1)); case 1: return (l - seg) >= (int)(uint64_t)s ? l - (int)(uint64_t)s : l;\n"
  "  case 2: return (l - seg) + (int64_t)(uint64_t)s < width ? l + (int)(uint64_t)s : l;\n"
  "  default: { int x = l ^ (int)(s & 31); return (x & ~(width - 1)) == seg ? x : l; } }\n}\n"
  /* builtins.c's helpers, exactly */
  "static inline int bits_f2i(float f) { int i; memcpy(&i, &f, 4); return i; }\n"
  "static inline float bits_i2f(int i) { float f; memcpy(&f, &i, 4); return f; }\n"
  "static inline long long bits_d2l(double d) { long long i; memcpy(&i, &d, 8); return i; }\n"
  "static inline double bits_l2d(long long i) { double d; memcpy(&d, &i, 8); return d; }\n"
  "static inline int sat_i32(double x) { return x != x ? 0 : x >= 2147483647.0 ? 2147483647 : x <= -2147483648.0 ? (-2147483647 - 1) : (int)x; }\n"
  "static inline unsigned sat_u32(double x) { return x != x ? 0 : x >= 4294967295.0 ? 4294967295u : x <= 0 ? 0 : (unsigned)x; }\n"
  "static inline long long sat_i64(double x) { return x != x ? 0 : x >= 9.2233720368547758e18 ? INT64_MAX : x <= -9.2233720368547758e18 ? INT64_MIN : (long long)x; }\n"
  "static inline int sx24(int x) { return (int)((unsigned)x << 8) >> 8; }\n"
  /* float to integer: cvt.rzi saturates, NaN gives 0 (interp.c f2i) */
  "#define F2I_S(B, T) static inline T cf2i_s##B(double x) { if (x != x) return 0; double mx = B == 64 ? 9223372036854775807.0 : (double)((1ll << (B - 1)) - 1);"
  " double mn = B == 64 ? -9223372036854775808.0 : -(double)(1ll << (B - 1)); if (x >= mx) return (T)(B == 64 ? INT64_MAX : (1ll << (B - 1)) - 1);"
  " if (x <= mn) return (T)(B == 64 ? INT64_MIN : -(1ll << (B - 1))); return (T)(int64_t)x; }\n"
  "#define F2I_U(B, T) static inline T cf2i_u##B(double x) { if (x != x) return 0; double mx = B == 64 ? 18446744073709551615.0 : (double)((1ull << B) - 1);"
  " if (x <= 0) return 0; if (x >= mx) return (T)(B == 64 ? UINT64_MAX : (1ull << B) - 1); return (T)(uint64_t)x; }\n"
  "F2I_S(8, signed char) F2I_S(16, short) F2I_S(32, int) F2I_S(64, long long) F2I_U(8, unsigned char) F2I_U(16, unsigned short) F2I_U(32, unsigned) F2I_U(64, unsigned long long)\n"
  "static inline _Bool cf2i_b(double x) { return x != 0; }\n"
  /* integer division: a zero divisor is a fault; INT_MIN / -1 wraps */
  "#define DIV_S(B, T) static inline T cdiv_s##B(T a, T b, int *f) { if (!b) { *f |= CF_DIVZERO; return 0; } if (b == -1) return (T)(0 - (uint64_t)a); return a / b; }"
  " static inline T cmod_s##B(T a, T b, int *f) { if (!b) { *f |= CF_DIVZERO; return 0; } if (b == -1) return 0; return a % b; }"
  " static inline T cshl_s##B(T a, uint64_t s) { return s >= B ? 0 : (T)((uint64_t)a << s); }"
  " static inline T cshr_s##B(T a, uint64_t s) { return s >= B ? (a < 0 ? -1 : 0) : a >> s; }\n"
  "#define DIV_U(B, T) static inline T cdiv_u##B(T a, T b, int *f) { if (!b) { *f |= CF_DIVZERO; return 0; } return a / b; }"
  " static inline T cmod_u##B(T a, T b, int *f) { if (!b) { *f |= CF_DIVZERO; return 0; } return a % b; }"
  " static inline T cshl_u##B(T a, uint64_t s) { return s >= B ? 0 : (T)(a << s); }"
  " static inline T cshr_u##B(T a, uint64_t s) { return s >= B ? 0 : a >> s; }\n"
  "DIV_S(32, int) DIV_S(64, long long) DIV_U(32, unsigned) DIV_U(64, unsigned long long)\n"
  "static inline int cclz32(uint32_t x) { return x ? __builtin_clz(x) : 32; }\n"
  "static inline int cclz64(uint64_t x) { return x ? __builtin_clzll(x) : 64; }\n"
  "static inline unsigned cbrev(uint32_t x) { uint32_t r = 0; for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i); return r; }\n"
  /* atomics in order (one worker): builtins.c's atomic_op */
  "#define ATOM_INT(S, T, U) \\\n"
  " static inline T cas_add_##S(T *p, T v) { T o = *p; *p = (T)((U)o + (U)v); return o; } static inline T cas_sub_##S(T *p, T v) { T o = *p; *p = (T)((U)o - (U)v); return o; } \\\n"
  " static inline T cas_exch_##S(T *p, T v) { T o = *p; *p = v; return o; } static inline T cas_min_##S(T *p, T v) { T o = *p; if (v < o) *p = v; return o; } \\\n"
  " static inline T cas_max_##S(T *p, T v) { T o = *p; if (v > o) *p = v; return o; } \\\n"
  " static inline T cas_inc_##S(T *p, T v) { T o = *p; *p = ((U)o >= (U)v) ? 0 : (T)((U)o + 1); return o; } \\\n"
  " static inline T cas_dec_##S(T *p, T v) { T o = *p; *p = ((U)o == 0 || (U)o > (U)v) ? v : (T)((U)o - 1); return o; } \\\n"
  " static inline T cas_cas_##S(T *p, T c, T v) { T o = *p; if ((U)o == (U)c) *p = v; return o; } \\\n"
  " static inline T cas_and_##S(T *p, T v) { T o = *p; *p = o & v; return o; } static inline T cas_or_##S(T *p, T v) { T o = *p; *p = o | v; return o; } \\\n"
  " static inline T cas_xor_##S(T *p, T v) { T o = *p; *p = o ^ v; return o; } \\\n"
  " static inline T cap_add_##S(T *p, T v) { return (T)__atomic_fetch_add((U *)p, (U)v, __ATOMIC_RELAXED); } \\\n"
  " static inline T cap_sub_##S(T *p, T v) { return (T)__atomic_fetch_sub((U *)p, (U)v, __ATOMIC_RELAXED); } \\\n"
  " static inline T cap_and_##S(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); } \\\n"
  " static inline T cap_or_##S(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); } \\\n"
  " static inline T cap_xor_##S(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); } \\\n"
  " static inline T cap_min_##S(T *p, T v) { T o = __atomic_load_n(p, __ATOMIC_RELAXED); while (v < o && !__atomic_compare_exchange_n(p, &o, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {} return o; } \\\n"
  " static inline T cap_max_##S(T *p, T v) { T o = __atomic_load_n(p, __ATOMIC_RELAXED); while (v > o && !__atomic_compare_exchange_n(p, &o, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {} return o; }\n"
  "ATOM_INT(s32, int, unsigned) ATOM_INT(u32, unsigned, unsigned) ATOM_INT(s64, long long, unsigned long long) ATOM_INT(u64, unsigned long long, unsigned long long)\n"
  "static inline float cas_add_f32(float *p, float v) { float o = *p; *p = o + v; return o; }\n"
  "static inline double cas_add_f64(double *p, double v) { double o = *p; *p = o + v; return o; }\n"
  "static inline float cas_exch_f32(float *p, float v) { float o = *p; *p = v; return o; }\n";

static const struct {
  const char *name, *ret, *t1, *t2, *t3, *expr;
} mathtab[] = {
#define M(name, ret, t1, t2, t3, expr) {#name, #ret, #t1, #t2, #t3, #expr},
#include "../front/mathfns.def"
#undef M
};

static const char *math_type(const char *c) {
  switch (*c) {
  case 'F': return "float";
  case 'D': return "double";
  case 'U': return "unsigned";
  case 'L': return "long long";
  case 'Q': return "unsigned long long";
  default: return "int";
  }
}

static const char kernel_locals[] =
  "unsigned char *const _sh = _e->sh;\n"
  "const unsigned _bx = _e->bx, _by = _e->by, _bz = _e->bz, _nbx = _e->nbx, _nby = _e->nby, _nbz = _e->nbz, _ntx = _e->ntx, _nty = _e->nty, _ntz = _e->ntz;\n";

static void emit_kernel(Emit *e, Buf *src) {
  Obj *k = e->k;
  e->at_tok = k->tok;
  for (Obj *p = k->params; p; p = p->next) {
    e->at_tok = p->tok ? p->tok : k->tok;
    (void)decl(e, p->ty, "x");
  }
  e->at_tok = k->tok;
  bool vol = false;
  walk(k->body, find_volatile, NULL, &vol);
  if (vol)
    unsupported(e, k->body, "volatile memory (warp-synchronous code needs lanes in lockstep)");
  AtomScan as = {0};
  walk(k->body, atom_pre, atom_post, &as);
  e->ordered = as.ordered;
  if (as.ordered && (as.sites > 1 || as.in_loop))
    unsupported(
      e, k->body,
      "atomics whose order shows in the result, at several places or in a loop (the interpreter's order is kept for one)");
  e->barrier_mode = has_barrier(k->body);
  for (Obj *p = k->params; p; p = p->next)
    if (p->ty->kind == TY_STRUCT || p->ty->kind == TY_ARRAY)
      unsupported(e, k->body, "a struct parameter");
  Buf *code = tmpbuf(e);
  e->o = code;
  e->in_kernel = true;
  /* parameters: read from the argument words once per block */
  int pi = 0;
  if (!e->barrier_mode) {
    out(e, "static inline __attribute__((always_inline)) void kthread(Env *_e) {\n%s",
        kernel_locals);
    out(e, "const unsigned _tx = _e->tx, _ty = _e->ty, _tz = _e->tz;\n");
    pi = 0;
    for (Obj *p = k->params; p; p = p->next, pi++)
      out(e, "%s; memcpy(&%s, &_e->c->args[%d], sizeof %s);\n", decl(e, p->ty, var_cname(e, p)),
          var_cname(e, p), pi, var_cname(e, p));
    e->brk_depth = e->cont_depth = 0;
    for (Node *s = k->body->stmts; s; s = s->next) stmt(e, s);
    out(e, "}\n");
    out(
      e,
      "int carve_block(const CarveNativeCtx *c, int64_t bx, int64_t by, int64_t bz, unsigned char *sh, void *tsv) {\n"
      "Env _env = {c, sh, c->dyn_base, (unsigned)bx, (unsigned)by, (unsigned)bz, (unsigned)c->grid[0], (unsigned)c->grid[1], (unsigned)c->grid[2],"
      " (unsigned)c->block[0], (unsigned)c->block[1], (unsigned)c->block[2], 0, 0, 0, 0};\nEnv *_e = &_env; (void)tsv;\n"
      "for (unsigned z = 0; z < _e->ntz; z++) for (unsigned y = 0; y < _e->nty; y++) for (unsigned x = 0; x < _e->ntx; x++) {\n"
      "_e->tx = x; _e->ty = y; _e->tz = z; kthread(_e);\n}\nreturn _e->fault;\n}\n"
      "const unsigned carve_tstate_size = 0;\n");
  } else {
    Buf *kb = tmpbuf(e);
    e->o = kb;
    for (Obj *p = k->params; p; p = p->next) promote(e, p);
    block_level(e, stmts_of(k->body));
    e->o = code;
    /* the per-thread record: thread index, done flag, parameters and promoted locals */
    out(e, "typedef struct {\nunsigned _tx, _ty, _tz; unsigned char _done;\n");
    for (int i = 0; i < e->nvars; i++)
      if (e->promoted[i]) out(e, "%s;\n", decl(e, e->vars[i]->ty, var_cname(e, e->vars[i])));
    out(e, "%s} TS;\n", e->tsx.s ? e->tsx.s : "");
    out(
      e,
      "int carve_block(const CarveNativeCtx *c, int64_t bx, int64_t by, int64_t bz, unsigned char *sh, void *tsv) {\n"
      "Env _env = {c, sh, c->dyn_base, (unsigned)bx, (unsigned)by, (unsigned)bz, (unsigned)c->grid[0], (unsigned)c->grid[1], (unsigned)c->grid[2],"
      " (unsigned)c->block[0], (unsigned)c->block[1], (unsigned)c->block[2], 0, 0, 0, 0};\nEnv *_e = &_env;\n"
      "TS *_ts = tsv;\nint _nt = (int)(c->block[0] * c->block[1] * c->block[2]);\nint _L0 = 0, _H0 = _nt;\n%s"
      "for (int _t = 0; _t < _nt; _t++) {\nTS *_S = &_ts[_t];\n_S->_done = 0;\n"
      "_S->_tx = (unsigned)(_t %% c->block[0]); _S->_ty = (unsigned)((_t / c->block[0]) %% c->block[1]); _S->_tz = (unsigned)(_t / (c->block[0] * c->block[1]));\n",
      kernel_locals);
    pi = 0;
    for (Obj *p = k->params; p; p = p->next, pi++)
      out(e, "memcpy(&_S->%s, &c->args[%d], sizeof _S->%s);\n", var_cname(e, p), pi,
          var_cname(e, p));
    out(e, "}\n");
    buf_puts(code, kb->s ? kb->s : "");
    out(e, "_end:\nreturn _e->fault;\n}\nconst unsigned carve_tstate_size = sizeof(TS);\n");
  }
  buf_puts(src, prelude);
  for (int i = 0; i < MATH_COUNT; i++)
    if (e->math_used[i])
      buf_printf(
        src,
        "static inline %s m_%s(%s a, %s b, %s c) { (void)a; (void)b; (void)c; return (%s)(%s); }\n",
        math_type(mathtab[i].ret), mathtab[i].name, math_type(mathtab[i].t1),
        math_type(mathtab[i].t2), math_type(mathtab[i].t3), math_type(mathtab[i].ret),
        mathtab[i].expr);
  buf_puts(src, e->types.s ? e->types.s : "");
  buf_puts(src, e->protos.s ? e->protos.s : "");
  buf_puts(src, e->fns.s ? e->fns.s : "");
  buf_puts(src, code->s ? code->s : "");
}

void native_emit(Program *p, Obj *k, NativeCode *out_code) {
  memset(out_code, 0, sizeof *out_code);
  Emit *e = calloc(1, sizeof *e);
  if (!e) abort();
  e->p = p;
  e->k = k;
  e->why = out_code->why;
  e->nwhy = sizeof out_code->why;
  Buf src = {0};
  if (!setjmp(e->fail)) {
    if (!k->body) unsupported(e, NULL, "a kernel without a body");
    emit_kernel(e, &src);
    out_code->src = src.s;
    out_code->barriers = e->barrier_mode;
    out_code->ordered = e->ordered;
  } else {
    buf_free(&src);
  }
  buf_free(&e->types);
  buf_free(&e->protos);
  buf_free(&e->fns);
  buf_free(&e->tsx);
  for (int i = 0; i < e->ntmp_bufs; i++) {
    buf_free(e->tmp_bufs[i]);
    free(e->tmp_bufs[i]);
  }
  free(e->tmp_bufs);
  free(e->pref);
  free(e->prefslot);
  free(e->vars);
  free(e->promoted);
  free(e->structs);
  free(e->funcs);
  free(e);
}
