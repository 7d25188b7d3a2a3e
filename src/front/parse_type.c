/* parse_type.c: declaration specifiers, struct/enum definitions, declarators and type names,
 * initializers (split from parse.c; the parser's private interface is parse_int.h) */
#include "parse_int.h"

/* ---------------- types ---------------- */

/* struct-decl = "{" (declspec declarator ("," declarator)* ";")* "}" */
static void struct_members(Token **rest, Token *tok, Type *ty) {
  Member head = {0}, *cur = &head;
  int idx = 0;
  while (!tok_equal(tok, "}")) {
    if (tok->kind == TK_EOF) error_tok(tok, "expected '}' at end of input");
    if (tok->kind == TK_PRAGMA) {
      tok = tok->next;
      continue;
    }
    if ((tok_equal(tok, "public") || tok_equal(tok, "private") || tok_equal(tok, "protected")) &&
        tok_equal(tok->next, ":")) {
      tok = tok->next->next; /* access does not change what device code computes */
      continue;
    }
    VarAttr attr = {0};
    Type *base = declspec(&tok, tok, &attr);
    bool first = true;
    while (!consume(&tok, tok, ";")) {
      if (!first) tok = skip(tok, ",");
      first = false;
      Type *mty = declarator(&tok, tok, base);
      if (mty->kind == TY_FUNC) error_tok(mty->name, "unsupported C++: member functions");
      if (mty->is_ref || has_auto(mty))
        error_tok(mty->name, "unsupported C++: %s members", mty->is_ref ? "reference" : "'auto'");
      if (tok_equal(tok, ":")) error_tok(tok, "unsupported: bit-fields");
      if (has_vla(mty))
        error_tok(mty->name, "a struct member cannot have a variable-length array type");
      if (mty->kind == TY_ARRAY && mty->array_len < 0)
        error_tok(mty->name, "flexible array members are not supported");
      Member *m = arena_alloc(sizeof(Member));
      m->ty = mty;
      m->name = mty->name;
      m->idx = idx++;
      cur = cur->next = m;
    }
  }
  *rest = tok->next;
  ty->members = head.next;
}

/* struct-union-decl = ident? ("{" struct-members)? */
static Type *struct_decl(Token **rest, Token *tok, bool is_union) {
  Token *tag = NULL;
  if (tok->kind == TK_IDENT) {
    tag = tok;
    tok = tok->next;
  }
  if (tag && !tok_equal(tok, "{")) {
    Type *ty = find_tag(tag);
    if (ty) {
      *rest = tok;
      return ty;
    }
    report_failed_type(tag);
    ty = struct_type();
    ty->size = -1;
    ty->tag = tok_text(tag);
    push_tag(tag, ty);
    *rest = tok;
    return ty;
  }
  if (tok_equal(tok, ":")) error_tok(tok, "unsupported C++: inheritance");
  nest_enter(tok, "struct definition");
  tok = skip(tok, "{");
  Type *ty = struct_type();
  if (tag) ty->tag = tok_text(tag);
  struct_members(rest, tok, ty);
  nest_leave();
  int offset = 0;
  for (Member *m = ty->members; m; m = m->next) {
    if (m->ty->size < 0) error_tok(m->name, "member has incomplete type");
    if (is_union) {
      if (m->ty->size > offset) offset = m->ty->size;
      m->offset = 0;
    } else {
      offset = (offset + m->ty->align - 1) / m->ty->align * m->ty->align;
      m->offset = offset;
      offset += m->ty->size;
    }
    if (ty->align < m->ty->align) ty->align = m->ty->align;
  }
  if (is_union) error_tok(tok, "unsupported: unions");
  ty->size = (offset + ty->align - 1) / ty->align * ty->align;
  if (tag) {
    Type *prev = NULL;
    for (TagScope *t = ps.scope->tags; t; t = t->next)
      if (tok_equal(tag, t->name)) prev = t->ty;
    if (prev && prev->size < 0) {
      *prev = *ty;
      return prev;
    }
    push_tag(tag, ty);
  }
  return ty;
}

/* enum-specifier = ident? "{" enum-list? "}" | ident */
static Type *enum_specifier(Token **rest, Token *tok) {
  Type *ty = copy_type(ty_int);
  ty->kind = TY_ENUM;
  ty->origin = NULL;
  Token *tag = NULL;
  if (tok_equal(tok, "class") || tok_equal(tok, "struct"))
    error_tok(tok, "unsupported C++: scoped enums");
  if (tok->kind == TK_IDENT) {
    tag = tok;
    tok = tok->next;
  }
  if (tok_equal(tok, ":")) error_tok(tok, "unsupported C++: enum with an underlying type");
  if (tag && !tok_equal(tok, "{")) {
    Type *t = find_tag(tag);
    if (!t) error_tok(tag, "unknown enum type '%.*s'", tag->len, tag->loc);
    if (t->kind != TY_ENUM) error_tok(tag, "'%.*s' is not an enum tag", tag->len, tag->loc);
    *rest = tok;
    return t;
  }
  if (tag) ty->tag = tok_text(tag);
  tok = skip(tok, "{");
  int64_t val = 0;
  bool first = true;
  Member mhead = {0}, *mcur = &mhead;
  while (!tok_equal(tok, "}")) {
    if (!first) {
      tok = skip(tok, ",");
      if (tok_equal(tok, "}")) break;
    }
    first = false;
    char *name = get_ident(tok);
    Token *nt = tok;
    tok = tok->next;
    if (tok_equal(tok, "=")) val = const_expr(&tok, tok->next);
    VarScope *vs = push_scope(ps.scope->next ? name : ns_qualify(name));
    vs->enum_ty = ty;
    vs->enum_val = val;
    Member *m = arena_alloc(sizeof(Member));
    m->name = nt;
    m->offset = (int)val;
    mcur = mcur->next = m;
    val++;
  }
  ty->members = mhead.next;
  *rest = tok->next;
  if (tag) push_tag(tag, ty);
  return ty;
}

/* The C types carve predefines (from <stddef.h>, <stdint.h>). */
/* The types carve predefines (from <stddef.h>, <stdint.h>, cuda_fp16.h, dim3): static, like
 * the vector types, so launch settings read after a load find them too (find_typedef). */
Type *builtin_typedef(const char *name, int len) {
  static const struct {
    const char *name;
    Type *const *ty;
    int half;
  } td[] = {
    {"size_t", &ty_ulong, 0},
    {"ptrdiff_t", &ty_long, 0},
    {"intptr_t", &ty_long, 0},
    {"uintptr_t", &ty_ulong, 0},
    {"int8_t", &ty_schar, 0},
    {"uint8_t", &ty_uchar, 0},
    {"int16_t", &ty_short, 0},
    {"uint16_t", &ty_ushort, 0},
    {"int32_t", &ty_int, 0},
    {"uint32_t", &ty_uint, 0},
    {"int64_t", &ty_long, 0},
    {"uint64_t", &ty_ulong, 0},
    {"uint", &ty_uint, 0},
    {"ushort", &ty_ushort, 0},
    {"uchar", &ty_uchar, 0},
    {"ulong", &ty_ulong, 0},
    /* C++ (cuda_fp16.h): __half is 16 bits, __half2 two of them (.x low) */
    {"__half", &ty_ushort, 1},
    {"half", &ty_ushort, 1},
    {"__half2", &ty_uint, 2},
    {"half2", &ty_uint, 2},
    {"dim3", NULL, 0}, /* CUDA's dim3: a uint3 whose omitted components are 1 */
  };
  enum { N = sizeof td / sizeof *td };
  _Static_assert(N <= sizeof front_global.typedefs / sizeof *front_global.typedefs, "typedefs");
  Type *types = front_global.typedefs;
  for (size_t i = 0; i < N; i++) {
    if ((int)strlen(td[i].name) != len || memcmp(td[i].name, name, (size_t)len)) continue;
    if (!types[i].typedef_name) {
      Type *base = td[i].ty ? *td[i].ty : vector_type("uint3");
      types[i] = *base;
      types[i].origin = base;
      types[i].typedef_name = td[i].name;
      types[i].is_half = (unsigned char)td[i].half;
    }
    return &types[i];
  }
  return NULL;
}

static bool is_cuda_qualifier(Token *tok) {
  return tok_equal(tok, "__global__") || tok_equal(tok, "__device__") ||
         tok_equal(tok, "__host__") || tok_equal(tok, "__shared__") ||
         tok_equal(tok, "__constant__") || tok_equal(tok, "__forceinline__") ||
         tok_equal(tok, "__noinline__") || tok_equal(tok, "__launch_bounds__");
}

/* `auto`: a placeholder that declaration() replaces by the initializer's type */
static const Type auto_type = {.kind = TY_VOID, .size = 1, .align = 1, .typedef_name = "auto"};
bool is_auto(const Type *t) {
  for (; t; t = t->origin)
    if (t == &auto_type) return true;
  return false;
}
bool has_auto(const Type *t) {
  while (t->kind == TY_PTR) t = t->base;
  return is_auto(t);
}

/* declspec = (type-keyword | qualifier | storage | cuda-qualifier | typedef-name
 *             | struct-decl | enum-specifier | "__launch_bounds__" "(" expr ("," expr)? ")")+ */
Type *declspec(Token **rest, Token *tok, VarAttr *attr) {
  enum {
    VOID = 1 << 0,
    BOOL = 1 << 2,
    CHAR = 1 << 4,
    SHORT = 1 << 6,
    INT = 1 << 8,
    LONG = 1 << 10,
    FLOAT = 1 << 12,
    DOUBLE = 1 << 14,
    OTHER = 1 << 16,
    SIGNED = 1 << 17,
    UNSIGNED = 1 << 18
  };
  Type *ty = ty_int;
  int counter = 0;
  int qual = 0;
  Token *start = tok;
  while (is_typename(tok)) {
    if (tok_equal(tok, "typedef") || tok_equal(tok, "static") || tok_equal(tok, "extern") ||
        tok_equal(tok, "inline") || tok_equal(tok, "register") || tok_equal(tok, "__inline__")) {
      if (!attr) error_tok(tok, "storage class specifier is not allowed in this context");
      if (tok_equal(tok, "typedef")) attr->is_typedef = true;
      else if (tok_equal(tok, "static")) attr->is_static = true;
      else if (tok_equal(tok, "extern")) {
        attr->is_extern = true;
        if (tok->next->kind == TK_STR) {
          attr->extern_c = tok->next;
          tok = tok->next;
        }
      } else if (tok_equal(tok, "inline") || tok_equal(tok, "__inline__")) attr->is_inline = true;
      tok = tok->next;
      continue;
    }
    if (is_cuda_qualifier(tok)) {
      if (!attr) error_tok(tok, "'%.*s' is not allowed in this context", tok->len, tok->loc);
      if (!attr->cuda_tok) attr->cuda_tok = tok;
      if (tok_equal(tok, "__global__")) attr->global = true;
      else if (tok_equal(tok, "__device__")) attr->device = true;
      else if (tok_equal(tok, "__host__")) attr->host = true;
      else if (tok_equal(tok, "__shared__")) attr->shared = true;
      else if (tok_equal(tok, "__constant__")) attr->constant = true;
      else if (tok_equal(tok, "__forceinline__")) attr->forceinline = true;
      else if (tok_equal(tok, "__noinline__")) attr->noinline = true;
      else {
        tok = skip(tok->next, "(");
        attr->launch_bounds[0] = (int)const_expr(&tok, tok);
        if (consume(&tok, tok, ",")) attr->launch_bounds[1] = (int)const_expr(&tok, tok);
        if (consume(&tok, tok, ",")) const_expr(&tok, tok);
        tok = skip(tok, ")");
        continue;
      }
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "__align__") || tok_equal(tok, "_Alignas") || tok_equal(tok, "alignas")) {
      Token *at = tok;
      tok = skip(tok->next, "(");
      int64_t a;
      if (is_typename(tok)) a = typename_(&tok, tok)->align;
      else a = const_expr(&tok, tok);
      tok = skip(tok, ")");
      if (a <= 0 || a > 4096 || (a & (a - 1)))
        error_tok(at, "requested alignment %lld is not a power of two from 1 to 4096",
                  (long long)a);
      if (attr && a > attr->align) attr->align = (int)a;
      continue;
    }
    if (tok_equal(tok, "const") || tok_equal(tok, "constexpr")) {
      qual |= Q_CONST;
      if (attr) {
        attr->is_const = true;
        attr->is_constexpr |= tok_equal(tok, "constexpr");
      }
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "volatile")) {
      qual |= Q_VOLATILE;
      tok = tok->next;
      continue;
    }
    /* __grid_constant__ (a const kernel parameter whose address may be taken): kept, printed */
    if (tok_equal(tok, "__grid_constant__")) {
      qual |= Q_GRID_CONSTANT;
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "restrict") || tok_equal(tok, "__restrict__") ||
        tok_equal(tok, "__restrict")) {
      qual |= Q_RESTRICT;
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "auto")) {
      if (counter) error_tok(tok, "invalid combination of type specifiers");
      ty = (Type *)&auto_type; /* deduced from the initializer (declaration) */
      counter += OTHER;
      tok = tok->next;
      continue;
    }
    if (tok_equal(tok, "typename") || tok_equal(tok, "template"))
      error_tok(tok, "unsupported C++: '%.*s'", tok->len, tok->loc);
    if (is_class_template(tok)) { /* Name<args>: a class template's instance */
      if (counter) break;
      ty = class_template_type(&tok, tok);
      counter += OTHER;
      continue;
    }
    Type *td = find_typedef(tok);
    if (tok_equal(tok, "struct") || tok_equal(tok, "class") || tok_equal(tok, "union") ||
        tok_equal(tok, "enum") || td) {
      if (counter) break;
      if (tok_equal(tok, "union")) {
        report_failed_type(tok->next);
        error_tok(tok, "unsupported: unions");
      }
      if (tok_equal(tok, "struct") || tok_equal(tok, "class"))
        ty = struct_decl(&tok, tok->next, false);
      else if (tok_equal(tok, "enum")) ty = enum_specifier(&tok, tok->next);
      else {
        ty = td;
        tok = tok->next;
      }
      if (ty->cg_group == -2) ty = cg_type(tile_size(&tok, tok)); /* thread_block_tile<N> */
      if (ty->cg_group == -8) { /* cuda::pipeline<cuda::thread_scope_thread> */
        tok = skip(tok, "<");
        if (!tok_equal(tok, "cuda::thread_scope_thread"))
          error_tok(
            tok, "unsupported: a cuda::pipeline of a scope other than cuda::thread_scope_thread");
        tok = skip(tok->next, ">");
      }
      if (ty->cg_group == -6) { /* cuda::barrier<cuda::thread_scope_block> */
        tok = skip(tok, "<");
        if (!tok_equal(tok, "cuda::thread_scope_block"))
          error_tok(tok,
                    "unsupported: a cuda::barrier of a scope other than cuda::thread_scope_block");
        tok = skip(tok->next, ">");
        if (tok_equal(tok, "::") && tok_equal(tok->next, "arrival_token")) {
          ty = cg_type(-7);
          tok = tok->next->next;
        }
      }
      counter += OTHER;
      continue;
    }
    if (tok_equal(tok, "void")) counter += VOID;
    else if (tok_equal(tok, "_Bool") || tok_equal(tok, "bool")) counter += BOOL;
    else if (tok_equal(tok, "char")) counter += CHAR;
    else if (tok_equal(tok, "short")) counter += SHORT;
    else if (tok_equal(tok, "int")) counter += INT;
    else if (tok_equal(tok, "long")) counter += LONG;
    else if (tok_equal(tok, "float")) counter += FLOAT;
    else if (tok_equal(tok, "double")) counter += DOUBLE;
    else if (tok_equal(tok, "signed")) counter |= SIGNED;
    else if (tok_equal(tok, "unsigned")) counter |= UNSIGNED;
    else error_tok(tok, "unexpected '%.*s' in declaration", tok->len, tok->loc);
    switch (counter) {
    case VOID: ty = ty_void; break;
    case BOOL: ty = ty_bool; break;
    case CHAR:
    case SIGNED + CHAR: ty = ty_char; break;
    case UNSIGNED + CHAR: ty = ty_uchar; break;
    case SHORT:
    case SHORT + INT:
    case SIGNED + SHORT:
    case SIGNED + SHORT + INT: ty = ty_short; break;
    case UNSIGNED + SHORT:
    case UNSIGNED + SHORT + INT: ty = ty_ushort; break;
    case INT:
    case SIGNED:
    case SIGNED + INT: ty = ty_int; break;
    case UNSIGNED:
    case UNSIGNED + INT: ty = ty_uint; break;
    case LONG:
    case LONG + INT:
    case SIGNED + LONG:
    case SIGNED + LONG + INT: ty = ty_long; break;
    case LONG + LONG:
    case LONG + LONG + INT:
    case SIGNED + LONG + LONG:
    case SIGNED + LONG + LONG + INT: ty = ty_llong; break;
    case UNSIGNED + LONG:
    case UNSIGNED + LONG + INT: ty = ty_ulong; break;
    case UNSIGNED + LONG + LONG:
    case UNSIGNED + LONG + LONG + INT: ty = ty_ullong; break;
    case FLOAT: ty = ty_float; break;
    case DOUBLE:
    case LONG + DOUBLE: ty = ty_double; break;
    default: error_tok(tok, "invalid combination of type specifiers");
    }
    tok = tok->next;
  }
  if (tok == start) {
    report_failed_type(tok);
    if (tok->kind == TK_IDENT &&
        (tok->next->kind == TK_IDENT || tok_equal(tok->next, "*") || tok_equal(tok->next, "[")))
      error_tok(tok, "unknown type name '%.*s'", tok->len, tok->loc);
    error_tok(tok, "expected a type before '%.*s'", tok->len, tok->loc);
  }
  *rest = tok;
  return qualified(ty, qual);
}

/* func-params = ("void" | param ("," param)* ("," "...")?)? ")" */
Type *func_params(Token **rest, Token *tok, Type *ty) {
  Type *fn = func_type(ty);
  if (tok_equal(tok, "void") && tok_equal(tok->next, ")")) {
    *rest = tok->next->next;
    return fn;
  }
  /* in the arena: array counts parsed meanwhile see the parameters so far (vla_param_head) */
  Type *head = arena_alloc(sizeof(Type)), *cur = head;
  Type *outer = ps.vla_param_head;
  ps.vla_param_head = head;
  while (!tok_equal(tok, ")")) {
    if (cur != head) tok = skip(tok, tok_equal(tok, ",") ? "," : ")");
    if (tok_equal(tok, "...")) {
      fn->is_variadic = true;
      tok = tok->next;
      if (!tok_equal(tok, ")")) error_tok(tok, "expected ')' after '...'");
      break;
    }
    VarAttr pattr = {0};
    Type *pt = declspec(&tok, tok, &pattr);
    if (pattr.cuda_tok)
      error_tok(pattr.cuda_tok, "'%.*s' is not allowed on a parameter", pattr.cuda_tok->len,
                pattr.cuda_tok->loc);
    Token *ptok = tok;
    pt = declarator(&tok, tok, pt);
    Token *name = pt->name;
    if (pt->kind == TY_PTR && pt->base->kind == TY_FUNC)
      error_tok(ptok, "unsupported: function pointers");
    if (pt->kind == TY_ARRAY) {
      Type *q = pointer_to(pt->base);
      q->qual = pt->qual;
      pt = q;
      pt->name = name;
    } else if (pt->kind == TY_FUNC) error_tok(name ? name : tok, "unsupported: function pointers");
    if (pt->kind == TY_VOID) error_tok(name ? name : tok, "parameter has type 'void'");
    Node *def = NULL;
    if (tok_equal(tok, "=")) { /* C++ default argument: filled in where a call leaves it out */
      def = assign(&tok, tok->next);
      add_type(def);
      if (has_side_effect(def))
        error_tok(
          def->tok,
          "unsupported C++: a default argument with side effects (carve fills it in at each call)");
    } else if (cur != head && cur->default_arg) {
      error_tok(
        name ? name : tok,
        "missing default argument on parameter '%s' (the parameters after one with a default have defaults)",
        name ? tok_text(name) : "");
    }
    if (has_auto(pt)) error_tok(name ? name : tok, "unsupported C++: 'auto' parameters");
    if (pt->is_ref && (pt->base->qual & Q_CONST) && pt->base->kind != TY_ARRAY) {
      /* const T&: passed by value (the callee cannot write it; docs/cxx.md) */
      pt = copy_type(pt->base);
      pt->is_ref = true;
    }
    cur = cur->next = copy_type(pt);
    cur->name = name;
    cur->default_arg = def;
  }
  ps.vla_param_head = outer;
  fn->params = head->next;
  *rest = tok->next;
  return fn;
}

/* array-dims = ("[" const-expr? "]")*
 * host code: a count known only at run time makes a variable-length array; in a host
 * function's parameters, one naming earlier parameters waits for function() (vla_param_counts) */
static Type *array_dims(Token **rest, Token *tok, Type *ty) {
  bool params = ps.vla_param_head && ps.vla_host_decl && !ps.cur_fn;
  /* C99 parameters: `b[restrict n]`, `a[static 4]` (the qualifiers are the adjusted pointer's) */
  while (params && (tok_equal(tok, "restrict") || tok_equal(tok, "__restrict__") ||
                    tok_equal(tok, "__restrict") || tok_equal(tok, "const") ||
                    tok_equal(tok, "volatile") || tok_equal(tok, "static")))
    tok = tok->next;
  if (tok_equal(tok, "]")) {
    ty = abstract_declarator(&tok, tok->next, ty);
    *rest = tok;
    return array_of(ty, -1);
  }
  Token *len_tok = tok;
  Node *e = NULL;
  if (params && tok_equal(tok, "*") && tok_equal(tok->next, "]")) { /* [*]: a prototype's VLA */
    len_tok = NULL;
    tok = tok->next;
  } else {
    e = params ? param_dim(&tok, tok) : conditional(&tok, tok);
    add_type(e);
    if (!is_integer(e->ty))
      error_tok(e->tok, "size of array has non-integer type '%s'", type_name(e->ty));
  }
  int64_t len = 0;
  bool constant = e && eval_const(e, &len);
  if (!constant && !params && !in_host_fn())
    error_tok(e->tok,
              "array size is not an integer constant (variable-length arrays are not CUDA)");
  if (constant && len <= 0)
    error_tok(e->tok, "array size must be positive (is %lld)", (long long)len);
  if (constant && len > (1 << 28))
    error_tok(e->tok, "array size %lld is too large", (long long)len);
  tok = skip(tok, "]");
  if (tok_equal(tok, "[")) {
    nest_enter(tok, "array declarator");
    ty = array_dims(&tok, tok->next, ty);
    nest_leave();
  }
  *rest = tok;
  if (!constant || is_vla(ty)) return vla_type(ty, constant || !params ? e : NULL, len_tok);
  if ((int64_t)ty->size * len > (1LL << 31)) error_tok(e->tok, "array is too large");
  return array_of(ty, (int)len);
}

/* type-suffix = "(" func-params | "[" array-dims | ε */
static Type *type_suffix(Token **rest, Token *tok, Type *ty) {
  if (tok_equal(tok, "(")) return func_params(rest, tok->next, ty);
  if (tok_equal(tok, "[")) return array_dims(rest, tok->next, ty);
  *rest = tok;
  return ty;
}

/* pointers = ("*" ("const" | "volatile" | "restrict" | "__restrict__")*)* */
Type *pointers(Token **rest, Token *tok, Type *ty) {
  while (tok_equal(tok, "*") || tok_equal(tok, "&") || tok_equal(tok, "&&")) {
    if (tok_equal(tok, "&&")) error_tok(tok, "unsupported C++: rvalue references");
    if (tok_equal(tok, "&") && tok_equal(tok->next, "&"))
      error_tok(tok, "unsupported C++: rvalue references");
    bool ref = tok_equal(tok, "&");
    if (ref && ty->is_ref) error_tok(tok, "a reference to a reference");
    ty = pointer_to(ty);
    ty->is_ref = ref;
    tok = tok->next;
    for (;;) {
      if (tok_equal(tok, "const")) ty->qual |= Q_CONST;
      else if (tok_equal(tok, "volatile")) ty->qual |= Q_VOLATILE;
      else if (tok_equal(tok, "restrict") || tok_equal(tok, "__restrict__") ||
               tok_equal(tok, "__restrict"))
        ty->qual |= Q_RESTRICT;
      else break;
      tok = tok->next;
    }
  }
  *rest = tok;
  return ty;
}

/* declarator = pointers ("(" declarator ")" | ident)? type-suffix */
Type *declarator(Token **rest, Token *tok, Type *ty) {
  ty = pointers(&tok, tok, ty);
  if (tok_equal(tok, "(") && !is_typename(tok->next) && !tok_equal(tok->next, ")")) {
    Token *start = tok;
    nest_enter(tok, "declarator");
    /* the suffix after the parenthesized part applies first: find its end by balancing the
     * parentheses (parsing the inner declarator twice, as chibicc does, costs 2^depth) */
    int depth = 0;
    for (; tok->kind != TK_EOF; tok = tok->next) {
      if (tok_equal(tok, "(") && ps.nest_depth + ++depth > LIMIT_EXPR_NESTING)
        error_tok(tok, "declarator nested too deeply " LIMIT_NOTE(LIMIT_EXPR_NESTING),
                  LIMIT_EXPR_NESTING);
      else if (tok_equal(tok, ")") && --depth == 0) break;
    }
    if (tok->kind == TK_EOF) error_tok(start, "unbalanced '(' in a declarator");
    ty = type_suffix(rest, tok->next, ty);
    ty = declarator(&tok, start->next, ty);
    skip(tok, ")");
    nest_leave();
    return ty;
  }
  Token *name = NULL;
  if (tok->kind == TK_IDENT) {
    name = tok;
    tok = tok->next;
  } else if (tok->kind == TK_KEYWORD && !tok_equal(tok, "(")) {
    if (tok_equal(tok, "operator")) error_tok(tok, "unsupported C++: operator overloading");
  }
  if (tok_equal(tok, "::")) error_tok(tok, "unsupported C++: qualified names ('::')");
  if (tok_equal(tok, "<")) error_tok(tok, "unsupported C++: templates");
  ty = type_suffix(rest, tok, ty);
  ty = copy_type(ty);
  ty->origin = ty->origin ? ty->origin : NULL;
  ty->name = name;
  return ty;
}

/* abstract-declarator = pointers ("(" abstract-declarator ")")? type-suffix */
Type *abstract_declarator(Token **rest, Token *tok, Type *ty) {
  ty = pointers(&tok, tok, ty);
  if (tok_equal(tok, "(") && !is_typename(tok->next) && !tok_equal(tok->next, ")")) {
    Token *start = tok;
    Type dummy = {0};
    nest_enter(tok, "declarator");
    abstract_declarator(&tok, start->next, &dummy);
    tok = skip(tok, ")");
    ty = type_suffix(rest, tok, ty);
    ty = abstract_declarator(&tok, start->next, ty);
    nest_leave();
    return ty;
  }
  return type_suffix(rest, tok, ty);
}

/* type-name = declspec abstract-declarator */
Type *typename_(Token **rest, Token *tok) {
  Type *ty = declspec(&tok, tok, NULL);
  return abstract_declarator(rest, tok, ty);
}

bool is_typename(Token *tok) {
  static const char *kw[] = {
    "void",
    "_Bool",
    "bool",
    "char",
    "short",
    "int",
    "long",
    "struct",
    "union",
    "typedef",
    "enum",
    "static",
    "extern",
    "signed",
    "unsigned",
    "const",
    "volatile",
    "restrict",
    "__restrict__",
    "__restrict",
    "float",
    "double",
    "inline",
    "__inline__",
    "register",
    "constexpr",
    "__align__",
    "_Alignas",
    "alignas",
    "__global__",
    "__device__",
    "__host__",
    "__shared__",
    "__constant__",
    "__forceinline__",
    "__noinline__",
    "__launch_bounds__",
    "auto",
    "class",
    "__grid_constant__",
  };
  if (tok->kind == TK_KEYWORD || tok->kind == TK_IDENT)
    for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
      if (tok_equal(tok, kw[i])) return true;
  return find_typedef(tok) != NULL || is_class_template(tok);
}

/* ---------------- initializers ---------------- */

/* the initializer converted to ty as an assignment converts */
Node *coerce_init(Node *e, Type *ty) {
  e = class_convert(e, ty);
  Node *fake = new_node(ND_VAR, e->tok);
  Obj tmp = {0};
  tmp.ty = unqual(ty);
  fake->var = &tmp;
  fake->ty = unqual(ty);
  Node *a = new_binary(ND_ASSIGN, fake, e, e->tok);
  add_type(a);
  return a->rhs;
}

/* initializer = "{" (initializer ("," initializer)* ","?)? "}" | assign */
static Node *initializer_at(Token **rest, Token *tok, Type *ty);
Node *initializer(Token **rest, Token *tok, Type *ty) {
  nest_enter(tok, "initializer");
  Node *n = initializer_at(rest, tok, ty);
  nest_leave();
  return n;
}

static Node *initializer_at(Token **rest, Token *tok, Type *ty) {
  if (tok_equal(tok, "{")) {
    Node *list = new_node(ND_INIT_LIST, tok);
    list->ty = ty;
    tok = tok->next;
    Node head = {0}, *cur = &head;
    int count = 0;
    Member *mem = ty->kind == TY_STRUCT ? ty->members : NULL;
    if (ty->kind != TY_ARRAY && ty->kind != TY_STRUCT) {
      /* scalar in braces */
      Node *e = assign(&tok, tok);
      add_type(e);
      consume(&tok, tok, ",");
      *rest = skip(tok, "}");
      return e;
    }
    while (!tok_equal(tok, "}")) {
      if (count) {
        tok = skip(tok, ",");
        if (tok_equal(tok, "}")) break;
      }
      if (tok_equal(tok, ".") || tok_equal(tok, "["))
        error_tok(tok, "unsupported: designated initializers");
      Type *et;
      if (ty->kind == TY_ARRAY) {
        if (ty->array_len >= 0 && count >= ty->array_len)
          error_tok(tok, "excess elements in array initializer");
        et = ty->base;
      } else {
        if (!mem) error_tok(tok, "excess elements in struct initializer");
        et = mem->ty;
        mem = mem->next;
      }
      cur = cur->next = initializer(&tok, tok, et);
      count++;
    }
    list->elems = head.next;
    list->ival = count;
    list->end_tok = tok;
    *rest = tok->next;
    return list;
  }
  Node *e = assign(rest, tok);
  add_type(e);
  if (ty->kind == TY_ARRAY)
    error_tok(e->tok, "array must be initialized with a brace-enclosed list");
  return coerce_init(e, ty);
}
