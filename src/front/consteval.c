/* consteval: integer and floating constant expressions over tokens, before any AST exists:
 * `#if` lines (identifiers are 0) and launch specifications (sizeof through a type-name
 * callback, so this file depends on tokens alone and the preprocessor does not reach the
 * parser). The AST's own constant folding is node_int_constant in parse.c. */
#include "front.h"
#include "limits_parse.h"
#include <math.h>
#include <string.h>

typedef struct {
  Token *tok;
  bool pp;
  TypeNameFn *type_name;
  int depth;
} CE;

static CValue ce_cond(CE *c);
static CValue ival(int64_t v) { return (CValue){false, v, 0}; }
static double as_d(CValue v) { return v.is_float ? v.d : (double)v.i; }
static bool truthy(CValue v) { return v.is_float ? v.d != 0 : v.i != 0; }
static bool ce_eq(CE *c, const char *s) { return tok_equal(c->tok, s); }
static Token *ce_next(CE *c) {
  Token *t = c->tok;
  c->tok = c->tok->next;
  return t;
}

static CValue ce_primary(CE *c) {
  Token *t = c->tok;
  if (ce_eq(c, "(")) {
    ce_next(c);
    CValue v = ce_cond(c);
    if (!ce_eq(c, ")")) error_tok(c->tok, "expected ')' in constant expression");
    ce_next(c);
    return v;
  }
  if (t->kind == TK_NUM) {
    ce_next(c);
    if (is_flonum(t->ty)) return (CValue){true, 0, t->fval};
    return ival(t->ival);
  }
  if (ce_eq(c, "sizeof") && !c->pp && c->type_name) {
    ce_next(c);
    if (!ce_eq(c, "(")) error_tok(c->tok, "expected '(' after sizeof");
    Token *rest;
    Type *ty = c->type_name(&rest, c->tok->next);
    if (!tok_equal(rest, ")")) error_tok(rest, "expected ')'");
    c->tok = rest->next;
    return ival(ty->size);
  }
  if (t->kind == TK_IDENT || t->kind == TK_KEYWORD) {
    if (c->pp) {
      ce_next(c);
      return ival(0);
    }
    error_tok(t, "'%.*s' is not a constant here (define it as a macro, or pass -D %.*s=VALUE)",
              t->len, t->loc, t->len, t->loc);
  }
  if (t->kind == TK_EOF) error_tok(t, "expected a constant expression");
  error_tok(t, "unexpected '%.*s' in constant expression", t->len, t->loc);
}

static CValue ce_unary_(CE *c);
/* prefix operators and parentheses recurse: bounded as the parser bounds them */
static CValue ce_unary(CE *c) {
  if (++c->depth > LIMIT_EXPR_NESTING)
    error_tok(
      c->tok,
      "constant expression nested too deeply (limit %d, LIMIT_EXPR_NESTING, docs/limits.md)",
      LIMIT_EXPR_NESTING);
  CValue v = ce_unary_(c);
  c->depth--;
  return v;
}

static CValue ce_unary_(CE *c) {
  if (ce_eq(c, "+")) {
    ce_next(c);
    return ce_unary(c);
  }
  if (ce_eq(c, "-")) {
    ce_next(c);
    CValue v = ce_unary(c);
    if (v.is_float) v.d = -v.d;
    else v.i = (int64_t)(0 - (uint64_t)v.i);
    return v;
  }
  if (ce_eq(c, "!")) {
    ce_next(c);
    return ival(!truthy(ce_unary(c)));
  }
  if (ce_eq(c, "~")) {
    Token *t = ce_next(c);
    CValue v = ce_unary(c);
    if (v.is_float) error_tok(t, "'~' needs an integer");
    return ival(~v.i);
  }
  if (ce_eq(c, "(") && !c->pp) {
    /* a cast: (int)x, (float)x */
    Token *t = c->tok->next;
    if (c->type_name && t->kind == TK_KEYWORD &&
        (tok_equal(t, "int") || tok_equal(t, "float") || tok_equal(t, "double") ||
         tok_equal(t, "long") || tok_equal(t, "unsigned"))) {
      Token *rest;
      Type *ty = c->type_name(&rest, t);
      if (tok_equal(rest, ")")) {
        c->tok = rest->next;
        CValue v = ce_unary(c);
        if (is_flonum(ty))
          return (CValue){true, 0, ty->kind == TY_FLOAT ? (float)as_d(v) : as_d(v)};
        return ival(v.is_float ? (int64_t)v.d : v.i);
      }
    }
  }
  return ce_primary(c);
}

typedef struct {
  const char *op;
  int prec;
} Op;
static const Op ops[] = {{"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5},  {"==", 6},
                         {"!=", 6}, {"<", 7},  {"<=", 7}, {">", 7},  {">=", 7}, {"<<", 8},
                         {">>", 8}, {"+", 9},  {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}};

static int op_prec(CE *c, const char **name) {
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (ce_eq(c, ops[i].op)) {
      *name = ops[i].op;
      return ops[i].prec;
    }
  return 0;
}

/* launch specifications size buffers with these values: an overflow is an error there, never a
 * silently wrapped (negative) size; #if lines wrap as the preprocessors do */
static CValue checked(CE *c, Token *t, const char *op, bool overflow, int64_t r) {
  if (overflow && !c->pp) error_tok(t, "integer overflow in constant expression ('%s')", op);
  return ival(r);
}

static CValue apply(CE *c, Token *t, const char *op, CValue a, CValue b) {
  bool fl = a.is_float || b.is_float;
  if (!strcmp(op, "||")) return ival(truthy(a) || truthy(b));
  if (!strcmp(op, "&&")) return ival(truthy(a) && truthy(b));
  if (fl) {
    double x = as_d(a), y = as_d(b);
    if (!strcmp(op, "+")) return (CValue){true, 0, x + y};
    if (!strcmp(op, "-")) return (CValue){true, 0, x - y};
    if (!strcmp(op, "*")) return (CValue){true, 0, x * y};
    if (!strcmp(op, "/")) return (CValue){true, 0, x / y};
    if (!strcmp(op, "==")) return ival(x == y);
    if (!strcmp(op, "!=")) return ival(x != y);
    if (!strcmp(op, "<")) return ival(x < y);
    if (!strcmp(op, "<=")) return ival(x <= y);
    if (!strcmp(op, ">")) return ival(x > y);
    if (!strcmp(op, ">=")) return ival(x >= y);
    error_tok(t, "'%s' needs integer operands", op);
  }
  int64_t x = a.i, y = b.i;
  uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
  int64_t r;
  if (!strcmp(op, "+"))
    return checked(c, t, op, __builtin_add_overflow(x, y, &r), (int64_t)(ux + uy));
  if (!strcmp(op, "-"))
    return checked(c, t, op, __builtin_sub_overflow(x, y, &r), (int64_t)(ux - uy));
  if (!strcmp(op, "*"))
    return checked(c, t, op, __builtin_mul_overflow(x, y, &r), (int64_t)(ux * uy));
  if (!strcmp(op, "/") || !strcmp(op, "%")) {
    if (y == 0) error_tok(t, "division by zero in constant expression");
    if (x == INT64_MIN && y == -1) return ival(op[0] == '/' ? x : 0);
    return ival(op[0] == '/' ? x / y : x % y);
  }
  if (!strcmp(op, "<<")) return ival(y < 0 || y > 63 ? 0 : (int64_t)(ux << y));
  if (!strcmp(op, ">>")) return ival(y < 0 || y > 63 ? (x < 0 ? -1 : 0) : x >> y);
  if (!strcmp(op, "&")) return ival(x & y);
  if (!strcmp(op, "|")) return ival(x | y);
  if (!strcmp(op, "^")) return ival(x ^ y);
  if (!strcmp(op, "==")) return ival(x == y);
  if (!strcmp(op, "!=")) return ival(x != y);
  if (!strcmp(op, "<")) return ival(x < y);
  if (!strcmp(op, "<=")) return ival(x <= y);
  if (!strcmp(op, ">")) return ival(x > y);
  return ival(x >= y);
}

static CValue ce_binary(CE *c, int min) {
  CValue lhs = ce_unary(c);
  for (;;) {
    const char *op;
    int p = op_prec(c, &op);
    if (!p || p < min) return lhs;
    Token *t = ce_next(c);
    /* short-circuit: the unevaluated side may divide by zero in #if */
    CValue rhs = ce_binary(c, p + 1);
    if ((!strcmp(op, "&&") && !truthy(lhs)) || (!strcmp(op, "||") && truthy(lhs))) {
      lhs = ival(!strcmp(op, "||"));
      continue;
    }
    lhs = apply(c, t, op, lhs, rhs);
  }
}

static CValue ce_cond(CE *c) {
  CValue v = ce_binary(c, 1);
  if (!ce_eq(c, "?")) return v;
  ce_next(c);
  CValue a = ce_cond(c);
  if (!ce_eq(c, ":")) error_tok(c->tok, "expected ':' in conditional expression");
  ce_next(c);
  CValue b = ce_cond(c);
  return truthy(v) ? a : b;
}

CValue const_eval(Token **rest, Token *tok, bool pp_mode, TypeNameFn *type_name) {
  CE c = {tok, pp_mode, type_name, 0};
  CValue v = ce_cond(&c);
  *rest = c.tok;
  return v;
}
