/* print: the AST back to CUDA source that nvcc compiles. Parentheses come from operator
 * precedence (the AST keeps none), implicit conversions are not printed, macros stay
 * expanded. Printing the printed text again gives the same text. */
#include "front.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  Buf *b;
  int indent;
  Type **done;
  int ndone;
  const char *ns;
  PrintSubstFn *sub;
  void *sub_ctx; /* print_*_with: text printed in place of some nodes */
  bool proto;    /* the function being printed is a prototype of a later definition */
} Printer;

static void out(Printer *p, const char *s) { buf_puts(p->b, s); }
static void outf(Printer *p, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void outf(Printer *p, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = vfmt(f, ap);
  va_end(ap);
  buf_puts(p->b, s);
}
static void indent(Printer *p) {
  for (int i = 0; i < p->indent; i++) out(p, "  ");
}
static void tokout(Printer *p, const Token *t) { outf(p, "%.*s", t->len, t->loc); }

/* ---- types ---- */
static void struct_body(Printer *p, Type *t);

static bool is_done(Printer *p, Type *t) {
  for (int i = 0; i < p->ndone; i++)
    if (p->done[i] == t) return true;
  return false;
}
static Type *root(Type *t) {
  while (t->origin && !t->typedef_name && t->kind == t->origin->kind) t = t->origin;
  return t;
}

static void base_name(Printer *p, Type *t, bool define) {
  if (t->qual & Q_GRID_CONSTANT) out(p, "__grid_constant__ ");
  if (t->qual & Q_CONST) out(p, "const ");
  if (t->qual & Q_VOLATILE) out(p, "volatile ");
  if (t->typedef_name) {
    out(p, t->typedef_name);
    return;
  }
  switch (t->kind) {
  case TY_VOID: out(p, "void"); return;
  case TY_BOOL: out(p, "bool"); return;
  case TY_CHAR: out(p, t->is_unsigned ? "unsigned char" : "char"); return;
  case TY_SHORT: out(p, t->is_unsigned ? "unsigned short" : "short"); return;
  case TY_INT: out(p, t->is_unsigned ? "unsigned int" : "int"); return;
  case TY_LONG: out(p, t->is_unsigned ? "unsigned long" : "long"); return;
  case TY_LLONG: out(p, t->is_unsigned ? "unsigned long long" : "long long"); return;
  case TY_FLOAT: out(p, "float"); return;
  case TY_DOUBLE: out(p, "double"); return;
  case TY_ENUM: {
    Type *r = root(t);
    out(p, "enum");
    if (r->tag) outf(p, " %s", r->tag);
    if (define && !is_done(p, r)) {
      p->done = xrealloc(p->done, sizeof(Type *) * (size_t)(p->ndone + 1));
      p->done[p->ndone++] = r;
      out(p, " {");
      for (Member *m = r->members; m; m = m->next)
        outf(p, "%s%.*s = %d", m == r->members ? " " : ", ", m->name->len, m->name->loc, m->offset);
      out(p, " }");
    }
    return;
  }
  case TY_STRUCT: {
    Type *r = root(t);
    if (r->is_vector) {
      out(p, r->tag);
      return;
    }
    out(p, "struct");
    if (r->tag) outf(p, " %s", r->tag);
    if ((define || !r->tag) && !is_done(p, r)) struct_body(p, r);
    return;
  }
  default: out(p, "?"); return;
  }
}

static void declarator_str(Printer *p, Type *t, Buf *inner);

static void params_str(Printer *p, Type *fn, Buf *o) {
  buf_putc(o, '(');
  if (!fn->params && !fn->is_variadic) buf_puts(o, "void");
  for (Type *q = fn->params; q; q = q->next) {
    if (q != fn->params) buf_puts(o, ", ");
    Buf pb = {0};
    Printer pp = {&pb, 0, p->done, p->ndone, NULL, NULL, NULL, false};
    print_type_decl(pp.b, q, q->name ? tok_text(q->name) : "");
    if (q->default_arg) {
      buf_puts(pp.b, " = ");
      print_expr(pp.b, q->default_arg);
    }
    buf_puts(o, pb.s);
    buf_free(&pb);
  }
  if (fn->is_variadic) buf_puts(o, fn->params ? ", ..." : "...");
  buf_putc(o, ')');
}

/* wrap the declarator text in `inner` with t's derivations, innermost last */
static void declarator_str(Printer *p, Type *t, Buf *inner) {
  for (;;) {
    if (t->kind == TY_PTR && !t->typedef_name) {
      Buf nb = {0};
      buf_putc(&nb, t->is_ref ? '&' : '*');
      if (t->qual & Q_CONST) buf_puts(&nb, "const ");
      if (t->qual & Q_VOLATILE) buf_puts(&nb, "volatile ");
      if (t->qual & Q_RESTRICT) buf_puts(&nb, "__restrict__ ");
      buf_puts(&nb, inner->s ? inner->s : "");
      if (t->base->kind == TY_ARRAY || t->base->kind == TY_FUNC) {
        Buf w = {0};
        buf_printf(&w, "(%s)", nb.s);
        buf_free(&nb);
        nb = w;
      }
      buf_free(inner);
      *inner = nb;
      t = t->base;
      continue;
    }
    if (t->kind == TY_ARRAY && !t->typedef_name) {
      if (t->array_len >= 0) buf_printf(inner, "[%d]", t->array_len);
      else buf_puts(inner, "[]");
      t = t->base;
      continue;
    }
    if (t->kind == TY_FUNC) {
      Buf ps = {0};
      params_str(p, t, &ps);
      buf_puts(inner, ps.s);
      buf_free(&ps);
      t = t->return_ty;
      continue;
    }
    return;
  }
}

static Type *base_of(Type *t) {
  while (!t->typedef_name && (t->kind == TY_PTR || t->kind == TY_ARRAY || t->kind == TY_FUNC))
    t = t->kind == TY_FUNC ? t->return_ty : t->base;
  return t;
}

static void decl(Printer *p, Type *t, const char *name, bool define) {
  base_name(p, base_of(t), define);
  Buf inner = {0};
  if (t->is_ref && t->kind != TY_PTR) buf_putc(&inner, '&'); /* const T& passed by value */
  buf_puts(&inner, name ? name : "");
  declarator_str(p, t, &inner);
  if (inner.s && inner.s[0]) {
    char c = inner.s[0];
    if (c != '[' && c != '(') out(p, " ");
    else if (c == '(' && name && *name) out(p, " ");
    out(p, inner.s);
  }
  buf_free(&inner);
}

void print_type_decl(Buf *b, Type *ty, const char *name) {
  Printer p = {b, 0, NULL, 0, NULL, NULL, NULL, false};
  decl(&p, ty, name, false);
  free(p.done);
}

static void struct_body(Printer *p, Type *t) {
  p->done = xrealloc(p->done, sizeof(Type *) * (size_t)(p->ndone + 1));
  p->done[p->ndone++] = t;
  out(p, " {\n");
  p->indent++;
  for (Member *m = t->members; m; m = m->next) {
    indent(p);
    decl(p, m->ty, m->name ? tok_text(m->name) : "", true);
    out(p, ";\n");
  }
  p->indent--;
  indent(p);
  out(p, "}");
}

/* ---- expressions ---- */
enum {
  P_COMMA = 1,
  P_ASSIGN,
  P_COND,
  P_LOGOR,
  P_LOGAND,
  P_BITOR,
  P_BITXOR,
  P_BITAND,
  P_EQ,
  P_REL,
  P_SHIFT,
  P_ADD,
  P_MUL,
  P_UNARY,
  P_POSTFIX,
  P_PRIMARY
};

static const char *half_operator(Node *n);
static int prec(Node *n) {
  switch (n->kind) {
  case ND_COMMA: return P_COMMA;
  case ND_ASSIGN:
  case ND_ASSIGN_OP: return P_ASSIGN;
  case ND_COND: return P_COND;
  case ND_LOGOR: return P_LOGOR;
  case ND_LOGAND: return P_LOGAND;
  case ND_BITOR: return P_BITOR;
  case ND_BITXOR: return P_BITXOR;
  case ND_BITAND: return P_BITAND;
  case ND_EQ:
  case ND_NE: return P_EQ;
  case ND_LT:
  case ND_LE:
  case ND_GT:
  case ND_GE: return P_REL;
  case ND_SHL:
  case ND_SHR: return P_SHIFT;
  case ND_ADD:
  case ND_SUB: return P_ADD;
  case ND_MUL:
  case ND_DIV:
  case ND_MOD: return P_MUL;
  case ND_CAST: return n->implicit ? prec(n->lhs) : P_UNARY;
  case ND_NOT:
  case ND_BITNOT:
  case ND_NEG:
  case ND_POS:
  case ND_ADDR:
  case ND_DEREF:
  case ND_PREINC:
  case ND_PREDEC:
  case ND_SIZEOF: return P_UNARY;
  case ND_CALL:
    if (n->implicit) {
      const char *op = half_operator(n);
      if (!op) return prec(n->args);
      return *op == '*' || *op == '/' ? P_MUL : P_ADD;
    }
    return P_POSTFIX;
  case ND_INDEX:
  case ND_MEMBER:
  case ND_POSTINC:
  case ND_POSTDEC: return P_POSTFIX;
  case ND_NUM:
    if (!n->tok || (n->tok->kind != TK_NUM && n->tok->kind != TK_IDENT)) {
      if (is_flonum(n->ty) ? n->fval < 0 || signbit(n->fval) : n->ival < 0) return P_UNARY;
    }
    return P_PRIMARY;
  default: return P_PRIMARY;
  }
}

static const char *binop(NodeKind k) {
  switch (k) {
  case ND_ADD: return "+";
  case ND_SUB: return "-";
  case ND_MUL: return "*";
  case ND_DIV: return "/";
  case ND_MOD: return "%";
  case ND_BITAND: return "&";
  case ND_BITOR: return "|";
  case ND_BITXOR: return "^";
  case ND_SHL: return "<<";
  case ND_SHR: return ">>";
  case ND_EQ: return "==";
  case ND_NE: return "!=";
  case ND_LT: return "<";
  case ND_LE: return "<=";
  case ND_GT: return ">";
  case ND_GE: return ">=";
  case ND_LOGAND: return "&&";
  case ND_LOGOR: return "||";
  case ND_COMMA: return ",";
  default: return "?";
  }
}

static void expr(Printer *p, Node *n, int min);

static void number(Printer *p, Node *n) {
  if (n->tok &&
      (n->tok->kind == TK_NUM || n->tok->kind == TK_IDENT || n->tok->kind == TK_KEYWORD) &&
      !(n->tok->len == 0)) {
    tokout(p, n->tok);
    return;
  }
  if (is_flonum(n->ty)) {
    char s[64];
    snprintf(s, sizeof s, "%.17g", n->fval);
    if (!strpbrk(s, ".eEn")) strcat(s, ".0");
    out(p, s);
    if (n->ty->kind == TY_FLOAT) out(p, "f");
    return;
  }
  if (n->ty->kind == TY_BOOL) {
    out(p, n->ival ? "true" : "false");
    return;
  }
  if (n->ty->is_unsigned) outf(p, "%lluu", (unsigned long long)n->ival);
  else outf(p, "%lld", (long long)n->ival);
  if (n->ty->size == 8) out(p, "ll");
}

/* the tokens from `from` up to `end` (not included), as written: one line, a space where the
 * source had one or two words meet */
static void raw_tokens(Printer *p, Token *from, Token *end) {
  for (Token *t = from; t && t != end && t->kind != TK_EOF; t = t->next) {
    bool word = t->kind == TK_IDENT || t->kind == TK_KEYWORD || t->kind == TK_NUM;
    bool prev_word = t != from && (t->prev->kind == TK_IDENT || t->prev->kind == TK_KEYWORD ||
                                   t->prev->kind == TK_NUM);
    if (t != from && (t->has_space || t->at_bol || (word && prev_word))) out(p, " ");
    tokout(p, t);
  }
}

static void args(Printer *p, Node *a) {
  out(p, "(");
  for (; a; a = a->next) {
    expr(p, a, P_ASSIGN);
    if (a->next) out(p, ", ");
  }
  out(p, ")");
}

static void init_list(Printer *p, Node *n) {
  if (n->kind != ND_INIT_LIST) {
    expr(p, n, P_ASSIGN);
    return;
  }
  out(p, "{");
  for (Node *e = n->elems; e; e = e->next) {
    init_list(p, e);
    if (e->next) out(p, ", ");
  }
  out(p, "}");
}

/* a half operator the type checker made a builtin call: its operator */
static const char *half_operator(Node *n) {
  if (n->kind != ND_CALL || !n->implicit || n->builtin != BI_HALF) return NULL;
  switch (n->ival) {
  case HOP_ADD:
  case HOP_ADD2: return "+";
  case HOP_SUB:
  case HOP_SUB2: return "-";
  case HOP_MUL:
  case HOP_MUL2: return "*";
  case HOP_DIV: return "/";
  default: return NULL;
  }
}

/* cooperative groups calls as written: the group's method with the arguments of what it
 * lowered to, the free functions by their names (the program's alias or using prints too) */
static void cg_call(Printer *p, Node *n) {
  static const char *ops[] = {
    [ND_ADD] = "plus",       [ND_LT] = "less",      [ND_GT] = "greater",
    [ND_BITAND] = "bit_and", [ND_BITOR] = "bit_or", [ND_BITXOR] = "bit_xor"};
  switch (n->ival) {
  case CG_THIS_BLOCK:
    tokout(p, n->tok);
    out(p, "()");
    return;
  case CG_TILED:
    tokout(p, n->tok);
    outf(p, "<%d>(", n->ty->cg_group);
    expr(p, n->args, P_ASSIGN);
    out(p, ")");
    return;
  case CG_SYNC:
  case CG_CALL:
    tokout(p, n->tok);
    out(p, "(");
    for (Node *a = n->args; a; a = a->next) {
      if (a != n->args) out(p, ", ");
      expr(p, a, P_ASSIGN);
    }
    out(p, ")");
    return;
  case CG_REDUCE:
    tokout(p, n->tok);
    out(p, "(");
    expr(p, n->args, P_ASSIGN);
    out(p, ", ");
    expr(p, n->args->next, P_ASSIGN);
    outf(p, ", cooperative_groups::%s<", ops[n->op]);
    decl(p, n->ty, "", false);
    out(p, ">())");
    return;
  default: break;
  }
  expr(p, n->args, P_POSTFIX);
  outf(p, ".%.*s(", n->tok->len, n->tok->loc);
  Node *low = n->lhs;
  if (low->kind == ND_CALL && low->builtin == BI_MAKE_VECTOR && low->args &&
      low->args->kind == ND_CALL) {
    /* a vector shuffled by components: the value is the first component's object */
    Node *first = low->args;
    expr(p, first->args->next->lhs, P_ASSIGN);
    out(p, ", ");
    expr(p, first->args->next->next, P_ASSIGN);
  } else if (low->kind == ND_CALL &&
             (low->builtin == BI_SHFL || low->builtin == BI_SHFL_UP ||
              low->builtin == BI_SHFL_DOWN || low->builtin == BI_SHFL_XOR)) {
    expr(p, low->args->next, P_ASSIGN);
    out(p, ", ");
    Node *lane = low->args->next->next;
    while (lane->kind == ND_CAST && lane->implicit) lane = lane->lhs;
    if (lane->kind == ND_CALL && lane->fn && !strcmp(lane->fn->name, "__carve_cg_rank_lane"))
      lane = lane->args->next; /* a coalesced_group's shfl: the rank as written */
    expr(p, lane, P_ASSIGN);
  } else if (low->kind == ND_CALL &&
             (low->builtin == BI_ANY || low->builtin == BI_ALL || low->builtin == BI_BALLOT)) {
    expr(p, low->args->next, P_ASSIGN);
  } else if (n->args->ty->cg_group == -6 && n->args->next) { /* a cuda::barrier's wait(token) */
    Node *a = n->args->next;
    bool lvalue = a->kind == ND_VAR || (a->kind == ND_DEREF && a->implicit);
    if (lvalue) out(p, "std::move(");
    expr(p, a, P_ASSIGN);
    if (lvalue) out(p, ")");
  }
  out(p, ")");
}

static void expr(Printer *p, Node *n, int min) {
  if (p->sub) {
    const char *t = p->sub(n, p->sub_ctx);
    /* the text stands for one operand: parenthesized unless it is a name, a number or a[i] */
    if (t) {
      bool plain = !strpbrk(t, " +-*/%<>=&|^!?:,");
      outf(p, plain ? "%s" : "(%s)", t);
      return;
    }
  }
  if (n->kind == ND_CAST && n->implicit) {
    expr(p, n->lhs, min);
    return;
  }
  /* what references and __half conversions add underneath is not written in C++ */
  if ((n->kind == ND_ADDR || n->kind == ND_DEREF) && n->implicit) {
    expr(p, n->lhs, min);
    return;
  }
  if (n->kind == ND_CALL && n->implicit && n->builtin == BI_MAKE_VECTOR) {
    tokout(p, n->tok);
    return;
  } /* threadIdx as a uint3 */
  if (n->kind == ND_CALL && n->implicit && n->builtin == BI_HALF &&
      (n->ival == HOP_NEG || n->ival == HOP_NEG2)) {
    if (min > P_UNARY) out(p, "(");
    out(p, "-");
    expr(p, n->args, P_UNARY);
    if (min > P_UNARY) out(p, ")");
    return;
  }
  if (n->kind == ND_CALL && n->implicit && n->builtin == BI_HALF &&
      (n->ival == HOP_LOW || n->ival == HOP_HIGH)) {
    expr(p, n->args, P_POSTFIX); /* h2.x, h2.y */
    out(p, n->ival == HOP_LOW ? ".x" : ".y");
    return;
  }
  if (n->kind == ND_CALL && n->implicit && !half_operator(n)) {
    expr(p, n->args, min);
    return;
  }
  int pr = prec(n);
  bool paren = pr < min;
  if (paren) out(p, "(");
  switch (n->kind) {
  case ND_NUM: number(p, n); break;
  case ND_STR: tokout(p, n->tok); break;
  case ND_VAR: out(p, n->var->name); break;
  case ND_SPECIAL: {
    static const char *names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"};
    out(p, names[n->sreg]);
    if (n->sreg != SR_WARPSIZE) outf(p, ".%c", "xyz"[n->dim]);
    break;
  }
  case ND_CALL:
    if (n->implicit) { /* a __half operator */
      expr(p, n->args, pr);
      outf(p, " %s ", half_operator(n));
      expr(p, n->args->next, pr + 1);
      break;
    }
    if (n->builtin == BI_ASSERT) {
      out(p, "assert(");
      expr(p, n->args, P_ASSIGN);
      out(p, ")");
      break;
    }
    if (n->builtin == BI_CG) {
      cg_call(p, n);
      break;
    }
    if (n->fn &&
        n->fn->member) { /* a class's member function: x.f(args), q->f(args), or x converted */
      Node *self = n->args;
      Node *obj = self->kind == ND_ADDR && self->implicit ? self->lhs : NULL;
      if (obj && obj->kind == ND_VAR && obj->var->class_temp) {
        base_name(p, obj->ty, false);
        out(p, "()");
      } else expr(p, obj ? obj : self, P_POSTFIX);
      if (!strncmp(n->fn->member, "operator ", 9))
        break; /* the conversion is implicit, as written */
      outf(p, "%s%s", obj ? "." : "->", n->fn->member);
      args(p, self->next);
      break;
    }
    if (n->fn) out(p, n->fn->lib_name ? n->fn->lib_name : n->fn->name);
    else tokout(p, n->tok);
    {
      Node *a = n->args;
      for (int i = 0; n->fn && i < n->fn->ncaptures && a; i++)
        a = a->next; /* a lambda's captures are not written */
      args(p, a);
    }
    break;
  case ND_COND:
    expr(p, n->cond, P_LOGOR);
    out(p, " ? ");
    expr(p, n->then, P_COMMA);
    out(p, " : ");
    expr(p, n->els, P_COND);
    break;
  case ND_ASSIGN:
  case ND_ASSIGN_OP:
    expr(p, n->lhs, P_UNARY);
    outf(p, " %s= ", n->kind == ND_ASSIGN ? "" : binop(n->op));
    if (n->kind == ND_ASSIGN) p->b->len -= 2, p->b->s[p->b->len] = 0, out(p, "= ");
    expr(p, n->rhs, P_ASSIGN);
    break;
  case ND_NOT:
    out(p, "!");
    expr(p, n->lhs, P_UNARY);
    break;
  case ND_BITNOT:
    out(p, "~");
    expr(p, n->lhs, P_UNARY);
    break;
  case ND_NEG:
  case ND_POS: {
    out(p, n->kind == ND_NEG ? "-" : "+");
    Node *e = n->lhs;
    while (e->kind == ND_CAST && e->implicit) e = e->lhs;
    /* "- -x" and "-(-1)" must not become "--x" */
    if (e->kind == ND_NEG || e->kind == ND_POS || e->kind == ND_PREDEC || e->kind == ND_PREINC ||
        prec(e) < P_UNARY || (e->kind == ND_NUM && prec(e) == P_UNARY)) {
      out(p, "(");
      expr(p, n->lhs, P_COMMA);
      out(p, ")");
    } else expr(p, n->lhs, P_UNARY);
    break;
  }
  case ND_ADDR:
    out(p, "&");
    expr(p, n->lhs, P_UNARY);
    break;
  case ND_DEREF:
    out(p, "*");
    expr(p, n->lhs, P_UNARY);
    break;
  case ND_PREINC:
    out(p, "++");
    expr(p, n->lhs, P_UNARY);
    break;
  case ND_PREDEC:
    out(p, "--");
    expr(p, n->lhs, P_UNARY);
    break;
  case ND_POSTINC:
    expr(p, n->lhs, P_POSTFIX);
    out(p, "++");
    break;
  case ND_POSTDEC:
    expr(p, n->lhs, P_POSTFIX);
    out(p, "--");
    break;
  case ND_INDEX:
    expr(p, n->lhs, P_POSTFIX);
    out(p, "[");
    expr(p, n->rhs, P_COMMA);
    out(p, "]");
    break;
  case ND_MEMBER:
    expr(p, n->lhs, P_POSTFIX);
    outf(p, "%s%.*s", n->arrow ? "->" : ".", n->member->name->len, n->member->name->loc);
    break;
  case ND_CAST:
    out(p, "(");
    decl(p, n->cast_ty, "", false);
    out(p, ")");
    expr(p, n->lhs, P_UNARY);
    break;
  case ND_SIZEOF:
    out(p, "sizeof");
    if (n->lhs) {
      out(p, "(");
      expr(p, n->lhs, P_COMMA);
      out(p, ")");
    } else {
      out(p, "(");
      decl(p, n->cast_ty, "", false);
      out(p, ")");
    }
    break;
  case ND_INIT_LIST: init_list(p, n); break;
  case ND_COMMA:
    expr(p, n->lhs, P_COMMA);
    out(p, ", ");
    expr(p, n->rhs, P_ASSIGN);
    break;
  default: {
    /* like gcc's -Wparentheses: spell out the grouping where readers often misjudge it
     * (a << (b + c), (a & b) | c, a || (b && c)) */
    bool clarify =
      pr == P_SHIFT || pr == P_BITAND || pr == P_BITOR || pr == P_BITXOR || pr == P_LOGOR;
    int lmin = pr, rmin = pr + 1;
    if (clarify) {
      Node *l = n->lhs, *r = n->rhs;
      while (l->kind == ND_CAST && l->implicit) l = l->lhs;
      while (r->kind == ND_CAST && r->implicit) r = r->lhs;
      if (prec(l) > pr && prec(l) < P_UNARY) lmin = P_UNARY;
      if (prec(r) > pr && prec(r) < P_UNARY) rmin = P_UNARY;
    }
    expr(p, n->lhs, lmin);
    outf(p, " %s ", binop(n->kind));
    expr(p, n->rhs, rmin);
    break;
  }
  }
  if (paren) out(p, ")");
}

void print_expr(Buf *b, Node *n) {
  Printer p = {b, 0, NULL, 0, NULL, NULL, NULL, false};
  expr(&p, n, P_COMMA);
  free(p.done);
}

/* ---- statements ---- */
static void stmt(Printer *p, Node *n);

void print_expr_with(Buf *b, Node *n, PrintSubstFn *sub, void *ctx) {
  Printer p = {b, 0, NULL, 0, NULL, sub, ctx, false};
  expr(&p, n, P_COMMA);
  free(p.done);
}

void print_stmts_with(Buf *b, Node *list, int level, PrintSubstFn *sub, void *ctx) {
  Printer p = {b, level, NULL, 0, NULL, sub, ctx, false};
  for (Node *s = list; s; s = s->next) {
    indent(&p);
    stmt(&p, s);
    out(&p, "\n");
  }
  free(p.done);
}

static void var_decl(Printer *p, Node *d, bool with_base) {
  Obj *v = d->var;
  if (with_base) {
    if (v->sc == SC_SHARED) out(p, "__shared__ ");
    if (v->sc == SC_EXTERN_SHARED) out(p, "extern __shared__ ");
    if (v->align)
      outf(p, "__align__(%d) ", v->align); /* nvcc's layout then agrees with carve's (layout.c) */
    decl(p, v->ty, v->name, true);
  } else {
    Buf inner = {0};
    buf_puts(&inner, v->name);
    declarator_str(p, v->ty, &inner);
    out(p, inner.s);
    buf_free(&inner);
  }
  if (d->decl_init) {
    out(p, " = ");
    init_list(p, d->decl_init);
  }
}

static void pragma_line(Printer *p, Token *t) {
  if (t->pragma_toks) {
    out(p, "#pragma carve");
    for (Token *u = t->pragma_toks; u->kind != TK_EOF; u = u->next) {
      if (u->has_space || u == t->pragma_toks) out(p, " ");
      tokout(p, u);
    }
  } else {
    outf(p, "#pragma %s", t->str ? t->str : "");
  }
}

/* "#pragma unroll 4" (a number), not "#pragma unroll N" */
static bool pragma_count_written(Token *t) {
  const char *s = t->str ? t->str : "";
  while (*s == ' ' || *s == '\t') s++;
  if (strncmp(s, "unroll", 6)) return true;
  s += 6;
  while (*s == ' ' || *s == '\t' || *s == '(') s++;
  return !*s || (*s >= '0' && *s <= '9');
}

/* print a statement at the current position (indentation already written), no newline */
static void stmt(Printer *p, Node *n) {
  switch (n->kind) {
  case ND_BLOCK:
    out(p, "{\n");
    p->indent++;
    for (Node *s = n->stmts; s; s = s->next) {
      if (s->kind == ND_CASE) {
        p->indent--;
        indent(p);
        p->indent++;
      } else indent(p);
      stmt(p, s);
      out(p, "\n");
    }
    p->indent--;
    indent(p);
    out(p, "}");
    return;
  case ND_DECL:
    var_decl(p, n, true);
    out(p, ";");
    return;
  case ND_EXPR_STMT:
    expr(p, n->lhs, P_COMMA);
    out(p, ";");
    return;
  case ND_NULL_STMT:
    if (n->end_tok) {
      raw_tokens(p, n->tok, n->end_tok);
      return;
    } /* a lambda's declaration, as written */
    out(p, ";");
    return;
  case ND_PRAGMA: pragma_line(p, n->pragma); return;
  case ND_RETURN:
    out(p, "return");
    if (n->lhs) {
      out(p, " ");
      expr(p, n->lhs, P_COMMA);
    }
    out(p, ";");
    return;
  case ND_BREAK: out(p, "break;"); return;
  case ND_CONTINUE: out(p, "continue;"); return;
  case ND_CASE:
    if (n->is_default) out(p, "default:");
    else outf(p, "case %lld:", (long long)n->case_val);
    if (n->lhs && n->lhs->kind != ND_NULL_STMT) {
      out(p, "\n");
      indent(p);
      stmt(p, n->lhs);
    } else {
      out(p, ";"); /* a label needs a statement */
    }
    return;
  case ND_IF:
    out(p, "if (");
    expr(p, n->cond, P_COMMA);
    out(p, ")");
    if (!n->els) {
      if (n->then->kind == ND_BLOCK) {
        out(p, " ");
        stmt(p, n->then);
      } else {
        out(p, "\n");
        p->indent++;
        indent(p);
        stmt(p, n->then);
        p->indent--;
      }
      return;
    }
    if (n->then->kind == ND_BLOCK) {
      out(p, " ");
      stmt(p, n->then);
      out(p, " else");
    } else {
      out(p, "\n");
      p->indent++;
      indent(p);
      stmt(p, n->then);
      p->indent--;
      out(p, "\n");
      indent(p);
      out(p, "else");
    }
    if (n->els->kind == ND_IF || n->els->kind == ND_BLOCK) {
      out(p, " ");
      stmt(p, n->els);
    } else {
      out(p, "\n");
      p->indent++;
      indent(p);
      stmt(p, n->els);
      p->indent--;
    }
    return;
  case ND_FOR:
  case ND_WHILE:
  case ND_DO:
    if (n->pragma && n->unroll > 0 && !pragma_count_written(n->pragma)) {
      /* "#pragma unroll N" with N a macro or a template parameter: its value, which the printed
       * source (macros expanded, instances specialized) still means */
      outf(p, "#pragma unroll %d\n", n->unroll);
      indent(p);
    } else if (n->pragma) {
      pragma_line(p, n->pragma);
      out(p, "\n");
      indent(p);
    }
    if (n->kind == ND_FOR) {
      out(p, "for (");
      if (n->init && n->init->kind == ND_DECL) {
        for (Node *d = n->init; d; d = d->next) {
          if (d != n->init) out(p, ", ");
          var_decl(p, d, d == n->init);
        }
      } else if (n->init) {
        expr(p, n->init->lhs, P_COMMA);
      }
      out(p, ";");
      if (n->cond) {
        out(p, " ");
        expr(p, n->cond, P_COMMA);
      }
      out(p, ";");
      if (n->inc) {
        out(p, " ");
        expr(p, n->inc, P_COMMA);
      }
      out(p, ")");
    } else if (n->kind == ND_WHILE) {
      out(p, "while (");
      expr(p, n->cond, P_COMMA);
      out(p, ")");
    } else {
      out(p, "do");
    }
    if (n->then->kind == ND_BLOCK) {
      out(p, " ");
      stmt(p, n->then);
    } else {
      out(p, "\n");
      p->indent++;
      indent(p);
      stmt(p, n->then);
      p->indent--;
      if (n->kind == ND_DO) {
        out(p, "\n");
        indent(p);
      }
    }
    if (n->kind == ND_DO) {
      out(p, n->then->kind == ND_BLOCK ? " while (" : "while (");
      expr(p, n->cond, P_COMMA);
      out(p, ");");
    }
    return;
  case ND_SWITCH:
    out(p, "switch (");
    expr(p, n->cond, P_COMMA);
    out(p, ")");
    if (n->then->kind == ND_BLOCK) {
      out(p, " ");
      stmt(p, n->then);
    } else {
      out(p, "\n");
      p->indent++;
      indent(p);
      stmt(p, n->then);
      p->indent--;
    }
    return;
  default:
    expr(p, n, P_COMMA);
    out(p, ";");
    return;
  }
}

/* a name declared in the namespace being printed, as its definition there spells it */
static const char *local_name(Printer *p, const char *name) {
  size_t n = p->ns ? strlen(p->ns) : 0;
  if (n && !strncmp(name, p->ns, n) && !strncmp(name + n, "::", 2)) return name + n + 2;
  return name;
}

static void function(Printer *p, Obj *fn) {
  if (fn->tmpl_head) out(p, "template <> ");
  if (fn->is_constexpr) out(p, "constexpr ");
  if (fn->is_kernel) out(p, "__global__ ");
  else {
    if (fn->is_host) out(p, "__host__ ");
    out(p, "__device__ ");
  }
  if (fn->is_forceinline) out(p, "__forceinline__ ");
  else if (fn->is_inline) out(p, "inline ");
  if (fn->launch_bounds[0]) {
    outf(p, "__launch_bounds__(%d", fn->launch_bounds[0]);
    if (fn->launch_bounds[1]) outf(p, ", %d", fn->launch_bounds[1]);
    out(p, ") ");
  }
  Type *ft = fn->ty;
  base_name(p, base_of(ft->return_ty), false);
  Buf inner = {0};
  buf_puts(&inner, local_name(p, fn->name));
  Buf ps = {0};
  /* parameters print with their names */
  buf_putc(&ps, '(');
  if (!ft->params) buf_puts(&ps, "void");
  for (Type *q = ft->params; q; q = q->next) {
    if (q != ft->params) buf_puts(&ps, ", ");
    Printer pp = {&ps, 0, p->done, p->ndone, p->ns, NULL, NULL, false};
    decl(&pp, q, q->name ? tok_text(q->name) : "", false);
    /* C++ default argument (not on an explicit specialization: C++ forbids it there, and the
     * template's declaration printed above keeps the defaults as written) */
    if (q->default_arg && !fn->tmpl_head) {
      buf_puts(&ps, " = ");
      print_expr(&ps, q->default_arg);
    }
    p->done = pp.done;
    p->ndone = pp.ndone;
  }
  buf_putc(&ps, ')');
  buf_puts(&inner, ps.s);
  buf_free(&ps);
  declarator_str(p, ft->return_ty, &inner);
  outf(p, " %s", inner.s);
  buf_free(&inner);
  if (!fn->body || p->proto) {
    out(p, ";\n");
    return;
  }
  out(p, " ");
  stmt(p, fn->body);
  out(p, "\n");
}

/* the headers nvcc needs for the builtins a program uses: bit i for builtin i */
static bool header_pre(Node *n, void *ctx) {
  uint64_t *used = ctx;
  if (n->kind == ND_CALL && n->builtin < 64)
    *used |= 1ull << (n->builtin == BI_PIPE_COMMIT || n->builtin == BI_PIPE_WAIT ? BI_PIPE_COPY
                                                                                 : n->builtin);
  if (n->ty && n->ty->is_half) *used |= 1ull << BI_HALF;
  if (n->ty && (n->ty->cg_group == -6 || n->ty->cg_group == -7)) *used |= 1ull << 63;
  if (n->ty && n->ty->cg_group == -8) *used |= 1ull << 62;
  return true;
}

void print_function(Buf *b, Obj *fn) { print_function_with(b, fn, NULL, NULL); }

/* the function with some expressions printed as other text (sub): the optimizer prints a
 * kernel's constants that came from size macros by the macros' names (src/opt/sizes.c) */
void print_function_with(Buf *b, Obj *fn, PrintSubstFn *sub, void *ctx) {
  Printer p = {b, 0, NULL, 0, NULL, sub, ctx, false};
  function(&p, fn);
  free(p.done);
}

/* one '}' for each namespace of "a::b" */
static void close_ns(Printer *p) {
  for (const char *c = p->ns; c; c = strstr(c, "::") ? strstr(c, "::") + 2 : NULL) out(p, "}\n");
}

/* the headers the builtins of n programs need, one #include line each, each once */
void print_headers(Buf *b, Program *const *progs, int n) {
  uint64_t used = 0;
  for (int i = 0; i < n; i++)
    for (Obj *f = progs[i]->funcs; f; f = f->next) {
      if (f->body) walk(f->body, header_pre, NULL, &used);
      for (Type *q = f->ty->params; q; q = q->next)
        if (q->is_half || (q->base && q->base->is_half)) used |= 1ull << BI_HALF;
    }
  static const struct {
    Builtin b;
    const char *h;
  } headers[] = {{BI_PRINTF, "stdio.h"},
                 {BI_ASSERT, "assert.h"},
                 {BI_HALF, "cuda_fp16.h"},
                 {BI_CG, "cooperative_groups.h"},
                 {BI_CG, "cooperative_groups/reduce.h"},
                 {BI_PIPE_COPY, "cuda_pipeline_primitives.h"}};
  for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
    if (used >> headers[i].b & 1) buf_printf(b, "#include <%s>\n", headers[i].h);
  if (used >> 63 & 1) buf_printf(b, "#include <cuda/barrier>\n");  /* cuda::barrier */
  if (used >> 62 & 1) buf_printf(b, "#include <cuda/pipeline>\n"); /* cuda::pipeline */
}

void print_program(Buf *b, Program *prog) { print_program_with(b, prog, 0); }

/* print_program, leaving out what `flags` says (PRINT_NO_PRAGMAS, PRINT_NO_INCLUDES) */
void print_program_with(Buf *b, Program *prog, unsigned flags) {
  Printer p = {b, 0, NULL, 0, NULL, NULL, NULL, false};
  size_t before = b->len;
  if (!(flags & PRINT_NO_INCLUDES)) print_headers(b, &prog, 1);
  if (b->len > before) out(&p, "\n");
  TopKind last = TOP_PRAGMA;
  bool first = true;
  for (TopItem *it = prog->items; it; it = it->next) {
    if (!(it->ns == p.ns || (it->ns && p.ns && !strcmp(it->ns, p.ns)))) {
      close_ns(&p);
      if (it->ns) {
        out(&p, "\n");
        for (const char *c = it->ns;; c += 2) {
          const char *e = strstr(c, "::");
          outf(&p, "namespace %.*s {\n", e ? (int)(e - c) : (int)strlen(c), c);
          if (!e) break;
          c = e;
        }
      }
      p.ns = it->ns;
    }
    if (!first && (it->kind == TOP_FUNC || last == TOP_FUNC || it->kind != last)) out(&p, "\n");
    first = false;
    last = it->kind;
    switch (it->kind) {
    case TOP_PRAGMA:
      if (it->tok->pragma_toks && (flags & PRINT_NO_PRAGMAS)) break;
      pragma_line(&p, it->tok);
      out(&p, "\n");
      break;
    case TOP_TYPEDEF:
      out(&p, "typedef ");
      decl(&p, it->ty, local_name(&p, it->name), true);
      out(&p, ";\n");
      break;
    case TOP_RAW:
      raw_tokens(&p, it->tok, it->end);
      out(&p, it->end && it->end->prev && tok_equal(it->end->prev, ";") ? "\n" : ";\n");
      break;
    case TOP_STRUCT:
    case TOP_ENUM:
      base_name(&p, it->ty, true);
      out(&p, ";\n");
      break;
    case TOP_FUNC: {
      /* a prototype before the definition: the same function object, printed as a declaration */
      bool later = false;
      for (TopItem *q = it->next; q && !later; q = q->next)
        later = q->kind == TOP_FUNC && q->obj == it->obj;
      p.proto = later;
      function(&p, it->obj);
      p.proto = false;
      break;
    }
    case TOP_VAR: {
      Obj *v = it->obj;
      if (v->is_static) out(&p, "static ");
      if (v->is_extern) out(&p, "extern ");
      if (v->sc == SC_CONSTANT && !v->host_const) out(&p, "__constant__ ");
      else if (v->sc == SC_DEVICE_GLOBAL) out(&p, "__device__ ");
      else if (v->sc == SC_EXTERN_SHARED) out(&p, "__shared__ ");
      if (v->align) outf(&p, "__align__(%d) ", v->align);
      decl(&p, v->ty, local_name(&p, v->name), true);
      if (v->init) {
        out(&p, " = ");
        init_list(&p, v->init);
      }
      out(&p, ";\n");
      break;
    }
    }
  }
  close_ns(&p);
  free(p.done);
}
