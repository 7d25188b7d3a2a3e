/* search: optimization carving over the optimizer's space (Ryoo, PhD 2008, Ch. 5-6, App. A).
 *   space.c    the space as data: the optimizer's passes and parameters (opt_passes), and the
 *              launch shape (block x/y from allowed values); enumeration; each point built by
 *              optimize() on a relaunched copy of the source; constraints
 *   static.c   static metrics of every variant (NVRTC resources, Ryoo's Efficiency and
 *              Utilization, the estimate), a worker per core (fork), cached by source hash
 *   carve.c    threshold and trade-off carving (Pareto front, tie-keeping or strict; the Hopper
 *              front of Efficiency x Utilization per scheduler x the estimate), the model's
 *              top k, random sampling, Appendix A's expected best without replacement
 *   replay.c   the strategies judged offline from a stored ground truth, Kernel Tuner's score P
 *   results.c  append-only JSON lines (resume after kill -9), merge, Kernel Tuner's T4 export,
 *              the Slurm array file
 *   check.c    verification against the interpreter (the launch shape by sampled threads, the
 *              passes by opt's verify_variant at three sizes), in worker processes, recorded
 *   pool.c     items of work over forked worker processes (static metrics, verification)
 *   time.c     timing many variants per harness process (nvcc builds in parallel) on one or more
 *              GPUs (a worker per GPU, CUDA_VISIBLE_DEVICES); GPU outputs against the interpreter
 *   cli.c      `carve space` and `carve tune`
 * Nothing here edits the optimizer: a new pass or parameter in opt_passes() joins the space. */
#ifndef CARVE_SEARCH_H
#define CARVE_SEARCH_H
#include "../opt/opt.h"
#include "../model/estimate.h"

/* SEARCH_MAX_POINTS: a Variant is about 1 KB; 200,000 of them are 200 MB and, at the static rate
 * measured here (docs/tune.md), hours of metrics: larger spaces are refused with their size */
enum {
  SEARCH_MAX_DIMS = 32,
  SEARCH_MAX_VALUES = 16,
  SEARCH_MAX_SHAPES = 64,
  SEARCH_MAX_POINTS = 200000,
  SEARCH_NARROW_POINTS = 5000,
  SEARCH_MAX_WORKERS = 64
};

/* one axis of the space: a launch dimension, a pass switched on or off, or one parameter of a
 * pass (meaningful only while its pass is on) */
typedef struct SearchDim {
  char name[48]; /* "block.x", "unroll", "unroll.factor" */
  int values[SEARCH_MAX_VALUES];
  int nvalues;
  int pass;   /* index in opt_passes(); -1 for a launch dimension */
  int param;  /* -1: the pass's switch (values 0 off, 1 on) */
  int launch; /* 0 block.x, 1 block.y; -1 for pass axes */
} SearchDim;

typedef enum { VS_PENDING, VS_OK, VS_CONSTRAINT, VS_DUPLICATE } VariantStatus;

typedef struct VariantMetrics {
  bool known;
  int regs, smem, threads, blocks_per_sm, spills;
  double instr, regions, long_regions;                /* per thread */
  double efficiency, utilization, utilization_simple; /* eqs. 5.1, 5.2, 6.1 */
  double est_ms, mem_ms;                              /* the estimate; its slowest memory limit */
  bool mem_bound; /* the estimate's bottleneck is DRAM, L2 or L1 */
  char bottleneck[48];
} VariantMetrics;

typedef struct Variant {
  int choice[SEARCH_MAX_DIMS]; /* index into dims[d].values, -1 where the axis does not apply */
  char key[256]; /* the configuration as text: "block=32x8 unroll=on unroll.factor=4" */
  int shape;     /* index of its launch shape */
  uint64_t hash; /* of the variant's printed source (with its launch) */
  VariantStatus status;
  char why[256]; /* VS_CONSTRAINT: which constraint, and why */
  int dup_of;    /* VS_DUPLICATE: the first variant with the same source */
  VariantMetrics m;
  double metric_s; /* seconds spent computing its static metrics */
} Variant;

typedef struct LaunchShape {
  int64_t block[3];
  char path[512]; /* the relaunched source (a temporary file) */
  Program *p;     /* loaded from path, or NULL */
  int verified;   /* 0 unknown, 1 equal to the original, -1 not (why) */
  char why[256];
} LaunchShape;

typedef struct SearchInput {
  const char *path; /* the user's file */
  PPOptions pp;
  const char *kernel; /* NULL: the only kernel */
  const Machine *m;
  const char **arg_texts;
  int nargs;
  int regs;                /* > 0: registers per thread assumed, no compiler (--regs) */
  const char *only, *skip; /* --passes / --skip: comma lists of optimizer passes (NULL: all) */
  const char *blocks;      /* --blocks: "orig" or "32x8,64x4": the launch shapes kept (NULL: all) */
  /* a host program (a main, no launch spec): the launch it makes is recorded and tuned */
  int launch_no;       /* --launch N: the Nth distinct launch (0: the kernel's first) */
  const char *host_fn; /* --host FUNC (NULL: main) */
  const char **prog_args;
  int nprog_args; /* the program's own arguments (after --) */
  uint64_t max_steps;
  double max_seconds; /* its limits (HostOptions) */
  const char *
    route; /* --route nvcc|interp|auto (NULL: auto): nvcc builds the program with carve's runtime */
} SearchInput;

typedef struct Space {
  SearchInput in;
  const char *kernel; /* resolved */
  Program *orig;
  SearchDim dims[SEARCH_MAX_DIMS];
  int ndims;
  char skipped[16][320]; /* passes not applicable anywhere, and why */
  int nskipped;
  LaunchShape shapes[SEARCH_MAX_SHAPES];
  int nshapes, orig_shape;
  int64_t orig_grid[3], orig_block[3];
  char *grid_expr[3]; /* the launch pragma's grid expressions */
  Variant *v;
  int nv; /* every point enumerated (size before constraints) */
  char tmpdir[256];
  bool host;             /* the launch is a host program's, recorded: orig is the program
                                   with that launch appended as a spec (src_path, in tmpdir) */
  Program *user;         /* host: the program as the user wrote it */
  char src_path[512];    /* the file orig was loaded from */
  char launch_note[512]; /* host: which launch, and why the block shape is fixed */
  char narrowed[640];    /* a space too large, narrowed by default: how, and how to choose */
  uint64_t fingerprint;  /* the original's printed source, sizes, kernel, machine, --regs:
                                   records of another problem are never reused */
  uint64_t launch_id;    /* the --arg settings and a program's recorded buffers (0: none) */
  VerifyCache *vcache;   /* while verify_variants runs: the originals' runs, reused */
} Space;

/* ---- space.c ---- */
/* enumerate the space of in's kernel: 0, or 2 with err (no kernel, no launch spec...) */
int space_build(const SearchInput *in, Space *s, char *err, size_t errlen);
void space_free(Space *s);
/* the variant's program (a plan's result, through optimize()); NULL with why */
typedef struct Built {
  Plan plan;
  Program *base; /* the shape's program the plan started from */
  OptInput oi;
} Built;
/* built by optimize() without verification (check.c verifies the result once); findings: the
 * analyzer's motivation of each pass in the plan (for the source written with -o) */
bool variant_build(Space *s, const Variant *v, bool findings, Built *b, char *why, size_t whylen);
void built_free(Built *b);
/* the variant's CUDA source as carve optimize writes it */
void variant_source(Space *s, Built *b, Buf *out);
uint64_t search_hash(const char *text);
uint64_t search_hash_bytes(const void *data, size_t n); /* FNV-1a, as search_hash */
/* the cache directory: given ("" none), else $CARVE_CACHE_DIR, else ~/.cache/carve/tune */
const char *search_cache_dir(const char *given);
int space_count(const Space *s, VariantStatus st);
/* the launch settings of program p (the --arg settings); false if one does not parse */
bool search_overrides(const Space *s, Program *p, LaunchOverrides *ov);

/* ---- static.c ---- */
typedef struct StaticOptions {
  int workers;             /* processes (0: one per online core) */
  const char *cache_dir;   /* NULL: $CARVE_CACHE_DIR, else ~/.cache/carve/tune; "" none */
  bool progress;           /* a status line on standard error */
  int task, ntasks;        /* a Slurm array: this task computes variants i % ntasks == task */
  struct Results *results; /* records appended as they are computed; known ones reused */
  double deadline;         /* search_now() after which no more are computed (0: none) */
} StaticOptions;
/* compute every pending variant's metrics and constraints, then mark duplicates; the number
 * computed here (not reused from results or the cache) */
int space_metrics(Space *s, const StaticOptions *o);
/* one variant, in this process (what a worker runs) */
void variant_metrics(Space *s, Variant *v);

/* ---- carve.c ---- */
typedef enum { STRAT_CARVING, STRAT_MODEL, STRAT_EXHAUSTIVE, STRAT_RANDOM } Strategy;
/* the trade-off stage: Ryoo's Efficiency x Utilization (eq. 5.2 or 6.1), or the Hopper front:
 * Efficiency x Utilization per scheduler (hopper_utilization) x the estimate, with strict
 * dominance beyond the static metrics' precision (CARVE_EPS) */
typedef enum { FRONT_RYOO, FRONT_HOPPER } CarveFront;
enum { KEPT_FRONT = 1, KEPT_ESTIMATE = 2 }; /* Selection.kept: why a survivor survived */
#define CARVE_EPS 0.01
typedef struct CarveOptions {
  Strategy strategy;
  CarveFront front; /* carving's trade-off stage (FRONT_RYOO: 0, the zero value) */
  bool strict;      /* weak-dominance Pareto front (Ryoo 6.4.2); default tie-keeping (6.2) */
  bool simple_util; /* eq. 6.1 in place of eq. 5.2 */
  double threshold; /* threshold carving: drop memory-bound variants whose memory time
                                   exceeds this times the space's best (0: no threshold stage) */
  double eps;       /* the Hopper front's relative tolerance (CARVE_EPS from the command) */
  int budget;       /* model: k; random: n; 0 default */
  uint64_t seed;    /* random */
} CarveOptions;
typedef struct Selection {
  int *idx;
  int n;                  /* selected variants, ranked (best estimate first) */
  int after_threshold;    /* variants left by the threshold stage */
  int candidates;         /* distinct valid variants the strategy chose from */
  unsigned char *kept;    /* per selected variant (idx order), carving: KEPT_FRONT where it is on
                                   the two-metric front, KEPT_ESTIMATE where the estimate kept it */
  int pruned_by_estimate; /* Hopper front: points of the two-metric front the estimate pruned */
} Selection;
Selection search_select(const Space *s, const CarveOptions *o);
void selection_free(Selection *sel);
/* tie-keeping: drop i when some j is better in both; strict: when some j is no worse in both
 * and better in one. keep[] gets the front of the n points (x, y larger is better) */
void pareto_front(const double *x, const double *y, int n, bool strict, bool *keep);
/* n points of k objectives each (row-major, larger is better): keep[i] unless some j is no worse
 * than i in every objective (within a relative eps) and better than i by more than eps in one */
void pareto_front_eps(const double *obj, int k, int n, double eps, bool *keep);
/* hopper_utilization of a variant's metrics on machine m (the grid from Efficiency: 1/(E x Instr)
 * threads) */
double variant_hopper_util(const VariantMetrics *vm, const Machine *m);
/* Kernel Tuner's normalized score: (random - t) / (random - best) (0: random search's expected
 * best at the same budget, 1: the optimum); 0 where random already finds the optimum */
double score_p(double t, double random_expected, double best);
/* Appendix A: the expected minimum of n values drawn without replacement from t[0..S-1]
 * (any order) */
double expected_min_sample(const double *t, int S, int n);
/* the smallest n whose expected best reaches `fraction` of the best (best/E[min] >= fraction) */
int sample_size_for(const double *t, int S, double fraction);

/* ---- replay.c ---- */
typedef struct ReplayOptions {
  const Machine *m; /* the machine the records were computed for (hopper_utilization) */
  int budget;       /* the model's top k (0: 5) */
  double eps;       /* the Hopper front's tolerance */
  bool json;
} ReplayOptions;
/* carving (the Hopper front, Ryoo's three), the model's top k and random search judged against the
 * ground truth a results file holds, with Kernel Tuner's score P at equal budgets; 0, 2 an error,
 * 3 not a ground truth (a distinct valid variant without a time record) */
int search_replay(const char *path, const ReplayOptions *ro);

/* ---- results.c ---- */
typedef struct TimeRecord {
  uint64_t hash;
  char key[256];
  char status[16]; /* "ok", "wrong", "timeout", "runtime", "compile", "verify" */
  double median_ms, min_ms, max_ms, compile_s, verify_s, run_s;
  double times[64];
  int ntimes;
  char gpu[96];
  char why[256];
} TimeRecord;
typedef struct Results {
  int fd; /* append descriptor, -1 none */
  const char *path;
  char **lines;
  int nlines; /* static and verify records read back (JSON lines) */
  TimeRecord *t;
  int nt;
  uint64_t *ix_key;
  int *ix_line;
  int ix_cap, ix_n;   /* lines by (space, key) and by verified hash */
  int foreign;        /* records of another carve build: read, not used */
  bool any_build;     /* results_open_stored: every record used, whatever build wrote it */
  int nread, written; /* whole records in the file when read; appended since */
  int failed;         /* records that could not be written (the first failure stops writing) */
  int fail_after;     /* tests: the write after this many fails (-1: never) */
  char fail_why[160];
} Results;
typedef struct VerifyRecord {
  bool ok;
  char why[256];
  double verify_s;
} VerifyRecord;
/* open (create) path, read what it holds; false with why */
bool results_open(Results *r, const char *path, char *why, size_t whylen);
void results_close(Results *r);
/* a stored results file read as it is, for --replay: measurements of any carve build used (a
 * replay judges strategies against the times stored, it verifies and times nothing), no lock,
 * nothing written; false with why */
bool results_open_stored(Results *r, const char *path, char *why, size_t whylen);
/* one record, written whole with one write() and fsync'd (O_APPEND: workers may share it) */
bool results_append(Results *r, const char *line);
/* false after a message (exit 2) when a record could not be written: how many, why, what was kept */
bool results_check(const Results *r, const char *cmd);
/* the file read again (workers appended to it), the lock kept */
bool results_reload(Results *r, char *why, size_t whylen);
uint64_t results_build(void);
/* a temporary directory removed if a signal (SIGINT, SIGTERM, SIGHUP) ends the process (cli.c) */
void search_guard_tmpdir(const char *dir);
void search_unguard_tmpdir(const char *dir); /* this carve binary's hash: every record names it */
const TimeRecord *results_time(const Results *r, uint64_t hash);
/* the static record of a variant key in the space with this fingerprint, or NULL */
const char *results_static(const Results *r, uint64_t space, const char *key);
char *variant_record(const Space *s, const Variant *v); /* the static record (JSON line) */
bool variant_from_record(Variant *v, const char *line); /* fill metrics/status back */
char *time_record(const TimeRecord *t);
/* a variant's verification: {"type": "verify", "hash": ..., "key": ..., "ok": ..., "why": ..., "verify_s": ...} */
char *verify_record(const Variant *v, bool ok, const char *why, double secs);
bool results_verify(const Results *r, uint64_t hash, VerifyRecord *out);
bool time_from_record(TimeRecord *t, const char *line);
/* the JSON lines of the inputs, each once (a line kept by its text), to out */
int results_merge(const char **inputs, int n, const char *out, char *why, size_t whylen);
/* Kernel Tuner's T4 results (schema 1.0.0) of every timed and every constrained variant */
bool results_t4(const Space *s, const Results *r, const char *out);
/* an sbatch file: an array of ntasks tasks, each `carve tune ... --task $SLURM_ARRAY_TASK_ID` */
bool emit_slurm(const char *out, int ntasks, int argc, char **argv, const char *results_prefix);

/* ---- pool.c ---- */
typedef struct Pool {
  int workers;                                  /* 0: one per online core */
  char *(*work)(Space *s, int item, void *ctx); /* in a child: item's record (one line) */
  void (*take)(Space *s, int item, const char *line,
               void *ctx);                                      /* in the parent: the record back */
  void (*died)(Space *s, int item, const char *why, void *ctx); /* the child died on item */
  void *ctx;
  double deadline; /* search_now() after which the children are stopped and the
                                   items not answered left so (0: none) */
} Pool;
/* after its last item, a child's one more line (what it reused, say): finish in the child (with
 * one worker, in the process), finished in the parent */
typedef struct PoolEnd {
  char *(*finish)(Space *s, void *ctx);
  void (*finished)(Space *s, const char *line, void *ctx);
} PoolEnd;
/* every item through work (in forked children; inline with one worker), each answer through
 * take or died in the parent, then each child's finish line through finished (a child killed
 * or dead sends none); the number of items answered */
int pool_run(Space *s, const Pool *pl, const int *items, int n);
int pool_run_ended(Space *s, const Pool *pl, const PoolEnd *end, const int *items, int n);
int pool_workers(int requested);
double search_now(void); /* seconds, monotonic */

/* ---- check.c ---- */
/* the launch of the kernel in p with the space's --arg settings (and its grid/block flags) */
int search_prepare(Space *s, Program *p, Launch *L);
/* verify one variant against the original (launch shape and passes); false with why */
bool variant_verify(Space *s, const Variant *v, char *why, size_t whylen);
/* verify the variants idx[0..n) that have no verify record in r, in worker processes, each
 * recorded in r; verdict[k]: 1 verified, -1 rejected (the record says why), 0 not reached
 * before the deadline */
void verify_variants(Space *s, const int *idx, int n, struct Results *r, int workers, bool progress,
                     double deadline, int *verdict);

/* ---- time.c ---- */
typedef struct TimeOptions {
  const char *gpus; /* "0,1" (NULL: device 0, or $CUDA_VISIBLE_DEVICES as it is) */
  int reps, timeout_s;
  double deadline;  /* search_now() after which no batch starts (0: none) */
  const char *arch; /* nvcc -arch */
  bool progress;
  int batch;   /* variants per harness process */
  int workers; /* verification processes (0: one per core) */
  int
    builds; /* nvcc builds at once per GPU worker (0: the host's cores shared out among the GPU workers) */
  const char *cache_dir; /* built harnesses by source hash: NULL the default cache, "" none */
} TimeOptions;
/* verify (interpreter) then time the selected variants not yet in r; 0 ok, 3 no GPU/toolkit */
int time_variants(Space *s, const int *idx, int n, Results *r, const TimeOptions *o);

/* ---- cli.c ---- */
bool search_is_command(const char *name);
const char *search_usage(const char *name);
int search_main(const char *name, int argc, char **argv);
#endif
