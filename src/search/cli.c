/* cli: `carve space` and `carve tune` (main.c only dispatches). Their options are a table read by
 * the one option parser (src/options.c), each command accepting its own; any other is an error
 * naming the command. */
#include "../json.h"
#include "../options.h"
#include "search.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char usage_space[] =
  "usage: carve space FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--arg NAME=VALUE]\n"
  "                   [--arch h100|h200] [--format text|json|csv] [--workers N] [--no-cache] [--regs N]\n"
  "                   [--passes A,B | --skip A,B] [--blocks orig|WxH,...] [--no-metrics]\n"
  "                   [--launch N] [--host FUNC] [--max-steps N] [--max-seconds S] [--route nvcc|interp|auto]\n"
  "                   [-- PROGRAM ARGS]\n"
  "                   (a program's recorded launch)\n"
  "\n"
  "The optimization space of a kernel: every parameter of every applicable optimizer pass (a\n"
  "pass is an axis, on or off, and its parameters axes while it is on), and the launch shape\n"
  "(block.x, and block.y for 2-D blocks), its constraints (threads per block, warp multiples,\n"
  "divisibility of the launched threads, legality of each pass, registers and shared memory\n"
  "from NVRTC), its size before and after them, and the static metrics of every variant: Ryoo's\n"
  "Efficiency (eq. 5.1) and Utilization (eqs. 5.2, 6.1), registers, blocks per SM, the estimate.\n"
  "Static metrics are computed by a worker process per core and cached by source hash\n"
  "($CARVE_CACHE_DIR, default ~/.cache/carve/tune; --no-cache). Without NVRTC or nvcc every\n"
  "variant violates the compile constraint unless --regs N says what registers to assume.\n"
  "--passes A,B keeps only those optimizer passes in the space, --skip A,B leaves those out.\n"
  "--blocks orig keeps only the original's launch shape, --blocks 32x8,64x4 those shapes (and the\n"
  "original's). A space of more than 200000 points for which none of these is given is narrowed\n"
  "by default to at most 5000 (the original's shape, then the parameter axes with the most values\n"
  "held at their defaults), said on stderr and as 'narrowed' in the output.\n"
  "A file with a main and no launch specification: the launch the program makes (run in the\n"
  "interpreter; --launch N the Nth distinct, --kernel K K's first, by default the first), with\n"
  "the buffers as the program filled them; its block shape stays the program's (the host code\n"
  "launches it), the passes are the space. The program runs for at most --max-seconds S of\n"
  "host code (default 60; launches do not count), or exactly --max-steps N steps when given:\n"
  "stopped after a launch, the launches recorded until then are used (said); stopped before any,\n"
  "it runs again built by nvcc where nvcc is installed (--route nvcc: always; interp: never).\n"
  "Its launches of 65536 threads or more run on the native engine, sampled blocks checked.\n"
  "--no-metrics: the axes and the size before constraints only, no variant built (seconds, for\n"
  "sizing a space before computing it).\n"
  "See docs/tune.md.\n"
  "Exit 0, 2 on an error.\n";

static const char usage_tune[] =
  "usage: carve tune FILE.cu [--strategy carving|model|exhaustive|random] [--budget N] [--time SECONDS]\n"
  "                  [--results FILE.jsonl] [--gpus 0,1,...] [--t4 OUT.json] [-o BEST.cu] [--no-bench]\n"
  "                  [--front hopper|ryoo] [--eps X] [--strict] [--simple-util] [--threshold X] [--seed N]\n"
  "                  [--reps N] [--timeout SECONDS]\n"
  "                  [--workers N] [--no-cache] [--regs N] [--progress] [--format text|json]\n"
  "                  [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--arg NAME=VALUE] [--arch h100|h200]\n"
  "                  [--passes A,B | --skip A,B] [--blocks orig|WxH,...]   (the passes and launch shapes of the space)\n"
  "                  [--batch N] [--builds N]   (variants per harness build, default 4-16 from the builders;\n"
  "                  nvcc builds at once per GPU worker, default the cores shared out among the GPUs)\n"
  "                  [--launch N] [--host FUNC] [--max-steps N] [--max-seconds S] [--route nvcc|interp|auto]\n"
  "                  [-- PROGRAM ARGS]   (a host program: its recorded launch, see carve space)\n"
  "       carve tune FILE.cu ... --emit-slurm JOB.sh --tasks N      (an sbatch array of N tasks)\n"
  "       carve tune FILE.cu ... --tasks N --task K --results F     (one task: its share of the static metrics)\n"
  "       carve tune --merge A.jsonl B.jsonl ... -o OUT.jsonl       (join the tasks' results)\n"
  "       carve tune --replay R.jsonl [--budget K] [--eps X] [--arch A] [--format text|json]\n"
  "                  (no GPU: every strategy judged against the ground truth R holds, Kernel Tuner's P)\n"
  "\n"
  "Search the space of 'carve space' for the fastest verified variant. Strategies:\n"
  "  carving     (default) Ryoo's optimization carving: a threshold on memory time (memory-bound\n"
  "              variants slower in memory than --threshold x the best, default 1.25), then the\n"
  "              Pareto front; the survivors are timed. --front hopper (the default): Efficiency x\n"
  "              Utilization per warp scheduler (the grid's tail, barriers, idle schedulers) x the\n"
  "              estimate, a point pruned only when another is no worse in all three and better by\n"
  "              more than --eps (default 0.01) in one; --front ryoo: Efficiency x Utilization\n"
  "              (eq. 5.2, ties kept; --strict: weak dominance; --simple-util: eq. 6.1)\n"
  "  model       the estimate ranks every variant; the top --budget (default 5) are timed\n"
  "  exhaustive  every distinct valid variant is timed: the ground truth\n"
  "  random      --budget (default 10) variants drawn without replacement (--seed)\n"
  "Every variant is verified against the interpreter before its time counts (its launch shape and\n"
  "passes, then its GPU outputs). Many variants are timed per harness process; one that faults\n"
  "or runs past --timeout (default 60 s) costs only itself. --gpus: a worker per GPU\n"
  "(CUDA_VISIBLE_DEVICES). Results are appended to --results as JSON lines; a tune killed at any\n"
  "moment resumes from the file, nothing computed or timed twice. When the file holds the\n"
  "exhaustive ground truth, the summary compares the strategy with it and with random sampling\n"
  "(Ryoo's Appendix A: the expected best of n draws, the n for 90%% and 95%% of the best).\n"
  "--no-bench: no GPU; the survivors are verified and printed ranked by the estimate.\n"
  "Exit 0; 1 no variant verified; 2 an error; 3 no GPU or CUDA toolkit (use --no-bench).\n";

bool search_is_command(const char *name) { return !strcmp(name, "space") || !strcmp(name, "tune"); }
const char *search_usage(const char *name) {
  return !strcmp(name, "space") ? usage_space : !strcmp(name, "tune") ? usage_tune : NULL;
}

typedef struct TuneArgs {
  bool tune;
  const char *file, *kernel, *format, *arch, *results, *gpus, *t4, *out, *emit_slurm, *only, *skip,
    *blocks, *replay;
  bool front_set; /* --front given (else: hopper, or ryoo with --strict / --simple-util) */
  PPOptions pp;
  const char **args;
  int nargs;
  const char **merge;
  int nmerge;
  const char **prog_args;
  int nprog_args;
  const char *host_fn, *route;
  int launch_no;
  double max_steps, max_seconds; /* the host program's limits (0: 60 s of wall-clock time) */
  CarveOptions co;
  StaticOptions so;
  TimeOptions to;
  bool no_bench, no_cache, progress, no_metrics;
  int tasks, task, regs;
  double time_s, deadline;
} TuneArgs;

static bool number(const char *v, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double x = strtod(v, &end);
  if (!*v || *end || errno || !(x >= lo && x <= hi)) return false;
  *out = x;
  return true;
}

/* the options of space and tune (src/options.h reads them); T_ after T_SPACE_LAST: tune's only */
enum {
  T_KERNEL,
  T_PASSES,
  T_SKIP,
  T_BLOCKS,
  T_HOST,
  T_ROUTE,
  T_LAUNCH,
  T_MAX_STEPS,
  T_MAX_SECONDS,
  T_DEFINE,
  T_INCLUDE,
  T_ARG,
  T_ARCH,
  T_FORMAT,
  T_WORKERS,
  T_REGS,
  T_NO_CACHE,
  T_PROGRESS,
  T_NO_METRICS, /* space's only */
  T_SPACE_LAST = T_NO_METRICS,
  T_STRATEGY,
  T_BUDGET,
  T_TIME,
  T_RESULTS,
  T_GPUS,
  T_T4,
  T_OUTPUT,
  T_THRESHOLD,
  T_REPLAY,
  T_FRONT,
  T_EPS,
  T_SEED,
  T_REPS,
  T_TIMEOUT,
  T_BUILDS,
  T_BATCH,
  T_EMIT_SLURM,
  T_TASKS,
  T_TASK,
  T_NO_BENCH,
  T_STRICT,
  T_SIMPLE_UTIL,
  T_MERGE
};

static const OptSpec search_options[] = {
  {"--kernel", T_KERNEL, "a name"},
  {"--passes", T_PASSES, "a comma-separated list of passes"},
  {"--skip", T_SKIP, "a comma-separated list of passes"},
  {"--blocks", T_BLOCKS, "orig or WxH,..."},
  {"--host", T_HOST, "a host function's name"},
  {"--route", T_ROUTE, "nvcc, interp or auto"},
  {"--launch", T_LAUNCH, "a launch number (1, 2, ...)"},
  {"--max-steps", T_MAX_STEPS, "a positive number"},
  {"--max-seconds", T_MAX_SECONDS, "a positive number of seconds"},
  {"-D", T_DEFINE, "NAME[=VALUE]"},
  {"-I", T_INCLUDE, "a directory"},
  {"--arg", T_ARG, "NAME=VALUE"},
  {"--arch", T_ARCH, "h100 or h200"},
  {"--format", T_FORMAT, "a format"},
  {"--workers", T_WORKERS, "a whole number"},
  {"--regs", T_REGS, "a register count (1-255)"},
  {"--no-cache", T_NO_CACHE, NULL},
  {"--progress", T_PROGRESS, NULL},
  {"--no-metrics", T_NO_METRICS, NULL},
  {"--strategy", T_STRATEGY, "carving, model, exhaustive or random"},
  {"--budget", T_BUDGET, "a whole number"},
  {"--time", T_TIME, "seconds"},
  {"--results", T_RESULTS, "a file"},
  {"--gpus", T_GPUS, "a list of GPUs"},
  {"--t4", T_T4, "a file"},
  {"-o", T_OUTPUT, "a path"},
  {"--threshold", T_THRESHOLD, "a number"},
  {"--replay", T_REPLAY, "a results file"},
  {"--front", T_FRONT, "hopper or ryoo"},
  {"--eps", T_EPS, "a number from 0 to 1"},
  {"--seed", T_SEED, "a whole number"},
  {"--reps", T_REPS, "a whole number"},
  {"--timeout", T_TIMEOUT, "seconds"},
  {"--builds", T_BUILDS, "a whole number"},
  {"--batch", T_BATCH, "a whole number"},
  {"--emit-slurm", T_EMIT_SLURM, "a file"},
  {"--tasks", T_TASKS, "a whole number"},
  {"--task", T_TASK, "a whole number"},
  {"--no-bench", T_NO_BENCH, NULL},
  {"--strict", T_STRICT, NULL},
  {"--simple-util", T_SIMPLE_UTIL, NULL},
  {"--merge", T_MERGE, NULL},
};

/* the options whose value is a whole number in a range, and where it goes */
static const struct {
  int id;
  double lo, hi;
  size_t at; /* an int of TuneArgs */
} whole[] = {
  {T_LAUNCH, 1, 1e6, offsetof(TuneArgs, launch_no)},
  {T_WORKERS, 1, 64, offsetof(TuneArgs, so.workers)},
  {T_REGS, 1, 255, offsetof(TuneArgs, regs)},
  {T_BUDGET, 1, 1e6, offsetof(TuneArgs, co.budget)},
  {T_REPS, 1, 100000, offsetof(TuneArgs, to.reps)},
  {T_TIMEOUT, 1, 86400, offsetof(TuneArgs, to.timeout_s)},
  {T_BUILDS, 1, 64, offsetof(TuneArgs, to.builds)},
  {T_BATCH, 1, 1024, offsetof(TuneArgs, to.batch)},
  {T_TASKS, 1, 100000, offsetof(TuneArgs, tasks)},
  {T_TASK, 0, 100000, offsetof(TuneArgs, task)},
};

/* the option `id` given with val (NULL for a switch); 0, or 2 after a bad value's diagnostic */
static int option(TuneArgs *a, const char *cmd, const OptSpec *d, const char *val) {
  double x;
  for (size_t i = 0; i < sizeof whole / sizeof *whole; i++) {
    if (whole[i].id != d->id) continue;
    if (!number(val, whole[i].lo, whole[i].hi, &x) || x != floor(x))
      return usage_error(
        cmd, fmt("%s needs a whole number from %g to %g", d->name, whole[i].lo, whole[i].hi));
    *(int *)((char *)a + whole[i].at) = (int)x;
    return 0;
  }
  switch (d->id) {
  case T_KERNEL: a->kernel = val; break;
  case T_PASSES: a->only = val; break;
  case T_SKIP: a->skip = val; break;
  case T_BLOCKS: a->blocks = val; break;
  case T_HOST: a->host_fn = val; break;
  case T_ROUTE:
    if (strcmp(val, "nvcc") && strcmp(val, "interp") && strcmp(val, "auto"))
      return usage_error(cmd, "--route is nvcc, interp or auto");
    a->route = val;
    break;
  case T_MAX_STEPS:
    if (!number(val, 1, 1.8e19, &a->max_steps))
      return usage_error(cmd, "--max-steps needs a positive number");
    break;
  case T_MAX_SECONDS:
    if (!number(val, 1e-3, 1e9, &a->max_seconds))
      return usage_error(cmd, "--max-seconds needs a positive number of seconds");
    break;
  case T_DEFINE: arena_push(&a->pp.defines, &a->pp.n_defines, val); break;
  case T_INCLUDE: arena_push(&a->pp.include_dirs, &a->pp.n_include_dirs, val); break;
  case T_ARG: arena_push(&a->args, &a->nargs, val); break;
  case T_ARCH: a->arch = val; break;
  case T_FORMAT:
    if (strcmp(val, "text") && strcmp(val, "json") && (a->tune || strcmp(val, "csv")))
      return usage_error(cmd, fmt("--format is text, json%s", a->tune ? "" : " or csv"));
    a->format = val;
    break;
  case T_NO_CACHE: a->no_cache = true; break;
  case T_PROGRESS: a->progress = true; break;
  case T_NO_METRICS: a->no_metrics = true; break;
  case T_STRATEGY:
    if (!strcmp(val, "carving")) a->co.strategy = STRAT_CARVING;
    else if (!strcmp(val, "model")) a->co.strategy = STRAT_MODEL;
    else if (!strcmp(val, "exhaustive")) a->co.strategy = STRAT_EXHAUSTIVE;
    else if (!strcmp(val, "random")) a->co.strategy = STRAT_RANDOM;
    else return usage_error(cmd, "--strategy is carving, model, exhaustive or random");
    break;
  case T_TIME:
    if (!number(val, 1e-3, 1e9, &a->time_s)) return usage_error(cmd, "--time needs seconds (> 0)");
    break;
  case T_RESULTS: a->results = val; break;
  case T_GPUS: a->gpus = val; break;
  case T_T4: a->t4 = val; break;
  case T_OUTPUT: a->out = val; break;
  case T_THRESHOLD:
    if (!number(val, 0, 1e9, &a->co.threshold))
      return usage_error(cmd, "--threshold needs a number (0: none)");
    break;
  case T_REPLAY: a->replay = val; break;
  case T_FRONT:
    if (!strcmp(val, "hopper")) a->co.front = FRONT_HOPPER;
    else if (!strcmp(val, "ryoo")) a->co.front = FRONT_RYOO;
    else return usage_error(cmd, "--front is hopper or ryoo");
    a->front_set = true;
    break;
  case T_EPS:
    if (!number(val, 0, 1, &a->co.eps)) return usage_error(cmd, "--eps needs a number from 0 to 1");
    break;
  case T_SEED:
    if (!number(val, 0, 4e18, &x) || x != floor(x))
      return usage_error(cmd, "--seed needs a whole number from 0 to 4e+18");
    a->co.seed = (uint64_t)x;
    break;
  case T_EMIT_SLURM: a->emit_slurm = val; break;
  case T_NO_BENCH: a->no_bench = true; break;
  case T_STRICT: a->co.strict = true; break;
  case T_SIMPLE_UTIL: a->co.simple_util = true; break;
  case T_MERGE: a->nmerge = -1; break; /* the positional arguments are its files */
  }
  return 0;
}

static int parse_args(TuneArgs *a, const char *cmd, int argc, char **argv) {
  const char **pos = NULL;
  int npos = 0;
  uint64_t all = (2ull << T_MERGE) - 1, space_only = 1ull << T_NO_METRICS;
  OptTable t = {cmd, search_options, (int)(sizeof search_options / sizeof *search_options),
                a->tune ? all & ~space_only : (2ull << T_SPACE_LAST) - 1, "-D|-I"};
  for (int i = 0; i < argc; i++) {
    const char *s = argv[i], *val;
    if (!strcmp(s, "--")) { /* the host program's own arguments */
      for (i++; i < argc; i++) arena_push(&a->prog_args, &a->nprog_args, argv[i]);
      break;
    }
    if (s[0] != '-' || !s[1]) {
      arena_push(&pos, &npos, s);
      continue;
    }
    const OptSpec *d;
    int r = opt_read(&t, argc, argv, &i, &d, &val);
    if (r || (r = option(a, cmd, d, val))) return r;
  }
  if (a->nmerge < 0) {
    a->merge = pos;
    a->nmerge = npos;
    if (!npos) return usage_error(cmd, "--merge needs results files");
    if (!a->out) return usage_error(cmd, "--merge needs -o OUT.jsonl");
    return 0;
  }
  if (a->replay) return npos ? usage_error(cmd, "--replay takes a results file, no input file") : 0;
  if (npos != 1) return usage_error(cmd, npos ? "one input file" : "no input file");
  a->file = pos[0];
  if (a->tasks && (a->task >= a->tasks)) return usage_error(cmd, "--task must be below --tasks");
  if (a->emit_slurm && a->tasks < 1) return usage_error(cmd, "--emit-slurm needs --tasks N");
  if (a->tasks > 1 && !a->emit_slurm && !a->results)
    return usage_error(cmd, "--tasks needs --results FILE");
  return 0;
}

/* ---- output ---- */
static double max_metric(const Space *s, int which) {
  double m = 0;
  for (int i = 0; i < s->nv; i++) {
    const VariantMetrics *x = &s->v[i].m;
    if (s->v[i].status != VS_OK) continue;
    double v = which == 0 ? x->efficiency : which == 1 ? x->utilization : x->utilization_simple;
    if (v > m) m = v;
  }
  return m > 0 ? m : 1;
}

static const char *status_name(VariantStatus st) {
  return st == VS_OK           ? "ok"
         : st == VS_CONSTRAINT ? "constraint"
         : st == VS_DUPLICATE  ? "duplicate"
                               : "pending";
}

static void csv_field(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"') putchar('"');
    putchar(*s);
  }
  putchar('"');
}

static void print_axes(const Space *s) {
  printf("%s: kernel %s on %s\n", s->in.path, s->kernel, s->in.m->name);
  printf("axes:\n");
  for (int d = 0; d < s->ndims; d++) {
    printf("  %-22s", s->dims[d].name);
    for (int k = 0; k < s->dims[d].nvalues; k++)
      printf("%s%s", k ? ", " : "",
             s->dims[d].param < 0 && s->dims[d].launch < 0 ? (s->dims[d].values[k] ? "on" : "off")
                                                           : fmt("%d", s->dims[d].values[k]));
    printf("%s\n", s->dims[d].param >= 0 ? "   (while the pass is on)" : "");
  }
  for (int i = 0; i < s->nskipped; i++) printf("  not applicable: %s\n", s->skipped[i]);
  if (s->launch_note[0]) printf("the program's %s\n", s->launch_note);
  if (s->narrowed[0]) printf("narrowed: %s\n", s->narrowed);
}

/* --no-metrics: what is known before any variant is built */
static void print_size_only(const Space *s, const char *format) {
  int con = space_count(s, VS_CONSTRAINT);
  if (!strcmp(format, "json")) {
    printf(
      "{\"file\": %s, \"kernel\": \"%s\", \"arch\": \"%s\", \"size\": %d, \"launch_constrained\": %d, \"shapes\": %d}\n",
      json_quoted(s->in.path), s->kernel, s->in.m->name, s->nv, con, s->nshapes);
    return;
  }
  print_axes(s);
  printf(
    "size: %d point%s; %d violate a launch constraint (decided before building); %d to build\n",
    s->nv, s->nv == 1 ? "" : "s", con, s->nv - con);
}

static void print_space(const Space *s, const char *format) {
  int ok = space_count(s, VS_OK), con = space_count(s, VS_CONSTRAINT),
      dup = space_count(s, VS_DUPLICATE);
  double me = max_metric(s, 0), mu = max_metric(s, 1);
  if (!strcmp(format, "csv")) {
    printf(
      "key,status,why,regs,smem,threads,blocks_per_sm,instr,regions,efficiency,utilization,utilization_simple,est_ms,bottleneck\n");
    for (int i = 0; i < s->nv; i++) {
      const Variant *v = &s->v[i];
      csv_field(v->key);
      printf(",%s,", status_name(v->status));
      csv_field(v->why);
      if (v->m.known)
        printf(",%d,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%s\n", v->m.regs, v->m.smem,
               v->m.threads, v->m.blocks_per_sm, v->m.instr, v->m.regions, v->m.efficiency,
               v->m.utilization, v->m.utilization_simple, v->m.est_ms, v->m.bottleneck);
      else printf(",,,,,,,,,,,\n");
    }
    return;
  }
  if (!strcmp(format, "json")) {
    printf(
      "{\"file\": %s, \"kernel\": \"%s\", \"arch\": \"%s\", \"size\": %d, \"constrained\": %d, \"duplicates\": %d, \"valid\": %d, \"axes\": [",
      json_quoted(s->in.path), s->kernel, s->in.m->name, s->nv, con, dup, ok);
    for (int d = 0; d < s->ndims; d++) {
      printf("%s{\"name\": \"%s\", \"values\": [", d ? ", " : "", s->dims[d].name);
      for (int k = 0; k < s->dims[d].nvalues; k++)
        printf("%s%d", k ? ", " : "", s->dims[d].values[k]);
      printf("]}");
    }
    printf("], \"not_applicable\": [");
    for (int i = 0; i < s->nskipped; i++) printf("%s%s", i ? ", " : "", json_quoted(s->skipped[i]));
    printf("], \"program_launch\": %s, \"narrowed\": %s, \"variants\": [\n",
           s->launch_note[0] ? json_quoted(s->launch_note) : "null",
           s->narrowed[0] ? json_quoted(s->narrowed) : "null");
    for (int i = 0; i < s->nv; i++)
      printf("%s%s", variant_record(s, &s->v[i]), i + 1 < s->nv ? ",\n" : "\n");
    printf("]}\n");
    return;
  }
  print_axes(s);
  printf(
    "size: %d points; %d violate a constraint, %d duplicate another's source; %d distinct valid variants\n",
    s->nv, con, dup, ok);
  printf("%-44s %-10s %5s %6s %5s %10s %9s %9s %10s  %s\n", "variant", "status", "regs", "smem",
         "B/SM", "instr/thr", "eff(rel)", "util(rel)", "est ms", "bottleneck / why");
  for (int i = 0; i < s->nv; i++) {
    const Variant *v = &s->v[i];
    printf("%-44s %-10s ", v->key, status_name(v->status));
    if (v->m.known)
      printf("%5d %6d %5d %10.1f %9.3f %9.3f %10.4f  %s\n", v->m.regs, v->m.smem,
             v->m.blocks_per_sm, v->m.instr, v->m.efficiency / me, v->m.utilization / mu,
             v->m.est_ms, v->status == VS_DUPLICATE ? v->why : v->m.bottleneck);
    else printf("%5s %6s %5s %10s %9s %9s %10s  %s\n", "", "", "", "", "", "", "", v->why);
  }
}

/* ---- tune ---- */
static const char *strategy_name(Strategy s) {
  return s == STRAT_MODEL        ? "model"
         : s == STRAT_EXHAUSTIVE ? "exhaustive"
         : s == STRAT_RANDOM     ? "random"
                                 : "carving";
}

typedef struct Summary {
  int best; /* variant index of the fastest verified timed survivor, -1 */
  double best_ms;
  double sel_eval_s, all_eval_s;
  int timed_ok, timed;
  bool ground_truth; /* every valid variant has an ok time */
  int gt_best;
  double gt_best_ms;
  double rand_same_ms;
  int n90, n95;
} Summary;

static double eval_s(const TimeRecord *t) { return t->compile_s + t->verify_s + t->run_s; }

static void summarize(const Space *s, const Selection *sel, const Results *r, Summary *u) {
  memset(u, 0, sizeof *u);
  u->best = u->gt_best = -1;
  for (int k = 0; k < sel->n; k++) {
    const TimeRecord *t = results_time(r, s->v[sel->idx[k]].hash);
    if (!t) continue;
    u->timed++;
    u->sel_eval_s += eval_s(t);
    if (strcmp(t->status, "ok")) continue;
    u->timed_ok++;
    if (u->best < 0 || t->median_ms < u->best_ms) {
      u->best = sel->idx[k];
      u->best_ms = t->median_ms;
    }
  }
  int nv = 0, nt = 0;
  double *times = xmalloc(sizeof(double) * (size_t)(s->nv + 1));
  for (int i = 0; i < s->nv; i++) {
    if (s->v[i].status != VS_OK) continue;
    nv++;
    const TimeRecord *t = results_time(r, s->v[i].hash);
    if (!t) continue;
    u->all_eval_s += eval_s(t);
    nt++;
  }
  /* the ground truth: every distinct valid variant timed (failures count as timed), in a space
   * whose every point has its static metrics */
  u->ground_truth = nv > 0 && nt == nv && !space_count(s, VS_PENDING);
  if (u->ground_truth) {
    int m = 0;
    for (int i = 0; i < s->nv; i++) {
      if (s->v[i].status != VS_OK) continue;
      const TimeRecord *t = results_time(r, s->v[i].hash);
      if (strcmp(t->status, "ok")) continue;
      times[m++] = t->median_ms;
      if (u->gt_best < 0 || t->median_ms < u->gt_best_ms) {
        u->gt_best = i;
        u->gt_best_ms = t->median_ms;
      }
    }
    if (m) {
      u->rand_same_ms = expected_min_sample(times, m, sel->n);
      u->n90 = sample_size_for(times, m, 0.90);
      u->n95 = sample_size_for(times, m, 0.95);
    }
  }
  free(times);
}

static void print_summary(const Space *s, const TuneArgs *a, const Results *r, const Selection *sel,
                          const Summary *u, const int *verified, bool json) {
  int valid = space_count(s, VS_OK);
  double reduction = valid ? 1.0 - (double)sel->n / valid : 0;
  if (json) {
    printf(
      "{\"file\": %s, \"kernel\": \"%s\", \"strategy\": \"%s\", \"space\": %d, \"constrained\": %d, \"duplicates\": %d, \"valid\": %d, "
      "\"after_threshold\": %d, \"selected\": %d, \"reduction\": %.4f, \"timed\": %d, \"timed_ok\": %d, \"selected_eval_s\": %.3f",
      json_quoted(s->in.path), s->kernel, strategy_name(a->co.strategy), s->nv,
      space_count(s, VS_CONSTRAINT), space_count(s, VS_DUPLICATE), valid, sel->after_threshold,
      sel->n, reduction, u->timed, u->timed_ok, u->sel_eval_s);
    if (s->launch_note[0]) printf(", \"program_launch\": %s", json_quoted(s->launch_note));
    printf(", \"ranked\": [");
    for (int k = 0; k < sel->n; k++) {
      const Variant *v = &s->v[sel->idx[k]];
      printf("%s{\"key\": \"%s\", \"est_ms\": %.6g, \"verified\": %s, \"kept_by\": \"%s\"}",
             k ? ", " : "", v->key, v->m.est_ms,
             verified[k] > 0   ? "true"
             : verified[k] < 0 ? "false"
                               : "null",
             a->co.strategy != STRAT_CARVING
               ? a->co.strategy == STRAT_MODEL ? "estimate" : strategy_name(a->co.strategy)
             : sel->kept[k] == KEPT_ESTIMATE ? "estimate"
                                             : "front");
    }
    printf("]");
    if (u->best >= 0)
      printf(", \"best\": {\"key\": \"%s\", \"median_ms\": %.6f}", s->v[u->best].key, u->best_ms);
    if (u->ground_truth && u->gt_best >= 0)
      printf(
        ", \"ground_truth\": {\"best_key\": \"%s\", \"best_ms\": %.9g, \"all_eval_s\": %.3f, \"time_reduction\": %.4f, \"best_vs_exhaustive\": %.4f, "
        "\"random_same_n_ms\": %.9g, \"random_same_n_vs_best\": %.4f, \"random_n_90\": %d, \"random_n_95\": %d}",
        s->v[u->gt_best].key, u->gt_best_ms, u->all_eval_s,
        u->all_eval_s > 0 ? 1 - u->sel_eval_s / u->all_eval_s : 0,
        u->best >= 0 ? u->gt_best_ms / u->best_ms : 0, u->rand_same_ms,
        u->rand_same_ms > 0 ? u->gt_best_ms / u->rand_same_ms : 0, u->n90, u->n95);
    printf("}\n");
    return;
  }
  printf(
    "%s: kernel %s, strategy %s%s\n", s->in.path, s->kernel, strategy_name(a->co.strategy),
    a->co.strategy != STRAT_CARVING ? ""
    : a->co.front == FRONT_HOPPER
      ? fmt(" (Hopper front: Efficiency x Utilization per scheduler x estimate, eps %g)", a->co.eps)
    : a->co.strict ? " (strict Pareto front)"
                   : " (tie-keeping Pareto front)");
  if (s->launch_note[0]) printf("  the program's %s\n", s->launch_note);
  int pending = space_count(s, VS_PENDING);
  printf(
    "  space: %d points; %d violate a constraint, %d duplicates; %d distinct valid variants%s\n",
    s->nv, space_count(s, VS_CONSTRAINT), space_count(s, VS_DUPLICATE), valid,
    pending ? fmt("; %d without static metrics yet (--time: run again to resume)", pending) : "");
  if (a->co.strategy == STRAT_CARVING)
    printf("  threshold carving left %d; trade-off carving (Pareto front) left %d\n",
           sel->after_threshold, sel->n);
  if (a->co.strategy == STRAT_CARVING && a->co.front == FRONT_HOPPER) {
    int by_est = 0;
    for (int k = 0; k < sel->n; k++) by_est += sel->kept[k] == KEPT_ESTIMATE;
    printf(
      "  the estimate kept %d survivors off the Efficiency x Utilization front and pruned %d points on it\n",
      by_est, sel->pruned_by_estimate);
  }
  printf("  selected %d of %d (%.1f%% of the valid space never timed)\n", sel->n, valid,
         100 * reduction);
  bool kept = a->co.strategy == STRAT_CARVING &&
              a->co.front == FRONT_HOPPER; /* which objective kept each survivor */
  printf("  %-4s %-44s %10s %10s %9s %9s  %s%s\n", "rank", "variant", "est ms", "time ms",
         "eff(rel)", "util(rel)", kept ? "kept by   " : "", "verified");
  double me = max_metric(s, 0), mu = max_metric(s, 1);
  for (int k = 0; k < sel->n; k++) {
    const Variant *v = &s->v[sel->idx[k]];
    const TimeRecord *t = results_time(r, v->hash);
    VerifyRecord vr = {0};
    const char *why = t ? t->why : results_verify(r, v->hash, &vr) ? vr.why : "";
    printf("  %-4d %-44s %10.4f %10s %9.3f %9.3f  %s%s\n", k + 1, v->key, v->m.est_ms,
           t && !strcmp(t->status, "ok") ? fmt("%.4f", t->median_ms)
           : t                           ? t->status
                                         : "",
           v->m.efficiency / me, v->m.utilization / mu,
           !kept                           ? ""
           : sel->kept[k] == KEPT_ESTIMATE ? "estimate  "
                                           : "E x U(H)  ",
           verified[k] > 0   ? "yes"
           : verified[k] < 0 ? fmt("REJECTED%s%s", *why ? ": " : "", why)
                             : "-");
  }
  if (u->timed)
    printf("  timed %d, %d verified on the GPU; evaluation %.1f s\n", u->timed, u->timed_ok,
           u->sel_eval_s);
  if (u->best >= 0) printf("  best: %s, %.4f ms\n", s->v[u->best].key, u->best_ms);
  if (u->ground_truth && u->gt_best >= 0) {
    printf("  against the exhaustive ground truth (%d variants, %.1f s of evaluation):\n", valid,
           u->all_eval_s);
    printf("    best survivor %.1f%% of the best (%s, %.4f ms); evaluation time saved %.1f%%\n",
           u->best >= 0 ? 100 * u->gt_best_ms / u->best_ms : 0, s->v[u->gt_best].key, u->gt_best_ms,
           u->all_eval_s > 0 ? 100 * (1 - u->sel_eval_s / u->all_eval_s) : 0);
    printf(
      "    random sampling of %d: expected best %.4f ms (%.1f%% of the best); %d samples for 90%%, %d for 95%%\n",
      sel->n, u->rand_same_ms, u->rand_same_ms > 0 ? 100 * u->gt_best_ms / u->rand_same_ms : 0,
      u->n90, u->n95);
  }
}

/* a host program's launch: the spec lines that read the recorded buffers (temporary files) are
 * left out of the written source; a reshaped launch is said, since the host code must follow */
static void host_source(const Space *s, const Built *b, Buf *src) {
  Buf out = {0};
  for (char *line = src->s; line && *line;) {
    char *nl = strchr(line, '\n');
    size_t n = nl ? (size_t)(nl - line + 1) : strlen(line);
    bool temp = !strncmp(line, "#pragma carve arg ", 18) && strstr(line, ": file(\"") &&
                strstr(line, ".bin\") out");
    if (!temp) buf_printf(&out, "%.*s", (int)n, line);
    line += n;
  }
  buf_free(src);
  *src = out;
  LaunchSpec *sp = find_spec(s->orig, s->kernel);
  if (sp && (memcmp(sp->grid, b->plan.grid, sizeof sp->grid) ||
             memcmp(sp->block, b->plan.block, sizeof sp->block)))
    fprintf(
      stderr,
      "carve tune: the best variant launches grid(%lld, %lld, %lld) block(%lld, %lld, %lld): the program's launch must change to match\n",
      (long long)b->plan.grid[0], (long long)b->plan.grid[1], (long long)b->plan.grid[2],
      (long long)b->plan.block[0], (long long)b->plan.block[1], (long long)b->plan.block[2]);
}

static bool write_best(Space *s, const Variant *v, const char *out) {
  Built b;
  char why[256];
  if (!variant_build(s, v, true, &b, why, sizeof why)) {
    fprintf(stderr, "carve tune: %s: %s\n", v->key, why);
    return false;
  }
  Buf src = {0};
  variant_source(s, &b, &src);
  if (s->host) host_source(s, &b, &src);
  Buf hdr = {0};
  buf_printf(&hdr, "// carve tune: %s\n", v->key);
  OutFile *o = out_begin(out);
  bool ok = o && out_write(o, hdr.s, hdr.len) && out_write(o, src.s ? src.s : "", src.len) &&
            out_commit_all();
  if (!ok) out_abort_all();
  buf_free(&src);
  buf_free(&hdr);
  built_free(&b);
  return ok;
}

/* --no-bench: the survivors verified (interpreter, worker processes), recorded so a resume skips
 * them */
static void verify_survivors(Space *s, const Selection *sel, Results *r, int *verified,
                             const TuneArgs *a) {
  verify_variants(s, sel->idx, sel->n, r, a->so.workers, a->progress, a->deadline, verified);
}

static int run_tune(TuneArgs *a, Space *s, Results *res) {
  if (a->tasks > 1) {
    fprintf(stderr,
            "carve tune: task %d of %d: static metrics of its share computed; join with --merge\n",
            a->task, a->tasks);
    return 0;
  }
  if (!a->co.threshold && a->co.strategy == STRAT_CARVING) a->co.threshold = 1.25;
  Selection sel = search_select(s, &a->co);
  int *verified = xmalloc(sizeof(int) * (size_t)(sel.n + 1));
  int rc = 0;
  if (a->no_bench) verify_survivors(s, &sel, res, verified, a);
  else {
    a->to.gpus = a->gpus;
    a->to.deadline = a->deadline;
    a->to.progress = a->progress;
    a->to.workers = a->so.workers;
    a->to.cache_dir = a->so.cache_dir;
    rc = time_variants(s, sel.idx, sel.n, res, &a->to);
    /* workers (one per GPU) appended to the file: read it again (the lock kept) */
    if (a->results && res->fd >= 0) {
      char why[256];
      if (!results_reload(res, why, sizeof why)) {
        fprintf(stderr, "carve tune: %s\n", why);
        rc = 2;
      }
    }
    for (int k = 0; k < sel.n; k++) {
      const TimeRecord *t = results_time(res, s->v[sel.idx[k]].hash);
      verified[k] = !t ? 0 : !strcmp(t->status, "ok") ? 1 : -1;
    }
  }
  /* a record that could not be written: an error, not a table that looks whole */
  if (!results_check(res, "tune")) rc = 2;
  Summary u;
  summarize(s, &sel, res, &u);
  if (rc != 3 && rc != 2) print_summary(s, a, res, &sel, &u, verified, !strcmp(a->format, "json"));
  int best = u.best;
  if (a->no_bench)
    for (int k = 0; k < sel.n && best < 0; k++)
      if (verified[k] > 0) best = sel.idx[k];
  if (!rc && best < 0) {
    fprintf(stderr, "carve tune: no variant verified\n");
    rc = 1;
  }
  if (!rc && a->out && !write_best(s, &s->v[best], a->out)) rc = 2;
  if (!rc && a->t4 && !results_t4(s, res, a->t4)) rc = 2;
  free(verified);
  selection_free(&sel);
  return rc;
}

static int search_run(TuneArgs *a, int argc, char **argv) {
  const Machine *m = machine_find(a->arch ? a->arch : "h100");
  const char *cmd = a->tune ? "tune" : "space";
  if (!m) return usage_error(cmd, fmt("unknown --arch '%s' (h100, h200)", a->arch));
  if (a->emit_slurm) {
    /* the same command line without --emit-slurm and --tasks: each task adds its own */
    char **keep = arena_alloc(sizeof(char *) * (size_t)(argc + 1));
    int nk = 0;
    for (int i = 0; i < argc; i++) {
      if (!strcmp(argv[i], "--emit-slurm") || !strcmp(argv[i], "--tasks") ||
          !strcmp(argv[i], "--results")) {
        i++;
        continue;
      }
      if (!strncmp(argv[i], "--emit-slurm=", 13) || !strncmp(argv[i], "--tasks=", 8) ||
          !strncmp(argv[i], "--results=", 10))
        continue;
      keep[nk++] = argv[i];
    }
    const char *prefix = a->results ? a->results : "carve-tune";
    size_t pl = strlen(prefix);
    if (pl > 6 && !strcmp(prefix + pl - 6, ".jsonl")) prefix = arena_strndup(prefix, pl - 6);
    if (!emit_slurm(a->emit_slurm, a->tasks, nk, keep, prefix)) return 2;
    printf("wrote %s: sbatch %s, then carve tune --merge %s.*.jsonl -o %s.jsonl\n", a->emit_slurm,
           a->emit_slurm, prefix, prefix);
    return 0;
  }
  SearchInput in = {.path = a->file,
                    .pp = a->pp,
                    .kernel = a->kernel,
                    .m = m,
                    .arg_texts = a->args,
                    .nargs = a->nargs,
                    .regs = a->regs,
                    .only = a->only,
                    .skip = a->skip,
                    .blocks = a->blocks,
                    .launch_no = a->launch_no,
                    .host_fn = a->host_fn,
                    .route = a->route,
                    .max_steps = (uint64_t)a->max_steps,
                    .max_seconds = a->max_seconds > 0 ? a->max_seconds : 60,
                    .prog_args = a->prog_args,
                    .nprog_args = a->nprog_args};
  Space s;
  char err[512];
  int rc = space_build(&in, &s, err, sizeof err);
  if (rc) {
    fprintf(stderr, "carve %s: %s: %s\n", cmd, a->file, err);
    space_free(&s);
    return rc;
  }
  if (s.narrowed[0]) fprintf(stderr, "carve %s: %s: note: %s\n", cmd, a->file, s.narrowed);
  if (a->no_metrics) {
    print_size_only(&s, a->format);
    space_free(&s);
    return 0;
  }
  Results res;
  if (!results_open(&res, a->results, err, sizeof err)) {
    fprintf(stderr, "carve %s: %s\n", cmd, err);
    space_free(&s);
    return 2;
  }
  a->so.results = &res;
  a->so.cache_dir = a->no_cache ? "" : NULL;
  a->so.progress = a->progress;
  a->so.task = a->task;
  a->so.ntasks = a->tasks;
  a->so.deadline = a->deadline;
  int computed = space_metrics(&s, &a->so);
  if (!results_check(&res, cmd)) {
    results_close(&res);
    space_free(&s);
    return 2;
  }
  if (a->progress)
    fprintf(
      stderr,
      "  static metrics: %d variants computed here (the rest from the results file, or constrained before building)\n",
      computed);
  if (!a->tune) print_space(&s, a->format);
  else rc = run_tune(a, &s, &res);
  results_close(&res);
  space_free(&s);
  return rc;
}

int search_main(const char *name, int argc, char **argv) {
  TuneArgs a;
  memset(&a, 0, sizeof a);
  a.tune = !strcmp(name, "tune");
  a.format = "text";
  a.co.eps = CARVE_EPS;
  a.progress = isatty(2);
  for (int i = 0; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(search_usage(name), stdout);
      return 0;
    }
  int rc = parse_args(&a, name, argc, argv);
  if (rc) return rc;
  if (!a.front_set) a.co.front = a.co.strict || a.co.simple_util ? FRONT_RYOO : FRONT_HOPPER;
  if (a.time_s > 0) a.deadline = search_now() + a.time_s;
  if (a.replay) {
    const Machine *m = machine_find(a.arch ? a.arch : "h100");
    if (!m) return usage_error(name, fmt("unknown --arch '%s' (h100, h200)", a.arch));
    ReplayOptions ro = {m, a.co.budget, a.co.eps, !strcmp(a.format, "json")};
    return search_replay(a.replay, &ro);
  }
  if (a.merge) {
    char why[512];
    rc = results_merge(a.merge, a.nmerge, a.out, why, sizeof why);
    if (rc) fprintf(stderr, "carve tune: %s\n", why);
    return rc;
  }
  return search_run(&a, argc, argv);
}

/* ---- temporary directories removed on SIGINT, SIGTERM and SIGHUP ----
 * The recorded buffers, relaunched sources and harness builds of a space live in a temporary
 * directory that space_free removes; a tune stopped by Ctrl-C or kill must not leave it (it can
 * hold gigabytes of a program's buffers). The handler removes every guarded directory with system
 * calls only (openat, getdents64, unlinkat: nothing that allocates, so it is safe in a handler),
 * in the process that made them (a forked worker just dies), then dies of the signal. */
enum { GUARD_MAX = 8, GUARD_PATH = 4096 };
static char guarded[GUARD_MAX][GUARD_PATH];
static volatile sig_atomic_t guard_pid;

struct carve_dirent64 {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[];
};

/* remove what is inside the directory fd, to `depth` levels, then nothing else */
static void rm_inside(int fd, int depth) {
  char buf[4096];
  for (;;) {
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) return;
    bool removed = false;
    for (long off = 0; off < n;) {
      struct carve_dirent64 *d = (struct carve_dirent64 *)(buf + off);
      off += d->reclen;
      if (!strcmp(d->name, ".") || !strcmp(d->name, "..")) continue;
      if (unlinkat(fd, d->name, 0) == 0) {
        removed = true;
        continue;
      }
      int sub =
        depth > 0 ? openat(fd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
      if (sub >= 0) {
        rm_inside(sub, depth - 1);
        close(sub);
      }
      if (unlinkat(fd, d->name, AT_REMOVEDIR) == 0) removed = true;
    }
    if (removed) lseek(fd, 0, SEEK_SET); /* entries moved under us: read the rest again */
  }
}

static void on_fatal_signal(int sig) {
  if (getpid() == guard_pid)
    for (int i = 0; i < GUARD_MAX; i++) {
      if (!guarded[i][0]) continue;
      int fd = open(guarded[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0) {
        rm_inside(fd, 16);
        close(fd);
      }
      rmdir(guarded[i]);
    }
  signal(sig, SIG_DFL);
  raise(sig);
}

void search_guard_tmpdir(const char *dir) {
  if (!dir || !*dir || strlen(dir) >= GUARD_PATH || getenv("CARVE_KEEP_TMP")) return;
  if (!guard_pid) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; i++) {
      struct sigaction old;
      /* a signal the caller ignores (nohup, a shell's background job) stays ignored */
      if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      sigaction(sigs[i], &sa, NULL);
    }
  }
  guard_pid = getpid();
  for (int i = 0; i < GUARD_MAX; i++)
    if (!guarded[i][0]) {
      snprintf(guarded[i], GUARD_PATH, "%s", dir);
      return;
    }
}

void search_unguard_tmpdir(const char *dir) {
  for (int i = 0; i < GUARD_MAX; i++)
    if (guarded[i][0] && !strcmp(guarded[i], dir)) guarded[i][0] = 0;
}
