/* analysis: what every global/shared access, branch and launch costs, measured on interpreter
 * traces of sampled blocks and described symbolically where the index is affine.
 *   affine.c   index expressions as polynomials over threadIdx, blockIdx, loop variables, params
 *   analyze.c  trace collection (sectors, wavefronts, divergence, reuse), findings, reports */
#ifndef CARVE_ANALYSIS_H
#define CARVE_ANALYSIS_H
#include "../interp/interp.h"
#include "../arch/arch.h"

/* ---- affine.c ---- */
/* the index of an access as text ("32*threadIdx.y + threadIdx.x + 512*blockIdx.y + ..."), or
 * NULL when it is not a polynomial of those symbols (it depends on loaded data or calls) */
char *affine_text(Node *index, Obj *fn);
/* the element stride between lanes whose threadIdx.x differ by one, when it is a constant */
bool affine_x_stride(Node *index, Obj *fn, int64_t *stride);
/* the element stride between consecutive blockIdx.x, blockDim.* taken from the launch, when it is a
 * constant (0: the index does not depend on blockIdx.x) */
bool affine_block_stride(Node *index, Obj *fn, const int64_t block[3], int64_t *stride);
/* the same stride as text when it is a polynomial ("w", "2*n"); NULL otherwise */
char *affine_x_stride_text(Node *index, Obj *fn);
/* does the expression read memory (an indirect index)? */
bool reads_memory(Node *e, Obj *fn);
/* may the expression differ between the threads of a block? */
bool thread_dependent(Node *e, Obj *fn);

/* ---- analyze.c ---- */
typedef struct AccessStat {
  Node *node;
  int space;             /* SPACE_GLOBAL / SPACE_SHARED / ... */
  AccessKind kind;
  int size;              /* bytes per lane */
  const char *array;     /* the array or pointer expression */
  char *index;           /* affine form, or NULL */
  bool indirect;
  bool have_stride; int64_t stride;
  uint64_t requests;     /* warp instructions */
  uint64_t sectors;      /* global: 32-byte sectors, summed over requests */
  uint64_t wavefronts;   /* shared: wavefronts, summed */
  uint64_t ideal;        /* shared: wavefronts with no conflict (phases with active lanes) */
  uint64_t lanes;        /* active lanes, summed */
  uint64_t used;         /* distinct bytes the lanes use, summed over requests */
  uint64_t moved;        /* global: bytes the transactions move, summed */
  uint64_t ideal_sectors;/* global: sectors those bytes need at best, summed */
  uint64_t lines;        /* global (sm_90): 128-byte lines per request, summed: L1 tag wavefronts */
  char *stride_text;     /* the stride between x-neighbours when it is symbolic ("w") */
  uint64_t min_units, max_units; /* per request, over all requests: sectors or wavefronts */
  uint64_t distinct;     /* per-block distinct elements, summed over blocks (reuse) */
  uint64_t part[16];     /* paper machines: requests per memory partition, first wave of blocks */
  uint64_t blocks;
} AccessStat;

typedef struct BranchStat {
  Node *node;
  uint64_t evals, divergent, active, taken;
  bool thread_dependent;
} BranchStat;

typedef struct Analysis {
  Launch *L;
  const Machine *m;
  AccessStat *acc; int nacc;
  BranchStat *br; int nbr;
  int64_t blocks_total;
  uint64_t blocks_run, lane_ops, warp_steps;
  bool sampled;
  double threads_run;        /* threads whose warps ran (for scaling counts to the grid) */
  double warp_sectors;       /* global sectors each warp loads at least once, summed over warps (L1 misses) */
  uint64_t warps_truncated;   /* warps stopped by the step budget (loops sampled) */
  double atomic_line_requests; /* global atomics: warp-requests on the busiest 128-byte line, over the grid */
  char **unreached; int nunreached;  /* memory accesses in the source no sampled warp reached */
  double seconds;
  int fault;
} Analysis;

typedef struct AnalyzeOptions {
  int max_blocks;        /* blocks to run (default 8: first, last, evenly spread) */
  uint64_t budget;       /* warp-steps in all (default 2e6); each warp gets its share */
} AnalyzeOptions;

/* 0 ok, 1 the kernel faulted (diagnosed), 2 error */
int analyze(Analysis *a, Launch *L, const Machine *m, const AnalyzeOptions *o);
void analysis_free(Analysis *a);   /* what analyze allocated (the strings live in the arena) */

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF } ReportFormat;
/* print the report; returns the highest finding level (0 none, 1 note, 2 warning, 3 error) */
int report(Analysis *a, const char *file, ReportFormat f, FILE *out);
#endif
