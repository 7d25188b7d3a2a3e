/* parse_int.h: the parser's private interface, shared by parse.c and the files split from it
 * (parse_type.c types and declarators, parse_stmt.c declarations and statements, parse_expr.c
 * expressions and builtins, parse_cg.c cooperative groups, parse_host.c host programs and C99
 * VLAs, parse_template.c C++ templates). Every piece of mutable parser state is a field of one
 * struct, ParseState, reached as `ps`: a parse starts it from zero and clears it at the end, and
 * late_instance saves and restores it whole. Nothing else in src/front/parse*.c is mutable at
 * file scope (the tables are const; auto_type is a sentinel never written). */
#ifndef CARVE_PARSE_INT_H
#define CARVE_PARSE_INT_H
#include "front.h"
#include "limits_parse.h"
#include <stdlib.h>
#include <string.h>

/* ---- scopes ---- */
typedef struct VarScope {
  struct VarScope *next;
  char *name;
  Obj *var;
  Type *type_def;
  Type *enum_ty;
  int64_t enum_val;
  struct Template *tmpl; /* C++: a function template's name */
  bool tparam;           /* a template's value parameter (enum_ty, enum_val) inside an instance */
  bool
    vla_array; /* host code: a variable-length array, var its hidden pointer (the name means *var) */
} VarScope;
typedef struct TagScope {
  struct TagScope *next;
  char *name;
  Type *ty;
} TagScope;
typedef struct Scope {
  struct Scope *next;
  VarScope *vars;
  TagScope *tags;
} Scope;

typedef struct {
  bool is_typedef, is_static, is_extern, is_inline, is_const, is_constexpr;
  bool global, device, host, shared, constant, forceinline, noinline;
  int launch_bounds[2];
  int align; /* __align__(N), _Alignas(N or T), alignas(N or T): the largest; 0 none */
  Token *cuda_tok, *extern_c;
} VarAttr;

/* File scope can hold thousands of names (large generated files): it is hashed. Block scopes
 * are short lists. */
#define GLOBAL_BUCKETS 4096
typedef struct {
  char *alias, *target;
} NsAlias; /* namespace alias = target; */
typedef struct {
  char *name;
  char msg[512];
  SrcLoc loc;
} FailedType; /* a type definition that did not parse */
typedef struct {
  Obj *param;
  int64_t val;
} ConstBind; /* a constexpr function's parameter, bound */

#define VLA_LEN (-2) /* Type.array_len of a variable-length array (type.c uses the same value) */
typedef struct Vla {
  struct Vla *next;
  Type *ty;       /* the array type (copies find it through Type.origin) */
  Node *len;      /* the element count (NULL: a parameter's, parsed by function(); or [*]) */
  Token *len_tok; /* where the count is written (NULL for [*]) */
  Obj *size;      /* the hidden local that holds the size, once a declaration evaluated it */
} Vla;
/* the host function being parsed: hidden declarations run at its entry, its local VLAs */
typedef struct {
  Node head, *tail;
  Obj **arrays;
  int narrays;
} VlaFn;

enum { MAX_TPARAMS = 16, MAX_INSTANCE_DEPTH = 1024 };
typedef struct {
  char *name;
  bool is_type;
  Type *vty;
  Token *deflt;
} TParam;
typedef struct Template {
  char *name, *local; /* "ns::k" and "k" */
  char *ns;
  Token *head, *decl, *fname;
  TParam params[MAX_TPARAMS];
  int nparams;
  bool is_kernel;
  int ninstances;
  struct Template
    *next_kernel; /* the file's template kernels, for the warning on those never made */
  char **usings;
  int nusing; /* the `using namespace` and aliases in force at the definition */
  NsAlias *aliases;
  int naliases;
  bool is_class; /* a class template: `template <...> struct Name { member functions };` */
  struct ClassSpec *specs; /* its explicit specializations `template <> struct Name<args> {...}` */
} Template;
typedef struct ClassSpec {
  struct ClassSpec *next;
  char *name;
  Token *decl;
} ClassSpec; /* name "Name<args>", decl at `struct` */
typedef struct {
  Type *ty;
  int64_t val;
  bool set;
} TArg;

typedef struct {
  const char *name;
  Builtin bi;
  int nargs;
} BuiltinDef; /* a builtin function's name and arity */
typedef struct {
  Token *tok;
} TmplCall;
typedef struct {
  Token *tok;
  bool host_const;
} TopCall;
/* a declaration at file scope, under carve_pcall */ /* a template at file scope, under carve_pcall */

/* The parser's state: all of it, one struct (as Lua's LexState). parse() starts from zero and
 * zeroes it again at its end (the file scope lives on in the Program: parse_state_save);
 * late_instance saves it, parses in p's file scope and restores it; a template instance saves
 * and restores the per-function part (parse_template.c's ParserState). */
typedef struct ParseState {
  Program *prog; /* the program being built */
  /* scopes */
  Scope *scope; /* innermost scope; the outermost holds file scope's tags */
  VarScope *global_table[GLOBAL_BUCKETS]; /* file scope's names, hashed */
  /* the function being parsed */
  Obj *cur_fn;
  int loop_depth, switch_depth, block_depth;
  bool fn_body_pending;
  Node *cur_switch;
  /* nesting limits (limits_parse.h) */
  int nest_depth;       /* parser recursion inside one expression, declarator or initializer */
  int stmt_depth;       /* statements inside statements */
  int expr_level;       /* expr/assign/conditional calls open: 0 at a full expression */
  uintptr_t stack_base; /* the frame of parse() or late_instance(), 0 outside them */
  /* host code skipped, type definitions that did not parse */
  char **host_funcs;
  int n_host_funcs; /* names of skipped host functions, for better messages */
  FailedType *failed_types;
  int n_failed_types;
  /* C++ namespaces */
  char *cur_ns; /* "a::b", NULL at file scope */
  char **using_ns;
  int n_using;
  NsAlias *ns_aliases;
  int n_ns_aliases;
  /* constant expressions */
  ConstBind const_binds[64];
  int n_const_binds;
  bool lax_const; /* a division by zero is just "not constant" (else an error, while parsing) */
  /* C99 variable-length arrays (parse_host.c) */
  Type *vla_param_head; /* a host function's parameters so far (their counts wait for function()) */
  bool vla_host_decl;   /* the declarator being parsed declares a host function */
  Vla *vlas;            /* the file's VLA types */
  VlaFn vla_fn;
  /* top level */
  TopItem *last_item;
  Token *decl_start; /* the first token of the file-scope declaration being parsed */
  Obj **funcs_tail;
  bool in_prelude; /* reading the host runtime's declarations: none is a top-level item */
  /* C++ templates */
  Template *template_kernels; /* the file's template kernels, for the warning on those never made */
  int instance_depth;
  Type *cur_class; /* the class instance whose member functions are being parsed */
  bool
    in_device_lib; /* parsing a function never printed on its own: the device library's, a lambda's */
  int nlambdas;    /* the file's lambdas, for their functions' names */
} ParseState;
extern ParseState ps;

/* parse.c */
Node *new_binary(NodeKind k, Node *l, Node *r, Token *tok);
Node *new_unary(NodeKind k, Node *e, Token *tok);
Node *new_num(int64_t v, Token *tok);
Node *new_var(Obj *v, Token *tok);
void nest_enter(Token *tok, const char *what);
void nest_leave(void);
void expr_open(void);
Node *expr_close(Node *n);
Token *skip(Token *tok, const char *s);
bool consume(Token **rest, Token *tok, const char *s);
char *get_ident(Token *tok);
void enter_scope(void);
void leave_scope(void);
VarScope *find_global_n(const char *name, int len);
const char *resolve_alias(const char *name, int *len);
char *ns_qualify(char *name);
VarScope *find_var_n(const char *name, int len);
VarScope *find_var(Token *tok);
VarScope *find_template(Token *tok);
Type *find_tag(Token *tok);
VarScope *push_global(char *name);
VarScope *push_scope(char *name);
void push_tag(Token *tok, Type *ty);
VarScope *find_in_current(Token *tok);
Type *find_typedef(Token *tok);
Obj *new_obj(char *name, Type *ty, Token *tok, StorageClass sc);
Obj *new_local(char *name, Type *ty, Token *tok, StorageClass sc);
void report_failed_type(Token *use);
bool is_host_func(Token *tok);
bool eval_const(Node *n, int64_t *v);
int64_t const_expr(Token **rest, Token *tok);
void add_item(TopKind k, Obj *o, Type *ty, const char *name, Token *tok);
Obj *find_func(const char *name);
void function(Token **rest, Token *tok, Type *ty, VarAttr *attr);
Token *skip_declaration(Token *tok);
void toplevel(Token **rest, Token *tok, bool host_const);

/* parse_type.c */
Type *builtin_typedef(const char *name, int len);
bool is_auto(const Type *t);
bool has_auto(const Type *t);
Type *declspec(Token **rest, Token *tok, VarAttr *attr);
Type *pointers(Token **rest, Token *tok, Type *ty);
Type *declarator(Token **rest, Token *tok, Type *ty);
Type *abstract_declarator(Token **rest, Token *tok, Type *ty);
Type *typename_(Token **rest, Token *tok);
bool is_typename(Token *tok);
Node *coerce_init(Node *e, Type *ty);
Node *initializer(Token **rest, Token *tok, Type *ty);

/* parse_host.c */
void vla_decl_reset(void);
void vla_reset(void);
bool is_vla(const Type *t);
bool has_vla(const Type *t);
Type *vla_type(Type *base, Node *len, Token *len_tok);
Node *typed_cast(Node *e, Type *ty);
bool has_side_effect(Node *n);
void vla_materialize(Type *t, Token *at, Node **cur);
Node *vla_local(Type *ty, Token *name, Token *tok);
Node *vla_lower(Node *n);
Node *vla_sizeof(Node *n, Node *e);
Node *param_dim(Token **rest, Token *tok);
void vla_param_counts(Type *p, bool host);
void vla_function_start(Type *fnty);
void vla_function_end(Node *body);
void host_prelude(void);
bool in_host_fn(void);
void symbol_arg(Obj *fn, Node *call);
bool is_dim3(const Type *t);
Node *dim3_ctor(Token **rest, Token *tok);
Node *dim3_declarator(Token **rest, Token *tok, Type *base);
Node *launch_expr(Token **rest, Token *tok);
Node *launch_config(Token **rest, Token *name, Token *tok, Obj *k, Template *t, TArg *targs);

Obj *hidden_local(const char *name, Type *ty, Token *tok);

/* parse_stmt.c */
bool lvalue_node(Node *n);
Node *stmt(Token **rest, Token *tok);
Node *compound_stmt(Token **rest, Token *tok);

/* parse_expr.c */
Node *expr(Token **rest, Token *tok);
Node *assign(Token **rest, Token *tok);
Node *assign_rhs(Token **rest, Token *tok);
Node *conditional(Token **rest, Token *tok);
Node *binary_level(Token **rest, Token *tok, int level);
Node *cast(Token **rest, Token *tok);
Node *unary(Token **rest, Token *tok);
Node *postfix(Token **rest, Token *tok);
Node *func_args(Token **rest, Token *tok, Node *call);
void coerce_arg(Node **a, Type *ty);
Node **nthp(Node **args, int i);
Node *builtin_call(Token *name, const BuiltinDef *bd, Node *call);
Type *half_type(int which);
Node *half2_ctor(Token *name, Node *call);
Node *make_vector_call(Token *name, Type *vt, Node *call);
void fill_defaults(Node *call, Type *ft);
Node *user_call(Token *name, Node *call, Obj *fn);
Node *funcall(Token **rest, Token *tok);

const BuiltinDef *find_builtin(const char *name);

/* parse_cg.c */
Type *cg_type(int group);
void define_cg_types(void);
int tile_size(Token **rest, Token *tok);
Node *cg_method(Token **rest, Node *obj, Token *m);
Node *barrier_init(Token **rest, Token *tok);
Node *cuda_pipeline_call(Token **rest, Token *tok);
Node *primary(Token **rest, Token *tok);

/* parse_template.c */
bool is_class_template(Token *tok);
Type *class_template_type(Token **rest, Token *tok);
Node *class_convert(Node *e, Type *to);
Obj *device_lib_function(Token *name);
Node *lambda_decl(Token **rest, Token *start, Token *name);
Type *func_params(Token **rest, Token *tok, Type *ty);
Token *skip_balanced(Token *tok);
Token *skip_angle(Token *tok);
Token *tnum_token(Token *at, int64_t v);
Node *template_call(Token **rest, Token *tok, Template *t);
Obj *template_launch_instance(Template *t, TArg *targs, Node *call_args, Token *at);
void template_toplevel(void *ud);
void instantiate_launches(void);
bool is_constexpr_function(Token *tok);
void constexpr_call(void *ud);

#endif
