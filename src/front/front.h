/* front: the CUDA C kernel language, from bytes to the typed AST that every later stage uses.
 *   tokenize.c   bytes -> tokens            preprocess.c  macros, #include, #if, #pragma
 *   consteval.c  constant expressions on tokens (#if, launch specs)
 *   parse*.c     tokens -> typed AST (parse_int.h: ParseState)   type.c   types and the usual conversions
 *   walk.c       the one child traversal; deep clone with fresh objects
 *   layout.c     program_finish: ids, slots, frames, shared offsets, barrier use, over the final AST
 *   print.c      AST -> CUDA source         spec.c        `#pragma carve` launch specifications
 *   load.c       the whole front end as a protected call; programs owned, cloned and freed
 * Dependencies run one way: tokenize < preprocess < consteval < parse < layout < spec < load. */
#ifndef CARVE_FRONT_H
#define CARVE_FRONT_H
#include "../base.h"

typedef struct Type Type;
typedef struct Node Node;
typedef struct Obj Obj;
typedef struct Member Member;
typedef struct Hideset Hideset;

/* ---------------- tokens ---------------- */
typedef enum {
  TK_IDENT,
  TK_PUNCT,
  TK_KEYWORD,
  TK_STR,
  TK_NUM,
  TK_PP_NUM,
  TK_PRAGMA,
  TK_EOF
} TokenKind;

typedef struct Token Token;
struct Token {
  TokenKind kind;
  Token *next;
  int64_t ival; /* TK_NUM integer value */
  double fval;  /* TK_NUM floating value */
  Type *ty;     /* TK_NUM and TK_STR: the literal's type */
  char *loc;    /* spelling in the source buffer */
  int len;
  char *str; /* TK_STR: decoded contents; TK_PRAGMA: the text after "#pragma" */
  SrcFile *file;
  int line, col;
  bool at_bol, has_space;
  Hideset *hideset;
  Token *origin;      /* for a token produced by a macro: the use-site token it came from */
  const char *macro;  /* the macro whose body held this token, if any */
  Token *pragma_toks; /* TK_PRAGMA "carve ...": the macro-expanded tokens after "carve" */
  Token *prev;        /* previous token after preprocessing (for "expected ';'" after it) */
};

Token *tokenize_file(const char *path); /* NULL if unreadable */
Token *tokenize_string(const char *name, const char *text);
Token *tokenize(SrcFile *f);
bool tok_equal(const Token *t, const char *s);
SrcLoc tok_loc(const Token *t); /* the user-visible location (macro use site) */
void error_tok(const Token *t, const char *f, ...) __attribute__((format(printf, 2, 3), noreturn));
void warn_tok(const Token *t, const char *f, ...) __attribute__((format(printf, 2, 3)));
void note_tok(const Token *t, const char *f, ...) __attribute__((format(printf, 2, 3)));
/* error_tok raises an error (carve_throw): it unwinds to the innermost carve_pcall */
void convert_pp_tokens(Token *tok);
char *tok_text(const Token *t);

/* ---------------- preprocessor ---------------- */
typedef struct {
  const char **include_dirs;
  int n_include_dirs;
  const char **defines;
  int n_defines;    /* "NAME" or "NAME=VALUE" */
  bool no_includes; /* refuse #include "..." (fuzzing) */
} PPOptions;
Token *preprocess(Token *tok, const PPOptions *opt);
/* integer value of an object-like macro of the macros installed now (program_macro_value
 * installs a program's) */
bool pp_macro_value(const char *name, int64_t *val);

/* the preprocessor's macro table outlives a load inside its Program (launch settings given as
 * flags expand macros as the source did): save it, install it again, or clear it */
void *pp_state_save(void);
void pp_state_restore(const void *saved); /* NULL: no macros */

/* constant expressions (#if, launch specs): integers and floats */
typedef struct {
  bool is_float;
  int64_t i;
  double d;
} CValue;
typedef struct Type *TypeNameFn(Token **rest, Token *tok);
/* evaluate the expression starting at tok; *rest gets the first token after it.
 * Identifiers evaluate to 0 in #if (as C says) or are an error when !pp_mode; sizeof(TYPE)
 * needs type_name (NULL: sizeof is not allowed). */
CValue const_eval(Token **rest, Token *tok, bool pp_mode, TypeNameFn *type_name);

/* ---------------- types ---------------- */
typedef enum {
  TY_VOID,
  TY_BOOL,
  TY_CHAR,
  TY_SHORT,
  TY_INT,
  TY_LONG,
  TY_LLONG,
  TY_FLOAT,
  TY_DOUBLE,
  TY_ENUM,
  TY_PTR,
  TY_ARRAY,
  TY_STRUCT,
  TY_FUNC
} TypeKind;

enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_GRID_CONSTANT = 8 };

struct Type {
  TypeKind kind;
  int size, align;
  bool is_unsigned;
  int qual;                 /* Q_* of this level */
  Type *base;               /* pointer target / array element */
  int array_len;            /* -1: incomplete (extern __shared__ x[]) */
  Token *name;              /* declarator name */
  Node *default_arg;        /* a parameter's default argument (C++: `int *p = NULL`), or NULL */
  const char *typedef_name; /* set when the type was written through a typedef */
  const char *tag;          /* struct/enum tag */
  Member *members;
  bool is_vector; /* CUDA vector type (float4, int2, ...) */
  Type *origin;   /* the type this one is a qualified/typedef copy of */
  /* functions */
  Type *return_ty;
  Type *params; /* linked by .next */
  bool is_variadic;
  Type *next;
  /* C++ (docs/cxx.md) */
  bool is_ref;           /* T&: a pointer underneath (uses dereference it implicitly); on a
                         * non-pointer, const T& passed by value; printed as '&' either way */
  unsigned char is_half; /* 1: __half (16 bits of an IEEE binary16), 2: __half2 (two, .x low) */
  int cg_group;          /* cooperative groups: 0 none, -1 thread_block, -2 thread_block_tile
                         * before its size is given, -3 grid_group, -4 thread_group (block or tile, known when run), -5 coalesced_group
                         * (its value the mask of its lanes in the warp), N > 0 a tile of N threads */
};

struct Member {
  Member *next;
  Type *ty;
  Token *name;
  int offset, idx;
};

/* The front end's one piece of state that outlives a program (as Lua's global_State beside its
 * per-parse LexState): types interned for the whole process, so a program read later (launch
 * settings after a load) finds the same ones, and the source files' ids. Everything a parse
 * needs is in ParseState `ps` (parse_int.h) and the preprocessor's PPState `pp`. */
typedef struct FrontGlobal {
  Type *vector[12][5];          /* vector_type: CUDA's NAME1..NAME4 by base and width */
  char vector_names[12][5][16]; /* their tags */
  Type typedefs[24];            /* builtin_typedef: size_t, int32_t, __half, dim3, ... */
  int nfiles;                   /* SrcFile ids, for as long as the process runs */
} FrontGlobal;
extern FrontGlobal front_global;

extern Type *const ty_void,
  *const ty_bool, *const ty_char, *const ty_schar,
                                    *const ty_uchar,
                                      *const ty_short,
                                        *const ty_ushort,
                                          *const ty_int, *const ty_uint, *const ty_long,
                                                                           *const ty_ulong,
                                                                             *const ty_llong,
                                                                               *const ty_ullong,
                                                                                 *const ty_float,
                                                                                   *const ty_double;

bool is_integer(const Type *t);
bool is_flonum(const Type *t);
bool is_numeric(const Type *t);
bool is_scalar(const Type *t);       /* numeric or pointer */
bool is_pointer_like(const Type *t); /* pointer or array */
Type *copy_type(const Type *t);
Type *qualified(Type *t, int qual);
Type *unqual(Type *t);
Type *pointer_to(Type *base);
Type *array_of(Type *base, int len);
Type *func_type(Type *ret);
Type *struct_type(void);
Type *vector_type(const char *name); /* float4 etc., NULL if not a vector type name */
Type *common_type(Type *a, Type *b); /* usual arithmetic conversions */
bool same_type(const Type *a, const Type *b);
const char *type_name(const Type *t); /* "const float *" for messages */
Member *find_member(Type *t, const char *name);
void add_type(Node *n);

/* ---------------- AST ---------------- */
typedef enum {
  /* expressions */
  ND_NUM,
  ND_STR,
  ND_VAR,
  ND_SPECIAL,
  ND_CALL,
  ND_COMMA,
  ND_COND,
  ND_LOGAND,
  ND_LOGOR,
  ND_NOT,
  ND_BITNOT,
  ND_NEG,
  ND_POS,
  ND_ADDR,
  ND_DEREF,
  ND_INDEX,
  ND_MEMBER,
  ND_CAST,
  ND_ASSIGN,
  ND_ASSIGN_OP,
  ND_PREINC,
  ND_PREDEC,
  ND_POSTINC,
  ND_POSTDEC,
  ND_SIZEOF,
  ND_ADD,
  ND_SUB,
  ND_MUL,
  ND_DIV,
  ND_MOD,
  ND_BITAND,
  ND_BITOR,
  ND_BITXOR,
  ND_SHL,
  ND_SHR,
  ND_EQ,
  ND_NE,
  ND_LT,
  ND_LE,
  ND_GT,
  ND_GE,
  ND_INIT_LIST,
  /* statements */
  ND_BLOCK,
  ND_DECL,
  ND_EXPR_STMT,
  ND_IF,
  ND_FOR,
  ND_WHILE,
  ND_DO,
  ND_SWITCH,
  ND_CASE,
  ND_BREAK,
  ND_CONTINUE,
  ND_RETURN,
  ND_NULL_STMT,
  ND_PRAGMA,
  /* host programs: k<<<grid, block, shmem, stream>>>(args): fn the kernel, cond the grid, then
   * the block, els the dynamic shared bytes (or NULL), inc the stream (or NULL), args */
  ND_LAUNCH
} NodeKind;

/* builtin special registers: threadIdx.x ... */
typedef enum { SR_TID, SR_CTAID, SR_NTID, SR_NCTAID, SR_WARPSIZE } SpecialReg;

/* builtin functions known to the front end and the interpreter */
typedef enum {
  BI_NONE,
  BI_SYNCTHREADS,
  BI_SYNCTHREADS_COUNT,
  BI_SYNCTHREADS_AND,
  BI_SYNCTHREADS_OR,
  BI_SYNCWARP,
  BI_THREADFENCE,
  BI_THREADFENCE_BLOCK,
  BI_ATOMIC_ADD,
  BI_ATOMIC_SUB,
  BI_ATOMIC_EXCH,
  BI_ATOMIC_MIN,
  BI_ATOMIC_MAX,
  BI_ATOMIC_INC,
  BI_ATOMIC_DEC,
  BI_ATOMIC_CAS,
  BI_ATOMIC_AND,
  BI_ATOMIC_OR,
  BI_ATOMIC_XOR,
  BI_SHFL,
  BI_SHFL_UP,
  BI_SHFL_DOWN,
  BI_SHFL_XOR,
  BI_BALLOT,
  BI_ANY,
  BI_ALL,
  BI_ACTIVEMASK,
  BI_POPC,
  BI_POPCLL,
  BI_CLZ,
  BI_CLZLL,
  BI_FFS,
  BI_FFSLL,
  BI_BREV,
  BI_LDG,
  BI_MIN,
  BI_MAX,
  BI_ABS,
  BI_MAKE_VECTOR,
  BI_PRINTF,
  BI_CLOCK,
  BI_MATH,
  /* C++ (docs/cxx.md): __half intrinsics and operators (which one: Node.ival, a HOP_*),
   * assert, cooperative groups (which call: Node.ival, a CG_*) */
  BI_HALF,
  BI_ASSERT,
  BI_CG,
  /* <cuda_pipeline_primitives.h>: __pipeline_memcpy_async(dst, src, size_and_align[, zfill]),
   * __pipeline_commit(), __pipeline_wait_prior(n) (the interpreter's semantics: docs/DESIGN.md,
   * "Async copies") */
  BI_PIPE_COPY,
  BI_PIPE_COMMIT,
  BI_PIPE_WAIT
} Builtin;

typedef enum {
  HOP_F2H,
  HOP_H2F,
  HOP_ADD,
  HOP_SUB,
  HOP_MUL,
  HOP_DIV,
  HOP_FMA,
  HOP_NEG,
  HOP_ABS,
  HOP_MIN,
  HOP_MAX,
  HOP_ADD2,
  HOP_SUB2,
  HOP_MUL2,
  HOP_FMA2,
  HOP_NEG2,
  HOP_F2H2,
  HOP_FLOATS2H2,
  HOP_HALVES2H2,
  HOP_LOW,
  HOP_HIGH,
  HOP_LOWF,
  HOP_HIGHF,
  HOP_H22F2,
  HOP_EQ,
  HOP_LT,
  HOP_GT,
  HOP_LE,
  HOP_GE,
  HOP_NE,
  HOP_SQRT,
  HOP_EXP,
  HOP_LOG,
  HOP_RCP,
  HOP_I2H,
  HOP_H2I,
  HOP_COUNT
} HalfOp;

/* BI_CG calls (Node.ival). A method call g.f(...) keeps the group in args and the operation
 * it is in lhs (a __syncthreads, a shuffle of width N, the thread's rank...), which is what
 * runs and what analyses see; reduce combines a tile's values with Node.op (ND_ADD, ND_LT for
 * less (min), ND_GT for greater (max), ND_BITAND, ND_BITOR, ND_BITXOR) */
typedef enum { CG_THIS_BLOCK, CG_TILED, CG_METHOD, CG_REDUCE, CG_SYNC, CG_CALL, CG_GRID_SYNC } CgOp;
/* CG_CALL: a free function making a group (coalesced_threads(), binary_partition(g, p),
 * labeled_partition(g, l)): args as written, lhs what runs (the new group's lane mask);
 * CG_GRID_SYNC: what grid.sync() and sync(grid) lower to, a barrier across the grid's blocks */

/* math functions (mathfns.def): one entry per name (sqrtf, sqrt, __fsqrt_rn, ...) */
enum {
#define M(name, ret, t1, t2, t3, expr) MATH_##name,
#include "mathfns.def"
#undef M
  MATH_COUNT
};
typedef struct MathFn {
  const char *name;
  int id;
  char ret;
  const char *args;
} MathFn;
const MathFn *find_math(const char *name, int len);

struct Node {
  NodeKind kind;
  Node *next; /* next statement / argument / init element */
  Type *ty;
  Token *tok;     /* representative token, for locations */
  Token *end_tok; /* last token, for source ranges */

  Node *lhs, *rhs; /* operands; ND_ASSIGN_OP: lhs op= rhs with `op` */
  NodeKind op;
  bool implicit; /* ND_CAST inserted by the type checker (not printed) */
  bool arrow;    /* ND_MEMBER via -> */
  bool contract; /* float ADD/SUB whose operand is a MUL that nvcc fuses into an FMA */

  /* control flow */
  Node *cond, *then, *els, *init, *inc, *body;
  Node *cases; /* ND_SWITCH: its ND_CASE nodes in order */
  Node *case_next;
  int case_next_depth; /* ND_SWITCH: block depth where its case labels must be */
  bool is_default;
  int64_t case_val;
  int unroll;    /* #pragma unroll N before a loop: N, -1 for bare "unroll", 0 none */
  Token *pragma; /* ND_PRAGMA, or pragma attached to a loop */

  /* ND_BLOCK */
  Node *stmts;
  /* ND_DECL */
  Obj *var;        /* ND_VAR, ND_DECL */
  Node *decl_init; /* initializer expression or ND_INIT_LIST */
  /* ND_MEMBER */
  Member *member;
  /* ND_SPECIAL */
  SpecialReg sreg;
  int dim;
  /* ND_CALL */
  Obj *fn; /* user function */
  Builtin builtin;
  const MathFn *math;
  Node *args;
  int nargs;
  Type *cast_ty; /* ND_CAST target as written; ND_SIZEOF(type) */
  /* ND_NUM */
  int64_t ival;
  double fval;
  /* ND_INIT_LIST */
  Node *elems;
  int id; /* unique per program, for analysis tables */
  /* C++: `implicit` also marks an ND_ADDR/ND_DEREF that a reference makes (not printed) and a
   * builtin call the type checker inserted (__half conversions, half operators: printed as
   * its argument, or as the operator at tok) */
};

typedef enum {
  SC_LOCAL,
  SC_PARAM,
  SC_SHARED,
  SC_EXTERN_SHARED,
  SC_CONSTANT,
  SC_DEVICE_GLOBAL,
  SC_FUNC,
  SC_STATIC_LOCAL,
  /* host programs: a file-scope variable of host code (Program.host_globals) */
  SC_HOST_GLOBAL
} StorageClass;

struct Obj {
  Obj *next;
  char *name;
  Token *tok;
  Token *def_start; /* a function definition's first token (its declaration specifiers) */
  Type *ty;
  StorageClass sc;
  bool is_const_decl, is_static, is_extern, is_volatile;
  bool host_const; /* file-scope `const T x = init;` of host code that device code may read */
  bool in_memory;  /* lives in (thread-local) memory, not a register slot: arrays, structs, &x */
  int slot;        /* register slot within its function frame */
  int offset;      /* byte offset: local frame, shared area or constant/global area */
  int align;       /* alignment declared (__align__, _Alignas, alignas); 0: the type's own */
  Node *init;      /* initializer of a global/__constant__ */
  /* functions */
  bool is_kernel, is_device, is_host, is_inline, is_forceinline, is_definition;
  int launch_bounds[2];
  Obj *params; /* linked by next */
  Node *body;
  int nslots;      /* register slots used by the frame */
  int frame_size;  /* bytes of thread-local memory used by the frame */
  int shared_size; /* static __shared__ bytes declared inside */
  Obj *locals;     /* every local, in declaration order (linked by next_local) */
  Obj *next_local;
  bool uses_barrier;   /* calls __syncthreads directly or through a device function */
  bool uses_grid_sync; /* a grid-wide sync (grid_group::sync), directly or through a call */
  bool has_extern_shared;
  /* C++ */
  bool is_constexpr;
  Token *tmpl_head; /* a template instance: the primary's `template` token (printed as an
                        * explicit specialization `template<> ... name<ARGS>(...)`) */
  const char
    *member;       /* a member function of a class template's instance: its own name ("getPointer",
                        * "operator float *"); the object's address is the first argument (docs/cxx.md) */
  bool class_temp; /* the hidden local of a temporary `Name<args>()` (printed as written) */
  const char
    *lib_name; /* a function of carve's device library, or a lambda: the name its calls print */
  Obj **captures;
  int ncaptures; /* a lambda: the locals it captures by reference, its first arguments */
  /* host programs */
  bool is_host_lib; /* declared by the host prelude: carve's host runtime implements it */
  const char *
    unread; /* a definition that did not parse: "FILE:LINE:COL: its error" (a call's fault names it) */
  int host_lib; /* the runtime's index for it + 1, 0 until the first call resolves it */
};

/* a top-level item in source order, for printing */
typedef enum {
  TOP_FUNC,
  TOP_VAR,
  TOP_TYPEDEF,
  TOP_STRUCT,
  TOP_ENUM,
  TOP_PRAGMA,
  /* C++: tokens printed as written, [tok, end) and a ';' (a template's declaration,
                * `using namespace`, namespace aliases) */
  TOP_RAW
} TopKind;
typedef struct TopItem {
  struct TopItem *next;
  TopKind kind;
  Obj *obj;         /* TOP_FUNC, TOP_VAR */
  Type *ty;         /* TOP_TYPEDEF (aliased type), TOP_STRUCT, TOP_ENUM */
  const char *name; /* TOP_TYPEDEF name */
  Token *tok;       /* TOP_PRAGMA, and the enum's source tokens for printing */
  Token *end;
  /* C++ */
  const char *ns; /* the namespace it was declared in ("a::b"), NULL at file scope */
} TopItem;

typedef struct Program Program;
/* ---------------- launch specifications (spec.c) ---------------- */
typedef enum {
  INIT_ZEROS,
  INIT_FILL,
  INIT_IOTA,
  INIT_RANDOM,
  INIT_FILE,
  /* host programs: the bytes a host program's buffer held at a recorded launch (ArgSpec.bytes) */
  INIT_BYTES
} InitKind;

typedef struct ArgSpec {
  struct ArgSpec *next;
  char *name;
  Token *tok; /* where it was given (pragma or command line) */
  bool is_buffer;
  CValue scalar; /* scalar argument */
  Type *elem_ty; /* buffer element type */
  int64_t count; /* buffer elements */
  InitKind init;
  double a, b; /* fill value / iota start, step / random lo, hi */
  bool has_range;
  uint64_t seed;
  char *path; /* INIT_FILE, resolved */
  bool out;
  /* host programs */
  const unsigned char *bytes; /* INIT_BYTES: count x elem size bytes */
  char *alias; /* `alias(P, OFF)`: the buffer of the earlier parameter P, OFF bytes in */
  int64_t alias_off;
} ArgSpec;

typedef struct LaunchSpec {
  struct LaunchSpec *next;
  char *kernel;
  Token *tok;
  int64_t grid[3], block[3];
  int64_t dyn_shared;
  bool has_grid, has_block;
  ArgSpec *args;
  double rel_tol, abs_tol;
  /* `#pragma carve work flops(E) bytes(E)`: declared work, for GFLOP/s and GB/s */
  double flops, bytes;
  /* `#pragma carve baseline NAME(ARGS)`: a library doing the same job, timed beside the kernel */
  const char *baseline;
  int64_t baseline_args[3];
  int n_baseline_args;
} LaunchSpec;

/* parse every `#pragma carve` of the program into p->specs; diagnostics on error */
void build_specs(Program *p, const char *file_dir);
LaunchSpec *find_spec(Program *p, const char *kernel);
void first_launches(Program *p, Obj **kernels, int n, Node **out);
/* one argument setting "NAME = EXPR" or "NAME = TYPE[COUNT] : INIT [out]", from a flag; the
 * program's macros and type names apply. NULL after a diagnostic. */
ArgSpec *parse_arg_setting(Program *p, const char *text, const char *file_dir);
/* "X[,Y[,Z]]" with constant expressions (the program's macros apply; p may be NULL), given by
 * the flag `flag` ("--grid"): an error reads "carve: error: --grid 0: dimension x is 0; ...". */
bool parse_flag_dims(Program *p, const char *flag, const char *text, int64_t d[3]);
Type *spec_typename(Token **rest, Token *tok);  /* parse.c: a type name at file scope */
Type *spec_base_type(Token **rest, Token *tok); /* parse.c: a type name without array dimensions */
Token *pp_expand(const char *origin,
                 const char *text); /* preprocess.c: tokens of text, macro-expanded */
/* the parser's file scope (typedefs, struct tags) outlives a load inside its Program */
void *parse_state_save(void);
void parse_state_restore(const void *saved); /* NULL: an empty file scope */

struct Program {
  TopItem *items;
  Obj *funcs;   /* every function definition and declaration, linked by next */
  Obj *globals; /* __constant__ and __device__ variables */
  int constant_size, device_global_size;
  int shared_size; /* static __shared__ bytes, all functions */
  LaunchSpec *specs;
  int errors;          /* front-end errors (diagnostics were printed) */
  int skipped_kernels; /* kernels not loaded because of unsupported constructs */
  int nodes;           /* node ids 0..nodes-1, issued by program_finish in walk order */
  int generation;      /* bumped by every program_finish: facts of older generations are stale */
  /* ownership (load.c): everything a program holds lives in its arena; a clone shares the
   * tokens and types of its origin, which must outlive it (program_free checks) */
  Arena *arena;
  Program *origin;
  int nclones;                        /* live clones of this program */
  const void *pp_state, *parse_state; /* macros and file scope, for settings given later */
  const char *path;                   /* the file it was read from */
  /* host programs */
  Obj *host_globals; /* file-scope variables of host code (SC_HOST_GLOBAL), by .next */
  int host_global_size;
  struct HostSkip *host_skipped; /* host functions that did not parse (kept quiet at load) */
};
/* a host function the parser could not read: its name and first error, reported when the
 * host program is run */
typedef struct HostSkip {
  struct HostSkip *next;
  char *name;
  SrcLoc loc;
  char *msg;
} HostSkip;
/* the host function `name` (NULL: main) defined in p, or NULL */
Obj *find_host_function(Program *p, const char *name);
/* the first function reachable from f by calls that was defined but whose body carve could not
 * read (its first error in the HostSkip), *caller the function calling it; NULL if none */
HostSkip *host_unread_callee(Program *p, Obj *f, Obj **caller);

Program *parse(Token *tok);
Obj *find_kernel(Program *p, const char *name);
/* the value of an integer constant expression already typed (numbers, sizeof, const-declared
 * variables, arithmetic on them); false when it is not one (or divides by zero) */
bool node_int_constant(Node *n, int64_t *v); /* NULL: the only kernel if name NULL */
/* static __shared__ bytes a kernel uses: its own and those of the device functions it calls */
int kernel_static_shared(Obj *kernel);
Node *new_node(NodeKind kind, Token *tok);

/* print.c: the program (or one function) as CUDA source */
void print_program(Buf *out, Program *p);
/* print_program_with's flags: leave out `#pragma carve` lines, the #include lines builtins need */
enum { PRINT_NO_PRAGMAS = 1, PRINT_NO_INCLUDES = 2 };
void print_program_with(Buf *out, Program *p, unsigned flags);
void print_headers(Buf *out, Program *const *progs,
                   int n); /* just those #include lines, for n programs */
void print_function(Buf *out, Obj *fn);
void print_expr(Buf *out, Node *n);
/* the same with some nodes printed as other text: sub(n) returns the text for n (NULL: print n
 * as it is); passes that write a kernel as source use it to place the original's expressions */
typedef const char *PrintSubstFn(Node *n, void *ctx);
void print_expr_with(Buf *out, Node *n, PrintSubstFn *sub, void *ctx);
/* the statements of a list, each on its own lines at indent level `level` */
void print_stmts_with(Buf *out, Node *list, int level, PrintSubstFn *sub, void *ctx);
void print_function_with(Buf *out, Obj *fn, PrintSubstFn *sub, void *ctx);
void print_type_decl(Buf *out, Type *ty, const char *name);

/* ---------------- walk.c: the one traversal ---------------- */
/* The fields of a node that own nodes, each the head of a list linked by `next` (lhs, rhs,
 * cond, then, els, init, inc, body, stmts, args, decl_init, elems). `cases`/`case_next` are
 * references into the body, not children. Returns how many slots were written. */
enum { NODE_MAX_KIDS = 12 };
int node_kids(Node *n, Node **kids[NODE_MAX_KIDS]);
/* Visit every node of the list at n and everything below it, pre-order, with an explicit
 * stack (no recursion: nesting depth is bounded by memory, not the C stack). pre returns
 * false to skip a node's children. post (may be NULL) runs after a node's children. */
typedef bool WalkFn(Node *n, void *ctx);
void walk(Node *n, WalkFn *pre, WalkFn *post, void *ctx);
/* the same from one node: its subtree only, not the rest of the list it heads */
void walk_one(Node *n, WalkFn *pre, WalkFn *post, void *ctx);
/* every node of every function body and global initializer of p */
void walk_program(Program *p, WalkFn *pre, WalkFn *post, void *ctx);
/* A deep copy of the list at n in the current arena; variables declared inside are copied
 * (fresh Objs, remapped by every use), case lists rebuilt; ids are -1 until program_finish. */
Node *clone_nodes(Node *n);
Node *clone_node(Node *n); /* the same for n alone, without the siblings after it */

/* ---------------- layout.c ---------------- */
/* Derive everything that depends on the final AST: node ids, each function's locals, register
 * slots, what lives in memory (arrays, structs, address taken), frames, the static shared area,
 * barrier use through calls, extern shared use. Called at the end of parsing and after every
 * rewrite; bumps p->generation. */
void program_finish(Program *p);

/* ---------------- load.c: programs as values ---------------- */
/* The whole front end as a protected call: read, preprocess, parse, finish, launch specs.
 * NULL when the file cannot be read or an error unwound the load; diagnostics go to diag_out.
 * p->errors counts errors of declarations that were dropped while the rest loaded. */
Program *load_program(const char *path, const PPOptions *opt);
Program *load_program_text(const char *name, const char *text, const PPOptions *opt);
/* a deep copy of p, in an arena of its own, finished: functions, bodies, locals, globals and
 * top-level items; shares p's tokens, types and launch specs. NULL if it could not be made. */
Program *program_clone(Program *p);
/* the integer value of an object-like macro of p's source (after -D) */
bool program_macro_value(Program *p, const char *name, int64_t *val);
/* free p and its arena; p must have no live clones */
void program_free(Program *p);
/* make p's arena, macros and file scope current for work on p (rewrites, settings given as
 * flags); returns what to pass to program_leave */
typedef struct {
  Arena *arena;
} ProgramScope;
ProgramScope program_enter(Program *p);
void program_leave(ProgramScope s);

/* ---------------- C++ (docs/cxx.md) ---------------- */
/* at `name<ARGS>` while parsing (a host launch `k<256, float><<<...>>>`): the instance of the
 * function template `name` (made on first use; *rest gets the token after '>'), NULL when name
 * is not a template; errors are raised (error_tok). find_kernel also makes one after a load
 * when asked for "k<ARGS>". */
Obj *template_instance_at(Token **rest, Token *name);
#endif
