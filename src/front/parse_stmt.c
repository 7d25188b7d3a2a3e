/* parse_stmt.c: declarations inside functions and statements (split from parse.c; the parser's
 * private interface is parse_int.h) */
#include "parse_int.h"

/* ---------------- declarations inside functions ---------------- */
static void check_local_type(Type *ty, Token *tok) {
  if (ty->kind == TY_VOID)
    error_tok(tok, "variable '%.*s' has incomplete type 'void'", tok->len, tok->loc);
  if (ty->kind == TY_STRUCT && ty->size < 0)
    error_tok(tok, "variable '%.*s' has incomplete type '%s'", tok->len, tok->loc, type_name(ty));
}

bool lvalue_node(Node *n) {
  return n->kind == ND_VAR || n->kind == ND_DEREF || n->kind == ND_INDEX ||
         (n->kind == ND_MEMBER && (n->arrow || lvalue_node(n->lhs)));
}

/* `auto` takes the initializer's type (arrays decay, top-level const drops unless written) */
static Type *deduce(Type *declared, Type *init, Token *at) {
  if (is_auto(declared)) {
    Type *t = init->kind == TY_ARRAY ? pointer_to(init->base) : unqual(init);
    if (t->kind == TY_VOID) error_tok(at, "cannot deduce 'auto' from a void expression");
    return qualified(t, declared->qual);
  }
  if (declared->kind == TY_PTR) {
    Type *b = declared->is_ref                                 ? init
              : init->kind == TY_PTR || init->kind == TY_ARRAY ? init->base
                                                               : NULL;
    if (!b)
      error_tok(at, "cannot deduce '%s' from '%s'", declared->is_ref ? "auto &" : "auto *",
                type_name(init));
    if (declared->is_ref && b->kind == TY_ARRAY)
      error_tok(at, "unsupported C++: a reference to an array");
    Type *t = pointer_to(deduce(declared->base, b, at));
    t->is_ref = declared->is_ref;
    t->qual = declared->qual;
    return t;
  }
  return declared;
}

/* a local with `auto` or a reference: its type from the initializer; a reference binds the
 * address of an lvalue (const T& of an rvalue holds the value) */
static Type *bind_local(Type *ty, Node **init, Token *name) {
  Token *nm = ty->name;
  if (has_auto(ty)) ty = deduce(ty, (*init)->ty, (*init)->tok);
  if (ty->is_ref && ty->kind == TY_PTR) {
    if (!lvalue_node(*init)) {
      if (!(ty->base->qual & Q_CONST))
        error_tok((*init)->tok, "a non-const reference needs an lvalue to bind to");
      ty = copy_type(ty->base);
      ty->is_ref = true;
    } else {
      Node *a = new_unary(ND_ADDR, *init, (*init)->tok);
      a->implicit = true;
      add_type(a);
      *init = a;
    }
  }
  *init = coerce_init(*init, ty);
  ty = copy_type(ty);
  ty->name = nm ? nm : name;
  return ty;
}

/* declaration = declspec (declarator ("=" initializer)? ("," declarator ("=" initializer)?)*)? ";" */
static Node *declaration(Token **rest, Token *tok, Type *base, VarAttr *attr) {
  Node head = {0}, *cur = &head;
  bool first = true;
  while (!tok_equal(tok, ";")) {
    if (!first) tok = skip(tok, tok_equal(tok, ",") ? "," : ";");
    if (is_dim3(base) && !attr->is_typedef && !attr->shared && in_host_fn()) {
      cur = cur->next = dim3_declarator(&tok, tok, base);
      cur->ival = first ? 0 : 1;
      first = false;
      continue;
    }
    Type *ty;
    if ((base->is_vector || base->is_half) && tok->kind == TK_IDENT && tok_equal(tok->next, "(") &&
        !is_typename(tok->next->next)) {
      ty = copy_type(base); /* C++ constructor syntax: dim3 grid(16, 16); */
      ty->name = tok;
      tok = tok->next;
    } else {
      ty = declarator(&tok, tok, base);
    }
    Token *name = ty->name;
    if (!name) error_tok(tok, "expected a variable name");
    if (ty->kind == TY_FUNC)
      error_tok(name, "unsupported: function declarations inside a function");
    if (has_vla(ty)) { /* C99: its sizes evaluated now; a local array's storage allocated */
      if (!in_host_fn())
        error_tok(name, "variable-length arrays are not CUDA (only host code may declare them)");
      if (attr->shared || attr->is_static || attr->is_extern)
        error_tok(name, "a variable-length array type needs an automatic variable");
      vla_materialize(ty, name, &cur);
      if (!attr->is_typedef && is_vla(ty)) {
        cur = cur->next = vla_local(ty, name, tok);
        first = false;
        continue;
      }
    }
    if (attr->is_typedef) {
      Type *t = copy_type(ty);
      t->typedef_name = tok_text(name);
      push_scope(tok_text(name))->type_def = t;
      first = false;
      continue;
    }
    if (attr->is_static && !attr->shared)
      error_tok(name, "unsupported: static local variables in device code");
    if (attr->constant) error_tok(name, "__constant__ variables must be declared at file scope");
    if (attr->global || attr->host || attr->device)
      error_tok(attr->cuda_tok, "'%.*s' is not allowed on a local variable", attr->cuda_tok->len,
                attr->cuda_tok->loc);
    StorageClass sc = SC_LOCAL;
    if (attr->shared) sc = attr->is_extern ? SC_EXTERN_SHARED : SC_SHARED;
    else if (attr->is_extern) error_tok(name, "unsupported: extern local variables");
    if (sc == SC_LOCAL && ty->kind == TY_ARRAY && ty->array_len < 0 && !tok_equal(tok, "="))
      error_tok(name, "array '%.*s' needs an explicit size or an initializer", name->len,
                name->loc);
    if (sc == SC_EXTERN_SHARED && !(ty->kind == TY_ARRAY && ty->array_len < 0))
      error_tok(name, "extern __shared__ variable must be an array of unspecified size");
    if (sc != SC_LOCAL && (has_auto(ty) || ty->is_ref))
      error_tok(name, "a __shared__ variable cannot be %s", ty->is_ref ? "a reference" : "'auto'");
    if (sc != SC_EXTERN_SHARED && !has_auto(ty) &&
        !(ty->kind == TY_ARRAY && ty->array_len < 0 && tok_equal(tok, "=")))
      check_local_type(ty, name);
    Node *init = NULL;
    if (ty->is_vector && tok_equal(tok, "(") && sc == SC_LOCAL) { /* C++: dim3 grid(16, 16); */
      Token *tn = arena_alloc(sizeof(Token)); /* printed as "dim3 grid = dim3(16, 16, 1)" */
      *tn = *name;
      tn->loc = (char *)(ty->typedef_name ? ty->typedef_name : ty->tag);
      tn->len = (int)strlen(tn->loc);
      tn->origin = name;
      tn->macro = NULL;
      Node *call = new_node(ND_CALL, tn);
      call->args = func_args(&tok, tok->next, call);
      init = coerce_init(make_vector_call(name, ty, call), ty);
    } else if (ty->is_half && ty->kind != TY_ARRAY && tok_equal(tok, "(") && sc == SC_LOCAL) {
      /* C++: __half h(1.0f); half2 v(a, b) is cuda_fp16.hpp's __half2(const __half &, const __half &),
       * written as __halves2half2 (printed so) */
      Node *call = new_node(ND_CALL, name);
      call->args = func_args(&tok, tok->next, call);
      if (ty->is_half == 1) {
        if (call->nargs != 1)
          error_tok(name, "a __half is constructed from one value, not %d", call->nargs);
        init = coerce_init(call->args, ty);
      } else {
        if (call->nargs != 2)
          error_tok(name, "a __half2 is constructed from two __half values, not %d", call->nargs);
        Token *tn = arena_alloc(sizeof(Token));
        *tn = *name;
        tn->loc = "__halves2half2";
        tn->len = 14;
        tn->origin = name;
        tn->macro = NULL;
        call->tok = tn;
        init = coerce_init(half2_ctor(tn, call), ty);
      }
    }
    if ((has_auto(ty) || ty->is_ref) && sc == SC_LOCAL) {
      if (!tok_equal(tok, "="))
        error_tok(name, has_auto(ty) ? "declaration with 'auto' needs an initializer"
                                     : "a reference needs an initializer");
      init = assign(&tok, tok->next);
      add_type(init);
      ty = bind_local(ty, &init, name);
    }
    Obj *var = new_local(tok_text(name), ty, name, sc);
    var->is_const_decl = attr->is_const;
    var->is_volatile = (ty->qual & Q_VOLATILE) != 0;
    var->align = attr->align;
    Node *d = new_node(ND_DECL, name);
    d->var = var;
    d->ty = ty;
    d->ival = first ? 0 : 1; /* 1: continues the declaration before it ("int a, b") */
    if (init) {
      d->decl_init = var->init = init;
    } else if (tok_equal(tok, "=")) {
      if (sc != SC_LOCAL) error_tok(tok, "initializer is not allowed on a __shared__ variable");
      d->decl_init = initializer(&tok, tok->next, ty);
      if (ty->kind == TY_ARRAY && ty->array_len < 0) {
        var->ty = array_of(ty->base, (int)d->decl_init->ival);
        var->ty->name = name;
        d->ty = var->ty;
      }
      var->init = d->decl_init;
    }
    first = false;
    cur = cur->next = d;
  }
  *rest = tok->next;
  return head.next;
}

/* ---------------- statements ---------------- */
static bool is_loop_start(Token *tok) {
  return tok_equal(tok, "for") || tok_equal(tok, "while") || tok_equal(tok, "do");
}

/* a "#pragma unroll [N]" token before a loop */
static int parse_unroll(Token *p) {
  if (!p->pragma_toks && p->str) {
    const char *s = p->str;
    while (*s == ' ' || *s == '\t') s++;
    if (strncmp(s, "unroll", 6)) return 0;
    s += 6;
    while (*s == ' ' || *s == '\t' || *s == '(') s++;
    if (!*s) return -1;
    char *end;
    long v = strtol(s, &end, 0);
    if (end == s) {
      /* "#pragma unroll N" with N a macro: the pragma text is not expanded; look it up */
      char name[64];
      int n = 0;
      while ((s[n] == '_' || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
              (n && s[n] >= '0' && s[n] <= '9')) &&
             n < 63) {
        name[n] = s[n];
        n++;
      }
      name[n] = 0;
      int64_t mv;
      if (n && pp_macro_value(name, &mv) && mv > 0) return (int)mv;
      /* C++: a template's value parameter, or a constexpr variable */
      VarScope *vs = n ? find_var_n(name, n) : NULL;
      if (vs && vs->tparam && vs->enum_val > 0) return (int)vs->enum_val;
      if (vs && vs->var && vs->var->is_const_decl && vs->var->init &&
          eval_const(vs->var->init, &mv) && mv > 0)
        return (int)mv;
      warn_tok(p, "'#pragma unroll' expects a positive integer constant; ignored");
      return 0;
    }
    if (v <= 0) {
      warn_tok(p, "'#pragma unroll %ld' needs a positive count; ignored", v);
      return 0;
    }
    return (int)v;
  }
  return 0;
}

/* past balanced brackets starting at an opening one */
Token *skip_balanced(Token *tok) {
  int depth = 0;
  for (; tok->kind != TK_EOF; tok = tok->next) {
    if (tok_equal(tok, "{") || tok_equal(tok, "(") || tok_equal(tok, "[")) depth++;
    else if ((tok_equal(tok, "}") || tok_equal(tok, ")") || tok_equal(tok, "]")) && --depth == 0)
      return tok->next;
  }
  error_tok(tok, "expected a statement at end of input");
}

/* the tokens of one statement, unparsed */
static Token *skip_stmt(Token *tok) {
  if (tok_equal(tok, "{")) return skip_balanced(tok);
  if (tok_equal(tok, "if") || tok_equal(tok, "for") || tok_equal(tok, "while") ||
      tok_equal(tok, "switch")) {
    bool is_if = tok_equal(tok, "if");
    tok = tok->next;
    if (is_if && tok_equal(tok, "constexpr")) tok = tok->next;
    if (!tok_equal(tok, "(")) error_tok(tok, "expected '('");
    tok = skip_stmt(skip_balanced(tok));
    return is_if && tok_equal(tok, "else") ? skip_stmt(tok->next) : tok;
  }
  if (tok_equal(tok, "do")) {
    tok = skip(skip_stmt(tok->next), "while");
    return skip(skip_balanced(tok), ";");
  }
  while (tok->kind != TK_EOF && !tok_equal(tok, ";"))
    tok = tok_equal(tok, "(") || tok_equal(tok, "[") || tok_equal(tok, "{") ? skip_balanced(tok)
                                                                            : tok->next;
  return skip(tok, ";");
}

/* C++17: if constexpr (CONST) A else B: the branch not taken is skipped unparsed (in a
 * template instance it may not compile for these arguments); the taken one is the statement */

static Node *if_constexpr(Token **rest, Token *tok) {
  Token *at = tok;
  tok = skip(tok->next->next, "(");
  int64_t v = const_expr(&tok, tok);
  tok = skip(tok, ")");
  Node *taken = NULL;
  if (v) taken = stmt(&tok, tok);
  else tok = skip_stmt(tok);
  if (tok_equal(tok, "else")) {
    if (!v) taken = stmt(&tok, tok->next);
    else tok = skip_stmt(tok->next);
  }
  *rest = tok;
  if (taken) return taken;
  return new_node(ND_NULL_STMT, at);
}

/* stmt = "return" expr? ";" | "if" "(" expr ")" stmt ("else" stmt)? | "switch" "(" expr ")" stmt
 *      | "case" const-expr ":" stmt | "default" ":" stmt | "for" "(" for-init expr? ";" expr? ")" stmt
 *      | "while" "(" expr ")" stmt | "do" stmt "while" "(" expr ")" ";" | "break" ";" | "continue" ";"
 *      | pragma stmt | "{" compound-stmt | ";" | expr ";" */
static Node *stmt_at(Token **rest, Token *tok);
Node *stmt(Token **rest, Token *tok) {
  if (++ps.stmt_depth > LIMIT_STMT_NESTING)
    error_tok(tok, "statements nested too deeply " LIMIT_NOTE(LIMIT_STMT_NESTING),
              LIMIT_STMT_NESTING);
  Node *n = stmt_at(rest, tok);
  ps.stmt_depth--;
  return n;
}

static Node *stmt_at(Token **rest, Token *tok) {
  if (tok->kind == TK_PRAGMA) {
    int unroll = parse_unroll(tok);
    if (unroll && is_loop_start(tok->next)) {
      Token *p = tok;
      Node *loop = stmt(rest, tok->next);
      loop->unroll = unroll;
      loop->pragma = p;
      return loop;
    }
    Node *n = new_node(ND_PRAGMA, tok);
    n->pragma = tok;
    *rest = tok->next;
    return n;
  }
  if (tok_equal(tok, "return")) {
    Node *n = new_node(ND_RETURN, tok);
    if (consume(rest, tok->next, ";")) {
      if (ps.cur_fn->ty->return_ty->kind != TY_VOID)
        error_tok(tok, "non-void function '%s' should return a value", ps.cur_fn->name);
      return n;
    }
    Node *e;
    if (tok_equal(tok->next, "{") &&
        tok_equal(tok->next->next, "}")) { /* return {}; the result value-initialized */
      Token *at = tok->next;
      Type *rt = unqual(ps.cur_fn->ty->return_ty);
      Type *vt = ps.cur_fn->ty->return_ty;
      while (vt && !(vt->is_vector && vt->tag && vt->members)) vt = vt->origin;
      if (vt) { /* make_uint4(0, 0, 0, 0) */
        rt = vt;
        Token *mk = arena_alloc(sizeof(Token));
        *mk = *at;
        mk->kind = TK_IDENT;
        mk->loc = fmt("make_%s", rt->tag);
        mk->len = (int)strlen(mk->loc);
        mk->origin = at;
        mk->macro = NULL;
        Node *call = new_node(ND_CALL, mk), **pp = &call->args;
        for (Member *m = rt->members; m; m = m->next) {
          *pp = new_num(0, tnum_token(at, 0));
          pp = &(*pp)->next;
          call->nargs++;
        }
        e = make_vector_call(mk, rt, call);
      } else if (is_numeric(rt) || rt->kind == TY_PTR) {
        e = new_num(0, tnum_token(at, 0));
      } else {
        error_tok(at, "unsupported C++: 'return {}' of type '%s'", type_name(rt));
      }
      tok = at->next->next;
    } else {
      e = expr(&tok, tok->next);
    }
    add_type(e);
    if (ps.cur_fn->ty->return_ty->kind == TY_VOID)
      error_tok(e->tok, "void function '%s' should not return a value", ps.cur_fn->name);
    Node *fake = new_node(ND_VAR, e->tok);
    Obj tmp = {0};
    tmp.ty = unqual(ps.cur_fn->ty->return_ty);
    fake->var = &tmp;
    fake->ty = tmp.ty;
    Node *a = new_binary(ND_ASSIGN, fake, e, e->tok);
    add_type(a);
    n->lhs = a->rhs;
    *rest = skip(tok, ";");
    return n;
  }
  if (tok_equal(tok, "if") && tok_equal(tok->next, "constexpr")) return if_constexpr(rest, tok);
  if (tok_equal(tok, "if")) {
    Node *n = new_node(ND_IF, tok);
    tok = skip(tok->next, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    tok = skip(tok, ")");
    n->then = stmt(&tok, tok);
    if (tok_equal(tok, "else")) n->els = stmt(&tok, tok->next);
    *rest = tok;
    return n;
  }
  if (tok_equal(tok, "switch")) {
    Node *n = new_node(ND_SWITCH, tok);
    tok = skip(tok->next, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    if (!is_integer(n->cond->ty)) error_tok(n->cond->tok, "switch quantity is not an integer");
    tok = skip(tok, ")");
    Node *sw = ps.cur_switch;
    ps.cur_switch = n;
    ps.switch_depth++;
    n->case_next_depth = tok_equal(tok, "{") ? ps.block_depth + 1 : ps.block_depth;
    n->then = stmt(rest, tok);
    ps.switch_depth--;
    ps.cur_switch = sw;
    return n;
  }
  if (tok_equal(tok, "case") || tok_equal(tok, "default")) {
    if (!ps.cur_switch)
      error_tok(tok, "'%.*s' label not within a switch statement", tok->len, tok->loc);
    Node *n = new_node(ND_CASE, tok);
    if (tok_equal(tok, "case")) {
      n->case_val = const_expr(&tok, tok->next);
      for (Node *c = ps.cur_switch->cases; c; c = c->case_next)
        if (!c->is_default && c->case_val == n->case_val)
          error_tok(n->tok, "duplicate case value %lld", (long long)n->case_val);
    } else {
      n->is_default = true;
      for (Node *c = ps.cur_switch->cases; c; c = c->case_next)
        if (c->is_default) error_tok(tok, "multiple default labels in one switch");
      tok = tok->next;
    }
    tok = skip(tok, ":");
    Node **pp = &ps.cur_switch->cases;
    while (*pp) pp = &(*pp)->case_next;
    *pp = n;
    if (ps.block_depth != ps.cur_switch->case_next_depth)
      error_tok(
        n->tok,
        "unsupported: a case label inside a nested block of its switch (carve handles structured switches)");
    /* "case 1: case 2: s;" is two labels; the second is the next statement of the body */
    if (tok_equal(tok, "}") || tok_equal(tok, "case") || tok_equal(tok, "default")) {
      n->lhs = new_node(ND_NULL_STMT, tok);
      *rest = tok;
    } else {
      n->lhs = stmt(rest, tok);
    }
    return n;
  }
  if (tok_equal(tok, "for")) {
    Node *n = new_node(ND_FOR, tok);
    tok = skip(tok->next, "(");
    enter_scope();
    if (is_typename(tok)) {
      VarAttr attr = {0};
      Type *base = declspec(&tok, tok, &attr);
      if (attr.shared || attr.is_typedef || attr.is_static)
        error_tok(tok, "invalid declaration in a for-loop initializer");
      n->init = declaration(&tok, tok, base, &attr);
    } else if (!tok_equal(tok, ";")) {
      Node *e = new_node(ND_EXPR_STMT, tok);
      e->lhs = expr(&tok, tok);
      add_type(e->lhs);
      n->init = e;
      tok = skip(tok, ";");
    } else {
      tok = tok->next;
    }
    if (!tok_equal(tok, ";")) {
      n->cond = expr(&tok, tok);
      add_type(n->cond);
    }
    tok = skip(tok, ";");
    if (!tok_equal(tok, ")")) {
      n->inc = expr(&tok, tok);
      add_type(n->inc);
    }
    tok = skip(tok, ")");
    ps.loop_depth++;
    n->then = stmt(rest, tok);
    ps.loop_depth--;
    leave_scope();
    return n;
  }
  if (tok_equal(tok, "while")) {
    Node *n = new_node(ND_WHILE, tok);
    tok = skip(tok->next, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    tok = skip(tok, ")");
    ps.loop_depth++;
    n->then = stmt(rest, tok);
    ps.loop_depth--;
    return n;
  }
  if (tok_equal(tok, "do")) {
    Node *n = new_node(ND_DO, tok);
    ps.loop_depth++;
    n->then = stmt(&tok, tok->next);
    ps.loop_depth--;
    tok = skip(tok, "while");
    tok = skip(tok, "(");
    n->cond = expr(&tok, tok);
    add_type(n->cond);
    tok = skip(tok, ")");
    *rest = skip(tok, ";");
    return n;
  }
  if (tok_equal(tok, "break")) {
    if (!ps.loop_depth && !ps.switch_depth)
      error_tok(tok, "'break' statement not in loop or switch statement");
    *rest = skip(tok->next, ";");
    return new_node(ND_BREAK, tok);
  }
  if (tok_equal(tok, "continue")) {
    if (!ps.loop_depth) error_tok(tok, "'continue' statement not in loop statement");
    *rest = skip(tok->next, ";");
    return new_node(ND_CONTINUE, tok);
  }
  if (tok_equal(tok, "goto"))
    error_tok(tok, "unsupported: 'goto' (carve handles structured control flow only)");
  if (tok->kind == TK_IDENT && tok_equal(tok->next, ":") && !find_var(tok))
    error_tok(tok, "unsupported: labels and 'goto' (carve handles structured control flow only)");
  if (tok_equal(tok, "try") || tok_equal(tok, "throw"))
    error_tok(tok, "unsupported C++: exceptions");
  if (tok_equal(tok, "{")) return compound_stmt(rest, tok->next);
  if (tok_equal(tok, ";")) {
    *rest = tok->next;
    return new_node(ND_NULL_STMT, tok);
  }
  Node *n = new_node(ND_EXPR_STMT, tok);
  n->lhs = expr(&tok, tok);
  add_type(n->lhs);
  *rest = skip(tok, ";");
  return n;
}

/* compound-stmt = (declaration | stmt)* "}" */
Node *compound_stmt(Token **rest, Token *tok) {
  Node *n = new_node(ND_BLOCK, tok->prev && tok_equal(tok->prev, "{") ? tok->prev : tok);
  Node head = {0}, *cur = &head;
  /* a function's outermost block is the parameters' scope (C11 6.2.1p4): no new scope */
  bool own_scope = !ps.fn_body_pending;
  ps.fn_body_pending = false;
  if (own_scope) enter_scope();
  ps.block_depth++;
  while (!tok_equal(tok, "}")) {
    if (tok->kind == TK_EOF) error_tok(n->tok, "'{' is never closed");
    if (is_typename(tok) && !tok_equal(tok->next, ":") &&
        !(find_typedef(tok) && tok_equal(tok->next, "("))) {
      VarAttr attr = {0};
      Token *start = tok;
      Type *base = declspec(&tok, tok, &attr);
      if (tok_equal(tok, ";") && !attr.is_typedef) {
        tok = tok->next;
        continue;
      } /* struct definition */
      if (is_auto(base) && tok->kind == TK_IDENT && tok_equal(tok->next, "=") &&
          tok_equal(tok->next->next, "[")) {
        cur->next = lambda_decl(&tok, start, tok); /* auto f = [&x](params) -> T { ... }; */
      } else {
        cur->next = declaration(&tok, tok, base, &attr);
      }
    } else {
      cur->next = stmt(&tok, tok);
    }
    while (cur->next) cur = cur->next;
  }
  if (own_scope) leave_scope();
  ps.block_depth--;
  n->stmts = head.next;
  n->end_tok = tok;
  *rest = tok->next;
  return n;
}
