/* carve: the command line. A table of subcommands (at the end): each names its usage text, the
 * options it accepts and its function; one parser reads every command's flags and rejects the
 * options a command does not take. Exit status: 0 ok, 1 a kernel fault was found (or a check
 * failed), 2 usage or input error (or a failed write), 3 no GPU or no CUDA toolkit. */
#include "main.h"
#include "options.h"
#include "usage.h"
#include "front/front.h"
#include "interp/interp.h"
#include "interp/native.h"
#include "gpu/gpu.h"
#include "arch/arch.h"
#include "analysis/analysis.h"
#include "model/model.h"
#include "model/metrics.h"
#include "model/estimate.h"
#include "report/report.h"
#include "opt/opt.h"
#include "search/search.h"
#include "rt/rt.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- options ---- */

typedef OptSpec OptDef; /* src/options.h: the one option parser */

/* one name can mean different things to different commands (--out, --arch): the command's
 * accepted set picks the entry */
static const OptDef options[] = {
  {"-D", O_DEFINE, "NAME[=VALUE]"},
  {"-I", O_INCLUDE, "a directory"},
  {"--kernel", O_KERNEL, "a name"},
  {"--format", O_FORMAT, "a format"},
  {"-o", O_OUTPUT, "a path"},
  {"--grid", O_GRID, "X[,Y[,Z]]"},
  {"--block", O_BLOCK, "X[,Y[,Z]]"},
  {"--shared", O_SHARED, "a byte count"},
  {"--arg", O_ARG, "NAME=VALUE"},
  {"--out", O_OUT, "NAME=PATH"},
  {"--max-steps", O_MAX_STEPS, "a number"},
  {"--max-seconds", O_MAX_SECONDS, "seconds"},
  {"--no-race-check", O_NO_RACE, NULL},
  {"--dump-inputs", O_DUMP_INPUTS, "a directory"},
  {"--verify", O_VERIFY, NULL},
  {"--verify-blocks", O_VERIFY_BLOCKS, "a positive number"},
  {"--ncu", O_NCU, NULL},
  {"--flush-l2", O_FLUSH_L2, NULL},
  {"--baseline", O_BASELINE, NULL},
  {"--no-baseline", O_NO_BASELINE, NULL},
  {"--emit", O_EMIT, "a directory"},
  {"--reps", O_REPS, "a positive number"},
  {"--timeout", O_TIMEOUT, "a positive number"},
  {"--arch", O_ARCH, "a value"},
  {"--blocks", O_BLOCKS, "a positive number"},
  {"--regs", O_REGS, "a register count (1-255)"},
  {"--fail-on", O_FAIL_ON, "warning or error"},
  {"--calibration", O_CALIBRATION, "a file"},
  {"--rank", O_RANK, NULL},
  {"--out", O_CAL_OUT, "a file"},
  {"--passes", O_PASSES, "a comma-separated list of passes"},
  {"--skip", O_SKIP, "a comma-separated list of passes"},
  {"--set", O_SET, "PASS.PARAM=VALUE"},
  {"--explain", O_EXPLAIN, NULL},
  {"--no-verify", O_NO_VERIFY, NULL},
  {"--no-estimate", O_NO_ESTIMATE, NULL},
  {"--host", O_HOST, "a host function's name"},
  {"--launch", O_LAUNCH, "a launch number (1, 2, ...)"},
  {"--engine", O_ENGINE, "native, interp or auto"},
  {"--check", O_CHECK, "sample, all or none"},
  {"--route", O_ROUTE, "nvcc, interp or auto"},
  {"--whole-seconds", O_WHOLE_SECONDS, "seconds"},
};

/* a command's --help: its text; optimize's ends with the passes, from the pass table */
static void print_usage(const Command *c, FILE *out) {
  fputs(c->usage, out);
  if (c->run == cmd_optimize) usage_passes(out);
}

/* "text|json|sarif" as "text, json or sarif" */
static char *one_of(const char *list) {
  char *s = arena_strdup(list), *words[8], *out = "";
  int n = 0;
  for (char *w = strtok(s, "|"); w && n < 8; w = strtok(NULL, "|")) words[n++] = w;
  for (int i = 0; i < n; i++)
    out = fmt("%s%s%s", out, i == 0 ? "" : i == n - 1 ? " or " : ", ", words[i]);
  return out;
}

static bool listed(const char *list, const char *v) {
  size_t n = strlen(v);
  for (const char *p = list; (p = strstr(p, v)); p++)
    if ((p == list || p[-1] == '|') && (!p[n] || p[n] == '|')) return true;
  return false;
}

/* a whole positive number up to max, or -1 */
static long positive(const char *v, long max) {
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  return *v && !*end && !errno && n >= 1 && n <= max ? n : -1;
}

/* 0, or the exit status after a usage message */
static int set_option(Opts *o, const OptDef *d, const char *v) {
  const char *cmd = o->cmd->name;
  char *end;
  switch (d->id) {
  case O_DEFINE: arena_push(&o->pp.defines, &o->pp.n_defines, v); return 0;
  case O_INCLUDE: arena_push(&o->pp.include_dirs, &o->pp.n_include_dirs, v); return 0;
  case O_KERNEL: o->kernel = v; return 0;
  case O_FORMAT:
    if (!listed(o->cmd->formats, v))
      return usage_error(cmd, fmt("--format takes %s", one_of(o->cmd->formats)));
    o->format = v;
    return 0;
  case O_OUTPUT: o->out_path = v; return 0;
  case O_GRID: o->grid = v; return 0;
  case O_BLOCK: o->block = v; return 0;
  case O_SHARED: {
    long long n = strtoll(v, &end, 0);
    if (!*v || *end || n < 0) return usage_error(cmd, "--shared needs a non-negative byte count");
    o->ov.dyn_shared = n;
    return 0;
  }
  case O_ARG: arena_push(&o->arg_texts, &o->nargs, v); return 0;
  case O_OUT:
    if (!strchr(v, '=')) return usage_error(cmd, "--out needs NAME=PATH");
    arena_push(&o->outs, &o->nouts, v);
    return 0;
  case O_MAX_STEPS: {
    double n = strtod(v, &end);
    if (!*v || *end || !(n >= 1)) return usage_error(cmd, "--max-steps needs a positive number");
    o->max_steps = n < 1.8e19 ? (uint64_t)n : UINT64_MAX;
    return 0;
  }
  case O_MAX_SECONDS:
    o->max_seconds = strtod(v, &end);
    if (!*v || *end || !(o->max_seconds > 0 && o->max_seconds < 1e9))
      return usage_error(cmd, "--max-seconds needs a positive number of seconds");
    return 0;
  case O_WHOLE_SECONDS:
    o->whole_seconds = strtod(v, &end);
    if (!*v || *end || !(o->whole_seconds >= 0 && o->whole_seconds < 1e9))
      return usage_error(cmd, "--whole-seconds needs a number of seconds (0: no check)");
    return 0;
  case O_NO_RACE: o->no_race = true; return 0;
  case O_DUMP_INPUTS: o->dump_inputs = v; return 0;
  case O_VERIFY: o->bench.verify = true; return 0;
  case O_NCU: o->bench.ncu = true; return 0;
  case O_FLUSH_L2: o->bench.h.flush_l2 = true; return 0;
  case O_BASELINE: o->bench.h.baseline = true; return 0;
  case O_NO_BASELINE: o->bench.no_baseline = true; return 0;
  case O_EMIT: o->bench.emit_dir = v; return 0;
  case O_ARCH: {
    /* one meaning everywhere: a machine (h100) or nvcc's name (sm_90); bench and calibrate
     * give nvcc the sm name, analyze and estimate model the machine */
    const char *sm = machine_sm_name(v);
    if (!sm)
      return usage_error(
        cmd,
        fmt(
          "unknown --arch '%s' (a machine: h100, h200, g80, gt200, c1060; or nvcc's sm_90, sm_80, ...)",
          v));
    o->bench.arch = arena_strdup(sm);
    o->machine = v;
    return 0;
  }
  case O_CALIBRATION: o->bench.calibration = v; return 0;
  case O_CAL_OUT: o->cal_out = v; return 0;
  case O_RANK: o->rank = true; return 0;
  case O_PASSES: o->passes = v; return 0;
  case O_SKIP: o->skip = v; return 0;
  case O_SET: arena_push(&o->sets, &o->nsets, v); return 0;
  case O_EXPLAIN: o->explain = true; return 0;
  case O_NO_VERIFY: o->no_verify = true; return 0;
  case O_NO_ESTIMATE: o->no_estimate = true; return 0;
  case O_HOST: o->host_fn = v; return 0;
  case O_ENGINE:
    if (strcmp(v, "native") && strcmp(v, "interp") && strcmp(v, "auto"))
      return usage_error(cmd, "--engine takes native, interp or auto");
    o->native.engine = !strcmp(v, "native")   ? ENGINE_NATIVE
                       : !strcmp(v, "interp") ? ENGINE_INTERP
                                              : ENGINE_AUTO;
    return 0;
  case O_CHECK:
    if (strcmp(v, "sample") && strcmp(v, "all") && strcmp(v, "none"))
      return usage_error(cmd, "--check takes sample, all or none");
    o->native.check = !strcmp(v, "all")    ? CHECK_ALL
                      : !strcmp(v, "none") ? CHECK_NONE
                                           : CHECK_SAMPLE;
    return 0;
  case O_ROUTE:
    if (strcmp(v, "nvcc") && strcmp(v, "interp") && strcmp(v, "auto"))
      return usage_error(cmd, "--route takes nvcc, interp or auto");
    o->route = v;
    return 0;
  case O_LAUNCH:
    if ((o->launch_no = (int)positive(v, 1000000)) < 0)
      return usage_error(cmd, "--launch needs a launch number (1, 2, ...)");
    return 0;
  case O_FAIL_ON:
    if (strcmp(v, "warning") && strcmp(v, "error"))
      return usage_error(cmd, "--fail-on takes warning or error");
    o->fail_on = !strcmp(v, "warning") ? 2 : 3;
    return 0;
  case O_REGS:
    if ((o->regs = (int)positive(v, 255)) < 0)
      return usage_error(cmd, "--regs needs a register count (1-255)");
    return 0;
  case O_BLOCKS:
  case O_REPS:
  case O_VERIFY_BLOCKS:
  case O_TIMEOUT: {
    long n = positive(v, 1000000);
    if (n < 0) return usage_error(cmd, fmt("%s needs a positive number", d->name));
    *(d->id == O_BLOCKS          ? &o->blocks
      : d->id == O_REPS          ? &o->bench.h.reps
      : d->id == O_VERIFY_BLOCKS ? &o->bench.verify_blocks
                                 : &o->bench.timeout_s) = (int)n;
    return 0;
  }
  }
  return 0;
}

static int check_arguments(const Opts *o) {
  const Command *c = o->cmd;
  if (o->nfiles < c->min_args) return usage_error(c->name, fmt("no %s", c->arg_name));
  if (c->max_args >= 0 && o->nfiles > c->max_args)
    return usage_error(c->name, c->max_args ? fmt("more than one %s ('%s' and '%s')", c->arg_name,
                                                  o->files[0], o->files[1])
                                            : fmt("unexpected argument '%s'", o->files[0]));
  return 0;
}

/* nvcc's own flags, so a command line written for nvcc works: -arch/--gpu-architecture is
 * --arch where the command has one; the rest change nothing carve computes and are named in
 * one note. --use_fast_math gives the fast intrinsics' semantics (expf as __expf, ...).
 * Returns the words used (0: not an nvcc flag), or -status after a usage error. */
static int nvcc_flag(Opts *o, int argc, char **argv, int i) {
  static const char *valued[] = {
    "-arch",           "--gpu-architecture", "-code",   "--gpu-code",
    "-gencode",        "--generate-code",    "-std",    "--std",
    "-Xcompiler",      "--compiler-options", "-Xptxas", "--ptxas-options",
    "-Xlinker",        "--linker-options",   "-ccbin",  "--compiler-bindir",
    "-maxrregcount",   "--maxrregcount",     "-rdc",    "--relocatable-device-code",
    "-default-stream", "--default-stream"};
  static const char *switches[] = {"-lineinfo",
                                   "--generate-line-info",
                                   "-g",
                                   "-G",
                                   "--device-debug",
                                   "--debug",
                                   "-m64",
                                   "-w",
                                   "--expt-relaxed-constexpr",
                                   "--expt-extended-lambda",
                                   "--extended-lambda",
                                   "-Wno-deprecated-gpu-targets",
                                   "-O",
                                   "-O0",
                                   "-O1",
                                   "-O2",
                                   "-O3",
                                   "--optimize",
                                   "-use_fast_math",
                                   "--use_fast_math"};
  const char *a = argv[i], *val = NULL;
  int used = 0;
  for (size_t k = 0; k < sizeof switches / sizeof *switches && !used; k++)
    if (!strcmp(a, switches[k])) used = 1;
  for (size_t k = 0; k < sizeof valued / sizeof *valued && !used; k++) {
    size_t n = strlen(valued[k]);
    if (strncmp(a, valued[k], n) || (a[n] && a[n] != '=')) continue;
    if (a[n] == '=') {
      val = a + n + 1;
      used = 1;
    } else if (i + 1 < argc) {
      val = argv[i + 1];
      used = 2;
    } else {
      usage_error(o->cmd->name, fmt("%s needs a value", a));
      return -2;
    }
  }
  if (!used) return 0;
  bool is_arch =
    !strcmp(a, "-arch") || !strncmp(a, "-arch=", 6) || !strncmp(a, "--gpu-architecture", 18);
  if (!is_arch) { /* for the nvcc route, as given (-arch: rt_run gives --arch's) */
    arena_push(&o->nvcc_words, &o->nnvcc, a);
    if (used == 2) arena_push(&o->nvcc_words, &o->nnvcc, val);
  }
  if (strstr(a, "fast_math")) {
    arena_push(&o->pp.defines, &o->pp.n_defines, "__CARVE_FAST_MATH__");
    return used;
  }
  bool any_gpu =
    is_arch && (!strcmp(val, "native") || !strcmp(val, "all") || !strcmp(val, "all-major"));
  if (is_arch && !any_gpu && o->cmd->options >> O_ARCH & 1) {
    static const OptDef arch = {"--arch", O_ARCH, "a value"};
    int r = set_option(o, &arch, val);
    return r ? -r : used;
  }
  const char *word = used == 2 ? fmt("%s %s", a, val) : a;
  o->nvcc_ignored = o->nvcc_ignored ? fmt("%s %s", o->nvcc_ignored, word) : word;
  return used;
}

/* every command's flags; returns 0, -1 after --help, or the exit status to stop with */
static int parse_opts(const Command *c, int argc, char **argv, Opts *o) {
  memset(o, 0, sizeof *o);
  o->cmd = c;
  o->format = "text";
  o->ov.dyn_shared = -1;
  o->whole_seconds = -1;
  o->files = arena_alloc(sizeof(char *) * (size_t)(argc + 1));
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i], *val;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      print_usage(c, stdout);
      return -1;
    }
    if (!strcmp(a, "--") && (c->options >> O_HOST & 1)) { /* the host program's own arguments */
      for (i++; i < argc; i++) arena_push(&o->prog_args, &o->nprog_args, argv[i]);
      break;
    }
    if (a[0] != '-' || !a[1]) {
      o->files[o->nfiles++] = a;
      continue;
    }
    int nv = nvcc_flag(o, argc, argv, i);
    if (nv < 0) return -nv;
    if (nv) {
      i += nv - 1;
      continue;
    }
    const OptDef *d;
    OptTable t = {c->name, options, (int)(sizeof options / sizeof *options), c->options, "-D|-I"};
    int r = opt_read(&t, argc, argv, &i, &d, &val);
    if (r || (r = set_option(o, d, val))) return r;
  }
  o->file = o->files[0];
  if (o->nvcc_ignored && !(o->route && !strcmp(o->route, "nvcc")))
    fprintf(stderr,
            "carve %s: note: nvcc flags that change nothing carve computes are ignored: %s\n",
            c->name, o->nvcc_ignored);
  return check_arguments(o);
}

/* ---- check, print ---- */
char *signature(Obj *k) {
  Buf b = {0};
  print_function(&b, &(Obj){.name = k->name,
                            .ty = k->ty,
                            .is_kernel = k->is_kernel,
                            .is_device = k->is_device,
                            .is_host = k->is_host,
                            .launch_bounds = {k->launch_bounds[0], k->launch_bounds[1]}});
  char *s = arena_strdup(b.s ? b.s : "");
  buf_free(&b);
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == ';')) s[--n] = 0;
  return s;
}

static char *init_text(const ArgSpec *a) {
  switch (a->init) {
  case INIT_ZEROS: return "zeros";
  case INIT_FILL: return fmt("fill(%g)", a->a);
  case INIT_IOTA: return fmt("iota(%g, %g)", a->a, a->b);
  case INIT_RANDOM:
    return a->has_range ? fmt("random(%llu, %g, %g)", (unsigned long long)a->seed, a->a, a->b)
                        : fmt("random(%llu)", (unsigned long long)a->seed);
  default: return fmt("file(\"%s\")", a->path);
  }
}

/* the first <<<...>>> of kernel k in the host code, or NULL */
typedef struct {
  Obj *k;
  Node *at;
} LaunchFind;
static bool find_launch(Node *n, void *ctx) {
  LaunchFind *lf = ctx;
  if (n->kind == ND_LAUNCH && n->fn == lf->k && !lf->at) lf->at = n;
  return !lf->at;
}

/* the lines of f's launches in host code the front end could not read, "44, 46" (NULL: none) */
static const char *unread_lines(Program *p, Obj *f) {
  int line[8], n = opt_unread_launches(p, f, line, 8);
  Buf b = {0};
  for (int i = 0; i < n && i < 8; i++) buf_printf(&b, "%s%d", i ? ", " : "", line[i]);
  if (n > 8) buf_printf(&b, " and %d more", n - 8);
  const char *t = b.s ? arena_strdup(b.s) : NULL;
  buf_free(&b);
  return t;
}

/* launch: the first <<<...>>> of f in the host code, or NULL */
static void check_kernel_text(Program *p, const char *file, Obj *f, LaunchSpec *s, Node *launch,
                              bool any_unread) {
  printf("%s:%d: %s\n", file, tok_loc(f->tok).line, signature(f));
  if (f->shared_size || f->uses_barrier)
    printf("    static shared memory %d bytes%s\n", f->shared_size,
           f->uses_barrier ? ", uses __syncthreads" : "");
  if (!s && launch) {
    printf(
      "    launched by the host code at line %d (run and analyze take the program's launches)\n",
      tok_loc(launch->tok).line);
    return;
  }
  const char *unread = !s && any_unread ? unread_lines(p, f) : NULL;
  if (unread) { /* C++ host code (bench/holdout4 DIAGNOSIS §2d) */
    printf(
      "    launched at line%s %s in host code carve's front end could not read: run, analyze, "
      "estimate, optimize and report take the program's launches, its host code built by nvcc\n",
      strchr(unread, ',') || strchr(unread, ' ') ? "s" : "", unread);
    return;
  }
  if (!s) {
    printf("    no launch specification (#pragma carve launch %s ...)\n", f->name);
    return;
  }
  printf("    launch grid(%lld,%lld,%lld) block(%lld,%lld,%lld)", (long long)s->grid[0],
         (long long)s->grid[1], (long long)s->grid[2], (long long)s->block[0],
         (long long)s->block[1], (long long)s->block[2]);
  if (s->dyn_shared) printf(" shared(%lld)", (long long)s->dyn_shared);
  printf("\n");
  for (ArgSpec *a = s->args; a; a = a->next) {
    if (a->is_buffer)
      printf("    arg %s = %s[%lld] : %s%s\n", a->name, type_name(a->elem_ty), (long long)a->count,
             init_text(a), a->out ? " out" : "");
    else if (a->scalar.is_float) printf("    arg %s = %g\n", a->name, a->scalar.d);
    else printf("    arg %s = %lld\n", a->name, (long long)a->scalar.i);
  }
}

static int cmd_check(Opts *o, Program *p) {
  bool json = !strcmp(o->format, "json");
  int nk = 0;
  if (json) printf("{\"file\": "), json_string(stdout, o->file), printf(", \"kernels\": [");
  Obj **ks = NULL; /* the kernels, and each one's first launch by the host code (one walk) */
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->is_kernel && f->is_definition) {
      ks = xrealloc(ks, sizeof(Obj *) * (size_t)(nk + 1));
      ks[nk++] = f;
    }
  Node **at = xmalloc(sizeof(Node *) * (size_t)(nk + 1));
  if (!json) first_launches(p, ks, nk, at);
  /* launches in unread host code: one walk of the tokens says whether any kernel has one, so a
   * file of many kernels and no such launch is not walked once per kernel */
  bool any_unread = opt_unread_launches(p, NULL, NULL, 0) > 0;
  for (int i = 0; i < nk; i++) {
    if (json) {
      int line[64], n = any_unread ? opt_unread_launches(p, ks[i], line, 64) : 0;
      check_kernel_json(ks[i], find_spec(p, ks[i]->name), i == 0, line, n < 64 ? n : 64);
    } else check_kernel_text(p, o->file, ks[i], find_spec(p, ks[i]->name), at[i], any_unread);
  }
  free(ks);
  free(at);
  if (json) {
    /* every diagnostic of the load, with its notes */
    diag_capture_end(o->diags, stderr);
    printf("\n], \"errors\": %d, \"warnings\": %d, \"diagnostics\": ", diag_errors, diag_warnings);
    diag_json(stdout, o->diags);
    printf("}\n");
  } else if (!nk) printf("%s: no kernels\n", o->file);
  return diag_errors ? 2 : 0;
}

/* one file, whole: begun, written and committed (out_begin diagnoses) */
bool write_file(const char *path, const void *data, size_t n) {
  OutFile *f = out_begin(path);
  if (!f || !out_write(f, data, n)) {
    out_abort_all();
    return false;
  }
  return out_commit_all();
}

static int cmd_print(Opts *o, Program *p) {
  if (diag_errors) return 2;
  Buf b = {0};
  if (o->kernel) {
    Obj *k = find_kernel(p, o->kernel);
    if (!k) {
      fprintf(stderr, "carve print: no kernel named '%s' in %s\n", o->kernel, o->file);
      return 2;
    }
    print_function(&b, k);
  } else {
    print_program(&b, p);
  }
  int rc = 0;
  if (o->out_path) rc = write_file(o->out_path, b.s ? b.s : "", b.len) ? 0 : 2;
  else fputs(b.s ? b.s : "", stdout);
  buf_free(&b);
  return rc;
}

/* ---- launches: run ---- */
Obj *pick_kernel(Program *p, const char *name, const char *file, const char *cmd) {
  if (name) {
    Obj *k = find_kernel(p, name);
    if (!k) {
      fprintf(stderr, "carve %s: no kernel named '%s' in %s (kernels:", cmd, name, file);
      for (Obj *f = p->funcs; f; f = f->next)
        if (f->is_kernel && f->is_definition) fprintf(stderr, " %s", f->name);
      fprintf(stderr, ")\n");
    }
    return k;
  }
  Obj *k = find_kernel(p, NULL);
  if (k) return k;
  int n = 0;
  for (Obj *f = p->funcs; f; f = f->next)
    if (f->is_kernel && f->is_definition) n++;
  /* several kernels: the first one with a launch spec, and the user is told so */
  for (LaunchSpec *s = p->specs; s; s = s->next)
    if ((k = find_kernel(p, s->kernel))) {
      fprintf(
        stderr,
        "carve %s: %s has %d kernels; this is '%s', the first with a launch specification (--kernel NAME picks another:",
        cmd, file, n, k->name);
      for (Obj *f = p->funcs; f; f = f->next)
        if (f->is_kernel && f->is_definition && f != k) fprintf(stderr, " %s", f->name);
      fprintf(stderr, ")\n");
      return k;
    }
  if (!n) fprintf(stderr, "carve %s: %s has no kernel\n", cmd, file);
  else
    fprintf(stderr,
            "carve %s: %s has %d kernels and no launch specification; choose one with --kernel\n",
            cmd, file, n);
  return NULL;
}

/* the first few elements of a buffer, for a glance at the result */
static void print_scalar(Type *t, const unsigned char *p) {
  if (t->kind == TY_FLOAT) {
    float f;
    memcpy(&f, p, 4);
    printf("%g", f);
    return;
  }
  if (t->kind == TY_DOUBLE) {
    double d;
    memcpy(&d, p, 8);
    printf("%g", d);
    return;
  }
  int64_t x = 0;
  memcpy(&x, p, (size_t)t->size);
  if (!t->is_unsigned && t->size < 8 && (x >> (8 * t->size - 1)) & 1)
    x = (int64_t)((uint64_t)x | ~((1ull << (8 * t->size)) - 1));
  printf(t->is_unsigned ? "%llu" : "%lld", (long long)x);
}

/* the first few elements of a buffer, for a glance at the result; a vector or struct element
 * as its members, "(1, 2, 3, 4)" */
static void print_first(const Buffer *b, int n) {
  Type *t = b->elem_ty;
  for (int i = 0; i < n && i < b->count; i++) {
    const unsigned char *p = b->data + (size_t)i * (size_t)t->size;
    printf(" ");
    if (t->kind != TY_STRUCT) {
      print_scalar(t, p);
      continue;
    }
    printf("(");
    for (Member *m = t->members; m; m = m->next) {
      if (is_numeric(m->ty)) print_scalar(m->ty, p + m->offset);
      else printf("?");
      printf("%s", m->next ? ", " : ")");
    }
  }
  if (b->count > n) printf(" ...");
}

/* the flags' grid, block and arguments, read with p's macros; false after a diagnostic */
bool launch_overrides(Opts *o, Program *p, LaunchOverrides *ov) {
  *ov = o->ov;
  if (o->grid) {
    if (!parse_flag_dims(p, "--grid", o->grid, ov->grid)) return false;
    ov->has_grid = true;
  }
  if (o->block) {
    if (!parse_flag_dims(p, "--block", o->block, ov->block)) return false;
    ov->has_block = true;
  }
  if (o->bench.arch)
    ov->machine = machine_find(o->bench.arch); /* --block's limit (NULL: the H100's) */
  if (!parse_arg_settings(p, o->arg_texts, o->nargs, ov)) return false;
  return true;
}

/* the file's launch for kernel k, with the flags over it; 0, or 2 after a diagnostic (nothing
 * to free then) */
int prepare_launch(Opts *o, Program *p, Obj *k, Launch *L) {
  LaunchOverrides ov;
  if (!launch_overrides(o, p, &ov)) return 2;
  if (launch_prepare(L, p, k, &ov)) {
    launch_free(L);
    return 2;
  }
  return 0;
}

/* --out NAME=PATH: the buffer it names, marked as an output; -1 after a message */
static int out_buffer(const char *setting, Launch *L) {
  const char *eq = strchr(setting, '=');
  char *name = arena_strndup(setting, (size_t)(eq - setting));
  for (int b = 1; b < L->nbufs; b++)
    if (!strcmp(L->bufs[b].name, name)) {
      L->bufs[b].out = true;
      return b;
    }
  fprintf(stderr, "carve run: --out %s: '%s' is not a buffer argument of '%s'\n", setting, name,
          L->kernel->name);
  return -1;
}

/* --dump-inputs DIR: each buffer's initial bytes, all written or none */
static bool dump_inputs(const char *dir, Launch *L) {
  if (!make_dirs(dir)) {
    fprintf(stderr, "carve run: cannot create %s: %s\n", dir, strerror(errno));
    return false;
  }
  for (int b = 1; b < L->nbufs; b++) {
    OutFile *f = out_begin(fmt("%s/%s.bin", dir, L->bufs[b].name));
    if (!f || !out_write(f, L->bufs[b].data, L->bufs[b].bytes)) {
      out_abort_all();
      return false;
    }
  }
  return out_commit_all();
}

static void run_summary_text(const Opts *o, Launch *L, int rc, const RunStats *st,
                             const NativeReport *nr) {
  printf("%s: %s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> %s\n", o->file, L->kernel->name,
         (long long)L->grid[0], (long long)L->grid[1], (long long)L->grid[2],
         (long long)L->block[0], (long long)L->block[1], (long long)L->block[2],
         rc ? "FAULT" : "ok");
  if (!strcmp(nr->engine,
              "native")) /* lane-operations are counted only where the interpreter ran */
    printf(
      "  %.3f s native on %d thread%s, %llu blocks; %lld checked in the interpreter (%llu lane-ops)\n",
      st->seconds, nr->threads, nr->threads == 1 ? "" : "s", (unsigned long long)st->blocks_run,
      (long long)nr->blocks_checked, (unsigned long long)st->lane_ops);
  else
    printf("  %.3f s, %llu lane-ops (%.1f M lane-ops/s), %llu blocks\n", st->seconds,
           (unsigned long long)st->lane_ops,
           st->seconds > 0 ? (double)st->lane_ops / st->seconds / 1e6 : 0.0,
           (unsigned long long)st->blocks_run);
  if (rc) return;
  for (int b = 1; b < L->nbufs; b++)
    if (L->bufs[b].out) {
      printf("  output %s: %s[%lld] checksum %016llx  first:", L->bufs[b].name,
             type_name(L->bufs[b].elem_ty), (long long)L->bufs[b].count,
             (unsigned long long)buffer_checksum(&L->bufs[b]));
      print_first(&L->bufs[b], 4);
      printf("\n");
    }
}

/* the --out files are begun before the launch (a bad path costs no run) and committed together
 * after it succeeds */
static int run_launch(Opts *o, Launch *L) {
  int *out_buf = arena_alloc(sizeof(int) * (size_t)(o->nouts + 1));
  OutFile **out = arena_alloc(sizeof(OutFile *) * (size_t)(o->nouts + 1));
  for (int i = 0; i < o->nouts; i++)
    if ((out_buf[i] = out_buffer(o->outs[i], L)) < 0) return 2;
  if (o->dump_inputs && !dump_inputs(o->dump_inputs, L)) return 2;
  for (int i = 0; i < o->nouts; i++)
    if (!(out[i] = out_begin(strchr(o->outs[i], '=') + 1))) {
      out_abort_all();
      return 2;
    }
  RunOptions ro = {
    .max_steps = o->max_steps, .no_race_check = o->no_race, .progress = isatty(2) != 0};
  RunStats st;
  NativeReport nr;
  fflush(stdout);
  int rc = native_run_launch(L, &ro, &o->native, &st, &nr);
  if (rc == 2) {
    out_abort_all();
    return 2;
  }
  if (o->diags) diag_capture_end(o->diags, stderr); /* the faults' text before the summary */
  if (!strcmp(o->format, "json")) run_summary_json(o, L, rc, &st, &nr);
  else run_summary_text(o, L, rc, &st, &nr);
  if (rc) {
    out_abort_all();
    return rc;
  }
  for (int i = 0; i < o->nouts; i++)
    if (!out_write(out[i], L->bufs[out_buf[i]].data, L->bufs[out_buf[i]].bytes)) {
      out_abort_all();
      return 2;
    }
  return out_commit_all() ? 0 : 2;
}

static int cmd_run(Opts *o, Program *p) {
  if (o->nvcc_route || o->host_fn || (!o->kernel && !o->grid && !o->nargs && has_main(p, NULL)))
    return cmd_run_host(o, p);
  Obj *k = pick_kernel(p, o->kernel, o->file, "run");
  if (!k) return 2;
  /* errors elsewhere in the file do not stop this kernel, but errors in it or its specs do */
  if (p->errors && diag_errors && !k->body) return 2;
  /* no launch for it here, but host code launches it: say how to run that */
  if (!find_spec(p, k->name) && !o->grid)
    for (Obj *f = p->funcs; f; f = f->next) {
      LaunchFind lf = {k, NULL};
      if (f->is_host && !f->is_device && f->body) walk(f->body, find_launch, NULL, &lf);
      if (!lf.at) continue;
      fprintf(
        stderr,
        "carve run: kernel '%s' has no launch specification; the host function '%s' launches it at line %d: "
        "carve run --host %s %s\n",
        k->name, f->name, tok_loc(lf.at->tok).line, f->name, o->file);
      return 2;
    }
  Launch L;
  if (o->bench.arch && !machine_flag(o)) return 2;
  if (prepare_launch(o, p, k, &L)) return 2;
  if (o->bench.arch) L.machine = machine_flag(o); /* its limits on threads and shared memory */
  int rc = run_launch(o, &L);
  launch_free(&L);
  return rc;
}

/* ---- the calibration file ---- */
enum { CALIBRATION_MAX = 1 << 20 };
/* the measurements carve reads from it (model/metrics.c ceilings_for, gpu/bench.c) */
static const char *calibration_keys[] = {
  "copy_gbps",          "l2_gbps",           "shared_gbps",
  "fp32_gflops",        "global_latency_ns", "l2_latency_ns",
  "launch_overhead_us", "barrier_cycles",    "shared_latency_cycles",
  "clock_mhz"};

/* what is wrong with a calibration text, or NULL */
static const char *calibration_problem(const char *s, size_t n) {
  char why[200];
  Json *j = json_parse(s, n, why, sizeof why);
  if (!j) return fmt("%s", why);
  const char *bad = j->kind != JSON_OBJECT ? "not a JSON object" : NULL;
  int found = 0;
  for (size_t i = 0; !bad && i < sizeof calibration_keys / sizeof *calibration_keys; i++) {
    const Json *v = json_get(j, calibration_keys[i]);
    if (!v) continue;
    if (v->kind != JSON_NUMBER || !(v->num > 0) || v->num > 1e300)
      bad = fmt("\"%s\" is not a positive number", calibration_keys[i]);
    found++;
  }
  json_free(j);
  if (bad) return bad;
  return found
           ? NULL
           : "none of the measurements carve reads (\"copy_gbps\", \"fp32_gflops\", ...): not a file of 'carve calibrate'";
}

/* The calibration file a command reads: the default one may be absent, a named one (--calibration,
 * $CARVE_CALIBRATION) may not; one that exists must be a calibration (a JSON object of positive
 * measurements, at most 1 MiB). 0 with *path (NULL: none) and *text (NULL, or to free), or 2
 * after a message. */
int calibration_file(const char *cmd, const char *given, const char **path, char **text) {
  const char *env = getenv("CARVE_CALIBRATION");
  bool named = given || (env && *env);
  char *cal = calibration_path(given);
  struct stat st;
  const char *why = NULL;
  *path = NULL;
  *text = NULL;
  if (stat(cal, &st) != 0) {
    if (errno == ENOENT && !named) return 0;
    why = strerror(errno);
  } else if (!S_ISREG(st.st_mode)) why = S_ISDIR(st.st_mode) ? "a directory" : "not a regular file";
  size_t n = 0;
  char *s = why ? NULL : read_file_max(cal, CALIBRATION_MAX, &n);
  if (!why && !s) why = errno == EFBIG ? "larger than 1 MiB: not a calibration" : strerror(errno);
  if (!why) why = calibration_problem(s, n);
  if (why) {
    fprintf(stderr, "carve %s: calibration file '%s': %s\n", cmd, cal, why);
    free(s);
    return 2;
  }
  *path = cal;
  *text = s;
  return 0;
}

/* ---- analyze, estimate, bench ---- */
/* the machine --arch names. nvcc's name of a part carve has no description for (-arch=sm_80, as
 * a program's build flags say) is modeled as the H100 with a warning where the machine matters
 * (analyze, estimate, optimize, bench, report); run and check need only the limits every
 * sm_30+ part shares (1024 threads a block, 48 KB of static shared memory), and say nothing. */
const Machine *machine_flag(Opts *o) {
  const Machine *m = machine_find(o->machine ? o->machine : "h100");
  if (!m && o->machine && machine_sm_name(o->machine) &&
      atoi(machine_sm_name(o->machine) + 3) >= 30) {
    static bool warned;
    bool quiet = !strcmp(o->cmd->name, "run") || !strcmp(o->cmd->name, "check");
    if (!warned && !quiet)
      fprintf(
        stderr,
        "carve %s: warning: no machine description for %s (carve describes h100 and h200 (sm_90), g80 (sm_10), gt200 and "
        "c1060 (sm_13)); modeled as the h100\n",
        o->cmd->name, machine_sm_name(o->machine));
    warned = true;
    m = machine_find("h100");
  }
  if (!m)
    usage_error(
      o->cmd->name,
      fmt(
        "no machine description for --arch '%s' (carve describes h100 and h200 (sm_90), g80 (sm_10), gt200 and c1060 (sm_13))",
        o->machine));
  return m;
}

static int analyze_launch(Opts *o, Launch *L, const Machine *m) {
  Analysis a;
  AnalyzeOptions ao = {.max_blocks = o->blocks};
  int rc = analyze(&a, L, m, &ao);
  if (rc == 2) return 2;
  ReportFormat f = !strcmp(o->format, "json")    ? FMT_JSON
                   : !strcmp(o->format, "sarif") ? FMT_SARIF
                                                 : FMT_TEXT;
  fflush(stdout);
  ReportCost cost;
  report_cost_compute(&a, &cost); /* what each finding costs, when the estimate can say */
  int worst = report_costed(&a, &cost, o->file, f, stdout);
  report_cost_free(&cost);
  analysis_free(&a);
  if (rc == 1) return 1;
  return o->fail_on && worst >= o->fail_on ? 1 : 0;
}

static int analyze_recorded(Opts *o, Program *p, const RecordedLaunch *rl,
                            const LaunchOverrides *ov, void *ctx) {
  Launch L;
  if (launch_prepare(&L, p, rl->kernel, ov)) {
    launch_free(&L);
    return 2;
  }
  L.machine = ctx;
  int rc = analyze_launch(o, &L, ctx);
  launch_free(&L);
  return rc;
}

static int cmd_analyze(Opts *o, Program *p) {
  /* several files are the sources of one program only on the nvcc route */
  if (o->nfiles > 1 && !o->nvcc_route)
    return usage_error("analyze",
                       fmt("more than one input file ('%s' and '%s')", o->files[0], o->files[1]));
  const Machine *m = machine_flag(o);
  if (!m) return 2;
  if (use_recorded(o, p)) return each_recorded(o, p, analyze_recorded, (void *)m);
  Obj *k = pick_kernel(p, o->kernel, o->file, "analyze");
  if (!k || !k->body) return 2;
  Launch L;
  if (prepare_launch(o, p, k, &L)) return 2;
  L.machine = m; /* --arch's limits (threads, shared memory per block) apply to the run */
  int rc = analyze_launch(o, &L, m);
  launch_free(&L);
  return rc;
}

/* load, estimate and free one file's program; the result outlives it */
static int estimate_file(Opts *o, const char *file, const Machine *m, const EstimateOptions *eo,
                         EstimateResult *r) {
  memset(r, 0, sizeof *r);
  Program *p = load_program(file, &o->pp);
  if (!p) return 2;
  Obj *k = pick_kernel(p, o->kernel, file, "estimate");
  LaunchOverrides ov;
  int rc =
    !k || !k->body || !launch_overrides(o, p, &ov) ? 2 : estimate_kernel(p, k, &ov, m, eo, r);
  program_free(p);
  return rc;
}

typedef struct {
  const Machine *m;
  const EstimateOptions *eo;
} EstimateCtx;
static int estimate_recorded(Opts *o, Program *p, const RecordedLaunch *rl,
                             const LaunchOverrides *ov, void *ctx) {
  EstimateCtx *c = ctx;
  EstimateResult r;
  int rc = estimate_kernel(p, rl->kernel, ov, c->m, c->eo, &r);
  if (!rc) {
    if (!strcmp(o->format, "json")) estimate_print_json(&r, stdout);
    else estimate_print_text(&r, stdout);
  }
  estimate_free(&r);
  return rc;
}

/* estimate on a program's own launches (one file, no --rank) */
static bool choose_nvcc_route(Opts *o, Program **pp);
static bool cxx_source(const char *f);
/* several sources for estimate: a program with C++ host sources (the nvcc route decides later) */
static bool cxx_program(const Opts *o) {
  for (int i = 0; i < o->nfiles; i++)
    if (cxx_source(o->files[i])) return true;
  return false;
}
static int estimate_program(Opts *o, const Machine *m, const EstimateOptions *eo, bool *done) {
  *done = false;
  Program *p;
  if (!choose_nvcc_route(o, &p)) {
    if (o->nfiles > 1) {
      *done = true;
      return usage_error("estimate",
                         fmt("more than one input file ('%s' and '%s')", o->files[0], o->files[1]));
    }
    p = load_program(o->file, &o->pp);
  }
  if (!p) {
    *done = true;
    return 2;
  }
  int rc = 0;
  if (use_recorded(o, p)) {
    *done = true;
    EstimateCtx c = {m, eo};
    rc = each_recorded(o, p, estimate_recorded, &c);
  }
  program_free(p);
  return rc;
}

static int cmd_estimate(Opts *o, Program *unused) {
  if (o->rank && o->nfiles < 2) return usage_error("estimate", "--rank needs two or more files");
  if (!o->rank && o->nfiles > 1 && !cxx_program(o))
    return usage_error("estimate",
                       fmt("more than one input file ('%s' and '%s')", o->files[0], o->files[1]));
  if (o->rank && o->kernel)
    return usage_error(
      "estimate",
      "--kernel and --rank: each file's kernel is the one its launch specification names");
  const Machine *m = machine_flag(o);
  if (!m) return 2;
  const char *cal;
  char *text;
  if (calibration_file("estimate", o->bench.calibration, &cal, &text)) return 2;
  free(text);
  Ceilings ce = ceilings_for(m, cal);
  EstimateOptions eo = {.regs = o->regs, .ceilings = &ce};
  if (!o->rank) {
    bool done;
    int prc = estimate_program(o, m, &eo, &done);
    if (done) return prc;
  }
  EstimateResult *rs = xmalloc(sizeof(EstimateResult) * (size_t)o->nfiles);
  int rc = 0, n = 0;
  while (n < o->nfiles && !rc) rc = estimate_file(o, o->files[n], m, &eo, &rs[n]), n++;
  bool json = !strcmp(o->format, "json");
  if (!rc && o->rank) {
    Ranking rk = estimate_rank(rs, n);
    if (json) ranking_print_json(&rk, stdout);
    else ranking_print_text(&rk, stdout);
    ranking_free(&rk);
  } else if (!rc) {
    if (json) estimate_print_json(&rs[0], stdout);
    else estimate_print_text(&rs[0], stdout);
  }
  for (int i = 0; i < n; i++) estimate_free(&rs[i]);
  free(rs);
  return rc;
}

/* A recorded launch given as flags, for the commands that take their launch as flags (bench's
 * harness reads the files, optimize reloads the source at other sizes): each buffer's bytes in
 * DIR/NAME.bin (DIR: --emit's, kept, or a temporary one, removed after), file("...") settings
 * first and the user's own --arg after them (they override). */
int via_flags(Opts *o, Program *p, const RecordedLaunch *rl, const LaunchOverrides *ov, void *ctx) {
  Opts f = *o;
  bool keep = o->bench.emit_dir != NULL;
  char tmpl[] = "/tmp/carve-launch-XXXXXX";
  /* --emit: one directory per launch, the buffers beside the harness that reads them */
  const char *dir = keep ? fmt("%s/launch-%d", o->bench.emit_dir, rl->first) : mkdtemp(tmpl);
  if (keep) f.bench.emit_dir = dir;
  if (!dir || (keep && !make_dirs(dir))) {
    fprintf(stderr, "carve %s: cannot create a directory for the launch's buffers: %s\n",
            o->cmd->name, strerror(errno));
    return 2;
  }
  if (!keep) search_guard_tmpdir(dir); /* removed if a signal ends carve */
  f.kernel = rl->kernel->name;
  f.launch_no = 0;
  f.host_fn = NULL;
  f.grid =
    fmt("%lld,%lld,%lld", (long long)ov->grid[0], (long long)ov->grid[1], (long long)ov->grid[2]);
  f.block = fmt("%lld,%lld,%lld", (long long)ov->block[0], (long long)ov->block[1],
                (long long)ov->block[2]);
  f.ov.dyn_shared = ov->dyn_shared;
  f.ov.constant = ov->constant;
  f.ov.device_vars = ov->device_vars;
  f.arg_texts = NULL;
  f.nargs = 0;
  const char **written = arena_alloc(sizeof(char *) * (size_t)(rl->ov.nargs + 1));
  int nw = 0, rc = 0;
  for (int i = 0; i < rl->ov.nargs && !rc; i++) {
    const ArgSpec *a = rl->ov.args[i];
    if (!a->is_buffer) {
      arena_push(&f.arg_texts, &f.nargs,
                 a->scalar.is_float ? fmt("%s=%.17g", a->name, a->scalar.d)
                                    : fmt("%s=%lld", a->name, (long long)a->scalar.i));
      continue;
    }
    if (a->alias) { /* one buffer bound to two parameters, as the program made the launch */
      arena_push(&f.arg_texts, &f.nargs,
                 fmt("%s=alias(%s, %lld)", a->name, a->alias, (long long)a->alias_off));
      continue;
    }
    if (a->init == INIT_FILE &&
        a->path) { /* the nvcc route's recording: already a file of the runtime's */
      arena_push(&f.arg_texts, &f.nargs,
                 fmt("%s=%s[%lld]:file(\"%s\") out", a->name, type_name(a->elem_ty),
                     (long long)a->count, a->path));
      continue;
    }
    const char *path = fmt("%s/%s.bin", dir, a->name);
    OutFile *of = out_begin(path);
    if (!of || !out_write(of, a->bytes, (size_t)a->count * (size_t)a->elem_ty->size) ||
        !out_commit_all()) {
      out_abort_all();
      rc = 2;
      break;
    }
    written[nw++] = path;
    arena_push(&f.arg_texts, &f.nargs,
               fmt("%s=%s[%lld]:file(\"%s\")%s", a->name, type_name(a->elem_ty),
                   (long long)a->count, path, " out"));
  }
  for (int i = 0; i < o->nargs; i++) arena_push(&f.arg_texts, &f.nargs, o->arg_texts[i]);
  if (!rc) rc = ((ViaFlags *)ctx)->fn(&f, p);
  if (!keep && o->whole) /* optimize may plan the kernel again (the whole-program check) */
    whole_keep_files(o->whole, dir, written, nw);
  else if (!keep) {
    for (int i = 0; i < nw; i++) unlink(written[i]);
    rmdir(dir);
    search_unguard_tmpdir(dir);
  }
  return rc;
}

static int cmd_bench_launch(Opts *o, Program *p);
static int cmd_bench(Opts *o, Program *p) {
  if (use_recorded(o, p)) { return each_recorded(o, p, via_flags, &(ViaFlags){cmd_bench_launch}); }
  return cmd_bench_launch(o, p);
}

static int cmd_bench_launch(Opts *o, Program *p) {
  Obj *k = pick_kernel(p, o->kernel, o->file, "bench");
  if (!k || !k->body) return 2;
  const char *cal;
  char *text;
  if (calibration_file("bench", o->bench.calibration, &cal, &text)) return 2;
  free(text);
  Launch L;
  if (prepare_launch(o, p, k, &L)) return 2;
  o->bench.json = !strcmp(o->format, "json");
  /* a library doing the same job is timed beside the kernel whenever the spec names one */
  LaunchSpec *spec = find_spec(p, k->name);
  if (spec && spec->baseline && !o->bench.no_baseline) o->bench.h.baseline = true;
  fflush(stdout);
  int rc = bench_run(&L, o->file, &o->bench);
  launch_free(&L);
  return rc;
}

/* ---- arch, calibrate ---- */
static void arch_field(const Machine *m, const char *field, const char *value, bool json,
                       bool *first) {
  const char *src = machine_source(m, field);
  if (json) {
    printf("%s\n    \"%s\": {\"value\": %s, \"source\": ", *first ? "" : ",", field, value);
    json_string(stdout, src ? src : "");
    printf("}");
    *first = false;
  } else {
    printf("  %-26s %-14s %s\n", field, value, src ? src : "");
  }
}

static void arch_list(bool json) {
  int n;
  const Machine *all = machine_list(&n);
  if (json) printf("[");
  for (int i = 0; i < n; i++) {
    if (!json) {
      printf("%-6s sm_%d%d  %3d SMs  %s\n", all[i].name, all[i].cc_major, all[i].cc_minor,
             all[i].sm_count, all[i].long_name);
      continue;
    }
    printf("%s{\"name\": ", i ? ", " : "");
    json_string(stdout, all[i].name);
    printf(", \"long_name\": ");
    json_string(stdout, all[i].long_name);
    printf(", \"cc\": \"%d.%d\"}", all[i].cc_major, all[i].cc_minor);
  }
  if (json) printf("]\n");
}

static void arch_fields(const Machine *m, bool json) {
  bool first = true;
#define FI(f) arch_field(m, #f, fmt("%lld", (long long)m->f), json, &first)
#define FD(f) arch_field(m, #f, fmt("%g", (double)m->f), json, &first)
  FI(sm_count);
  FI(warp_size);
  FI(max_threads_per_block);
  FI(max_threads_per_sm);
  FI(max_blocks_per_sm);
  FI(max_warps_per_sm);
  FI(regs_per_sm);
  FI(max_regs_per_thread);
  FI(reg_alloc_unit);
  FI(warp_alloc_gran);
  FI(smem_per_sm);
  FI(smem_per_block);
  FI(smem_per_block_optin);
  FI(smem_alloc_unit);
  FI(smem_reserved_per_block);
  FI(smem_banks);
  FI(smem_bank_bytes);
  FI(l2_bytes);
  FI(coalesce_threads);
  FI(mem_sector_bytes);
  FI(mem_line_bytes);
  FI(mem_partitions);
  FI(mem_partition_bytes);
  FD(dram_peak_gbps);
  FD(dram_copy_gbps);
  FI(dram_latency_cycles);
  FD(clock_mhz);
  FI(fp32_lanes_per_sm);
  FI(sfu_per_sm);
  FD(fp32_peak_gflops);
  FD(launch_overhead_us);
#undef FI
#undef FD
}

static int cmd_arch(Opts *o, Program *unused) {
  bool json = !strcmp(o->format, "json");
  if (!o->nfiles) {
    arch_list(json);
    return 0;
  }
  const Machine *m = machine_find(o->file);
  if (!m) {
    int n;
    const Machine *all = machine_list(&n);
    fprintf(stderr, "carve arch: no machine named '%s' (", o->file);
    for (int i = 0; i < n; i++) fprintf(stderr, "%s%s", i ? ", " : "", all[i].name);
    fprintf(stderr, ")\n");
    return 2;
  }
  const char *cal;
  char *c;
  if (calibration_file("arch", NULL, &cal, &c)) return 2;
  if (json) {
    printf("{\"name\": ");
    json_string(stdout, m->name);
    printf(", \"fields\": {");
  } else
    printf("%s: %s (compute capability %d.%d)\n", m->name, m->long_name, m->cc_major, m->cc_minor);
  arch_fields(m, json);
  if (json) printf("}, \"calibration\": %s}\n", c ? c : "null");
  else if (c) printf("calibration (%s):\n%s\n", cal, c);
  else
    printf("no calibration file (%s): run 'carve calibrate' on the GPU\n", calibration_path(NULL));
  free(c);
  return 0;
}

static int cmd_calibrate(Opts *o, Program *unused) {
  return calibrate_run(o->cal_out, o->bench.arch);
}

/* ---- the commands ---- */
#define OPT(x) (1ull << (x))
#define LOADING (OPT(O_DEFINE) | OPT(O_INCLUDE))
#define LAUNCH (LOADING | OPT(O_KERNEL) | OPT(O_GRID) | OPT(O_BLOCK) | OPT(O_SHARED) | OPT(O_ARG))
static const Command commands[] = {
  {"check", usage_check, LOADING | OPT(O_FORMAT), "text|json", 1, 1, "input file", LOAD_FILE,
   cmd_check},
  {"print", usage_print, LOADING | OPT(O_KERNEL) | OPT(O_OUTPUT), "", 1, 1, "input file", LOAD_FILE,
   cmd_print},
  {"run", usage_run,
   LAUNCH | OPT(O_HOST) | OPT(O_ARCH) | OPT(O_OUT) | OPT(O_MAX_STEPS) | OPT(O_NO_RACE) |
     OPT(O_DUMP_INPUTS) | OPT(O_FORMAT) | OPT(O_ENGINE) | OPT(O_CHECK) | OPT(O_ROUTE),
   "text|json", 1, -1, "input file", LOAD_SOURCES, cmd_run},
  {"analyze", usage_analyze,
   LAUNCH | OPT(O_HOST) | OPT(O_MAX_STEPS) | OPT(O_MAX_SECONDS) | OPT(O_LAUNCH) | OPT(O_ARCH) |
     OPT(O_BLOCKS) | OPT(O_FAIL_ON) | OPT(O_FORMAT) | OPT(O_ROUTE) | OPT(O_ENGINE) | OPT(O_CHECK),
   "text|json|sarif", 1, -1, "input file", LOAD_FILE, cmd_analyze},
  {"estimate", usage_estimate,
   LAUNCH | OPT(O_HOST) | OPT(O_MAX_STEPS) | OPT(O_MAX_SECONDS) | OPT(O_LAUNCH) | OPT(O_ARCH) |
     OPT(O_REGS) | OPT(O_CALIBRATION) | OPT(O_RANK) | OPT(O_FORMAT) | OPT(O_ROUTE) | OPT(O_ENGINE) |
     OPT(O_CHECK),
   "text|json", 1, -1, "input file", 0, cmd_estimate},
  {"bench", usage_bench,
   LAUNCH | OPT(O_HOST) | OPT(O_MAX_STEPS) | OPT(O_MAX_SECONDS) | OPT(O_LAUNCH) | OPT(O_REPS) |
     OPT(O_FLUSH_L2) | OPT(O_VERIFY) | OPT(O_VERIFY_BLOCKS) | OPT(O_NCU) | OPT(O_BASELINE) |
     OPT(O_NO_BASELINE) | OPT(O_ARCH) | OPT(O_TIMEOUT) | OPT(O_CALIBRATION) | OPT(O_EMIT) |
     OPT(O_FORMAT) | OPT(O_ROUTE) | OPT(O_ENGINE) | OPT(O_CHECK),
   "text|json", 1, 1, "input file", LOAD_FILE, cmd_bench},
  {"optimize", usage_optimize,
   LAUNCH | OPT(O_HOST) | OPT(O_MAX_STEPS) | OPT(O_MAX_SECONDS) | OPT(O_LAUNCH) | OPT(O_ARCH) |
     OPT(O_OUTPUT) | OPT(O_PASSES) | OPT(O_SKIP) | OPT(O_SET) | OPT(O_EXPLAIN) | OPT(O_NO_VERIFY) |
     OPT(O_NO_ESTIMATE) | OPT(O_REGS) | OPT(O_CALIBRATION) | OPT(O_FORMAT) | OPT(O_ROUTE) |
     OPT(O_ENGINE) | OPT(O_CHECK) | OPT(O_WHOLE_SECONDS),
   "text|json", 1, 1, "input file", LOAD_FILE, cmd_optimize},
  {"report", usage_report,
   LAUNCH | OPT(O_HOST) | OPT(O_MAX_STEPS) | OPT(O_MAX_SECONDS) | OPT(O_LAUNCH) | OPT(O_ARCH) |
     OPT(O_BLOCKS) | OPT(O_OUTPUT) | OPT(O_NO_ESTIMATE) | OPT(O_ROUTE) | OPT(O_ENGINE) |
     OPT(O_CHECK),
   "", 1, 3, "input file", LOAD_FILE, cmd_report},
  {"arch", usage_arch, OPT(O_FORMAT), "text|json", 0, 1, "machine name", 0, cmd_arch},
  {"calibrate", usage_calibrate, OPT(O_CAL_OUT) | OPT(O_ARCH), "", 0, 0, "argument", 0,
   cmd_calibrate},
};

static const Command *find_command(const char *name) {
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(commands[i].name, name)) return &commands[i];
  return NULL;
}

/* several source files of one program (carve run prog.cu util.c): read as one translation unit,
 * each file included in turn where it is (diagnostics name each file) */
static Program *load_sources(Opts *o) {
  Buf text = {0};
  for (int i = 0; i < o->nfiles; i++) {
    errno = 0;
    if (access(o->files[i], R_OK) != 0 || strchr(o->files[i], '"') || strchr(o->files[i], '\n')) {
      fprintf(stderr, "carve %s: cannot read '%s': %s\n", o->cmd->name, o->files[i],
              errno ? strerror(errno) : "an unusual name");
      buf_free(&text);
      return NULL;
    }
    buf_printf(&text, "#include \"%s\"\n",
               o->files[i]); /* relative to the working directory, as given */
  }
  Program *p = load_program_text("<command line>", text.s, &o->pp);
  buf_free(&text);
  return p;
}

/* a source nvcc compiles as C++ host code, which carve's interpreter does not run */
static bool cxx_source(const char *f) {
  const char *dot = strrchr(f, '.');
  return dot && (!strcmp(dot, ".cpp") || !strcmp(dot, ".cc") || !strcmp(dot, ".cxx") ||
                 !strcmp(dot, ".C") || !strcmp(dot, ".o"));
}

/* what carve's interpreter cannot run of a program's host code, decided from what the front end
 * read (not from how an error is worded: bench/holdout4 DIAGNOSIS §2a): main, or a host function
 * it calls, among the functions it skipped (C++: classes with member functions, std::, new;
 * the first error of that function in the result); or no main at all while launches stand in
 * code it skipped (*no_main). NULL and false: the interpreter can run it */
static HostSkip *host_unread(Program *p, bool *no_main) {
  *no_main = false;
  if (!p) return NULL;
  for (HostSkip *h = p->host_skipped; h; h = h->next)
    if (!strcmp(h->name, "main")) return h;
  Obj *m = find_host_function(p, NULL), *caller;
  if (m) return host_unread_callee(p, m, &caller);
  *no_main = !p->specs && opt_unread_launches(p, NULL, NULL, 0) > 0;
  return NULL;
}

/* the nvcc route was wanted but cannot be taken: said after the front end's errors (run_command) */
static const char *route_missing;

/* --route (docs/host-programs.md): nvcc builds the program with carve's CUDA runtime (src/rt),
 * interp runs its host code in the interpreter; auto, the default, takes nvcc where carve cannot
 * read the host code it would run (C++ sources; main or a function it calls skipped by the front
 * end; launches in skipped code and no main) and nvcc and the runtime library are there. Decided
 * on a quiet reading of the .cu files; on the nvcc route that reading is the program (*pp: the
 * kernels the recorded launches name), else NULL and the caller loads as before. */
static bool choose_nvcc_route(Opts *o, Program **pp) {
  *pp = NULL;
  if (!(o->cmd->options >> O_ROUTE & 1) || (o->route && !strcmp(o->route, "interp"))) return false;
  if (o->host_fn || (o->kernel && o->cmd->run == cmd_run) || o->grid || o->block || o->nargs ||
      o->nouts || o->dump_inputs || o->rank)
    return false;
  bool cxx = false, forced = o->route && !strcmp(o->route, "nvcc");
  Buf text = {0};
  for (int i = 0; i < o->nfiles; i++) {
    cxx |= cxx_source(o->files[i]);
    const char *dot = strrchr(o->files[i], '.');
    if (dot && !strcmp(dot, ".cu") && !strchr(o->files[i], '"') && !strchr(o->files[i], '\n'))
      buf_printf(&text, "#include \"%s\"\n", o->files[i]);
  }
  int errors = diag_errors, warnings = diag_warnings;
  DiagCapture cap;
  diag_capture_begin(&cap);
  int ncu = 0;
  const char *one = NULL;
  for (int i = 0; i < o->nfiles; i++)
    if (strrchr(o->files[i], '.') && !strcmp(strrchr(o->files[i], '.'), ".cu"))
      ncu++, one = o->files[i];
  Program *p = ncu == 1 ? load_program(one, &o->pp)
                        : load_program_text("<command line>", text.s ? text.s : "", &o->pp);
  diag_capture_end(&cap, NULL);
  diag_capture_free(&cap);
  diag_errors = errors, diag_warnings = warnings;
  buf_free(&text);
  bool no_main;
  HostSkip *unread = host_unread(p, &no_main);
  bool need = cxx || unread || no_main || (!p && o->nfiles);
  bool want = forced || (need && rt_nvcc() && rt_library());
  if (!want) {
    const char *what = unread ? fmt("carve's front end could not read '%s'", unread->name)
                       : cxx  ? "its host sources are C++"
                              : "its launches stand in host code carve's front end could not read";
    if (need && !rt_nvcc())
      route_missing = fmt("%s, and such a program runs only built by nvcc against carve's CUDA "
                          "runtime library: nvcc is not found (set CARVE_NVCC or CUDA_HOME)",
                          what);
    else if (need)
      route_missing = fmt("carve's CUDA runtime library is not built: run 'make cudart' (or set "
                          "CARVE_CUDART): %s, and such a program runs only built by nvcc (%s) "
                          "against that library",
                          what, rt_nvcc());
    if (p) program_free(p);
    return false;
  }
  /* said where the reason is not the sources' names (a .cpp) or the user's --route */
  if (!forced && !cxx && unread)
    fprintf(stderr,
            "carve %s: route nvcc: carve's front end could not read '%s' (%s:%d: %s): its host "
            "code is built by nvcc (--route interp keeps the interpreter)\n",
            o->cmd->name, unread->name, unread->loc.file ? unread->loc.file->name : o->file,
            unread->loc.line, unread->msg);
  else if (!forced && !cxx && no_main)
    fprintf(stderr,
            "carve %s: route nvcc: no main carve's front end could read, and launches in code it "
            "skipped: the program is built by nvcc (--route interp keeps the interpreter)\n",
            o->cmd->name);
  /* the front end could not read the sources at all: the program still runs, and the runtime says
   * why each launch could not (exit 2) */
  if (!p) p = load_program_text("<no device code>", "", &o->pp);
  if (!p) return false;
  *pp = p;
  return o->nvcc_route = true;
}

static int run_command(const Command *c, int argc, char **argv) {
  Opts o;
  int r = parse_opts(c, argc, argv, &o);
  if (r) return r < 0 ? 0 : r;
  if (!c->load) {
    int rc = c->run(&o, NULL);
    recorded_cleanup(); /* estimate's nvcc route: the recorded buffers' files */
    return rc;
  }
  Program *np;
  if (choose_nvcc_route(&o, &np)) {
    int rc = c->run(&o, np);
    program_free(np);
    recorded_cleanup();
    return rc;
  }
  /* JSON and SARIF say what the diagnostics say: they are captured, and echoed to stderr */
  DiagCapture cap;
  if (!strcmp(o.format, "json") || !strcmp(o.format, "sarif")) diag_capture_begin(o.diags = &cap);
  Program *p =
    o.nfiles > 1 && c->load == LOAD_SOURCES ? load_sources(&o) : load_program(o.file, &o.pp);
  int rc = p ? c->run(&o, p) : 2;
  if (p) program_free(p);
  if (rc && route_missing) /* after the front end's errors: what would have run it */
    fprintf(stderr, "carve %s: note: %s\n", c->name, route_missing);
  if (o.diags) {
    diag_capture_end(&cap, stderr);
    if (rc == 2 && !strcmp(o.format, "sarif")) sarif_input_error(stdout, o.file, &cap);
    if (!p && c->run == cmd_check) {
      printf("{\"file\": ");
      json_string(stdout, o.file);
      printf(", \"kernels\": [], \"errors\": %d, \"diagnostics\": ", diag_errors);
      diag_json(stdout, &cap);
      printf("}\n");
    }
    diag_capture_free(&cap);
  }
  return rc;
}

int main(int argc, char **argv) {
  diag_out = stderr;
  diag_color = isatty(2) && !getenv("NO_COLOR");
  if (argc < 2) {
    fputs(usage_main, stderr);
    return 2;
  }
  const char *name = argv[1];
  const Command *c = find_command(name);
  int rc = 0;
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    const Command *h = argc > 2 ? find_command(argv[2]) : NULL;
    if (h) print_usage(h, stdout);
    else fputs(argc > 2 && search_usage(argv[2]) ? search_usage(argv[2]) : usage_main, stdout);
  } else if (!strcmp(name, "--version") || !strcmp(name, "version")) {
    printf("carve %s\n", CARVE_VERSION);
  } else if (c) {
    rc = run_command(c, argc - 2, argv + 2);
  } else if (search_is_command(name)) { /* space, tune: src/search parses its own options */
    rc = search_main(name, argc - 2, argv + 2);
  } else {
    fprintf(stderr, "carve: unknown command '%s'\n\n%s", name, usage_main);
    return 2;
  }
  out_abort_all(); /* files begun and never committed: an error path left them */
  if (!out_check_stdout()) rc = 2;
  arena_free_all();
  return rc;
}