/* parse_expr.c: expressions below primary, calls, builtins, the math library and __half
 * intrinsics (split from parse.c; the parser's private interface is parse_int.h) */
#include "parse_int.h"

/* ---------------- expressions ---------------- */

/* expr = assign ("," expr)? */
Node *expr(Token **rest, Token *tok) {
  expr_open();
  Node *n = assign(&tok, tok);
  /* a, b, c is a, (b, c): built by a loop, not one call per comma */
  for (Node **hole = &n; tok_equal(tok, ",");) {
    *hole = new_binary(ND_COMMA, *hole, NULL, tok);
    hole = &(*hole)->rhs;
    *hole = assign(&tok, tok->next);
  }
  *rest = tok;
  return expr_close(n);
}

/* assign = conditional (assign-op assign)?
 * assign-op = "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=" */
Node *assign(Token **rest, Token *tok) {
  nest_enter(tok, "expression");
  expr_open();
  Node *n = assign_rhs(rest, tok);
  nest_leave();
  return expr_close(n);
}

Node *assign_rhs(Token **rest, Token *tok) {
  Node *n = conditional(&tok, tok);
  static const struct {
    const char *op;
    NodeKind k;
  } ops[] = {{"+=", ND_ADD},  {"-=", ND_SUB},    {"*=", ND_MUL},   {"/=", ND_DIV},
             {"%=", ND_MOD},  {"&=", ND_BITAND}, {"|=", ND_BITOR}, {"^=", ND_BITXOR},
             {"<<=", ND_SHL}, {">>=", ND_SHR}};
  if (tok_equal(tok, "=")) {
    Node *r = assign(rest, tok->next);
    add_type(r);
    if (r->ty->kind == TY_STRUCT && r->ty->typedef_name) {
      add_type(n);
      r = class_convert(r, n->ty);
    } /* operator T() */
    return new_binary(ND_ASSIGN, n, r, tok);
  }
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (tok_equal(tok, ops[i].op)) {
      Node *a = new_binary(ND_ASSIGN_OP, n, assign(rest, tok->next), tok);
      a->op = ops[i].k;
      return vla_lower(a);
    }
  *rest = tok;
  return n;
}

static Node *logor(Token **rest, Token *tok);

/* conditional = logor ("?" expr ":" conditional)? */
Node *conditional(Token **rest, Token *tok) {
  expr_open();
  Node *c = logor(&tok, tok);
  if (!tok_equal(tok, "?")) {
    *rest = tok;
    return expr_close(c);
  }
  Node *n = new_node(ND_COND, tok);
  n->cond = c;
  n->then = expr(&tok, tok->next);
  tok = skip(tok, ":");
  nest_enter(tok, "expression");
  n->els = conditional(rest, tok);
  nest_leave();
  return expr_close(n);
}

/* binary levels, lowest first */
typedef struct {
  const char *op;
  NodeKind kind;
} BinOp;
static const BinOp lv_logor[] = {{"||", ND_LOGOR}, {0}}, lv_logand[] = {{"&&", ND_LOGAND}, {0}},
                   lv_bitor[] = {{"|", ND_BITOR}, {0}}, lv_bitxor[] = {{"^", ND_BITXOR}, {0}},
                   lv_bitand[] = {{"&", ND_BITAND}, {0}},
                   lv_eq[] = {{"==", ND_EQ}, {"!=", ND_NE}, {0}},
                   lv_rel[] = {{"<", ND_LT}, {"<=", ND_LE}, {">", ND_GT}, {">=", ND_GE}, {0}},
                   lv_shift[] = {{"<<", ND_SHL}, {">>", ND_SHR}, {0}},
                   lv_add[] = {{"+", ND_ADD}, {"-", ND_SUB}, {0}},
                   lv_mul[] = {{"*", ND_MUL}, {"/", ND_DIV}, {"%", ND_MOD}, {0}};
static const BinOp *levels[] = {lv_logor, lv_logand, lv_bitor, lv_bitxor, lv_bitand,
                                lv_eq,    lv_rel,    lv_shift, lv_add,    lv_mul};

/* logor = logand ("||" logand)*   ...   mul = cast (("*" | "/" | "%") cast)*  (one rule per level) */
Node *binary_level(Token **rest, Token *tok, int level) {
  if (level == 10) return cast(rest, tok);
  Node *n = binary_level(&tok, tok, level + 1);
  for (;;) {
    const BinOp *hit = NULL;
    for (const BinOp *b = levels[level]; b->op; b++)
      if (tok_equal(tok, b->op)) hit = b;
    if (!hit) break;
    Token *op = tok;
    n = new_binary(hit->kind, n, binary_level(&tok, tok->next, level + 1), op);
    if (hit->kind == ND_ADD || hit->kind == ND_SUB) n = vla_lower(n);
  }
  *rest = tok;
  return n;
}
static Node *logor(Token **rest, Token *tok) { return binary_level(rest, tok, 0); }

/* cast = "(" type-name ")" cast | unary */
static Node *cast_at(Token **rest, Token *tok);
Node *cast(Token **rest, Token *tok) {
  if (!tok_equal(tok, "(") || !is_typename(tok->next)) return unary(rest, tok);
  nest_enter(tok, "expression");
  Node *n = cast_at(rest, tok);
  nest_leave();
  return n;
}

static Node *cast_at(Token **rest, Token *tok) {
  if (tok_equal(tok, "(") && is_typename(tok->next)) {
    Token *start = tok;
    Type *ty = typename_(&tok, tok->next);
    tok = skip(tok, ")");
    if (tok_equal(tok, "{")) error_tok(tok, "unsupported: compound literals");
    Node *n = new_node(ND_CAST, start);
    n->lhs = cast(rest, tok);
    n->cast_ty = ty;
    add_type(n->lhs);
    return n;
  }
  return unary(rest, tok);
}

/* unary = ("+" | "-" | "*" | "&" | "!" | "~") cast | ("++" | "--") unary
 *       | "sizeof" "(" type-name ")" | "sizeof" unary | "alignof" "(" type-name ")" | postfix */
/* host code: new-expr = "new" declspec "*"* ("[" expr "]")?, the storage of malloc (no
 * constructor runs: a struct or class is refused); delete-expr = "delete" ("[" "]")? cast, free */
static Node *host_new_delete(Token **rest, Token *tok) {
  Token *at = tok;
  bool is_new = tok_equal(tok, "new");
  Obj *fn = find_func(is_new ? "malloc" : "free");
  if (!fn)
    error_tok(at, "unsupported C++: '%s' without the C library's declarations",
              is_new ? "new" : "delete");
  Node *call = new_node(ND_CALL, at);
  if (!is_new) {
    tok = tok->next;
    if (tok_equal(tok, "[")) tok = skip(tok->next, "]");
    call->args = cast(rest, tok);
    add_type(call->args);
    call->nargs = 1;
    return user_call(at, call, fn);
  }
  Type *ty = declspec(&tok, tok->next, NULL);
  while (consume(&tok, tok, "*")) ty = pointer_to(ty);
  if (ty->kind == TY_STRUCT)
    error_tok(
      at,
      "unsupported C++: 'new' of the struct or class '%s' in host code carve interprets (a constructor would not run; --route nvcc runs it)",
      type_name(ty));
  Node *size = new_num(ty->size, at);
  size->ty = ty_ulong;
  if (consume(&tok, tok, "[")) {
    Node *count = expr(&tok, tok);
    tok = skip(tok, "]");
    size = new_binary(ND_MUL, size, count, at);
  }
  if (tok_equal(tok, "(") || tok_equal(tok, "{"))
    error_tok(tok, "unsupported C++: an initializer of a 'new' expression");
  add_type(size);
  call->args = size;
  call->nargs = 1;
  Node *n = new_node(ND_CAST, at);
  n->lhs = user_call(at, call, fn);
  add_type(n->lhs);
  n->cast_ty = pointer_to(ty);
  add_type(n);
  *rest = tok;
  return n;
}

static Node *unary_at(Token **rest, Token *tok);
Node *unary(Token **rest, Token *tok) {
  /* prefix operators recurse; a postfix expression does not (its parentheses count in assign) */
  static const char *prefix[] = {"+",   "-",      "&",       "*",        "!",
                                 "~",   "++",     "--",      "sizeof",   "&&",
                                 "new", "delete", "alignof", "_Alignof", "__alignof__"};
  bool is_prefix = false;
  for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
    is_prefix |= tok_equal(tok, prefix[i]);
  if (!is_prefix) return postfix(rest, tok);
  nest_enter(tok, "expression");
  Node *n = unary_at(rest, tok);
  nest_leave();
  return n;
}

static Node *unary_at(Token **rest, Token *tok) {
  if (tok_equal(tok, "+")) return new_unary(ND_POS, cast(rest, tok->next), tok);
  if (tok_equal(tok, "-")) return new_unary(ND_NEG, cast(rest, tok->next), tok);
  if (tok_equal(tok, "&")) return new_unary(ND_ADDR, cast(rest, tok->next), tok);
  if (tok_equal(tok, "*")) return new_unary(ND_DEREF, cast(rest, tok->next), tok);
  if (tok_equal(tok, "!")) return new_unary(ND_NOT, cast(rest, tok->next), tok);
  if (tok_equal(tok, "~")) return new_unary(ND_BITNOT, cast(rest, tok->next), tok);
  if (tok_equal(tok, "++")) return vla_lower(new_unary(ND_PREINC, unary(rest, tok->next), tok));
  if (tok_equal(tok, "--")) return vla_lower(new_unary(ND_PREDEC, unary(rest, tok->next), tok));
  if (tok_equal(tok, "&&")) error_tok(tok, "unsupported: address of a label");
  if (tok_equal(tok, "alignof") || tok_equal(tok, "_Alignof") || tok_equal(tok, "__alignof__")) {
    /* a constant of type size_t, printed as its value (the type is known here, in an instance too) */
    Token *open = tok->next;
    if (!tok_equal(open, "(") || !is_typename(open->next))
      error_tok(tok, "expected '(' and a type name after '%.*s'", tok->len, tok->loc);
    Type *ty = typename_(&tok, open->next);
    *rest = skip(tok, ")");
    if (ty->kind == TY_VOID || ty->kind == TY_FUNC || ty->size < 0)
      error_tok(open, "invalid application of 'alignof' to an incomplete type '%s'", type_name(ty));
    Node *n = new_num(ty->align, open);
    n->ty = ty_ulong;
    return n;
  }
  if (tok_equal(tok, "sizeof")) {
    Node *n = new_node(ND_SIZEOF, tok);
    if (tok_equal(tok->next, "(") && is_typename(tok->next->next)) {
      Type *ty = typename_(&tok, tok->next->next);
      *rest = skip(tok, ")");
      n->cast_ty = ty;
    } else {
      Node *e = unary(rest, tok->next);
      add_type(e);
      n->lhs = e;
      n->cast_ty = e->ty;
    }
    if (is_vla(n->cast_ty)) return vla_sizeof(n, n->lhs);
    if (n->cast_ty->kind == TY_VOID || n->cast_ty->kind == TY_FUNC || n->cast_ty->size < 0 ||
        (n->cast_ty->kind == TY_ARRAY && n->cast_ty->array_len < 0))
      error_tok(n->tok, "invalid application of 'sizeof' to an incomplete type '%s'",
                type_name(n->cast_ty));
    n->ival = n->cast_ty->size;
    n->ty = ty_ulong;
    return n;
  }
  if ((tok_equal(tok, "new") || tok_equal(tok, "delete")) && in_host_fn())
    return host_new_delete(rest, tok);
  if (tok_equal(tok, "new") || tok_equal(tok, "delete"))
    error_tok(tok, "unsupported C++: '%.*s'", tok->len, tok->loc);
  return postfix(rest, tok);
}

/* postfix = primary ("[" expr "]" | "." ident | "->" ident | "++" | "--")* */
Node *postfix(Token **rest, Token *tok) {
  Node *n = primary(&tok, tok);
  for (;;) {
    if (tok_equal(tok, "[")) {
      Token *start = tok;
      Node *idx = expr(&tok, tok->next);
      tok = skip(tok, "]");
      /* located at the array's name, as a reader points at "a[i]" */
      n = new_binary(ND_INDEX, n, idx, n->tok ? n->tok : start);
      n->end_tok = tok;
      n = vla_lower(n);
      continue;
    }
    if (tok_equal(tok, ".") || tok_equal(tok, "->")) {
      bool arrow = tok_equal(tok, "->");
      add_type(n);
      if (!arrow && n->ty->cg_group) {
        n = cg_method(&tok, n, tok->next);
        continue;
      }
      if (!arrow && n->ty->is_half == 2 &&
          (tok_equal(tok->next, "x") || tok_equal(tok->next, "y"))) {
        /* h2.x, h2.y (read): the low and high halves */
        Node *c = new_node(ND_CALL, tok->next);
        c->builtin = BI_HALF;
        c->ival = tok_equal(tok->next, "x") ? HOP_LOW : HOP_HIGH;
        c->implicit = true;
        c->args = n;
        c->nargs = 1;
        c->ty = half_type(1);
        n = c;
        tok = tok->next->next;
        continue;
      }
      Type *st = arrow ? (n->ty->kind == TY_PTR ? n->ty->base : NULL) : n->ty;
      if (!st || st->kind != TY_STRUCT)
        error_tok(tok, "member reference %s type '%s' is not a %s", arrow ? "through" : "base",
                  type_name(n->ty), arrow ? "pointer to a struct" : "struct");
      if (tok->next->kind != TK_IDENT) error_tok(tok->next, "expected a member name");
      Obj *mf = st->typedef_name && tok_equal(tok->next->next, "(")
                  ? find_func(fmt("%s::%.*s", st->typedef_name, tok->next->len, tok->next->loc))
                  : NULL;
      if (mf && mf->member) { /* x.f(args): f(&x, args) (a class template's member function) */
        Token *name = tok->next;
        Node *call = new_node(ND_CALL, name);
        Node *args = func_args(&tok, name->next->next, call);
        Node *self = arrow ? n : new_unary(ND_ADDR, n, n->tok);
        self->implicit = !arrow;
        add_type(self);
        self->next = args;
        call->args = self;
        call->nargs++;
        n = user_call(name, call, mf);
        continue;
      }
      Member *m = find_member(st, tok_text(tok->next));
      if (!m)
        error_tok(tok->next, "no member named '%.*s' in '%s'", tok->next->len, tok->next->loc,
                  type_name(st));
      Node *mn = new_node(ND_MEMBER, tok);
      mn->lhs = n;
      mn->member = m;
      mn->arrow = arrow;
      mn->ty = m->ty;
      if (n->ty->qual & Q_CONST || (arrow && st->qual & Q_CONST))
        mn->ty = qualified(m->ty, Q_CONST);
      n = mn;
      tok = tok->next->next;
      continue;
    }
    if (tok_equal(tok, "++")) {
      n = vla_lower(new_unary(ND_POSTINC, n, tok));
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "--")) {
      n = vla_lower(new_unary(ND_POSTDEC, n, tok));
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "(")) {
      add_type(n);
      error_tok(tok, "called object is not a function");
    }
    break;
  }
  *rest = tok;
  return n;
}

/* ---- builtin functions ---- */
static const BuiltinDef builtin_defs[] = {
  {"__syncthreads", BI_SYNCTHREADS, 0},
  {"__syncthreads_count", BI_SYNCTHREADS_COUNT, 1},
  {"__syncthreads_and", BI_SYNCTHREADS_AND, 1},
  {"__syncthreads_or", BI_SYNCTHREADS_OR, 1},
  {"__syncwarp", BI_SYNCWARP, -1},
  {"__threadfence", BI_THREADFENCE, 0},
  {"__threadfence_block", BI_THREADFENCE_BLOCK, 0},
  {"__threadfence_system", BI_THREADFENCE, 0},
  {"atomicAdd", BI_ATOMIC_ADD, 2},
  {"atomicSub", BI_ATOMIC_SUB, 2},
  {"atomicExch", BI_ATOMIC_EXCH, 2},
  {"atomicMin", BI_ATOMIC_MIN, 2},
  {"atomicMax", BI_ATOMIC_MAX, 2},
  {"atomicInc", BI_ATOMIC_INC, 2},
  {"atomicDec", BI_ATOMIC_DEC, 2},
  {"atomicCAS", BI_ATOMIC_CAS, 3},
  {"atomicAnd", BI_ATOMIC_AND, 2},
  {"atomicOr", BI_ATOMIC_OR, 2},
  {"atomicXor", BI_ATOMIC_XOR, 2},
  /* the _system and _block scopes: one memory and one order in carve's engines, the same operation */
  {"atomicAdd_system", BI_ATOMIC_ADD, 2},
  {"atomicSub_system", BI_ATOMIC_SUB, 2},
  {"atomicExch_system", BI_ATOMIC_EXCH, 2},
  {"atomicMin_system", BI_ATOMIC_MIN, 2},
  {"atomicMax_system", BI_ATOMIC_MAX, 2},
  {"atomicInc_system", BI_ATOMIC_INC, 2},
  {"atomicDec_system", BI_ATOMIC_DEC, 2},
  {"atomicCAS_system", BI_ATOMIC_CAS, 3},
  {"atomicAnd_system", BI_ATOMIC_AND, 2},
  {"atomicOr_system", BI_ATOMIC_OR, 2},
  {"atomicXor_system", BI_ATOMIC_XOR, 2},
  {"atomicAdd_block", BI_ATOMIC_ADD, 2},
  {"atomicSub_block", BI_ATOMIC_SUB, 2},
  {"atomicExch_block", BI_ATOMIC_EXCH, 2},
  {"atomicMin_block", BI_ATOMIC_MIN, 2},
  {"atomicMax_block", BI_ATOMIC_MAX, 2},
  {"atomicInc_block", BI_ATOMIC_INC, 2},
  {"atomicDec_block", BI_ATOMIC_DEC, 2},
  {"atomicCAS_block", BI_ATOMIC_CAS, 3},
  {"atomicAnd_block", BI_ATOMIC_AND, 2},
  {"atomicOr_block", BI_ATOMIC_OR, 2},
  {"atomicXor_block", BI_ATOMIC_XOR, 2},
  {"__shfl_sync", BI_SHFL, -3},
  {"__shfl_up_sync", BI_SHFL_UP, -3},
  {"__shfl_down_sync", BI_SHFL_DOWN, -3},
  {"__shfl_xor_sync", BI_SHFL_XOR, -3},
  {"__ballot_sync", BI_BALLOT, 2},
  {"__any_sync", BI_ANY, 2},
  {"__all_sync", BI_ALL, 2},
  {"__activemask", BI_ACTIVEMASK, 0},
  {"__popc", BI_POPC, 1},
  {"__popcll", BI_POPCLL, 1},
  {"__clz", BI_CLZ, 1},
  {"__clzll", BI_CLZLL, 1},
  {"__ffs", BI_FFS, 1},
  {"__ffsll", BI_FFSLL, 1},
  {"__brev", BI_BREV, 1},
  {"__ldg", BI_LDG, 1},
  {"min", BI_MIN, 2},
  {"max", BI_MAX, 2},
  {"umin", BI_MIN, 2},
  {"umax", BI_MAX, 2},
  {"llmin", BI_MIN, 2},
  {"llmax", BI_MAX, 2},
  {"abs", BI_ABS, 1},
  {"labs", BI_ABS, 1},
  {"printf", BI_PRINTF, -1},
  {"clock", BI_CLOCK, 0},
  {"clock64", BI_CLOCK, 0},
  {"assert", BI_ASSERT, 1},
  {"__shfl", BI_NONE, 0},
  {"__shfl_down", BI_NONE, 0},
  {"__shfl_up", BI_NONE, 0},
  {"__shfl_xor", BI_NONE, 0},
  {"__ballot", BI_NONE, 0},
  {"__any", BI_NONE, 0},
  {"__all", BI_NONE, 0},
  {"__pipeline_memcpy_async", BI_PIPE_COPY, -3},
  {"__pipeline_commit", BI_PIPE_COMMIT, 0},
  {"__pipeline_wait_prior", BI_PIPE_WAIT, 1},
};

/* the builtin function named name, NULL if none */
const BuiltinDef *find_builtin(const char *name) {
  for (size_t i = 0; i < sizeof builtin_defs / sizeof *builtin_defs; i++)
    if (!strcmp(builtin_defs[i].name, name)) return &builtin_defs[i];
  return NULL;
}

static const MathFn math_fns[] = {
#define M(name, ret, t1, t2, t3, expr) {#name, MATH_##name, #ret[0], #t1 #t2 #t3},
#include "mathfns.def"
#undef M
};

const MathFn *find_math(const char *name, int len) {
  for (size_t i = 0; i < sizeof math_fns / sizeof *math_fns; i++)
    if ((int)strlen(math_fns[i].name) == len && !memcmp(math_fns[i].name, name, (size_t)len))
      return &math_fns[i];
  return NULL;
}

static Type *math_type(char c) {
  switch (c) {
  case 'F': return ty_float;
  case 'D': return ty_double;
  case 'I': return ty_int;
  case 'U': return ty_uint;
  case 'L': return ty_llong;
  default: return ty_ullong;
  }
}

Node *func_args(Token **rest, Token *tok, Node *call) {
  Node head = {0}, *cur = &head;
  int n = 0;
  while (!tok_equal(tok, ")")) {
    if (n) tok = skip(tok, tok_equal(tok, ",") ? "," : ")");
    cur = cur->next = assign(&tok, tok);
    add_type(cur);
    n++;
  }
  call->nargs = n;
  call->end_tok = tok;
  *rest = tok->next;
  return head.next;
}

void coerce_arg(Node **a, Type *ty) {
  Node *fake = new_node(ND_VAR, (*a)->tok);
  Obj tmp = {0};
  tmp.ty = unqual(ty);
  fake->var = &tmp;
  fake->ty = tmp.ty;
  Node *next = (*a)->next; /* before add_type: a conversion built around *a may unlink it */
  Node *as = new_binary(ND_ASSIGN, fake, *a, (*a)->tok);
  add_type(as);
  *a = as->rhs;
  (*a)->next = next;
}

static Node *nth(Node *args, int i) {
  while (i--) args = args->next;
  return args;
}
Node **nthp(Node **args, int i) {
  while (i--) args = &(*args)->next;
  return args;
}

static bool atomic_type_ok(Builtin b, Type *t) {
  bool i32 = t->kind == TY_INT, u64 = (t->kind == TY_LLONG || t->kind == TY_LONG) && t->is_unsigned;
  bool s64 = (t->kind == TY_LLONG || t->kind == TY_LONG) && !t->is_unsigned;
  switch (b) {
  case BI_ATOMIC_ADD: return i32 || u64 || t->kind == TY_FLOAT || t->kind == TY_DOUBLE;
  case BI_ATOMIC_SUB: return i32;
  case BI_ATOMIC_EXCH: return i32 || u64 || t->kind == TY_FLOAT;
  case BI_ATOMIC_MIN:
  case BI_ATOMIC_MAX: return i32 || u64 || s64;
  case BI_ATOMIC_INC:
  case BI_ATOMIC_DEC: return i32 && t->is_unsigned;
  case BI_ATOMIC_CAS: return i32 || u64 || (t->kind == TY_SHORT && t->is_unsigned);
  default: return i32 || u64;
  }
}

/* void __pipeline_memcpy_async(void *dst_shared, const void *src_global, size_t size_and_align,
 * size_t zfill = 0) (CUDA C++ Programming Guide, "Pipeline Primitives Interface"): object
 * pointers, sizes as size_t; 4, 8 or 16 and the alignment are the run's to check (a value) */
static Node *pipeline_copy_call(Token *name, Node *call) {
  if (call->nargs != 3 && call->nargs != 4)
    error_tok(name, "'__pipeline_memcpy_async' takes 3 or 4 arguments, %d given", call->nargs);
  for (int i = 0; i < 2; i++) {
    Node *a = nth(call->args, i);
    if (!is_pointer_like(a->ty) || a->ty->base->kind == TY_FUNC)
      error_tok(a->tok,
                "argument %d of '__pipeline_memcpy_async' must be a pointer (the %s), not '%s'",
                i + 1, i ? "global source" : "shared destination", type_name(a->ty));
    coerce_arg(nthp(&call->args, i), pointer_to(i ? qualified(ty_void, Q_CONST) : ty_void));
  }
  for (int i = 2; i < call->nargs; i++) {
    Node *a = nth(call->args, i);
    if (!is_integer(a->ty))
      error_tok(a->tok, "argument %d of '__pipeline_memcpy_async' must be an integer, not '%s'",
                i + 1, type_name(a->ty));
    coerce_arg(nthp(&call->args, i), ty_ulong);
  }
  call->ty = ty_void;
  return call;
}

Node *builtin_call(Token *name, const BuiltinDef *bd, Node *call) {
  call->builtin = bd->bi;
  if (bd->bi == BI_NONE)
    error_tok(name, "'%.*s' was removed in CUDA 9; use the _sync variant with a mask", name->len,
              name->loc);
  int want = bd->nargs;
  if (want >= 0 && call->nargs != want)
    error_tok(name, "'%.*s' takes %d argument%s, %d given", name->len, name->loc, want,
              want == 1 ? "" : "s", call->nargs);
  Node *a = call->args;
  switch (bd->bi) {
  case BI_SYNCTHREADS:
  case BI_THREADFENCE:
  case BI_THREADFENCE_BLOCK: call->ty = ty_void; return call;
  case BI_SYNCTHREADS_COUNT:
  case BI_SYNCTHREADS_AND:
  case BI_SYNCTHREADS_OR:
    coerce_arg(&call->args, ty_int);
    call->ty = ty_int;
    return call;
  case BI_SYNCWARP:
    if (call->nargs > 1) error_tok(name, "'__syncwarp' takes at most 1 argument");
    if (call->nargs) coerce_arg(&call->args, ty_uint);
    call->ty = ty_void;
    return call;
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
  case BI_ATOMIC_XOR: {
    if (a->ty->kind != TY_PTR)
      error_tok(a->tok, "first argument of '%.*s' must be a pointer", name->len, name->loc);
    Type *t = unqual(a->ty->base);
    if (!atomic_type_ok(bd->bi, t))
      error_tok(name, "no '%.*s' for '%s'", name->len, name->loc, type_name(a->ty));
    for (int i = 1; i < call->nargs; i++) coerce_arg(nthp(&call->args, i), t);
    call->ty = t;
    return call;
  }
  case BI_SHFL:
  case BI_SHFL_UP:
  case BI_SHFL_DOWN:
  case BI_SHFL_XOR: {
    if (call->nargs != 3 && call->nargs != 4)
      error_tok(name, "'%.*s' takes 3 or 4 arguments", name->len, name->loc);
    Type *t = unqual(nth(a, 1)->ty);
    if (!is_numeric(t))
      error_tok(nth(a, 1)->tok, "cannot shuffle a value of type '%s'", type_name(t));
    if (t->size < 4 && !t->is_half) {
      t = ty_int;
      coerce_arg(nthp(&call->args, 1), t);
    } /* a __half moves as its bits */
    coerce_arg(&call->args, ty_uint);
    coerce_arg(nthp(&call->args, 2), bd->bi == BI_SHFL || bd->bi == BI_SHFL_XOR ? ty_int : ty_uint);
    if (call->nargs == 4) coerce_arg(nthp(&call->args, 3), ty_int);
    call->ty = t;
    return call;
  }
  case BI_BALLOT:
  case BI_ANY:
  case BI_ALL:
    coerce_arg(&call->args, ty_uint);
    coerce_arg(nthp(&call->args, 1), ty_int);
    call->ty = bd->bi == BI_BALLOT ? ty_uint : ty_int;
    return call;
  case BI_ACTIVEMASK: call->ty = ty_uint; return call;
  case BI_POPC:
  case BI_CLZ:
  case BI_FFS:
  case BI_BREV:
    coerce_arg(&call->args, bd->bi == BI_POPC || bd->bi == BI_BREV ? ty_uint : ty_int);
    call->ty = bd->bi == BI_BREV ? ty_uint : ty_int;
    return call;
  case BI_POPCLL:
  case BI_CLZLL:
  case BI_FFSLL:
    coerce_arg(&call->args, bd->bi == BI_POPCLL ? ty_ullong : ty_llong);
    call->ty = ty_int;
    return call;
  case BI_LDG:
    if (a->ty->kind != TY_PTR || !is_scalar(a->ty->base))
      if (!(a->ty->kind == TY_PTR && a->ty->base->is_vector))
        error_tok(a->tok, "'__ldg' needs a pointer to a scalar or vector type");
    call->ty = unqual(a->ty->base);
    return call;
  case BI_MIN:
  case BI_MAX: {
    Node *b = a->next;
    if (!is_numeric(a->ty) || !is_numeric(b->ty))
      error_tok(name, "invalid arguments to '%.*s'", name->len, name->loc);
    Type *t = a->ty->is_half || b->ty->is_half
                ? ty_float
                : common_type(a->ty, b->ty); /* a __half: as a float */
    coerce_arg(&call->args, t);
    coerce_arg(nthp(&call->args, 1), t);
    call->ty = t;
    return call;
  }
  case BI_ABS:
    if (a->ty->is_half) coerce_arg(&call->args, ty_float);
    a = call->args;
    if (is_flonum(a->ty)) {
      call->builtin = BI_MATH;
      call->math =
        find_math(a->ty->kind == TY_FLOAT ? "fabsf" : "fabs", a->ty->kind == TY_FLOAT ? 5 : 4);
      call->ty = a->ty->kind == TY_FLOAT ? ty_float : ty_double;
      return call;
    }
    if (!is_integer(a->ty)) error_tok(a->tok, "invalid argument to 'abs'");
    call->ty = common_type(a->ty, ty_int);
    coerce_arg(&call->args, call->ty);
    return call;
  case BI_PRINTF:
    if (call->nargs < 1 || a->kind != ND_STR)
      error_tok(name, "printf needs a string literal format");
    for (Node *x = a->next; x; x = x->next)
      if (!is_scalar(x->ty) && x->ty->kind != TY_ARRAY)
        error_tok(x->tok, "printf argument must be a scalar");
    call->ty = ty_int;
    return call;
  case BI_CLOCK: call->ty = ty_llong; return call;
  case BI_PIPE_COPY: return pipeline_copy_call(name, call);
  case BI_PIPE_COMMIT: call->ty = ty_void; return call;
  case BI_PIPE_WAIT:
    if (!is_integer(a->ty))
      error_tok(a->tok, "argument of '__pipeline_wait_prior' must be an integer, not '%s'",
                type_name(a->ty));
    coerce_arg(&call->args, ty_ulong);
    call->ty = ty_void;
    return call;
  case BI_ASSERT: {
    /* the condition as written, for the fault's message (a string argument, not printed) */
    coerce_arg(&call->args, ty_bool);
    Token *s = arena_alloc(sizeof(Token));
    *s = *name;
    s->kind = TK_STR;
    s->origin = name;
    s->macro = NULL;
    Buf b = {0};
    for (Token *t = name->next->next; t && t != call->end_tok && t->kind != TK_EOF; t = t->next)
      buf_printf(&b, "%s%.*s", b.len && t->has_space ? " " : "", t->len, t->loc);
    s->str = arena_strdup(b.s ? b.s : "");
    buf_free(&b);
    Node *text = new_node(ND_STR, s);
    text->ty = array_of(ty_char, (int)strlen(s->str) + 1);
    call->args->next = text;
    call->ty = ty_void;
    return call;
  }
  default: break;
  }
  error_tok(name, "internal: unhandled builtin");
}

/* cuda_fp16.h's intrinsics: the operation and its signature (arguments, then the result):
 * f float, i int, h __half, H __half2, b bool */
typedef struct {
  const char *name;
  HalfOp op;
  const char *sig;
} HalfFn;
static const HalfFn half_fns[] = {
  {"__float2half", HOP_F2H, "f>h"},
  {"__float2half_rn", HOP_F2H, "f>h"},
  {"__half2float", HOP_H2F, "h>f"},
  {"__int2half_rn", HOP_I2H, "i>h"},
  {"__half2int_rz", HOP_H2I, "h>i"},
  {"__hadd", HOP_ADD, "hh>h"},
  {"__hsub", HOP_SUB, "hh>h"},
  {"__hmul", HOP_MUL, "hh>h"},
  {"__hdiv", HOP_DIV, "hh>h"},
  {"__hfma", HOP_FMA, "hhh>h"},
  {"__hneg", HOP_NEG, "h>h"},
  {"__habs", HOP_ABS, "h>h"},
  {"__hmin", HOP_MIN, "hh>h"},
  {"__hmax", HOP_MAX, "hh>h"},
  {"hsqrt", HOP_SQRT, "h>h"},
  {"hexp", HOP_EXP, "h>h"},
  {"hlog", HOP_LOG, "h>h"},
  {"hrcp", HOP_RCP, "h>h"},
  {"__heq", HOP_EQ, "hh>b"},
  {"__hne", HOP_NE, "hh>b"},
  {"__hlt", HOP_LT, "hh>b"},
  {"__hle", HOP_LE, "hh>b"},
  {"__hgt", HOP_GT, "hh>b"},
  {"__hge", HOP_GE, "hh>b"},
  {"__hadd2", HOP_ADD2, "HH>H"},
  {"__hsub2", HOP_SUB2, "HH>H"},
  {"__hmul2", HOP_MUL2, "HH>H"},
  {"__hfma2", HOP_FMA2, "HHH>H"},
  {"__hneg2", HOP_NEG2, "H>H"},
  {"__float2half2_rn", HOP_F2H2, "f>H"},
  {"__floats2half2_rn", HOP_FLOATS2H2, "ff>H"},
  {"__halves2half2", HOP_HALVES2H2, "hh>H"},
  {"make_half2", HOP_HALVES2H2, "hh>H"},
  {"__low2half", HOP_LOW, "H>h"},
  {"__high2half", HOP_HIGH, "H>h"},
  {"__low2float", HOP_LOWF, "H>f"},
  {"__high2float", HOP_HIGHF, "H>f"},
  {"__half22float2", HOP_H22F2, "H>F"},
};

Type *half_type(int which) {
  return which == 1 ? builtin_typedef("__half", 6) : builtin_typedef("__half2", 7);
}

static Node *half_intrinsic(Token *name, const HalfFn *h, Node *call) {
  int want = (int)(strchr(h->sig, '>') - h->sig);
  if (call->nargs != want)
    error_tok(name, "'%.*s' takes %d argument%s, %d given", name->len, name->loc, want,
              want == 1 ? "" : "s", call->nargs);
  for (int i = 0; i < want; i++) {
    char c = h->sig[i];
    Node *a = nth(call->args, i);
    Type *t = c == 'f' ? ty_float : c == 'i' ? ty_int : half_type(c == 'h' ? 1 : 2);
    if (c == 'h' || c == 'H' ? a->ty->is_half != t->is_half : !is_numeric(a->ty) || a->ty->is_half)
      error_tok(a->tok, "argument %d of '%.*s' must be '%s', not '%s'", i + 1, name->len, name->loc,
                type_name(t), type_name(a->ty));
    coerce_arg(nthp(&call->args, i), t);
  }
  char r = h->sig[want + 1];
  call->builtin = BI_HALF;
  call->ival = h->op;
  call->ty = r == 'f'   ? ty_float
             : r == 'i' ? ty_int
             : r == 'b' ? ty_bool
             : r == 'F' ? vector_type("float2")
                        : half_type(r == 'h' ? 1 : 2);
  return call;
}

/* __half2(a, b) as cuda_fp16.hpp's constructor: each value made a __half first (a float as
 * __float2half would), then __halves2half2 */
Node *half2_ctor(Token *name, Node *call) {
  for (int i = 0; i < call->nargs; i++) {
    Node **a = nthp(&call->args, i);
    add_type(*a);
    if (!(*a)->ty->is_half && !is_numeric((*a)->ty))
      error_tok((*a)->tok, "a __half2 is constructed from two __half values, not '%s'",
                type_name((*a)->ty));
    if ((*a)->ty->is_half == 1) continue;
    coerce_arg(a, half_type(1));
    if ((*a)->kind == ND_CALL && (*a)->builtin == BI_HALF &&
        ((*a)->ival == HOP_F2H || (*a)->ival == HOP_I2H)) {
      /* written out in the print (nvcc's __halves2half2 takes __half, as carve's does) */
      Token *t = arena_alloc(sizeof(Token));
      *t = *(*a)->tok;
      t->kind = TK_IDENT;
      t->loc = (*a)->ival == HOP_F2H ? "__float2half" : "__int2half_rn";
      t->len = (int)strlen(t->loc);
      t->origin = (*a)->tok;
      t->macro = NULL;
      (*a)->tok = t;
      (*a)->implicit = false;
    }
  }
  for (size_t i = 0; i < sizeof half_fns / sizeof *half_fns; i++)
    if (half_fns[i].op == HOP_HALVES2H2) return half_intrinsic(name, &half_fns[i], call);
  error_tok(name, "internal: no __halves2half2");
}

/* make_float4(x, y, z, w) and friends */
Node *make_vector_call(Token *name, Type *vt, Node *call) {
  int n = 0;
  for (Member *m = vt->members; m; m = m->next) n++;
  if (vt->typedef_name && !strcmp(vt->typedef_name, "dim3") && call->nargs < 3) {
    /* dim3(x) and dim3(x, y): the rest are 1 */
    Node **pp = &call->args;
    while (*pp) pp = &(*pp)->next;
    for (; call->nargs < 3; call->nargs++) {
      *pp = new_num(1, tnum_token(name, 1));
      (*pp)->ty = ty_uint;
      pp = &(*pp)->next;
    }
  }
  if (call->nargs != n)
    error_tok(name, "'%.*s' takes %d arguments, %d given", name->len, name->loc, n, call->nargs);
  for (int i = 0; i < n; i++) {
    Node *a = nth(call->args, i);
    if (!is_numeric(a->ty)) error_tok(a->tok, "invalid argument of type '%s'", type_name(a->ty));
    coerce_arg(nthp(&call->args, i), vt->members->ty);
  }
  call->builtin = BI_MAKE_VECTOR;
  call->ty = vt;
  return call;
}

/* nvcc --use_fast_math (main.c defines __CARVE_FAST_MATH__): the single-precision functions
 * with an intrinsic are the intrinsic (CUDA C++ Programming Guide, "Intrinsic Functions") */
static const MathFn *fast_math(const MathFn *mf) {
  static const char *fns[] = {"expf", "exp10f", "logf", "log2f", "log10f",
                              "sinf", "cosf",   "tanf", "powf"};
  int64_t on;
  if (!pp_macro_value("__CARVE_FAST_MATH__", &on)) return mf;
  for (size_t i = 0; i < sizeof fns / sizeof *fns; i++)
    if (!strcmp(mf->name, fns[i])) {
      const MathFn *f = find_math(fmt("__%s", fns[i]), (int)strlen(fns[i]) + 2);
      return f ? f : mf;
    }
  return mf;
}

static Node *math_call(Token *name, const MathFn *mf, Node *call) {
  /* C++ overloads: sqrt(float) is the float function */
  bool any_double = false, any_float = false;
  for (Node *a = call->args; a; a = a->next) {
    if (a->ty->kind == TY_DOUBLE) any_double = true;
    if (a->ty->kind == TY_FLOAT) any_float = true;
  }
  if (mf->ret == 'D' && any_float && !any_double && mf->args[0] == 'D') {
    const MathFn *f = find_math(fmt("%sf", mf->name), (int)strlen(mf->name) + 1);
    if (f) mf = f;
  }
  mf = fast_math(mf);
  int want = 0;
  while (want < 3 && mf->args[want] != '_') want++;
  if (call->nargs != want)
    error_tok(name, "'%.*s' takes %d argument%s, %d given", name->len, name->loc, want,
              want == 1 ? "" : "s", call->nargs);
  for (int i = 0; i < want; i++) {
    Node *a = nth(call->args, i);
    if (!is_numeric(a->ty))
      error_tok(a->tok, "invalid argument of type '%s' to '%s'", type_name(a->ty), mf->name);
    coerce_arg(nthp(&call->args, i), math_type(mf->args[i]));
  }
  call->builtin = BI_MATH;
  call->math = mf;
  call->ty = math_type(mf->ret);
  return call;
}

static Node *sincos_call(Token *name, Node *call, bool is_float) {
  if (call->nargs != 3) error_tok(name, "'%.*s' takes 3 arguments", name->len, name->loc);
  Type *t = is_float ? ty_float : ty_double;
  coerce_arg(&call->args, t);
  for (int i = 1; i < 3; i++) {
    Node *a = nth(call->args, i);
    if (a->ty->kind != TY_PTR || a->ty->base->kind != t->kind)
      error_tok(a->tok, "argument %d of '%.*s' must be '%s *'", i + 1, name->len, name->loc,
                type_name(t));
  }
  call->builtin = BI_MATH;
  call->math = find_math(is_float ? "sinf" : "sin", is_float ? 4 : 3);
  call->ival = 1; /* marks sincos: stores sin and cos through the pointers */
  call->ty = ty_void;
  return call;
}

/* std::sqrt, ::sqrtf, std::min: the library's functions by their plain names (a copy of the
 * token, located at it) */
static Token *std_name(Token *name) {
  static const char *prefixes[] = {"::", "std::", "cuda::std::"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
    int n = (int)strlen(prefixes[i]);
    if (name->len > n && !strncmp(name->loc, prefixes[i], (size_t)n) &&
        !memchr(name->loc + n, ':', (size_t)(name->len - n))) {
      Token *t = arena_alloc(sizeof(Token));
      *t = *name;
      t->origin = name;
      t->macro = NULL;
      t->loc += n;
      t->len -= n;
      return t;
    }
  }
  return name;
}

/* a call of a user function: arguments converted to its parameters */
/* the arguments a call leaves out, from the parameters' defaults: each a copy of the default
 * expression (printed at the call, which means the same) */
void fill_defaults(Node *call, Type *ft) {
  int i = 0;
  Node **tail = &call->args;
  for (; *tail; tail = &(*tail)->next) i++;
  Type *p = ft->params;
  for (int k = 0; p && k < i; k++) p = p->next;
  for (; p && p->default_arg; p = p->next) {
    *tail = clone_nodes(p->default_arg);
    add_type(*tail);
    tail = &(*tail)->next;
    call->nargs++;
  }
}

Node *user_call(Token *name, Node *call, Obj *fn) {
  if (fn->is_kernel)
    error_tok(
      name,
      "a __global__ function cannot be called from device code here (dynamic parallelism is not supported)");
  call->fn = fn;
  Type *ft = fn->ty;
  fill_defaults(call, ft);
  int np = 0;
  for (Type *p = ft->params; p; p = p->next) np++;
  if (call->nargs < np || (call->nargs > np && !ft->is_variadic))
    error_tok(name, "too %s arguments to function call, expected %d, have %d",
              call->nargs < np ? "few" : "many", np, call->nargs);
  int i = 0;
  for (Type *p = ft->params; p; p = p->next, i++) {
    Node **a = nthp(&call->args, i);
    if (p->is_ref && p->kind == TY_PTR) { /* T&: the argument's address */
      if (!lvalue_node(*a))
        error_tok((*a)->tok, "argument %d of '%s' is a reference: it needs an lvalue", i + 1,
                  fn->name);
      Node *next = (*a)->next;
      Node *addr = new_unary(ND_ADDR, *a, (*a)->tok);
      addr->implicit = true;
      add_type(addr);
      addr->next = next;
      *a = addr;
    }
    coerce_arg(a, p);
  }
  call->ty = ft->return_ty;
  return call;
}

/* funcall = ident "(" (assign ("," assign)*)? ")" */

Node *funcall(Token **rest, Token *tok) {
  Token *name = tok;
  Node *call = new_node(ND_CALL, tok);
  call->args = func_args(rest, tok->next->next, call);
  VarScope *vs = find_var(name);
  if (!vs && in_host_fn() && tok_equal(name, "printf"))
    vs = find_var_n("__carve_printf", 14); /* the host's, not the device builtin */
  if (vs && vs->var && vs->var->sc == SC_FUNC) {
    Obj *fn = vs->var;
    for (int i = fn->ncaptures - 1; i >= 0; i--) { /* a lambda: its captures first, by reference */
      Node *c = new_var(fn->captures[i], name);
      c->next = call->args;
      call->args = c;
      call->nargs++;
    }
    Obj *lib = fn->is_host && !fn->is_device && !in_host_fn() ? device_lib_function(name) : NULL;
    if (lib) return user_call(name, call, lib); /* memcpy in device code: the device library's */
    if (fn->is_host && !fn->is_device && !in_host_fn())
      error_tok(name, "calling a __host__ function '%.*s' from device code; declare it __device__",
                name->len, name->loc);
    if (fn->is_host_lib) symbol_arg(fn, call);
    return user_call(name, call, fn);
  }
  if (vs && vs->var)
    error_tok(name, "called object '%.*s' is not a function", name->len, name->loc);
  Token *qualified_name = name;
  name = call->tok = std_name(name); /* printed as the plain name: nvcc needs no <cmath> */
  for (size_t i = 0; i < sizeof half_fns / sizeof *half_fns; i++)
    if (tok_equal(name, half_fns[i].name)) return half_intrinsic(name, &half_fns[i], call);
  for (size_t i = 0; i < sizeof builtin_defs / sizeof *builtin_defs; i++)
    if (tok_equal(name, builtin_defs[i].name)) return builtin_call(name, &builtin_defs[i], call);
  if (name->len > 5 && !strncmp(name->loc, "make_", 5)) {
    Type *vt = vector_type(arena_strndup(name->loc + 5, (size_t)name->len - 5));
    if (vt) return make_vector_call(name, vt, call);
  }
  if (tok_equal(name, "sincosf") || tok_equal(name, "__sincosf"))
    return sincos_call(name, call, true);
  if (tok_equal(name, "sincos")) return sincos_call(name, call, false);
  const MathFn *mf = find_math(name->loc, name->len);
  if (mf) return math_call(name, mf, call);
  Obj *lib = in_host_fn() ? NULL : device_lib_function(name);
  if (lib) {
    Node *a1 = call->nargs == 2 ? call->args->next : NULL;
    bool u = a1 && a1->ty && is_integer(a1->ty) && a1->ty->is_unsigned && a1->ty->size == 4;
    Node *c = user_call(name, call, lib);
    return u ? typed_cast(c, ty_uint) : c; /* the unsigned overload: the same bits, its type */
  }
  name = qualified_name;
  if (is_host_func(name))
    error_tok(name, "calling a __host__ function '%.*s' from device code; declare it __device__",
              name->len, name->loc);
  if (in_host_fn())
    error_tok(
      name,
      "unknown function '%.*s': the file does not declare it and carve's host runtime does not provide it",
      name->len, name->loc);
  error_tok(name, "use of undeclared function '%.*s'", name->len, name->loc);
}
