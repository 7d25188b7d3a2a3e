/* type: C's types as CUDA uses them (LP64: long is 64-bit, as nvcc on Linux), and add_type,
 * which types an expression tree and inserts the implicit conversions C requires. */
#include "front.h"
#include "limits_parse.h"
#include <string.h>

/* Type.array_len of a C99 variable-length array (host code; parse_host.c's VLA section, which writes
 * every use that needs its size as byte arithmetic: anything that reaches type_node still
 * needing it is refused there) */
#define VLA_LEN (-2)
static bool is_vla_type(const Type *t) {
  return t && t->kind == TY_ARRAY && t->array_len == VLA_LEN;
}
/* arithmetic on a pointer to a VLA that the parser did not lower: an error, never a wrong size */
static void no_vla_arith(Node *n, const Type *t) {
  if (t && is_pointer_like(t) && is_vla_type(t->base))
    error_tok(n->tok, "unsupported: this use of a pointer to a variable-length array");
}

/* The front end's state that outlives one program (front.h) */
FrontGlobal front_global;

/* The basic types: constants in read-only memory, never written (a qualified or typedef'd
 * variant is a copy: copy_type). The pointers are const too, so no program can re-seat them. */
#define BASIC(k, s, u) \
  { .kind = (k), .size = (s), .align = (s), .is_unsigned = (u) }
static const Type basic[] = {
  BASIC(TY_VOID, 1, false), BASIC(TY_BOOL, 1, false),  BASIC(TY_CHAR, 1, false),
  BASIC(TY_CHAR, 1, false), BASIC(TY_CHAR, 1, true),   BASIC(TY_SHORT, 2, false),
  BASIC(TY_SHORT, 2, true), BASIC(TY_INT, 4, false),   BASIC(TY_INT, 4, true),
  BASIC(TY_LONG, 8, false), BASIC(TY_LONG, 8, true),   BASIC(TY_LLONG, 8, false),
  BASIC(TY_LLONG, 8, true), BASIC(TY_FLOAT, 4, false), BASIC(TY_DOUBLE, 8, false)};
#undef BASIC
Type *const ty_void = (Type *)&basic[0], *const ty_bool = (Type *)&basic[1],
            *const ty_char = (Type *)&basic[2], *const ty_schar = (Type *)&basic[3],
            *const ty_uchar = (Type *)&basic[4], *const ty_short = (Type *)&basic[5],
            *const ty_ushort = (Type *)&basic[6], *const ty_int = (Type *)&basic[7],
            *const ty_uint = (Type *)&basic[8], *const ty_long = (Type *)&basic[9],
            *const ty_ulong = (Type *)&basic[10], *const ty_llong = (Type *)&basic[11],
            *const ty_ullong = (Type *)&basic[12], *const ty_float = (Type *)&basic[13],
            *const ty_double = (Type *)&basic[14];

bool is_integer(const Type *t) {
  TypeKind k = t->kind;
  return k == TY_BOOL || k == TY_CHAR || k == TY_SHORT || k == TY_INT || k == TY_LONG ||
         k == TY_LLONG || k == TY_ENUM;
}
bool is_flonum(const Type *t) { return t->kind == TY_FLOAT || t->kind == TY_DOUBLE; }
bool is_numeric(const Type *t) { return is_integer(t) || is_flonum(t); }
bool is_scalar(const Type *t) { return is_numeric(t) || t->kind == TY_PTR; }
bool is_pointer_like(const Type *t) { return t->kind == TY_PTR || t->kind == TY_ARRAY; }

Type *copy_type(const Type *t) {
  Type *r = arena_alloc(sizeof(Type));
  *r = *t;
  r->origin = (Type *)t;
  r->next = NULL;
  return r;
}

Type *qualified(Type *t, int qual) {
  if (!qual || (t->qual & qual) == qual) return t;
  Type *r = copy_type(t);
  r->origin = t->origin ? t->origin : t;
  r->qual |= qual;
  return r;
}

Type *unqual(Type *t) {
  if (!t->qual) return t;
  Type *r = copy_type(t);
  r->qual = 0;
  return r;
}

Type *pointer_to(Type *base) {
  Type *t = arena_alloc(sizeof(Type));
  t->kind = TY_PTR;
  t->size = t->align = 8;
  t->is_unsigned = true;
  t->base = base;
  return t;
}

Type *array_of(Type *base, int len) {
  Type *t = arena_alloc(sizeof(Type));
  t->kind = TY_ARRAY;
  t->size = len < 0 ? 0 : base->size * len;
  t->align = base->align;
  t->base = base;
  t->array_len = len;
  return t;
}

Type *func_type(Type *ret) {
  Type *t = arena_alloc(sizeof(Type));
  t->kind = TY_FUNC;
  t->size = 1;
  t->align = 1;
  t->return_ty = ret;
  return t;
}

Type *struct_type(void) {
  Type *t = arena_alloc(sizeof(Type));
  t->kind = TY_STRUCT;
  t->align = 1;
  return t;
}

/* CUDA's vector types: NAME{1,2,3,4} with fields x y z w, aligned as the CUDA headers align them */
Type *vector_type(const char *name) {
  static const struct {
    const char *prefix;
    Type *const *base;
  } bases[] = {{"char", &ty_char},        {"uchar", &ty_uchar}, {"short", &ty_short},
               {"ushort", &ty_ushort},    {"int", &ty_int},     {"uint", &ty_uint},
               {"long", &ty_long},        {"ulong", &ty_ulong}, {"longlong", &ty_llong},
               {"ulonglong", &ty_ullong}, {"float", &ty_float}, {"double", &ty_double}};
  size_t n = strlen(name);
  if (n < 2) return NULL;
  char last = name[n - 1];
  if (last < '1' || last > '4') return NULL;
  int w = last - '0';
  for (int i = 0; i < 12; i++) {
    if (strlen(bases[i].prefix) != n - 1 || strncmp(name, bases[i].prefix, n - 1)) continue;
    if (front_global.vector[i][w]) return front_global.vector[i][w];
    /* vector types outlive any one program (cached here), so they are not arena-allocated */
    Type *b = *bases[i].base;
    Type *t = xmalloc(sizeof(Type));
    t->kind = TY_STRUCT;
    t->is_vector = true;
    t->tag = bases[i].prefix;
    char *name = front_global.vector_names[i][w];
    snprintf(name, sizeof front_global.vector_names[i][w], "%s%d", bases[i].prefix, w);
    t->tag = name;
    static const char fields[] = "xyzw";
    Member head = {0}, *cur = &head;
    for (int k = 0; k < w; k++) {
      Member *m = xmalloc(sizeof(Member));
      m->ty = b;
      Token *nt = xmalloc(sizeof(Token));
      nt->kind = TK_IDENT;
      nt->loc = (char *)&fields[k]; /* tokens are never written */
      nt->len = 1;
      m->name = nt;
      m->offset = k * b->size;
      m->idx = k;
      cur = cur->next = m;
    }
    t->members = head.next;
    int size = w * b->size;
    int align = (w == 3) ? b->size : size; /* float3 is 4-aligned, float4 16-aligned */
    if (align > 16) align = 16;            /* double4 is 16-aligned in CUDA 12/13 (double4_16a) */
    if (b->size == 8 && w >= 3) align = (w == 3) ? 8 : 16;
    t->align = align;
    t->size = (size + align - 1) / align * align;
    front_global.vector[i][w] = t;
    return t;
  }
  return NULL;
}

Member *find_member(Type *t, const char *name) {
  for (Member *m = t->members; m; m = m->next)
    if (m->name && tok_equal(m->name, name)) return m;
  return NULL;
}

static int rank(const Type *t) {
  switch (t->kind) {
  case TY_BOOL: return 0;
  case TY_CHAR: return 1;
  case TY_SHORT: return 2;
  case TY_INT:
  case TY_ENUM: return 3;
  case TY_LONG: return 4;
  case TY_LLONG: return 5;
  default: return 9;
  }
}

static Type *promote(Type *t) {
  if (t->kind == TY_ENUM) return ty_int;
  if (is_integer(t) && t->size < 4) return ty_int;
  return unqual(t);
}

/* the usual arithmetic conversions (C11 6.3.1.8) */
Type *common_type(Type *a, Type *b) {
  if (a->kind == TY_DOUBLE || b->kind == TY_DOUBLE) return ty_double;
  if (a->kind == TY_FLOAT || b->kind == TY_FLOAT) return ty_float;
  a = promote(a);
  b = promote(b);
  if (a->size != b->size) {
    Type *big = a->size > b->size ? a : b;
    return big->is_unsigned ? big : (big->kind == TY_LLONG ? ty_llong : ty_long);
  }
  /* same size: unsigned wins; between long and long long keep the higher rank */
  Type *r = rank(a) >= rank(b) ? a : b;
  bool u = a->is_unsigned || b->is_unsigned;
  switch (r->kind) {
  case TY_INT: return u ? ty_uint : ty_int;
  case TY_LONG: return u ? ty_ulong : ty_long;
  case TY_LLONG: return u ? ty_ullong : ty_llong;
  default: return u ? ty_uint : ty_int;
  }
}

bool same_type(const Type *a, const Type *b) {
  while (a->origin && a->kind != TY_PTR && a->kind != TY_ARRAY && !a->is_vector &&
         a->kind != TY_STRUCT)
    a = a->origin;
  while (b->origin && b->kind != TY_PTR && b->kind != TY_ARRAY && !b->is_vector &&
         b->kind != TY_STRUCT)
    b = b->origin;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_PTR: return same_type(a->base, b->base);
  case TY_ARRAY: /* a VLA is compatible with any array of the same element type (C11 6.7.6.2p6) */
    return (a->array_len == b->array_len || a->array_len == VLA_LEN || b->array_len == VLA_LEN) &&
           same_type(a->base, b->base);
  case TY_STRUCT:
  case TY_ENUM: {
    const Type *ra = a, *rb = b;
    while (ra->origin) ra = ra->origin;
    while (rb->origin) rb = rb->origin;
    return ra == rb ||
           (ra->tag && rb->tag && !strcmp(ra->tag, rb->tag) && ra->members == rb->members);
  }
  default: return a->size == b->size && a->is_unsigned == b->is_unsigned;
  }
}

const char *type_name(const Type *t) {
  Buf b = {0};
  print_type_decl(&b, (Type *)t, "");
  char *s = arena_strdup(b.s ? b.s : "?");
  buf_free(&b);
  /* drop trailing spaces left by the empty name */
  size_t n = strlen(s);
  while (n && s[n - 1] == ' ') s[--n] = 0;
  return s;
}

/* ---------------- typing expressions ---------------- */
static Node *new_cast(Node *e, Type *ty) {
  Node *n = new_node(ND_CAST, e->tok);
  n->lhs = e;
  n->ty = ty;
  n->implicit = true;
  return n;
}

/* ---- C++ __half (docs/cxx.md): halves are 16 bits; the conversions and operators are
 * builtin calls (BI_HALF) marked implicit, which the printer writes as the source did ---- */
static Node *half_call(HalfOp op, Node *a, Node *b, Type *ty) {
  Node *n = new_node(ND_CALL, a->tok);
  n->builtin = BI_HALF;
  n->ival = op;
  n->implicit = true;
  n->args = a;
  n->nargs = 1;
  if (b) {
    a->next = b;
    n->nargs = 2;
  }
  n->ty = ty;
  return n;
}

/* a __half operand as a float */
static void half_to_float(Node **e) {
  if (!(*e)->ty->is_half) return;
  if ((*e)->ty->is_half == 2)
    error_tok((*e)->tok, "cannot convert '%s' to a number (use __low2float, __high2float)",
              type_name((*e)->ty));
  Node *next = (*e)->next;
  *e = half_call(HOP_H2F, *e, NULL, ty_float);
  (*e)->next = next;
}

static void coerce(Node **e, Type *ty);

/* written in a .c file: C, whose void * converts implicitly to any object pointer (C11 6.3.2.3p1;
 * `float (*a)[n] = malloc(...)`), where CUDA's C++ needs a cast */
static bool in_c_file(const Node *e) {
  SrcLoc at = tok_loc(e->tok);
  size_t n = at.file && at.file->name ? strlen(at.file->name) : 0;
  return n > 2 && !strcmp(at.file->name + n - 2, ".c");
}

/* conversions to and from __half: true when done */
static bool coerce_half(Node **e, Type *ty) {
  Type *from = (*e)->ty;
  if (!ty->is_half && !from->is_half) return false;
  if (ty->is_half && from->is_half == ty->is_half) return true;
  if (ty->is_half == 2 || from->is_half == 2)
    error_tok((*e)->tok, "cannot convert '%s' to '%s'", type_name(from), type_name(ty));
  if (from->is_half) { /* to a number: through float */
    half_to_float(e);
    coerce(e, ty);
    return true;
  }
  if (!is_numeric(from))
    error_tok((*e)->tok, "cannot convert '%s' to '%s'", type_name(from), type_name(ty));
  Node *next = (*e)->next;
  (*e)->next = NULL;
  *e = half_call(is_integer(from) ? HOP_I2H : HOP_F2H, *e, NULL, unqual(ty));
  (*e)->next = next;
  return true;
}

/* convert *e to ty if needed */
static void coerce(Node **e, Type *ty) {
  Type *from = (*e)->ty;
  if (!from || ty->kind == TY_VOID) return;
  if (coerce_half(e, ty)) return;
  if (ty->kind == TY_STRUCT || from->kind == TY_STRUCT) {
    if (!same_type(unqual(ty), unqual(from)))
      error_tok((*e)->tok, "cannot convert '%s' to '%s'", type_name(from), type_name(ty));
    return;
  }
  if (ty->kind == TY_PTR && is_pointer_like(from)) {
    /* CUDA is C++: T* converts implicitly only to void* and to a more qualified T* */
    Type *tb = ty->base, *fb = from->base;
    if (tb->kind != TY_VOID && !same_type(unqual(tb), unqual(fb)) &&
        !(fb->kind == TY_VOID && tb->kind != TY_FUNC && in_c_file(*e)))
      error_tok((*e)->tok, "cannot convert pointer '%s' to '%s' without a cast",
                type_name(from->kind == TY_ARRAY ? pointer_to(fb) : from), type_name(ty));
    if ((fb->qual & Q_CONST) && !(tb->qual & Q_CONST))
      error_tok((*e)->tok, "conversion from '%s' to '%s' discards the const qualifier",
                type_name(from->kind == TY_ARRAY ? pointer_to(fb) : from), type_name(ty));
    return; /* pointer conversions keep the address */
  }
  if (ty->kind == TY_PTR && is_integer(from)) {
    if ((*e)->kind == ND_NUM && (*e)->ival == 0) {
      *e = new_cast(*e, ty);
      return;
    }
    error_tok((*e)->tok, "cannot convert '%s' to '%s' without a cast", type_name(from),
              type_name(ty));
  }
  if (is_numeric(ty) && from->kind == TY_PTR) {
    if (ty->kind == TY_BOOL) {
      *e = new_cast(*e, ty);
      return;
    }
    error_tok((*e)->tok, "cannot convert pointer '%s' to '%s' without a cast", type_name(from),
              type_name(ty));
  }
  if (!is_scalar(from) && from->kind != TY_ARRAY)
    error_tok((*e)->tok, "cannot convert '%s' to '%s'", type_name(from), type_name(ty));
  if (same_type(unqual(ty), unqual(from)) && ty->kind != TY_ENUM) return;
  *e = new_cast(*e, unqual(ty));
}

static bool is_mul_of(Node *n, Type *ty) {
  return n->kind == ND_MUL && is_flonum(n->ty) && n->ty->kind == ty->kind;
}

static void check_value(Node *n) {
  if (!n->ty) add_type(n);
  if (n->ty->kind == TY_VOID) error_tok(n->tok, "void value not ignored as it ought to be");
  if (n->ty->kind == TY_FUNC)
    error_tok(n->tok, "function used as a value (function pointers are not supported)");
}

/* h1 op h2 on halves: the operator's builtin (half2 too); a half with another number: float */
static bool half_arith(Node *n) {
  Type *l = n->lhs->ty, *r = n->rhs->ty;
  if (!l->is_half && !r->is_half) return false;
  static const struct {
    NodeKind k;
    HalfOp h, h2;
  } ops[] = {{ND_ADD, HOP_ADD, HOP_ADD2},
             {ND_SUB, HOP_SUB, HOP_SUB2},
             {ND_MUL, HOP_MUL, HOP_MUL2},
             {ND_DIV, HOP_DIV, HOP_COUNT}};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    if (ops[i].k != n->kind) continue;
    if (l->is_half && l->is_half == r->is_half && (l->is_half == 1 || ops[i].h2 != HOP_COUNT)) {
      Node *a = n->lhs, *b = n->rhs;
      Token *tok = n->tok;
      Node *next = n->next;
      Node *call = half_call(l->is_half == 1 ? ops[i].h : ops[i].h2, a, b, unqual(l));
      *n = *call;
      n->tok = tok;
      n->next = next;
      return true;
    }
  }
  if (l->is_half == 2 || r->is_half == 2)
    error_tok(n->tok, "invalid operands to binary '%.*s' ('%s' and '%s')", n->tok->len, n->tok->loc,
              type_name(l), type_name(r));
  if (n->kind == ND_MOD || n->kind == ND_BITAND || n->kind == ND_BITOR || n->kind == ND_BITXOR)
    error_tok(n->tok, "invalid operands to binary '%.*s' ('%s' and '%s')", n->tok->len, n->tok->loc,
              type_name(l), type_name(r));
  half_to_float(&n->lhs);
  half_to_float(&n->rhs);
  return false;
}

static void arith(Node *n) {
  check_value(n->lhs);
  check_value(n->rhs);
  if (half_arith(n)) return;
  if (!is_numeric(n->lhs->ty) || !is_numeric(n->rhs->ty))
    error_tok(n->tok, "invalid operands to binary '%.*s' ('%s' and '%s')", n->tok->len, n->tok->loc,
              type_name(n->lhs->ty), type_name(n->rhs->ty));
  Type *t = common_type(n->lhs->ty, n->rhs->ty);
  coerce(&n->lhs, t);
  coerce(&n->rhs, t);
  n->ty = t;
}

static bool is_lvalue(Node *n) {
  switch (n->kind) {
  case ND_VAR: return n->var->sc != SC_FUNC;
  case ND_DEREF:
  case ND_INDEX: return true;
  case ND_MEMBER: return n->arrow || is_lvalue(n->lhs);
  default: return false;
  }
}

static void check_assignable(Node *lhs, Token *tok) {
  if (lhs->kind == ND_SPECIAL) error_tok(tok, "cannot assign to a builtin variable");
  if (!is_lvalue(lhs)) error_tok(tok, "expression is not assignable");
  if (lhs->ty->kind == TY_ARRAY)
    error_tok(tok, "array type '%s' is not assignable", type_name(lhs->ty));
  if (lhs->ty->qual & Q_CONST)
    error_tok(tok, "cannot assign to a variable of const-qualified type '%s'", type_name(lhs->ty));
  if (lhs->kind == ND_SPECIAL) error_tok(tok, "cannot assign to a builtin variable");
}

static void type_node(Node *n);

/* h op= x on a __half: h = h op x (h written once in the source, so it must be free of side
 * effects: it is evaluated twice) */
static bool has_effects(Node *n, void *ctx) {
  bool *found = ctx;
  if (n->kind == ND_CALL || n->kind == ND_ASSIGN || n->kind == ND_ASSIGN_OP ||
      n->kind == ND_PREINC || n->kind == ND_PREDEC || n->kind == ND_POSTINC ||
      n->kind == ND_POSTDEC)
    *found = true;
  return !*found;
}
static void half_assign_op(Node *n) {
  bool effects = false;
  walk(n->lhs, has_effects, NULL, &effects);
  if (effects)
    error_tok(n->tok, "unsupported: '%.*s' on a __half whose target has side effects", n->tok->len,
              n->tok->loc);
  if (n->op != ND_ADD && n->op != ND_SUB && n->op != ND_MUL && n->op != ND_DIV)
    error_tok(n->tok, "invalid operands to '%.*s' ('%s' and '%s')", n->tok->len, n->tok->loc,
              type_name(n->lhs->ty), type_name(n->rhs->ty));
  Node *op = new_node(n->op, n->tok);
  op->lhs = clone_nodes(n->lhs);
  op->rhs = n->rhs;
  add_type(op);
  n->kind = ND_ASSIGN;
  n->rhs = op;
  n->op = 0;
  coerce(&n->rhs, n->lhs->ty);
  n->ty = n->lhs->ty;
}

/* The recursion is bounded: the parser calls this on parts of an expression before it has
 * measured the whole (limits_parse.h), and a tree deeper than the limit is refused here. */
static void add_type_at(Node *n, int depth) {
  if (!n || n->ty) return;
  if (depth > LIMIT_EXPR_DEPTH)
    error_tok(n->tok, "expression nested too deeply " LIMIT_NOTE(LIMIT_EXPR_DEPTH),
              LIMIT_EXPR_DEPTH);
  add_type_at(n->lhs, depth + 1);
  add_type_at(n->rhs, depth + 1);
  add_type_at(n->cond, depth + 1);
  add_type_at(n->then, depth + 1);
  add_type_at(n->els, depth + 1);
  for (Node *a = n->args; a; a = a->next) add_type_at(a, depth + 1);
  type_node(n);
}

void add_type(Node *n) { add_type_at(n, 0); }

/* n's type from its operands' */
static void type_node(Node *n) {
  switch (n->kind) {
  case ND_NUM: n->ty = ty_int; return;
  case ND_ADD:
  case ND_SUB:
    check_value(n->lhs);
    check_value(n->rhs);
    if (is_numeric(n->lhs->ty) && is_numeric(n->rhs->ty)) {
      arith(n);
      if (is_flonum(n->ty) && (is_mul_of(n->lhs, n->ty) || is_mul_of(n->rhs, n->ty)))
        n->contract = true;
      return;
    }
    no_vla_arith(n, n->lhs->ty);
    no_vla_arith(n, n->rhs->ty);
    if (is_pointer_like(n->lhs->ty) && is_integer(n->rhs->ty)) {
      n->ty = n->lhs->ty->kind == TY_ARRAY ? pointer_to(n->lhs->ty->base) : n->lhs->ty;
      return;
    }
    if (n->kind == ND_ADD && is_integer(n->lhs->ty) && is_pointer_like(n->rhs->ty)) {
      n->ty = n->rhs->ty->kind == TY_ARRAY ? pointer_to(n->rhs->ty->base) : n->rhs->ty;
      return;
    }
    if (n->kind == ND_SUB && is_pointer_like(n->lhs->ty) && is_pointer_like(n->rhs->ty)) {
      if (n->lhs->ty->base->size != n->rhs->ty->base->size)
        error_tok(n->tok, "subtracting pointers to different types");
      n->ty = ty_long;
      return;
    }
    error_tok(n->tok, "invalid operands to binary '%.*s' ('%s' and '%s')", n->tok->len, n->tok->loc,
              type_name(n->lhs->ty), type_name(n->rhs->ty));
  case ND_MUL:
  case ND_DIV: arith(n); return;
  case ND_MOD:
  case ND_BITAND:
  case ND_BITOR:
  case ND_BITXOR:
    arith(n);
    if (!is_integer(n->ty))
      error_tok(n->tok, "invalid operands to binary '%.*s' ('%s' and '%s'): integers required",
                n->tok->len, n->tok->loc, type_name(n->lhs->ty), type_name(n->rhs->ty));
    return;
  case ND_SHL:
  case ND_SHR:
    check_value(n->lhs);
    check_value(n->rhs);
    if (!is_integer(n->lhs->ty) || !is_integer(n->rhs->ty) || n->lhs->ty->is_half ||
        n->rhs->ty->is_half)
      error_tok(n->tok, "invalid operands to shift ('%s' and '%s')", type_name(n->lhs->ty),
                type_name(n->rhs->ty));
    n->ty = promote(n->lhs->ty);
    coerce(&n->lhs, n->ty);
    coerce(&n->rhs, promote(n->rhs->ty));
    return;
  case ND_EQ:
  case ND_NE:
  case ND_LT:
  case ND_LE:
  case ND_GT:
  case ND_GE:
    check_value(n->lhs);
    check_value(n->rhs);
    half_to_float(&n->lhs);
    half_to_float(&n->rhs);
    if (is_numeric(n->lhs->ty) && is_numeric(n->rhs->ty)) {
      Type *t = common_type(n->lhs->ty, n->rhs->ty);
      coerce(&n->lhs, t);
      coerce(&n->rhs, t);
    } else if (!(is_scalar(n->lhs->ty) || n->lhs->ty->kind == TY_ARRAY) ||
               !(is_scalar(n->rhs->ty) || n->rhs->ty->kind == TY_ARRAY)) {
      error_tok(n->tok, "invalid operands to comparison ('%s' and '%s')", type_name(n->lhs->ty),
                type_name(n->rhs->ty));
    }
    n->ty = ty_int;
    return;
  case ND_LOGAND:
  case ND_LOGOR:
    check_value(n->lhs);
    check_value(n->rhs);
    half_to_float(&n->lhs);
    half_to_float(&n->rhs);
    if (!is_scalar(n->lhs->ty) && n->lhs->ty->kind != TY_ARRAY)
      error_tok(n->lhs->tok, "operand of '%.*s' must be a scalar", n->tok->len, n->tok->loc);
    if (!is_scalar(n->rhs->ty) && n->rhs->ty->kind != TY_ARRAY)
      error_tok(n->rhs->tok, "operand of '%.*s' must be a scalar", n->tok->len, n->tok->loc);
    n->ty = ty_int;
    return;
  case ND_NOT:
    check_value(n->lhs);
    half_to_float(&n->lhs);
    if (!is_scalar(n->lhs->ty) && n->lhs->ty->kind != TY_ARRAY)
      error_tok(n->tok, "invalid argument type '%s' to unary '!'", type_name(n->lhs->ty));
    n->ty = ty_int;
    return;
  case ND_NEG:
  case ND_POS:
  case ND_BITNOT:
    check_value(n->lhs);
    if (n->lhs->ty->is_half && n->kind == ND_NEG) { /* -h: the sign flipped */
      Token *tok = n->tok;
      Node *next = n->next;
      *n =
        *half_call(n->lhs->ty->is_half == 1 ? HOP_NEG : HOP_NEG2, n->lhs, NULL, unqual(n->lhs->ty));
      n->tok = tok;
      n->next = next;
      return;
    }
    if (n->lhs->ty->is_half && n->kind == ND_POS) {
      n->ty = unqual(n->lhs->ty);
      return;
    }
    if (n->lhs->ty->is_half)
      error_tok(n->tok, "invalid argument type '%s' to unary '~'", type_name(n->lhs->ty));
    if (!is_numeric(n->lhs->ty) || (n->kind == ND_BITNOT && !is_integer(n->lhs->ty)))
      error_tok(n->tok, "invalid argument type '%s' to unary '%.*s'", type_name(n->lhs->ty),
                n->tok->len, n->tok->loc);
    n->ty = promote(n->lhs->ty);
    coerce(&n->lhs, n->ty);
    return;
  case ND_COMMA: n->ty = n->rhs->ty; return;
  case ND_COND: {
    check_value(n->cond);
    half_to_float(&n->cond);
    if (n->then->ty->is_half != n->els->ty->is_half) {
      half_to_float(&n->then);
      half_to_float(&n->els);
    } else if (n->then->ty->is_half) {
      n->ty = unqual(n->then->ty);
      return;
    } /* no integer promotion of halves */
    Type *a = n->then->ty, *b = n->els->ty;
    if (is_numeric(a) && is_numeric(b)) {
      n->ty = common_type(a, b);
      coerce(&n->then, n->ty);
      coerce(&n->els, n->ty);
    } else if (is_pointer_like(a) &&
               (is_pointer_like(b) || (n->els->kind == ND_NUM && n->els->ival == 0))) {
      n->ty = a->kind == TY_ARRAY ? pointer_to(a->base) : a;
    } else if (is_pointer_like(b) && n->then->kind == ND_NUM && n->then->ival == 0) {
      n->ty = b->kind == TY_ARRAY ? pointer_to(b->base) : b;
    } else if (a->kind == TY_VOID && b->kind == TY_VOID) {
      n->ty = ty_void;
    } else if (same_type(unqual(a), unqual(b))) {
      n->ty = unqual(a);
    } else {
      error_tok(n->tok, "incompatible operand types ('%s' and '%s')", type_name(a), type_name(b));
    }
    return;
  }
  case ND_ASSIGN:
    check_assignable(n->lhs, n->tok);
    check_value(n->rhs);
    coerce(&n->rhs, n->lhs->ty);
    n->ty = n->lhs->ty;
    return;
  case ND_ASSIGN_OP: {
    check_assignable(n->lhs, n->tok);
    check_value(n->rhs);
    if (n->lhs->ty->is_half) {
      half_assign_op(n);
      return;
    }
    Type *lt = n->lhs->ty, *rt = n->rhs->ty;
    if (is_numeric(lt) && is_numeric(rt)) {
      bool shift = n->op == ND_SHL || n->op == ND_SHR;
      Type *t = shift ? promote(lt) : common_type(lt, rt);
      if ((n->op == ND_MOD || n->op == ND_BITAND || n->op == ND_BITOR || n->op == ND_BITXOR ||
           shift) &&
          !is_integer(t))
        error_tok(n->tok, "invalid operands to '%.*s' ('%s' and '%s')", n->tok->len, n->tok->loc,
                  type_name(lt), type_name(rt));
      if (shift && !is_integer(rt)) error_tok(n->tok, "shift amount must be an integer");
      n->cast_ty = t;
      coerce(&n->rhs, shift ? promote(rt) : t);
      if ((n->op == ND_ADD || n->op == ND_SUB) && is_flonum(t) && is_mul_of(n->rhs, t))
        n->contract = true;
    } else if (lt->kind == TY_PTR && is_integer(rt) && (n->op == ND_ADD || n->op == ND_SUB)) {
      no_vla_arith(n, lt);
      n->cast_ty = lt;
    } else {
      error_tok(n->tok, "invalid operands to '%.*s' ('%s' and '%s')", n->tok->len, n->tok->loc,
                type_name(lt), type_name(rt));
    }
    n->ty = lt;
    return;
  }
  case ND_PREINC:
  case ND_PREDEC:
  case ND_POSTINC:
  case ND_POSTDEC:
    check_assignable(n->lhs, n->tok);
    if (n->lhs->ty->is_half)
      error_tok(n->tok, "unsupported: '++' and '--' on '%s' (write h = h + __float2half(1.0f))",
                type_name(n->lhs->ty));
    if (!is_scalar(n->lhs->ty))
      error_tok(n->tok, "cannot increment a value of type '%s'", type_name(n->lhs->ty));
    no_vla_arith(n, n->lhs->ty);
    n->ty = n->lhs->ty;
    return;
  case ND_ADDR:
    if (n->lhs->kind == ND_SPECIAL)
      error_tok(n->tok, "cannot take the address of a builtin variable");
    if (!is_lvalue(n->lhs) && n->lhs->ty->kind != TY_FUNC)
      error_tok(n->tok, "cannot take the address of an rvalue");
    if (n->lhs->kind == ND_VAR) n->lhs->var->in_memory = true;
    if (n->lhs->ty->kind == TY_ARRAY) n->ty = pointer_to(n->lhs->ty);
    else n->ty = pointer_to(n->lhs->ty);
    return;
  case ND_DEREF:
    check_value(n->lhs);
    if (!is_pointer_like(n->lhs->ty))
      error_tok(n->tok, "indirection requires pointer operand ('%s' invalid)",
                type_name(n->lhs->ty));
    if (n->lhs->ty->base->kind == TY_VOID) error_tok(n->tok, "dereferencing a 'void *' pointer");
    n->ty = n->lhs->ty->base;
    return;
  case ND_INDEX:
    check_value(n->lhs);
    check_value(n->rhs);
    if (is_integer(n->lhs->ty) && is_pointer_like(n->rhs->ty)) {
      Node *t = n->lhs;
      n->lhs = n->rhs;
      n->rhs = t;
    }
    if (!is_pointer_like(n->lhs->ty))
      error_tok(n->tok, "subscripted value is not an array or pointer ('%s')",
                type_name(n->lhs->ty));
    if (!is_integer(n->rhs->ty))
      error_tok(n->rhs->tok, "array subscript is not an integer ('%s')", type_name(n->rhs->ty));
    if (n->lhs->ty->base->kind == TY_VOID) error_tok(n->tok, "subscript of a 'void *' pointer");
    no_vla_arith(n, n->lhs->ty);
    n->ty = n->lhs->ty->base;
    return;
  case ND_CAST:
    if (!n->implicit) {
      if (!(n->cast_ty->kind == TY_VOID && n->lhs->ty && n->lhs->ty->kind == TY_VOID))
        check_value(n->lhs); /* (void)f() of a void f: C11 6.5.4 */
      if (n->cast_ty->is_half != n->lhs->ty->is_half && n->cast_ty->kind != TY_VOID) {
        /* (float)h, (__half)x, __half(x): the conversion, then a cast that changes nothing */
        coerce(&n->lhs, n->cast_ty->is_half ? unqual(n->cast_ty) : ty_float);
      }
      Type *to = n->cast_ty, *from = n->lhs->ty;
      if (to->kind != TY_VOID) {
        if (!is_scalar(to)) {
          if (!(to->kind == TY_STRUCT && same_type(unqual(to), unqual(from))))
            error_tok(n->tok, "invalid cast from '%s' to '%s'", type_name(from), type_name(to));
        } else if (!is_scalar(from) && from->kind != TY_ARRAY) {
          error_tok(n->tok, "invalid cast from '%s' to '%s'", type_name(from), type_name(to));
        } else if (is_flonum(to) && from->kind == TY_PTR) {
          error_tok(n->tok, "invalid cast from pointer '%s' to '%s'", type_name(from),
                    type_name(to));
        } else if (to->kind == TY_PTR && is_flonum(from)) {
          error_tok(n->tok, "invalid cast from '%s' to pointer '%s'", type_name(from),
                    type_name(to));
        }
      }
      n->ty = n->cast_ty;
    }
    return;
  default: return;
  }
}
