/* analysis: what every global/shared access, branch and launch costs, measured on interpreter
 * traces of sampled blocks and described symbolically where the index is affine.
 *   facts.c    a kernel's facts for one program generation: made once, owned by the caller
 *   loops.c    the one walk: loop tree, induction variables, trip counts, writes, accesses,
 *              barriers
 *   affine.c   expressions as polynomials over threadIdx, blockIdx, loop variables, params
 *   analyze.c  trace collection (sectors, wavefronts, divergence, reuse), what ran, findings */
#ifndef CARVE_ANALYSIS_H
#define CARVE_ANALYSIS_H
#include "../interp/interp.h"
#include "../arch/arch.h"

/* ---- facts.c, loops.c, affine.c: what is true of one kernel of one program generation ----
 * A Facts holds, for a kernel and the device functions it calls, everything the analyzer, the
 * model and the optimizer ask of the AST: the loop tree (induction variables, trip counts, what
 * each loop writes), the memory accesses with the affine forms of their indices, the barriers,
 * and the kernel's variables (single definitions, loop variables, taken addresses). It is
 * computed once, by one walk, and owned by the caller: nothing is cached behind its back, so an
 * original and its clone each have their own. It describes the program as of p->generation;
 * after a rewrite, program_finish bumps the generation and the facts are stale: facts_current
 * turns false and every query raises an internal error (carve_throw) until facts_renew.
 * Node ids index its tables: they are valid for the generation the facts were made in only.
 * What the queries return (loops, accesses, Affine values and their symbols' names) points into
 * the facts and the program: valid while both live; free the facts before the program.
 *
 * For an optimizer pass, per loop i of facts_nloops(f):
 *   const Loop *l = facts_loop(f, i);         l->iv, l->trip (-1 unknown), l->step, l->bound
 *   facts_loop_writes(f, i, v)                 how often variable v is written inside (0: never)
 *   facts_loop_invariant(f, i, e)              e has one value in every iteration
 *   for each a = facts_access(f, k) with facts_loop_within(f, a->loop, i): a->index is the
 *   element index as a polynomial over threadIdx/blockIdx/blockDim/gridDim, kernel parameters
 *   and loop variables; affine_var_coefficient(&a->index, l->iv, &c) is its stride in the loop. */
typedef struct Facts Facts;

typedef enum {
  SYM_TID,
  SYM_CTAID,
  SYM_NTID,
  SYM_NCTAID,
  SYM_WARPSIZE, /* threadIdx.d, blockIdx.d, blockDim.d, gridDim.d, warpSize */
  SYM_PARAM,    /* an integer kernel parameter never written */
  SYM_LOOP,     /* a variable stepped by a for-increment: its value in the current iteration */
  SYM_PROGRESS /* such a variable less its start, where the start depends on threadIdx ("(j-j0)") */
} SymKind;
typedef struct Sym {
  SymKind kind;
  int dim;
  Obj *var;
  const char *name;
} Sym; /* name: as printed */
enum { AFFINE_TERMS = 24, AFFINE_DEGREE = 3 };
typedef struct Term {
  int64_t coef;
  int deg;
  Sym sym[AFFINE_DEGREE];
} Term; /* coef * sym[0] * ... */
/* a polynomial with integer coefficients (products of up to three symbols: blockDim.x*blockIdx.x);
 * !ok: not one (it reads memory, divides, calls, or a variable has several definitions) */
typedef struct Affine {
  bool ok;
  int n;
  Term t[AFFINE_TERMS];
} Affine;

typedef struct Loop {
  Node *node;         /* the ND_FOR, ND_WHILE or ND_DO statement */
  Obj *fn;            /* the function holding it (the kernel, or a device function it calls) */
  int parent;         /* the enclosing loop, -1 none (a device function's loops start at -1) */
  int depth;          /* 0: outermost */
  bool has_exit;      /* break, continue or return inside: the trip count is not static */
  bool writes_memory; /* a store, atomic, printf or call of a user function inside */
  int barriers;       /* __syncthreads (any form), and calls of functions that reach one, inside */
  /* variables written inside (condition, increment, body, nested loops) and how many times */
  Obj **assigned;
  int *writes;
  int nassigned, assigned_cap;
  /* a counted loop: for (iv = start; iv CMP bound; iv OP= step) with iv written only by the
   * increment and bound invariant; iv NULL otherwise */
  Obj *iv;
  NodeKind step_op; /* ND_ADD (step < 0 for -= and --), ND_MUL, ND_SHL, ND_SHR, ND_DIV */
  int64_t step;
  NodeKind cmp; /* iv CMP bound, iv on the left: ND_NE, ND_LT, ND_LE, ND_GT, ND_GE */
  Node *bound;
  bool start_known;
  int64_t start; /* the start, when the init gives a constant */
  int64_t trip;  /* iterations per entry, known at compile time; -1 unknown */
} Loop;

/* a write of a named variable: a declaration, an assignment, ++/-- (the target's casts stripped) */
typedef struct VarWrite {
  Node *node;
  Obj *var;
  int loop;         /* innermost loop around it, -1 */
  bool conditional; /* under an if, ?: or switch arm, or the right of && and || */
  int cond_depth;   /* how many of those enclose it: a write at its declaration's depth, in
                          * the declaration's scope, runs whenever the declaration does */
} VarWrite;

/* a memory access: an element a[i] (rows of a multi-dimensional array are part of it), *p, an
 * atomic or __ldg; not the operand of & (its address only) */
typedef struct Access {
  Node *node; /* the node the interpreter reports it at: ND_INDEX, ND_DEREF, ND_CALL */
  Obj *fn;
  int loop;         /* innermost loop around it, -1 */
  bool load, store; /* a[i] += x is both; an atomic is both */
  bool atomic;
  int space;     /* from the declaration: SPACE_GLOBAL (kernel pointer parameters,
                          * __device__), SPACE_SHARED, SPACE_LOCAL (arrays of a thread),
                          * SPACE_CONST; SPACE_NONE when only the run knows (other pointers) */
  Obj *base;     /* the array or pointer variable, NULL when the base is computed */
  Affine index;  /* the element index (a[i][j] of T[..][n]: i*n + j; a[i].x: i, in
                          * structs); !ok for *p */
  bool indirect; /* the index reads memory */
} Access;

typedef struct Barrier {
  Node *node;
  Obj *fn;
  int loop;
} Barrier;

/* the facts of `kernel` in p as p is now; the caller frees them (before p) */
Facts *facts_new(Program *p, Obj *kernel);
void facts_free(Facts *f);
/* p not rewritten since: p->generation is the one the facts were made for */
bool facts_current(const Facts *f);
/* f when current; else f freed and the facts of the same kernel made anew */
Facts *facts_renew(Facts *f);
Program *facts_program(const Facts *f);
Obj *facts_kernel(const Facts *f);
int facts_generation(const Facts *f);
/* the kernel and the device functions it calls (directly or not), in p->funcs order */
int facts_nfunctions(const Facts *f);
Obj *facts_function(const Facts *f, int i);

/* loops: numbered in pre-order (an outer loop before the loops in it), functions in p->funcs
 * order */
int facts_nloops(const Facts *f);
const Loop *facts_loop(const Facts *f, int i);
int facts_loop_index(const Facts *f, const Node *loop_stmt); /* -1: not a loop of these facts */
/* the innermost loop around n, -1 none; a loop statement itself and its init belong to the loop
 * around it (the init runs once per entry) */
int facts_loop_of(const Facts *f, const Node *n);
bool facts_loop_within(const Facts *f, int inner, int outer);  /* inner is outer or nested in it */
int facts_loop_writes(const Facts *f, int loop, const Obj *v); /* times v is written in the loop */
/* e has the same value in every iteration: it reads no variable the loop writes, no memory when
 * the loop stores, and calls nothing but pure builtins (-1, no loop: true) */
bool facts_loop_invariant(const Facts *f, int loop, Node *e);
int facts_nwrites(const Facts *f);
const VarWrite *facts_write(const Facts *f, int i);

int facts_naccesses(const Facts *f);
const Access *facts_access(const Facts *f, int i);
const Access *facts_access_at(const Facts *f, const Node *n); /* NULL: n is not an access */
int facts_nbarriers(const Facts *f);
const Barrier *facts_barrier(const Facts *f, int i);

/* expressions of the kernel (device functions' own variables have no forms) */
Affine facts_affine(const Facts *f, Node *e);
/* ND_INDEX: its element index, flattened; *indirect (may be NULL): some dimension's index reads
 * memory */
Affine facts_index_form(const Facts *f, Node *index, bool *indirect);
bool facts_reads_memory(const Facts *f, Node *e);     /* an indirect index */
bool facts_thread_dependent(const Facts *f, Node *e); /* may differ between threads of a block */

/* affine forms: text in the current arena ("32*threadIdx.y + threadIdx.x"), NULL when !ok */
char *affine_text(const Affine *a);
/* the element stride between lanes whose threadIdx.x differ by one, when it is a constant */
bool affine_x_stride(const Affine *a, int64_t *stride);
/* that stride as text when it is a polynomial ("w", "2*n"); NULL otherwise */
char *affine_x_stride_text(const Affine *a);
/* the stride between consecutive blockIdx.x, blockDim.* from the launch, when it is a constant
 * (0: the index does not depend on blockIdx.x) */
bool affine_block_stride(const Affine *a, const int64_t block[3], int64_t *stride);
/* the coefficient of loop variable v (its value or its progress); false when v appears in a
 * product with another symbol (the stride is known only at run time) */
bool affine_var_coefficient(const Affine *a, const Obj *v, int64_t *coef);

/* ---- depend.c: are a loop's iterations independent at a launch? ----
 * Loop li (`for (i = lo; i < hi; i++)`) of a 1-D launch: no element one iteration of a thread
 * writes is read or written by another iteration of that thread, nor by the statements `beside`
 * (which move out of the loop's order). Decided from the facts' affine forms evaluated at L for
 * every thread (exact) or, past `budget` element visits, evenly spread threads (sampled). false
 * with why when it cannot tell (a form it cannot evaluate) or when a conflict is found
 * (dependent). The bounds are taken over every thread of the grid. */
typedef struct DependResult {
  bool exact;     /* every thread's iterations enumerated */
  bool dependent; /* a conflict was found (why names it) */
  int64_t threads, threads_checked, elements;
  int64_t lo_min, hi_max; /* the loop's start and bound, min and max over threads that iterate */
  int64_t max_trip;
  char why[256];
} DependResult;
bool depend_loop(const Facts *f, int li, const Launch *L, Node *const *beside, int nbeside,
                 uint64_t budget, DependResult *r);
/* the longest thread's trip count of loop li (every thread of a 1-D launch, its start and bound
 * evaluated from their affine forms): true when the count differs between threads (a triangular
 * loop). The model's latency limit follows the longest warp, which the average of a sampled run
 * (the first and last warps of two blocks) does not see. */
bool depend_trip_max(const Facts *f, int li, const Launch *L, int64_t *max_trip);

/* ---- analyze.c ---- */
typedef struct AccessStat {
  Node *node;
  int space; /* SPACE_GLOBAL / SPACE_SHARED / ... */
  AccessKind kind;
  int size;          /* bytes per lane */
  const char *array; /* the array or pointer expression */
  char *index;       /* affine form, or NULL */
  bool indirect;
  bool have_stride;
  int64_t stride;
  uint64_t requests;      /* warp instructions */
  uint64_t sectors;       /* global: 32-byte sectors, summed over requests */
  uint64_t wavefronts;    /* shared: wavefronts, summed */
  uint64_t ideal;         /* shared: wavefronts with no conflict (phases with active lanes) */
  uint64_t lanes;         /* active lanes, summed */
  uint64_t used;          /* distinct bytes the lanes use, summed over requests */
  uint64_t moved;         /* global: bytes the transactions move, summed */
  uint64_t ideal_sectors; /* global: sectors those bytes need at best, summed */
  uint64_t lines;    /* global (sm_90): 128-byte lines per request, summed: L1 tag wavefronts */
  char *stride_text; /* the stride between x-neighbours when it is symbolic ("w") */
  uint64_t min_units, max_units; /* per request, over all requests: sectors or wavefronts */
  uint64_t distinct;             /* per-block distinct elements, summed over blocks (reuse) */
  uint64_t part[16]; /* paper machines: requests per memory partition, first wave of blocks */
  uint64_t blocks;
  /* reuse over one whole block (block 0, every warp; the run above samples warps when the kernel
   * has no barriers, which undercounts reuse across warps): lanes / distinct elements, 0 when
   * this load did not run there */
  double whole_block_reuse;
} AccessStat;

typedef struct BranchStat {
  Node *node;
  uint64_t evals, divergent, active, taken;
  bool thread_dependent;
} BranchStat;

enum { L1_SHARE_BUCKETS = 40 };

typedef struct Analysis {
  Launch *L;
  const Machine *m;
  AccessStat *acc;
  int nacc;
  BranchStat *br;
  int nbr;
  int64_t blocks_total;
  uint64_t blocks_run, lane_ops, warp_steps;
  bool sampled;
  double threads_run; /* threads whose warps ran (for scaling counts to the grid) */
  double
    warp_sectors; /* global sectors each warp loads at least once, summed over warps (L1 misses) */
  /* L1 over whole blocks (analyze.c l1_fold): the sector loads of their warps as one trace on
   * the warps' common step clock; l1_first: each warp's distinct sectors, summed (what
   * warp_sectors counts for these blocks); l1_cold: the block's distinct sectors; l1_reuse[k]:
   * the other loads, by LRU stack distance (at most 2^k bytes loaded in between) */
  double l1_loads, l1_first, l1_cold, l1_reuse[L1_SHARE_BUCKETS];
  uint64_t warps_truncated; /* warps stopped by the step budget (loops sampled) */
  double
    /* global atomics: warp-requests on the busiest 128-byte line, over the grid */
    atomic_line_requests;
  char **unreached;
  int nunreached; /* memory accesses in the source no sampled warp reached */
  double seconds;
  int fault; /* analyze's result: 0 ran, 1 a fault was found, 2 could not run */
  /* exactly what ran: faults and races are checked in these threads only, up to the step cap */
  int warps_per_block;     /* warps in a block of the launch */
  int warps_run_per_block; /* warps run in each sampled block: all when the kernel has barriers,
                              * else the first, a middle and the last (at most 3) */
  uint64_t step_cap;       /* warp-steps each warp may take before it is stopped quietly */
  bool
    complete; /* every warp of every block ran to its end: no fault means none for these inputs */
  int faults; /* faults found and diagnosed (the run stops at the first) */
  Fault fault_rec[RUN_MAX_FAULT_RECORDS];
  int nfault;   /* their records (SARIF results) */
  Facts *facts; /* the kernel's facts (analysis_free frees them) */
} Analysis;

typedef struct AnalyzeOptions {
  int max_blocks;  /* blocks to run (default 8: first, last, evenly spread) */
  uint64_t budget; /* warp-steps in all (default 2e6); each warp gets its share */
} AnalyzeOptions;

/* 0 ok, 1 the kernel faulted (diagnosed), 2 error */
int analyze(Analysis *a, Launch *L, const Machine *m, const AnalyzeOptions *o);
void analysis_free(Analysis *a); /* what analyze allocated (the strings live in the arena) */
#endif
