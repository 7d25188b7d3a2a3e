/* main.h: what carve's command line (main.c and the files split from it) shares, private to
 * them: the options of a command as read (Opts), the command table's entry (Command), and the
 * functions the files call of one another.
 *   main.c       options, the command table, check, print, run, analyze, estimate, bench, arch
 *   main_host.c  host programs: run them (interpreted, or built by nvcc), and the launches they
 *                recorded: selected (--launch, --kernel) and acted on by analyze, estimate, bench
 *                and optimize
 *   main_json.c  the JSON summaries of check and run
 *   main_report.c  report: the HTML page of a kernel's launch, or of each a program made
 *   main_optimize.c  optimize: one kernel, or a host program's kernels written as one program
 *   main_whole.c the whole-program check of optimize's output: original and output run the same
 *                way, what the host observes compared (exit status, verdict lines, copies back) */
#ifndef CARVE_MAIN_H
#define CARVE_MAIN_H
#include "json.h"
#include "front/front.h"
#include "interp/interp.h"
#include "interp/native.h"
#include "interp/host.h"
#include "gpu/gpu.h"
#include "arch/arch.h"
#include "report/report.h"
#include "rt/rt.h"

typedef enum {
  O_DEFINE,
  O_INCLUDE,
  O_KERNEL,
  O_FORMAT,
  O_OUTPUT,
  O_GRID,
  O_BLOCK,
  O_SHARED,
  O_ARG,
  O_OUT,
  O_MAX_STEPS,
  O_MAX_SECONDS,
  O_NO_RACE,
  O_DUMP_INPUTS,
  O_VERIFY,
  O_VERIFY_BLOCKS,
  O_NCU,
  O_FLUSH_L2,
  O_BASELINE,
  O_NO_BASELINE,
  O_EMIT,
  O_REPS,
  O_TIMEOUT,
  O_ARCH,
  O_BLOCKS,
  O_REGS,
  O_FAIL_ON,
  O_CALIBRATION,
  O_RANK,
  O_CAL_OUT,
  O_PASSES,
  O_SKIP,
  O_SET,
  O_EXPLAIN,
  O_NO_VERIFY,
  O_NO_ESTIMATE,
  O_HOST,
  O_LAUNCH, /* host programs */
  O_ENGINE,
  O_CHECK,        /* run: the native engine (src/interp/native.h) */
  O_ROUTE,        /* nvcc builds the host code, or carve interprets it (src/rt) */
  O_WHOLE_SECONDS /* optimize: each run of the whole-program check */
} OptId;

typedef struct Command Command;

typedef struct Opts {
  const Command *cmd;
  const char **files;
  int nfiles;       /* the positional arguments */
  const char *file; /* files[0] */
  const char *kernel, *format, *out_path, *cal_out;
  PPOptions pp;
  LaunchOverrides ov;
  const char **outs;
  int nouts;
  const char **arg_texts;
  int nargs;
  const char *grid, *block;
  uint64_t max_steps;
  double max_seconds; /* a host program's wall-clock limit where only its launches matter */
  bool no_race, rank;
  const char *dump_inputs;
  int blocks, fail_on, regs;
  BenchOptions bench;        /* also --arch and --calibration of analyze and estimate */
  const char *passes, *skip; /* optimize */
  const char **sets;
  int nsets;
  bool explain, no_verify, no_estimate;
  DiagCapture *diags;       /* --format json/sarif: the diagnostics as data (report.h) */
  const char *machine;      /* --arch as given: a machine or an sm_XX name */
  const char *nvcc_ignored; /* nvcc's flags carve has no use for, for one note */
  const char *host_fn;      /* host programs: --host FUNC */
  int launch_no;            /* --launch N (0: not given) */
  const char **prog_args;
  int nprog_args;       /* run: the program's arguments, after "--" */
  NativeOptions native; /* run: --engine, --check */
  const char *route;    /* --route: "nvcc", "interp" or "auto" (the default) */
  bool nvcc_route;      /* decided: the program is built by nvcc with carve's runtime */
  const char **nvcc_words;
  int nnvcc;              /* nvcc's own flags as given, for the nvcc route */
  struct WholeOpt *whole; /* optimize on a host program: each kernel's plan is collected here */
  bool host_stopped;      /* each_recorded: the host program was stopped after its launches */
  double whole_seconds;   /* --whole-seconds: the whole-program check's limit (-1: the default) */
} Opts;

enum { LOAD_FILE = 1, LOAD_SOURCES = 2 };
struct Command {
  const char *name, *usage;
  uint64_t options;       /* bit (1 << OptId) for each option it accepts */
  const char *formats;    /* --format values, "text|json" */
  int min_args, max_args; /* positional arguments (-1: any number) */
  const char *arg_name;   /* what they are */
  int load;               /* 0: nothing loaded; LOAD_FILE: the first argument is a FILE.cu loaded
                              * before run; LOAD_SOURCES: every argument a source of one program */
  int (*run)(Opts *o, Program *p);
};

/* main.c */
const Machine *machine_flag(Opts *o);
bool launch_overrides(Opts *o, Program *p, LaunchOverrides *ov);
char *signature(Obj *k);
bool write_file(const char *path, const void *data, size_t n);
Obj *pick_kernel(Program *p, const char *name, const char *file, const char *cmd);
int calibration_file(const char *cmd, const char *given, const char **path, char **text);
/* a recorded launch handed to a command's one-launch function as flags (--grid, --block, --arg) */
typedef int FlagsFn(Opts *o, Program *p);
typedef struct {
  FlagsFn *fn;
} ViaFlags;
int via_flags(Opts *o, Program *p, const RecordedLaunch *rl, const LaunchOverrides *ov, void *ctx);

int prepare_launch(Opts *o, Program *p, Obj *k, Launch *L);

/* main_report.c */
int cmd_report(Opts *o, Program *p);

/* main_optimize.c */
int cmd_optimize(Opts *o, Program *p);
/* a recorded launch's buffer files, kept until optimize ends (a kernel may be planned again) */
void whole_keep_files(struct WholeOpt *w, const char *dir, const char **files, int n);

/* main_whole.c: the output program `text` (o->file's edited text) run against o->file the same
 * way, each run limited to `limit` s of host code; 0 alike, 1 differs, 2 not checked; why said */
int whole_check(Opts *o, const Buf *text, double limit, char *why, size_t len);
void whole_check_end(void);

/* main_host.c */
typedef int RecordedFn(Opts *o, Program *p, const RecordedLaunch *rl, const LaunchOverrides *ov,
                       void *ctx);
bool has_main(Program *p, const char *fn);
int cmd_run_host(Opts *o, Program *p);
bool use_recorded(Opts *o, Program *p);
int each_recorded(Opts *o, Program *p, RecordedFn *fn, void *ctx);
void recorded_cleanup(void);

/* main_json.c */
void check_kernel_json(Obj *f, LaunchSpec *s, bool first, const int *unread, int n);
void run_summary_json(const Opts *o, Launch *L, int rc, const RunStats *st, const NativeReport *nr);
void host_run_json(const Opts *o, int rc, const HostResult *r);
#endif
