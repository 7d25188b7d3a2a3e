/* opt: source-to-source optimization of one kernel, every rewrite verified by execution.
 *   rewrite.c   helpers to build and splice AST (synthetic tokens keep the original's location)
 *   remat.c     expressions re-materialized at another thread or iteration (substitution)
 *   pass_*.c    one pass each: legality on the clone, apply in place, parameters as data
 *   verify.c    the interpreter as oracle: original and variant on the same random inputs
 *   optimize.c  the pass table, the driver (Yang's order) and the plan it returns
 * Passes decide legality; whether a pass pays is the model's call (the estimate before and
 * after), and which parameters to use is the search's. A pass works on a clone made by the
 * driver; the driver calls program_finish after it and verifies before keeping it. */
#ifndef CARVE_OPT_H
#define CARVE_OPT_H
#include "../interp/interp.h"
#include "../arch/arch.h"

/* ---- parameters as data: what a search enumerates ---- */
enum { OPT_MAX_PARAMS = 6, OPT_MAX_VALUES = 8, OPT_MAX_CANDS = OPT_MAX_VALUES * OPT_MAX_VALUES };
typedef struct OptParamDef {
  const char *name; /* "tile", "factor" */
  const char *doc;
  int
    values[OPT_MAX_VALUES]; /* allowed values; the list ends at the first 0 after the first entry */
  int dflt;                 /* the default when no model chooses */
} OptParamDef;

typedef enum { LEGAL, ILLEGAL, NOT_APPLICABLE } Legality;

/* what a rewritten kernel is specialized to (PassCtx.spec, PlanStep.spec): a host program's
 * launch wrapper checks each and runs the original otherwise (emit.c, docs/optimize.md) */
enum {
  OPT_SPEC_GRID = 1, /* the recorded grid (an extent or the grid's shape written into the kernel) */
  OPT_SPEC_ARGS = 2, /* the recorded scalar arguments (a decision taken at their values) */
  OPT_SPEC_NOALIAS = 4, /* pointer arguments that do not alias (__restrict__) */
  OPT_SPEC_REASSOC = 8, /* a floating-point sum reassociated: verified against the bound
                              * |variant - original| <= 2*n*eps*sum|terms| on signed data (verify.c) */
};

/* what a pass is given: the variant (a clone it may change), its kernel, the launch it will run
 * with, the machine, and its parameter values */
typedef struct PassCtx {
  Program *p;
  Obj *k;
  const Launch *L; /* the original's launch (sizes, block shape, buffers) */
  const Machine *m;
  int param[OPT_MAX_PARAMS];
  char why[512];       /* ILLEGAL/NOT_APPLICABLE: why; LEGAL: what it will do */
  char did[512];       /* after apply: what it did, for the plan and the header comment */
  char assumed[256];   /* an assumption the output states (e.g. __restrict__ parameters) */
  bool changes_launch; /* the grid or block changed: new_grid/new_block hold it */
  int64_t new_grid[3], new_block[3];
  int64_t cover[3]; /* changes_launch: threads of the original each new block covers, per dimension;
                              * a host program's output launches carve_grid_K = ceil(g.d * b.d / cover[d])
                              * blocks along each d (emit.c), the reshaped grid's rule for every pass */
  unsigned spec;    /* OPT_SPEC_*: what of the recorded launch the output is right only at */
  bool grid_generic; /* changes_launch: right for any grid whose threads each cover divides */
  int mutation;      /* > 0: deliberately broken variant (the mutation test) */
  Node *site;        /* the access or loop the pass acts on (set by legality) */
  Legality legality; /* what legal() said (set by the driver) */
} PassCtx;

typedef struct Pass {
  const char *name; /* "scalar", "unroll", ... (--passes, --skip, --set NAME.PARAM=V) */
  const char *summary;
  const char *source; /* where the transformation comes from (a paper, a section) */
  OptParamDef params[OPT_MAX_PARAMS];
  int nparams;
  const char *motivation; /* the analyzer's rule (finding category) that motivates it, or NULL */
  bool remaps_blocks;     /* block b of the variant computes another block's outputs */
  bool
    model_chooses; /* the driver tries each value of the first parameter, keeps the estimate's best */
  bool
    new_launch; /* kept, later passes see the launch it made (a new thread dimension), not the original's */
  bool opt_in; /* run only when named in --passes or --set (launch: no measured gain yet) */
  bool
    merges_threads; /* fewer threads do the same work (not kept on a launch that does not fill the GPU) */
  int model_params; /* model_chooses: how many leading parameters it chooses jointly (0: one;
                              * 3: the first two jointly, then the third with them fixed) */
  Legality (*legal)(PassCtx *c); /* looks only; fills why and site */
  bool (*apply)(PassCtx *c);     /* rewrites c->p in place (after legal said LEGAL) */
  int nmutations;                /* broken variants apply() can produce (c->mutation 1..n) */
  const char *mutation_names[8];
} Pass;

const Pass *const *opt_passes(int *n); /* Yang's order */
const Pass *opt_find_pass(const char *name);
bool opt_listed(const char *list, const char *name); /* name in the comma list (NULL: no) */
/* every name in the comma list is a pass; else err says "FLAG: no pass named 'x'" */
bool opt_passes_known(const char *list, const char *flag, char *err, size_t len);

/* ---- verification (verify.c) ---- */
typedef struct VerifySize {
  const char *label; /* "reduced", "signed", "ragged", "full (sampled blocks)" */
  char defines[256]; /* the size macros set for this run ("N=64") */
  bool ran, ok, skipped;
  char detail[512]; /* first difference, fault, or why skipped */
  int64_t compared; /* output elements compared */
} VerifySize;

typedef struct VerifyResult {
  bool ok;
  VerifySize size[5];
  int nsizes;
} VerifyResult;

/* What verifications of many variants of one original can share: the original loaded at the
 * reduced and ragged sizes, and the original's runs (the buffers each leaves), per program (and
 * its generation), size, kernel, --grid/--block/--arg settings, machine and set of blocks run;
 * inputs and outputs start from fixed seeds, so a reused run holds exactly the bytes a fresh one
 * would. At most max_bytes of buffers and loaded programs (0: 256 MiB), the least recently used
 * evicted first. The cache keeps pointers to the originals it was given: free it before them. */
typedef struct VerifyCache VerifyCache;
typedef struct VerifyCacheStats {
  int64_t loads, load_hits; /* sources loaded at a reduced/ragged size; loads reused */
  int64_t runs, run_hits;   /* the original's runs made; runs reused */
  int64_t evictions;
  size_t bytes; /* held now */
} VerifyCacheStats;
VerifyCache *verify_cache_new(size_t max_bytes);
void verify_cache_free(VerifyCache *c);
VerifyCacheStats verify_cache_stats(const VerifyCache *c);

/* The sizes a verification uses: the file, its -D defines and include dirs, the launch flags. */
typedef struct OptInput {
  const char *path; /* the source file (reloaded at other sizes) */
  PPOptions pp;
  const char *kernel;
  const char *grid, *block; /* --grid/--block text (the original's launch), or NULL */
  const char **arg_texts;
  int nargs; /* --arg settings */
  const Machine *m;
  VerifyCache *cache; /* NULL: every verification runs the original afresh */
  /* a launch a host program recorded at other macro values (sizes.c): its scalars and buffers
   * in place of arg_texts (NULL: the texts) */
  const LaunchOverrides *recorded;
} OptInput;

/* A step that reshapes the launch is kept only when the estimate says it saves more than 5%: the
 * model does not rank block shapes of one kernel within a few percent (docs/results.md: Spearman
 * 0.39-0.89 over the launch shapes of cp, mri-q, mm and rd on the H100, 2026-11-24), and on the
 * H100 (2026-11-27) a Jacobi step the launch pass reshaped on a 0.6% estimated gain ran 13%
 * slower. Passes that change the work (tile, vector, reduce) clear it by far when they pay. */
#define OPT_RESHAPE_GAIN 0.05

/* ---- the driver (optimize.c) ---- */
typedef struct PlanStep {
  const Pass *pass;
  int param[OPT_MAX_PARAMS];
  Legality legality;
  int mutation; /* the mutation test: the broken variant applied (0: none) */
  bool applied, verified, rejected;
  bool unprofitable; /* verified, but the estimate says it is slower: not kept */
  bool idle; /* unprofitable because it merges the threads of a launch that does not fill the GPU */
  const Pass
    *shuts_out;   /* unprofitable because it would shut out this later pass, estimated faster */
  double shut_ms; /* that pass's estimate on the kernel as it stood */
  char why[512], did[512], assumed[256];
  VerifyResult verify;
  double est_before_ms, est_after_ms; /* the model's time, -1 unknown */
  char est_bottleneck[2][64];         /* the limit that names each estimate */
  int64_t cover[3]; /* the pass reshaped the launch: original threads per new block */
  int reassoc_line,
    reassoc_col;        /* OPT_SPEC_REASSOC on a loop (the pass's site): its position, whose
                                         * trip count at each verified size is the bound's n (verify.c); 0 none */
  unsigned spec;        /* OPT_SPEC_* of the step (PassCtx.spec, and GRID for a reshape
                                         * that is not grid_generic) */
  char motivation[256]; /* the analyzer's finding behind the pass: "[rule] line N: ..." or "" */
  int ncand;            /* model_chooses: the values tried and their estimates */
  int ncand_params;     /* parameters chosen jointly (1 or 2) */
  int cand_value[OPT_MAX_CANDS];   /* the first parameter's value of each candidate */
  int cand_value2[OPT_MAX_CANDS];  /* the second's, when two are chosen jointly */
  double cand_ms[OPT_MAX_CANDS];   /* -1: not legal or not estimated at that value */
  int ncand3;                      /* model_params 3: the third parameter's values tried */
  int cand_value3[OPT_MAX_VALUES]; /* with the first two fixed at their choice */
  double cand_ms3[OPT_MAX_VALUES];
} PlanStep;

typedef struct OptOptions {
  bool estimate; /* keep a step only if the model says it does not slow the kernel */
  int regs;      /* > 0: registers per thread for the estimate (no NVRTC) */
  const struct Ceilings *ceilings; /* NULL: the machine description's */
  const char *only; /* comma list of passes to run (NULL: all; "": no pass at all, the
                              * program comes back unchanged: carve tune's launch-only variants) */
  const char *skip; /* comma list of passes to skip */
  const char **sets;
  int nsets; /* "PASS.PARAM=V" */
  bool no_verify;
  bool no_findings;  /* skip the analyzer run that names each pass's motivating finding */
  int mutation_pass; /* mutation test: -1 none, else pass index whose apply is broken */
  int mutation;
  /* mutation test of the sizes kept symbolic (sizes.c): 1 prints one macro's constant as its
   * value while claiming the macro symbolic (right only at the recorded size) */
  int sizes_mutation;
  bool sizes; /* a host program's size macros kept by name where verified (sizes.c) */
} OptOptions;

/* the size macros the optimized kernel keeps by name (sizes.c, docs/optimize.md "Sizes kept
 * symbolic"): each verified at other values, the program re-read and its launch re-recorded
 * there; every other integer macro of the kernel stays pinned by `#if` */
enum { OPT_MAX_SIZES = 8 };
typedef struct PlanSizes {
  int n;
  const char *name[OPT_MAX_SIZES];
  int64_t val[OPT_MAX_SIZES];       /* the value optimized at */
  char verified[OPT_MAX_SIZES][96]; /* the other values it was verified at: "69, 199" */
  char note[768];                   /* what was tried: each candidate's outcome */
} PlanSizes;

typedef struct Plan {
  PlanStep steps[16];
  int nsteps;
  Program *result;    /* the final variant (a clone chain of the original); NULL on error */
  Program *chain[16]; /* every kept intermediate, freed by plan_free */
  int nchain;
  char error[512];
  int64_t grid[3], block[3]; /* the launch of the result */
  bool permuted;             /* a kept step permutes blocks (full-size samples cannot be matched) */
  char arg_test[512]; /* the recorded scalar arguments as a C test ("n == 4700 && a == (float)2"),
                              * "" when there are none: what an OPT_SPEC_ARGS output checks */
  PlanSizes sizes;    /* the size macros kept symbolic (n 0: every one pinned) */
} Plan;

/* optimize kernel `in->kernel` of p (loaded from in->path): 0 ok (plan filled, maybe no pass
 * applied), 2 error (plan->error). Nothing is printed. */
int optimize(Program *p, const OptInput *in, const OptOptions *o, Plan *plan);
void plan_free(Plan *plan);

/* verify: run original and variant on the same inputs at the reduced, ragged and full sizes.
 * The original runs with in's --grid/--block; the variant too, unless a kept step reshaped the
 * launch: then with the shape that step wrote into the variant's launch spec (in->cache: the
 * original's side reused, see VerifyCache) */
bool verify_variant(const OptInput *in, Program *orig, Program *variant, const PlanStep *steps,
                    int nsteps, bool remaps_blocks, VerifyResult *r);
/* into in->cache, the original's runs every variant that keeps its launch needs (reduced, ragged,
 * the full size's sampled blocks): worker processes forked afterwards start with them */
void verify_warm(const OptInput *in, Program *orig);
/* apply a list of steps (passes with parameters) to a fresh clone of p; NULL if a pass is not
 * legal there or failed (why) */
Program *opt_apply_steps(Program *p, const Launch *L, const Machine *m, const PlanStep *steps,
                         int nsteps, char *why, size_t whylen);

/* one launch of orig and variant at in's sizes (sizes.c: another value of the size macros, the
 * launch recorded there): the original with in's flags, the variant on vgrid/vblock (NULL: the
 * flags); every block, or sampled blocks when sampled (cover: a reshape's, or NULL) */
/* the user's defines with the macros names[0..n) set to vals (verify.c) */
PPOptions opt_defines_at(const OptInput *in, const char **names, const int64_t *vals, int n);
void verify_launch(const OptInput *in, Program *orig, Program *variant, const int64_t *vgrid,
                   const int64_t *vblock, const int64_t *cover, const PlanStep *steps, int nsteps,
                   bool sampled, VerifySize *vs);

/* ---- size macros kept symbolic (sizes.c) ---- */
/* which integer size macros the optimized kernel of a host program may print by name: each
 * candidate verified at other values (the program re-read with -D NAME=value, its launch of the
 * kernel recorded there, original and variant compared as verify_variant compares them), into
 * plan->sizes; nothing is claimed where anything is not shown (the macro stays pinned) */
void opt_sizes(Program *orig, const OptInput *in, const OptOptions *o, Plan *plan);
/* the kernel fn printed with the macros of s by name where its constants came from them */
void opt_print_sized(Buf *b, Obj *fn, const PlanSizes *s);

/* ---- emitters (emit.c): print the plan's results, compute nothing ---- */
/* a step the plan keeps: applied, and neither rejected by verification nor by the estimate */
bool plan_step_kept(const PlanStep *s);
void opt_emit_source(Buf *b, const Plan *plan, const char *file, const char *kernel);
/* a host program's optimized file: the user's text as it is, with the kernel's definition
 * replaced by the optimized one and, where a kept step reshaped the launch, each <<<...>>> of it
 * rewritten: launches with the verified block shape (block0, over grid0) run the optimized kernel
 * on the reshaped grid, any other shape the original (kept as KERNEL_carve_original). 0, or 2
 * with why (a template, a launch inside a macro, an operand with a side effect, ...); nothing is
 * appended to b then. */
int opt_emit_program(Buf *b, const Plan *plan, Program *orig, const char *file, const char *kernel,
                     const int64_t grid0[3], const int64_t block0[3], const char **arg_texts,
                     int nargs, char *why, size_t len);
/* a program with several kernels: one output, the user's file with every kernel's kept steps
 * written in as opt_emit_program writes one (each kernel's definition replaced, its launches
 * wrapped in carve_fits_K/carve_args_K tests); a kernel with no kept step stays as written, and
 * so does one whose rewrite cannot be written into the file (its why says why, written false).
 * The header holds every kernel's plan comment. 0, or 2 with why when no kernel is the program's. */
typedef struct OptKernelOut {
  const Plan *plan;
  const char *kernel;
  int64_t grid0[3], block0[3]; /* the recorded launch it was optimized for */
  const char **arg_texts;
  int nargs;     /* its --arg settings (the scalars' recorded values) */
  char why[256]; /* out: why its steps could not be written in ("" otherwise) */
  bool written;  /* out: its optimized kernel is in the output */
} OptKernelOut;
/* more == NULL: every edit must be in the file given (a kernel defined in an included source
 * stays as written, its why says so); else the other sources edited come back in *more (their
 * path as read, their text; the array xmalloc'd, the caller frees each text and it) */
typedef struct OptFileOut {
  const char *path; /* as the front end read it */
  const char *rel;  /* its path under the file given's directory (NULL: outside it) */
  Buf text;
} OptFileOut;
int opt_emit_programs(Buf *b, Program *orig, const char *file, OptKernelOut *ks, int nk,
                      OptFileOut **more, int *nmore, char *why, size_t len);
/* emit_launch.c: the launches of k in host code the front end could not read (C++ it skipped),
 * found from tokens: each `K<<<` outside the functions it parsed appended to launch[*n] (at most
 * max) as a launch node holding its name token, and *block_at moved before the file-scope
 * construct of one that comes before it in f. 0, or 2 with why (device code, a qualified name,
 * an operand holding '<', too many) */
int opt_token_launches(Program *orig, Obj *k, SrcFile *f, Node **launch, int *n, int max,
                       const char **block_at, char *why, size_t len);
/* the `K<<<` of kernel k (NULL: of any kernel) outside the functions the front end read (host
 * code it skipped): how many, the first max lines in line[] (line NULL: counted only). carve
 * check says where they are; --route auto takes the nvcc route for a program without main whose
 * launches stand there */
int opt_unread_launches(Program *p, Obj *k, int *line, int max);
/* carve optimize's report of an output: one line naming each kernel and what was kept of it
 * (several kernels); the JSON object (one kernel: its grid, block and plan; several: a "kernels"
 * array of them with "written" and "why"), source NULL when the output went to a file */
/* a kernel-only output whose launch came from flags: that launch, as the kept steps reshaped it
 * (plan->grid, plan->block), appended as its `#pragma carve launch` line, so `carve run OUT`
 * needs only the same --arg flags */
void opt_emit_launch_line(Buf *b, const Plan *plan, const char *kernel, int64_t dyn_shared);
void opt_emit_summary(FILE *out, const OptKernelOut *ks, int n, const char *out_path);
void opt_emit_json(FILE *out, const char *file, const char *arch, const char *out_path,
                   const OptKernelOut *ks, int n, const char *source);
/* no step kept: the user's file as written (macros, comments) under the plan's comment, true;
 * false (nothing appended) when a step was kept */
bool opt_emit_unchanged(Buf *b, const Plan *plan, const char *file, const char *kernel);
/* text: one line a pass, or (explain) every size verified and every estimate; json: an object */
void opt_emit_plan(FILE *out, const Plan *plan, bool json, bool explain);

/* ---- rewrite helpers (rewrite.c) ---- */
Token *rw_tok(Token *anchor, TokenKind kind, const char *text);
Node *rw_num(Token *at, int64_t v);
Node *rw_unum(Token *at, int64_t v); /* unsigned int, as blockDim reads */
Node *rw_var(Token *at, Obj *v);
Node *rw_special(Token *at, SpecialReg r, int dim);
Node *rw_bin(NodeKind k, Node *l, Node *r); /* typed */
Node *rw_unary(NodeKind k, Node *e);        /* typed */
Node *rw_index(Node *base, Node *index);    /* typed base[index] */
Node *rw_assign(Node *l, Node *r);          /* typed */
Node *rw_expr_stmt(Node *e);
Node *rw_block(Token *at, Node *stmts);
Node *rw_if(Node *cond, Node *then, Node *els);
Node *rw_for(Node *init, Node *cond, Node *inc, Node *body);
Node *rw_sync(Token *at); /* __syncthreads(); */
Node *rw_break(Token *at);
/* a new local of fn (name unique in fn and the program), its declaration with init (may be NULL) */
Obj *rw_new_var(Program *p, Obj *fn, const char *hint, Type *ty, StorageClass sc, Token *at);
Node *rw_decl(Obj *v, Node *init);
/* the slot that holds n (a kid field of its parent or the `next` of its predecessor), searched
 * from the list at *root; NULL if n is not there */
Node **rw_slot_of(Node **root, Node *n);
/* the statement list slot and the parent statement of n (the innermost statement containing n) */
Node *rw_parent(Node *root, Node *n);
bool rw_contains(Node *root, Node *n);
/* insert stmt (a list) before the statement at *slot */
void rw_insert_before(Node **slot, Node *stmts);
/* does the subtree read or write memory, call a user function, or synchronize? */
bool rw_has_call(Node *n);
bool rw_has_barrier(Node *n);
bool rw_writes_var(Node *n, Obj *v); /* assigns v anywhere in n */
bool rw_same_expr(Node *a, Node *b); /* structurally equal (ignoring casts' implicit flag) */
Node *rw_strip(Node *n);             /* under the implicit conversions */
bool rw_is_special(Node *n, SpecialReg r, int dim); /* threadIdx/blockIdx/blockDim... along dim */
int rw_global_index_dim(Node *e,
                        int ndims); /* blockIdx.d*blockDim.d + threadIdx.d: d < ndims, else -1 */
/* the kernel's pointer parameters declared __restrict__; c->assumed says so */
void rw_restrict_params(PassCtx *c);
/* two pointer arguments of c->L point into one buffer (why names them): a pass that assumes no
 * aliasing is ILLEGAL there */
bool rw_launch_aliases(const PassCtx *c, char *why, size_t len);
/* the kernel's threads cannot observe each other or the grid's x extent (no barrier, shared
 * memory, warp operation, fence, volatile, device-function call, gridDim.x, or return inside a
 * loop): passes may regroup them along x. why names the first obstacle. */
bool rw_threads_separable(Node *body, bool *reads_tid_x, char *why, size_t len);
bool rw_fn_pure(Obj *fn,
                bool loads_ok); /* a device function: a function of its arguments (and memory) */
Node *rw_assign_op(NodeKind op, Node *l, Node *r); /* typed l op= r */
/* names for a kernel a pass writes as source (rw_replace_kernel): each unused by the kernel's
 * parameters and locals, the program's globals and functions, and the names given before */
enum { RW_MAX_NAMES = 48 };
typedef struct RwNames {
  PassCtx *c;
  const char *given[RW_MAX_NAMES];
  int n;
} RwNames;
const char *rw_fresh(RwNames *nm, const char *want);
Node *rw_cast(Node *e, Type *ty);              /* an explicit (printed) cast */
void rw_pragma_unroll(Node *loop, int factor); /* #pragma unroll (0) or #pragma unroll N */
bool rw_pure(Node *e);                         /* no assignment, increment or call with effects */
/* the slots (kid fields or `next` links) holding threadIdx.x and blockDim.x in the list, and with
 * returns the return statements: xmalloc'd, *n of them */
Node ***rw_x_slots(Node **list, bool returns, int *n);
Node **rw_nth_slot(Node **list, int k);           /* the k-th statement's slot */
Node *rw_fast_loop(Node *loop, int form, int at); /* a guarded loop's copy without its guard */

/* the kernel c->k gets the body of the kernel of that name `text` defines (source a pass wrote,
 * with c->k's parameters, no macros, and only what the language and CUDA declare), parsed in
 * the variant's arena; its parameter references are rebound to c->k's own, its
 * __launch_bounds__ kept. false (why) when the text does not parse (an error is raised when it
 * does not type-check: the driver's protected call catches it). */
bool rw_replace_kernel(PassCtx *c, const char *text, char *why, size_t len);
/* nothing in body stores through param (a store through any other pointer, a user function or
 * an atomic counts as one) */
bool rw_read_only(Node *body, Obj *param);

/* ---- re-materialization (remat.c) ---- */
/* e evaluated with substitutions: each ND_SPECIAL (reg, dim) in `from` replaced by a copy of the
 * matching `to`, each variable in vfrom by a copy of vto; locals with a single pure definition
 * are forward-substituted. NULL (why) if e depends on something else (a memory read, a variable
 * assigned more than once, a call). */
typedef struct Subst {
  int n;
  SpecialReg reg[4];
  int dim[4];
  Node *to[4];
  int nv;
  Obj *vfrom[4];
  Node *vto[4];
} Subst;
Node *remat(Obj *fn, Node *e, const Subst *s, char *why, size_t whylen);
/* the value of a re-materialized integer expression for one thread of launch L (parameters
 * from L's arguments); false if it is not computable (floats, memory, division by zero) */
bool remat_eval(Node *e, const Launch *L, const int64_t tid[3], const int64_t bid[3], int64_t *v);
/* how much e changes when threadIdx/blockIdx (r, dim) grows by one, the same at sampled points */
bool remat_stride(Node *e, const Launch *L, SpecialReg r, int dim, int64_t *stride);
#endif
