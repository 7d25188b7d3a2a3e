/* carve: the command line. Each subcommand parses its flags, loads the program through the
 * front end and hands it to one stage. Exit status: 0 ok, 1 a kernel fault was found,
 * 2 usage or input error. */
#include "front/front.h"
#include "interp/interp.h"
#include "gpu/gpu.h"
#include "arch/arch.h"
#include "analysis/analysis.h"
#include "model/model.h"
#include "model/metrics.h"
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *usage_main =
  "usage: carve COMMAND [OPTIONS] FILE.cu\n"
  "\n"
  "carve reads CUDA C kernels, runs them on the CPU with CUDA's semantics, and says why they are slow.\n"
  "\n"
  "commands:\n"
  "  check   parse a file; list its kernels, their signatures and launch specifications\n"
  "  print   print the kernels back as CUDA source that nvcc compiles\n"
  "  run     execute one kernel launch in the SIMT interpreter; check memory accesses,\n"
  "          shared-memory races and barriers; write output buffers\n"
  "  arch    show the machine descriptions (H100, H200, and the papers' G80, GT200, C1060)\n"
  "          with the source of every number, and the calibration file if there is one\n"
  "  calibrate  measure the present GPU once (bandwidths, FP32 rate, latencies, launch and\n"
  "          barrier cost) and write the calibration file carve bench and the model read\n"
  "  analyze every global/shared access, branch and launch limit of a kernel: sectors per\n"
  "          request, bank conflicts, divergence, reuse, occupancy; findings with remedies\n"
  "  estimate resources (registers, shared memory, spills via NVRTC), exact occupancy and its\n"
  "          limiting resource, waves over the SMs\n"
  "  bench   run a launch on the GPU: generated harness, proper timing, verification\n"
  "          against the interpreter (--verify), Nsight Compute counters (--ncu)\n"
  "\n"
  "common options:\n"
  "  -D NAME[=VALUE]   define a macro (problem sizes are usually macros)\n"
  "  -I DIR            add a directory to the #include \"...\" search path\n"
  "  --help            help for a command (carve COMMAND --help)\n"
  "  --version         print the version\n"
  "\n"
  "exit status: 0 success, 1 a kernel fault was found, 2 usage or input error\n"
  "See docs/launch-spec.md for '#pragma carve' launch specifications and 'man ./docs/carve.1'.\n";

static const char *usage_check =
  "usage: carve check FILE.cu [-D NAME[=VALUE]] [-I DIR] [--format text|json]\n"
  "\n"
  "Parse FILE.cu (host code beside the kernels is skipped) and list each kernel with its\n"
  "signature, resources declared, and launch specification. Exit 0 when the file loads with no\n"
  "error, 2 with diagnostics otherwise.\n";

static const char *usage_print =
  "usage: carve print FILE.cu [-D NAME[=VALUE]] [-I DIR] [--kernel NAME] [-o OUT.cu]\n"
  "\n"
  "Print the device code of FILE.cu (types, constants, device functions, kernels, launch specs)\n"
  "as CUDA source, macros expanded. Printing the printed file gives the same text.\n";

static const char *usage_bench =
  "usage: carve bench FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--grid ...] [--block ...]\n"
  "                   [--arg ...] [--reps N] [--flush-l2] [--verify] [--verify-blocks N] [--ncu]\n"
  "                   [--baseline] [--arch sm_XX] [--timeout SECONDS] [--calibration FILE]\n"
  "                   [--format text|json] [--emit DIR]\n"
  "\n"
  "Generate a standalone CUDA harness for the launch (inputs made by exactly the generators\n"
  "'carve run' uses), build it with nvcc and time it: 2 warm-up launches, then the median, min and\n"
  "max of N launches with CUDA events, every CUDA call and each launch's error checked.\n"
  "  --verify      compare the first launch's outputs with the interpreter (integers exactly; floats\n"
  "                within the spec's tol, default relative L2 1e-5; NaN never passes); large grids\n"
  "                are checked on --verify-blocks sampled blocks (default 64), and say so\n"
  "  --ncu         Nsight Compute counters: sectors and requests, shared wavefronts and bank\n"
  "                conflicts, threads per instruction, achieved occupancy, DRAM bytes, duration\n"
  "  --baseline    time the spec's '#pragma carve baseline' library call (cuBLAS FP32, no TF32);\n"
  "                on by default when the spec names one (--no-baseline to skip)\n"
  "  --emit DIR    write DIR/harness.cu and DIR/build.sh; do not build or run\n"
  "Exit: 0 ok, 1 verification failed or the kernel faulted/hung, 2 error, 3 no GPU or no CUDA toolkit.\n";

static const char *usage_run =
  "usage: carve run FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR]\n"
  "                 [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]] [--shared BYTES]\n"
  "                 [--arg NAME=VALUE | --arg NAME=TYPE[COUNT]:INIT] [--out NAME=PATH]\n"
  "                 [--max-steps N] [--no-race-check] [--dump-inputs DIR] [--format text|json]\n"
  "\n"
  "Execute one launch of a kernel on the CPU, warp by warp, with CUDA's semantics. The launch\n"
  "comes from the file's '#pragma carve' lines; flags override them. Reports out-of-bounds and\n"
  "misaligned accesses, integer division by zero, shared-memory races between warps within one\n"
  "barrier interval and __syncthreads reached by part of a block, each with its source location,\n"
  "block and thread (exit 1). On success prints a summary: time, lane-operations executed and a\n"
  "checksum (FNV-1a 64 of the bytes) of each output buffer; --out writes a buffer as raw\n"
  "little-endian bytes (written only when the launch succeeds).\n"
  "\n"
  "  --arg n=1024                    scalar parameter\n"
  "  --arg 'A=float[4096]:random(7)' buffer: zeros | fill(V) | iota[(S[,STEP])] | random(SEED[,LO,HI]) | file(\"PATH\")\n"
  "  --max-steps N                   stop a runaway kernel after N warp-steps (default 2e9)\n"
  "  --dump-inputs DIR               write each buffer's initial bytes to DIR/NAME.bin before running\n";

typedef struct {
  const char *file;
  const char *kernel;
  const char *format;
  const char *out_path;
  PPOptions pp;
  LaunchOverrides ov;
  const char **outs; int nouts;
  const char **arg_texts; int nargs;
  const char *grid, *block;
  uint64_t max_steps;
  bool no_race;
  const char *dump_inputs;
  int blocks, fail_on, regs;
  BenchOptions bench;
} Opts;

static int usage_error(const char *cmd, const char *msg) {
  fprintf(stderr, "carve %s: %s\n(try 'carve %s --help')\n", cmd, msg, cmd);
  return 2;
}

/* flag lists live as long as the command: arena memory, freed at exit */
static void push(const char ***arr, int *n, const char *s) {
  const char **a = arena_alloc(sizeof(char *) * (size_t)(*n + 1));
  if (*n) memcpy(a, *arr, sizeof(char *) * (size_t)*n);
  a[(*n)++] = s;
  *arr = a;
}

/* common flag parsing; returns 0, or the exit status to stop with */
static int parse_opts(const char *cmd, int argc, char **argv, Opts *o, const char *usage) {
  memset(o, 0, sizeof *o);
  o->format = "text";
  o->ov.dyn_shared = -1;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *val = NULL;
#define TAKE(flag)                                                                    \
  (!strcmp(a, flag) ? (i + 1 < argc ? (val = argv[++i], 1) : -1)                       \
                    : (!strncmp(a, flag "=", strlen(flag) + 1) ? (val = a + strlen(flag) + 1, 1) : 0))
    int r;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(usage, stdout); return -1; }
    if (!strncmp(a, "-D", 2) && a[2]) { push(&o->pp.defines, &o->pp.n_defines, a + 2); continue; }
    if (!strncmp(a, "-I", 2) && a[2]) { push(&o->pp.include_dirs, &o->pp.n_include_dirs, a + 2); continue; }
    if ((r = TAKE("-D"))) { if (r < 0) return usage_error(cmd, "-D needs NAME[=VALUE]"); push(&o->pp.defines, &o->pp.n_defines, val); continue; }
    if ((r = TAKE("-I"))) { if (r < 0) return usage_error(cmd, "-I needs a directory"); push(&o->pp.include_dirs, &o->pp.n_include_dirs, val); continue; }
    if ((r = TAKE("--kernel"))) { if (r < 0) return usage_error(cmd, "--kernel needs a name"); o->kernel = val; continue; }
    if ((r = TAKE("--format"))) {
      if (r < 0 || (strcmp(val, "text") && strcmp(val, "json") && (strcmp(val, "sarif") || strcmp(cmd, "analyze"))))
        return usage_error(cmd, !strcmp(cmd, "analyze") ? "--format takes text, json or sarif" : "--format takes text or json");
      o->format = val;
      continue;
    }
    if ((r = TAKE("-o"))) { if (r < 0) return usage_error(cmd, "-o needs a path"); o->out_path = val; continue; }
    if ((r = TAKE("--grid"))) { if (r < 0) return usage_error(cmd, "--grid needs X[,Y[,Z]]"); o->grid = val; continue; }
    if ((r = TAKE("--block"))) { if (r < 0) return usage_error(cmd, "--block needs X[,Y[,Z]]"); o->block = val; continue; }
    if ((r = TAKE("--shared"))) {
      if (r < 0) return usage_error(cmd, "--shared needs a byte count");
      char *end;
      long long v = strtoll(val, &end, 0);
      if (*end || v < 0) return usage_error(cmd, "--shared needs a non-negative byte count");
      o->ov.dyn_shared = v;
      continue;
    }
    if ((r = TAKE("--arg"))) { if (r < 0) return usage_error(cmd, "--arg needs NAME=VALUE"); push(&o->arg_texts, &o->nargs, val); continue; }
    if ((r = TAKE("--out"))) {
      if (r < 0 || !strchr(val, '=')) return usage_error(cmd, "--out needs NAME=PATH");
      push(&o->outs, &o->nouts, val);
      continue;
    }
    if ((r = TAKE("--max-steps"))) {
      if (r < 0) return usage_error(cmd, "--max-steps needs a number");
      char *end;
      double v = strtod(val, &end);
      if (*end || v < 1) return usage_error(cmd, "--max-steps needs a positive number");
      o->max_steps = (uint64_t)v;
      continue;
    }
    if (!strcmp(a, "--no-race-check")) { o->no_race = true; continue; }
    if (!strcmp(a, "--verify")) { o->bench.verify = true; continue; }
    if ((r = TAKE("--dump-inputs"))) { if (r < 0) return usage_error(cmd, "--dump-inputs needs a directory"); o->dump_inputs = val; continue; }
    if (!strcmp(a, "--ncu")) { o->bench.ncu = true; continue; }
    if (!strcmp(a, "--flush-l2")) { o->bench.h.flush_l2 = true; continue; }
    if (!strcmp(a, "--baseline")) { o->bench.h.baseline = true; continue; }
    if (!strcmp(a, "--no-baseline")) { o->bench.no_baseline = true; continue; }
    if ((r = TAKE("--emit"))) { if (r < 0) return usage_error(cmd, "--emit needs a directory"); o->bench.emit_dir = val; continue; }
    if ((r = TAKE("--arch"))) { if (r < 0) return usage_error(cmd, "--arch needs a value"); o->bench.arch = val; continue; }
    if ((r = TAKE("--blocks"))) {
      char *end;
      long v = r > 0 ? strtol(val, &end, 10) : 0;
      if (r < 0 || *end || v < 1 || v > 1000000) return usage_error(cmd, "--blocks needs a positive number");
      o->blocks = (int)v;
      continue;
    }
    if ((r = TAKE("--regs"))) {
      char *end;
      long v = r > 0 ? strtol(val, &end, 10) : 0;
      if (r < 0 || *end || v < 1 || v > 255) return usage_error(cmd, "--regs needs a register count (1-255)");
      o->regs = (int)v;
      continue;
    }
    if ((r = TAKE("--fail-on"))) {
      if (r < 0 || (strcmp(val, "warning") && strcmp(val, "error"))) return usage_error(cmd, "--fail-on takes warning or error");
      o->fail_on = !strcmp(val, "warning") ? 2 : 3;
      continue;
    }
    if ((r = TAKE("--calibration"))) { if (r < 0) return usage_error(cmd, "--calibration needs a file"); o->bench.calibration = val; continue; }
    if ((r = TAKE("--reps")) || (r = TAKE("--verify-blocks")) || (r = TAKE("--timeout"))) {
      if (r < 0) return usage_error(cmd, fmt("%s needs a positive number", a));
      char *end;
      long v = strtol(val, &end, 10);
      if (*end || v < 1 || v > 1000000) return usage_error(cmd, fmt("%s needs a positive number", a));
      if (!strncmp(a, "--reps", 6)) o->bench.h.reps = (int)v;
      else if (!strncmp(a, "--verify-blocks", 15)) o->bench.verify_blocks = (int)v;
      else o->bench.timeout_s = (int)v;
      continue;
    }
#undef TAKE
    if (a[0] == '-' && a[1]) return usage_error(cmd, fmt("unknown option '%s'", a));
    if (o->file) return usage_error(cmd, fmt("more than one input file ('%s' and '%s')", o->file, a));
    o->file = a;
  }
  if (!o->file) return usage_error(cmd, "no input file");
  return 0;
}

static Program *load(Opts *o) {
  Program *p = load_program(o->file, &o->pp);
  return p;
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
    else fputc(*s, f);
  }
  fputc('"', f);
}

static char *signature(Obj *k) {
  Buf b = {0};
  print_function(&b, &(Obj){.name = k->name, .ty = k->ty, .is_kernel = k->is_kernel, .is_device = k->is_device,
                            .is_host = k->is_host, .launch_bounds = {k->launch_bounds[0], k->launch_bounds[1]}});
  char *s = arena_strdup(b.s ? b.s : "");
  buf_free(&b);
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == ';')) s[--n] = 0;
  return s;
}

static int cmd_check(int argc, char **argv) {
  Opts o;
  int r = parse_opts("check", argc, argv, &o, usage_check);
  if (r) return r < 0 ? 0 : r;
  Program *p = load(&o);
  if (!p) return 2;
  bool json = !strcmp(o.format, "json");
  int nk = 0;
  if (json) printf("{\"file\": "), json_str(stdout, o.file), printf(", \"kernels\": [");
  for (Obj *f = p->funcs; f; f = f->next) {
    if (!f->is_kernel || !f->is_definition) continue;
    LaunchSpec *s = find_spec(p, f->name);
    SrcLoc l = tok_loc(f->tok);
    if (json) {
      printf("%s\n  {\"name\": ", nk ? "," : "");
      json_str(stdout, f->name);
      printf(", \"line\": %d, \"signature\": ", l.line);
      json_str(stdout, signature(f));
      printf(", \"static_shared_bytes\": %d, \"uses_barrier\": %s", f->shared_size, f->uses_barrier ? "true" : "false");
      if (s) {
        printf(", \"launch\": {\"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"dynamic_shared_bytes\": %lld, \"args\": [",
               (long long)s->grid[0], (long long)s->grid[1], (long long)s->grid[2], (long long)s->block[0], (long long)s->block[1],
               (long long)s->block[2], (long long)s->dyn_shared);
        for (ArgSpec *a = s->args; a; a = a->next) {
          printf("%s{\"name\": ", a == s->args ? "" : ", ");
          json_str(stdout, a->name);
          if (a->is_buffer) {
            printf(", \"type\": ");
            json_str(stdout, type_name(a->elem_ty));
            printf(", \"count\": %lld, \"output\": %s}", (long long)a->count, a->out ? "true" : "false");
          } else if (a->scalar.is_float) printf(", \"value\": %.17g}", a->scalar.d);
          else printf(", \"value\": %lld}", (long long)a->scalar.i);
        }
        printf("]}");
      } else printf(", \"launch\": null");
      printf("}");
    } else {
      printf("%s:%d: %s\n", o.file, l.line, signature(f));
      if (f->shared_size || f->uses_barrier)
        printf("    static shared memory %d bytes%s\n", f->shared_size, f->uses_barrier ? ", uses __syncthreads" : "");
      if (s) {
        printf("    launch grid(%lld,%lld,%lld) block(%lld,%lld,%lld)", (long long)s->grid[0], (long long)s->grid[1], (long long)s->grid[2],
               (long long)s->block[0], (long long)s->block[1], (long long)s->block[2]);
        if (s->dyn_shared) printf(" shared(%lld)", (long long)s->dyn_shared);
        printf("\n");
        for (ArgSpec *a = s->args; a; a = a->next) {
          if (a->is_buffer) {
            char *init = a->init == INIT_ZEROS ? "zeros"
                         : a->init == INIT_FILL ? fmt("fill(%g)", a->a)
                         : a->init == INIT_IOTA ? fmt("iota(%g, %g)", a->a, a->b)
                         : a->init == INIT_RANDOM ? (a->has_range ? fmt("random(%llu, %g, %g)", (unsigned long long)a->seed, a->a, a->b)
                                                                  : fmt("random(%llu)", (unsigned long long)a->seed))
                         : fmt("file(\"%s\")", a->path);
            printf("    arg %s = %s[%lld] : %s%s\n", a->name, type_name(a->elem_ty), (long long)a->count, init, a->out ? " out" : "");
          } else if (a->scalar.is_float) printf("    arg %s = %g\n", a->name, a->scalar.d);
          else printf("    arg %s = %lld\n", a->name, (long long)a->scalar.i);
        }
      } else {
        printf("    no launch specification (#pragma carve launch %s ...)\n", f->name);
      }
    }
    nk++;
  }
  if (json) printf("\n], \"errors\": %d}\n", diag_errors);
  else if (!nk) printf("%s: no kernels\n", o.file);
  return diag_errors ? 2 : 0;
}

/* write to a temporary name, then rename: never a half-written file */
static int write_atomically(const char *path, const void *data, size_t n) {
  char *tmp = fmt("%s.carve-tmp", path);
  FILE *f = fopen(tmp, "wb");
  if (!f) { fprintf(stderr, "carve: cannot write '%s': %s\n", path, strerror(errno)); return 2; }
  size_t w = fwrite(data, 1, n, f);
  if (fclose(f) != 0 || w != n || rename(tmp, path) != 0) {
    fprintf(stderr, "carve: cannot write '%s': %s\n", path, strerror(errno));
    unlink(tmp);
    return 2;
  }
  return 0;
}

static int cmd_print(int argc, char **argv) {
  Opts o;
  int r = parse_opts("print", argc, argv, &o, usage_print);
  if (r) return r < 0 ? 0 : r;
  Program *p = load(&o);
  if (!p) return 2;
  if (diag_errors) return 2;
  Buf b = {0};
  if (o.kernel) {
    Obj *k = find_kernel(p, o.kernel);
    if (!k) { fprintf(stderr, "carve print: no kernel named '%s' in %s\n", o.kernel, o.file); return 2; }
    print_function(&b, k);
  } else {
    print_program(&b, p);
  }
  int rc = 0;
  if (o.out_path) rc = write_atomically(o.out_path, b.s ? b.s : "", b.len);
  else fputs(b.s ? b.s : "", stdout);
  buf_free(&b);
  return rc;
}

static Obj *pick_kernel(Program *p, Opts *o, const char *cmd) {
  if (o->kernel) {
    Obj *k = find_kernel(p, o->kernel);
    if (!k) {
      fprintf(stderr, "carve %s: no kernel named '%s' in %s (kernels:", cmd, o->kernel, o->file);
      for (Obj *f = p->funcs; f; f = f->next) if (f->is_kernel && f->is_definition) fprintf(stderr, " %s", f->name);
      fprintf(stderr, ")\n");
    }
    return k;
  }
  Obj *k = find_kernel(p, NULL);
  if (k) return k;
  /* several kernels: the first one with a launch spec */
  for (LaunchSpec *s = p->specs; s; s = s->next)
    if ((k = find_kernel(p, s->kernel))) return k;
  int n = 0;
  for (Obj *f = p->funcs; f; f = f->next) if (f->is_kernel && f->is_definition) n++;
  if (!n) fprintf(stderr, "carve %s: %s has no kernel\n", cmd, o->file);
  else fprintf(stderr, "carve %s: %s has %d kernels and no launch specification; choose one with --kernel\n", cmd, o->file, n);
  return NULL;
}

/* the first few elements of a buffer, for a glance at the result */
static void print_first(const Buffer *b, int n) {
  Type *t = b->elem_ty;
  if (t->kind == TY_STRUCT) { printf(" (vector elements)"); return; }
  for (int i = 0; i < n && i < b->count; i++) {
    Val v;
    const unsigned char *p = b->data + (size_t)i * (size_t)t->size;
    if (t->kind == TY_FLOAT) { float f; memcpy(&f, p, 4); printf(" %g", f); continue; }
    if (t->kind == TY_DOUBLE) { memcpy(&v.d, p, 8); printf(" %g", v.d); continue; }
    int64_t x = 0;
    memcpy(&x, p, (size_t)t->size);
    if (!t->is_unsigned && t->size < 8 && (x >> (8 * t->size - 1)) & 1) x = (int64_t)((uint64_t)x | ~((1ull << (8 * t->size)) - 1));
    printf(t->is_unsigned ? " %llu" : " %lld", (long long)x);
  }
  if (b->count > n) printf(" ...");
}

/* the file's launch for kernel k, with the flags' grid, block and arguments over it;
 * 0, or 2 after a diagnostic (nothing to free then) */
static int prepare_launch(Opts *o, Program *p, Obj *k, Launch *L) {
  LaunchOverrides ov = o->ov;
  if (o->grid) { if (!parse_dims(p, o->grid, ov.grid)) return 2; ov.has_grid = true; }
  if (o->block) { if (!parse_dims(p, o->block, ov.block)) return 2; ov.has_block = true; }
  ov.args = arena_alloc(sizeof(ArgSpec *) * (size_t)(o->nargs + 1));
  ov.nargs = 0;
  for (int i = 0; i < o->nargs; i++) {
    ArgSpec *a = parse_arg_setting(p, o->arg_texts[i], ".");
    if (!a) return 2;
    ov.args[ov.nargs++] = a;
  }
  if (launch_prepare(L, p, k, &ov)) { launch_free(L); return 2; }
  return 0;
}

static int cmd_run(int argc, char **argv) {
  Opts o;
  int r = parse_opts("run", argc, argv, &o, usage_run);
  if (r) return r < 0 ? 0 : r;
  Program *p = load(&o);
  if (!p) return 2;
  Obj *k = pick_kernel(p, &o, "run");
  if (!k) return 2;
  if (p->errors && diag_errors) {
    /* errors elsewhere in the file do not stop this kernel, but errors in it or its specs do */
    if (!k->body) return 2;
  }
  Launch L;
  if (prepare_launch(&o, p, k, &L)) return 2;
  /* --out NAME=PATH marks NAME as an output */
  int *out_buf = xmalloc(sizeof(int) * (size_t)(o.nouts + 1));
  for (int i = 0; i < o.nouts; i++) {
    const char *eq = strchr(o.outs[i], '=');
    char *name = arena_strndup(o.outs[i], (size_t)(eq - o.outs[i]));
    out_buf[i] = -1;
    for (int b = 1; b < L.nbufs; b++) if (!strcmp(L.bufs[b].name, name)) out_buf[i] = b;
    if (out_buf[i] < 0) {
      fprintf(stderr, "carve run: --out %s: '%s' is not a buffer argument of '%s'\n", o.outs[i], name, k->name);
      launch_free(&L);
      free(out_buf);
      return 2;
    }
    L.bufs[out_buf[i]].out = true;
  }
  if (o.dump_inputs && !make_dirs(o.dump_inputs)) {
    fprintf(stderr, "carve run: cannot create %s: %s\n", o.dump_inputs, strerror(errno));
    launch_free(&L);
    free(out_buf);
    return 2;
  }
  if (o.dump_inputs)
    for (int b = 1; b < L.nbufs; b++)
      if (write_atomically(fmt("%s/%s.bin", o.dump_inputs, L.bufs[b].name), L.bufs[b].data, L.bufs[b].bytes)) { launch_free(&L); free(out_buf); return 2; }
  RunOptions ro = {.max_steps = o.max_steps, .no_race_check = o.no_race};
  RunStats st;
  fflush(stdout);
  int rc = interp_run(&L, &ro, &st);
  bool json = !strcmp(o.format, "json");
  if (rc == 2) { launch_free(&L); free(out_buf); return 2; }
  if (json) {
    printf("{\"file\": ");
    json_str(stdout, o.file);
    printf(", \"kernel\": ");
    json_str(stdout, k->name);
    printf(", \"grid\": [%lld, %lld, %lld], \"block\": [%lld, %lld, %lld], \"status\": \"%s\", \"faults\": %d,\n",
           (long long)L.grid[0], (long long)L.grid[1], (long long)L.grid[2], (long long)L.block[0], (long long)L.block[1],
           (long long)L.block[2], rc ? "fault" : "ok", st.faults);
    printf(" \"seconds\": %.6f, \"lane_ops\": %llu, \"warp_steps\": %llu, \"blocks\": %llu, \"outputs\": [", st.seconds,
           (unsigned long long)st.lane_ops, (unsigned long long)st.warp_steps, (unsigned long long)st.blocks_run);
    int no = 0;
    for (int b = 1; b < L.nbufs; b++) {
      if (!L.bufs[b].out) continue;
      printf("%s{\"name\": ", no++ ? ", " : "");
      json_str(stdout, L.bufs[b].name);
      printf(", \"type\": ");
      json_str(stdout, type_name(L.bufs[b].elem_ty));
      printf(", \"count\": %lld, \"checksum\": \"%016llx\"}", (long long)L.bufs[b].count, (unsigned long long)buffer_checksum(&L.bufs[b]));
    }
    printf("]}\n");
  } else {
    printf("%s: %s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> %s\n", o.file, k->name, (long long)L.grid[0], (long long)L.grid[1],
           (long long)L.grid[2], (long long)L.block[0], (long long)L.block[1], (long long)L.block[2], rc ? "FAULT" : "ok");
    printf("  %.3f s, %llu lane-ops (%.1f M lane-ops/s), %llu blocks\n", st.seconds, (unsigned long long)st.lane_ops,
           st.seconds > 0 ? (double)st.lane_ops / st.seconds / 1e6 : 0.0, (unsigned long long)st.blocks_run);
    if (!rc)
      for (int b = 1; b < L.nbufs; b++)
        if (L.bufs[b].out) {
          printf("  output %s: %s[%lld] checksum %016llx  first:", L.bufs[b].name, type_name(L.bufs[b].elem_ty), (long long)L.bufs[b].count,
                 (unsigned long long)buffer_checksum(&L.bufs[b]));
          print_first(&L.bufs[b], 4);
          printf("\n");
        }
  }
  if (!rc)
    for (int i = 0; i < o.nouts; i++) {
      const char *path = strchr(o.outs[i], '=') + 1;
      Buffer *b = &L.bufs[out_buf[i]];
      if (write_atomically(path, b->data, b->bytes)) { rc = 2; break; }
    }
  launch_free(&L);
  free(out_buf);
  return rc;
}

static const char *usage_analyze =
  "usage: carve analyze FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [-I DIR] [--grid ...] [--block ...]\n"
  "                     [--arg ...] [--arch h100|h200|g80|gt200|c1060] [--blocks N]\n"
  "                     [--format text|json|sarif] [--fail-on warning|error]\n"
  "\n"
  "Run N sampled blocks (default 16: first, last and evenly spread; all when the grid is smaller)\n"
  "in the interpreter and report, for every global and shared memory instruction: its index as an\n"
  "affine form when it is one, its class (warp-uniform, unit stride, stride s, indirect), 32-byte\n"
  "sectors per warp request (sm_90 rule) or shared wavefronts per request (bank conflicts), bytes\n"
  "moved against bytes used, and reuse within a block; for every branch, how often warps diverge;\n"
  "and launch limits (block size, occupancy bound, idle SMs). Each finding names the line, the cost\n"
  "and the remedy. 'exact' means an affine index with the same cost in every sampled request;\n"
  "otherwise the figure is 'sampled'.\n"
  "Exit: 0, or 1 when --fail-on's level is reached or the kernel faults; 2 on input errors.\n";

static const char *usage_estimate =
  "usage: carve estimate FILE.cu [--kernel NAME] [-D NAME[=VALUE]] [--grid ...] [--block ...] [--arg ...]\n"
  "                      [--arch h100|h200|g80|gt200|c1060] [--regs N] [--calibration FILE] [--format text|json]\n"
  "       carve estimate --rank A.cu B.cu ... [-D ...] [--arch ...]\n"
  "\n"
  "Registers per thread, static shared memory, stack and spills as ptxas reports them (NVRTC loaded\n"
  "in-process, cached by source; 'unknown' without the CUDA toolkit, or give --regs), the exact\n"
  "occupancy for the launch on the machine (the rule of cuda_occupancy.h for sm_90, the per-block\n"
  "register allocation of cc 1.x) with the limiting resource, and the waves of blocks over the SMs.\n"
  "Then the dynamic instruction mix per thread, counted on sampled blocks and rewritten as nvcc\n"
  "compiles it (unrolling, hoisting, strength reduction, predication, 128-bit merging), the measured\n"
  "loop trip counts, Ryoo's Instr/Regions/LongRegions/Efficiency/Utilization (eqs. 5.1, 5.2, 6.1),\n"
  "CuMAPz's memory factors, and a time estimate from limits (issue, SFU, DRAM, L2, the L1/shared\n"
  "data pipe, one warp's latency path, launch) against the ceilings of 'carve calibrate'; the largest\n"
  "names the bottleneck, the roofline shows the headroom. Validation: docs/validation.md; JSON\n"
  "fields: docs/estimate-json.md.\n"
  "  --rank A.cu B.cu ...   rank variants by estimated time and say why each is slower than the best\n";

static const char *usage_arch =
  "usage: carve arch [NAME] [--format text|json]\n"
  "\n"
  "List the machine descriptions, or show one (h100, h200, g80, gt200, c1060) field by field with\n"
  "the source of each number, followed by the calibration measured on this GPU if present\n"
  "($CARVE_CALIBRATION or ~/.cache/carve/calibration.json).\n";

static const char *usage_calibrate =
  "usage: carve calibrate [--out FILE] [--arch sm_XX]\n"
  "\n"
  "Build and run carve's GPU microbenchmarks (device-to-device copy, streaming read, FP32 FMA rate,\n"
  "shared-memory and L2 bandwidth, global and L2 latency by pointer chase, launch overhead,\n"
  "__syncthreads cost) and write the result as JSON to FILE (default $CARVE_CALIBRATION or\n"
  "~/.cache/carve/calibration.json). Exit 3 without a GPU or CUDA toolkit.\n";

static void arch_field(const Machine *m, const char *field, const char *value, bool json, bool *first) {
  const char *src = machine_source(m, field);
  if (json) {
    printf("%s\n    \"%s\": {\"value\": %s, \"source\": ", *first ? "" : ",", field, value);
    json_str(stdout, src ? src : "");
    printf("}");
    *first = false;
  } else {
    printf("  %-26s %-14s %s\n", field, value, src ? src : "");
  }
}

static int cmd_arch(int argc, char **argv) {
  const char *name = NULL;
  bool json = false;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(usage_arch, stdout); return 0; }
    if (!strcmp(argv[i], "--format") && i + 1 < argc) { json = !strcmp(argv[++i], "json"); continue; }
    if (!strcmp(argv[i], "--format=json")) { json = true; continue; }
    if (argv[i][0] == '-') return usage_error("arch", fmt("unknown option '%s'", argv[i]));
    name = argv[i];
  }
  int n;
  const Machine *all = machine_list(&n);
  if (!name) {
    if (json) printf("[");
    for (int i = 0; i < n; i++) {
      if (json) { printf("%s{\"name\": ", i ? ", " : ""); json_str(stdout, all[i].name); printf(", \"long_name\": "); json_str(stdout, all[i].long_name); printf(", \"cc\": \"%d.%d\"}", all[i].cc_major, all[i].cc_minor); }
      else printf("%-6s sm_%d%d  %3d SMs  %s\n", all[i].name, all[i].cc_major, all[i].cc_minor, all[i].sm_count, all[i].long_name);
    }
    if (json) printf("]\n");
    return 0;
  }
  const Machine *m = machine_find(name);
  if (!m) {
    fprintf(stderr, "carve arch: no machine named '%s' (", name);
    for (int i = 0; i < n; i++) fprintf(stderr, "%s%s", i ? ", " : "", all[i].name);
    fprintf(stderr, ")\n");
    return 2;
  }
  bool first = true;
  if (json) { printf("{\"name\": "); json_str(stdout, m->name); printf(", \"fields\": {"); }
  else printf("%s: %s (compute capability %d.%d)\n", m->name, m->long_name, m->cc_major, m->cc_minor);
#define FI(f) arch_field(m, #f, fmt("%lld", (long long)m->f), json, &first)
#define FD(f) arch_field(m, #f, fmt("%g", (double)m->f), json, &first)
  FI(sm_count); FI(warp_size); FI(max_threads_per_block); FI(max_threads_per_sm); FI(max_blocks_per_sm); FI(max_warps_per_sm);
  FI(regs_per_sm); FI(max_regs_per_thread); FI(reg_alloc_unit); FI(warp_alloc_gran); FI(smem_per_sm); FI(smem_per_block);
  FI(smem_per_block_optin); FI(smem_alloc_unit); FI(smem_reserved_per_block); FI(smem_banks); FI(smem_bank_bytes);
  FI(l2_bytes); FI(coalesce_threads); FI(mem_sector_bytes); FI(mem_line_bytes); FI(mem_partitions); FI(mem_partition_bytes);
  FD(dram_peak_gbps); FD(dram_copy_gbps); FI(dram_latency_cycles); FD(clock_mhz); FI(fp32_lanes_per_sm); FI(sfu_per_sm);
  FD(fp32_peak_gflops); FD(launch_overhead_us);
#undef FI
#undef FD
  const char *cal = calibration_path(NULL);
  size_t len;
  char *c = read_file(cal, &len);
  if (json) printf("}, \"calibration\": %s}\n", c && strchr(c, '{') ? c : "null");
  else if (c) printf("calibration (%s):\n%s\n", cal, c);
  else printf("no calibration file (%s): run 'carve calibrate' on the GPU\n", cal);
  free(c);
  return 0;
}

static int cmd_calibrate(int argc, char **argv) {
  const char *out = NULL, *arch = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { fputs(usage_calibrate, stdout); return 0; }
    if (!strcmp(argv[i], "--out") && i + 1 < argc) { out = argv[++i]; continue; }
    if (!strcmp(argv[i], "--arch") && i + 1 < argc) { arch = argv[++i]; continue; }
    return usage_error("calibrate", fmt("unknown argument '%s'", argv[i]));
  }
  return calibrate_run(out, arch);
}

static int cmd_analyze(int argc, char **argv) {
  Opts o;
  int r = parse_opts("analyze", argc, argv, &o, usage_analyze);
  if (r) return r < 0 ? 0 : r;
  const Machine *m = machine_find(o.bench.arch ? o.bench.arch : "h100");
  if (!m) return usage_error("analyze", fmt("unknown --arch '%s' (h100, h200, g80, gt200, c1060)", o.bench.arch));
  Program *p = load(&o);
  if (!p) return 2;
  Obj *k = pick_kernel(p, &o, "analyze");
  if (!k || !k->body) return 2;
  Launch L;
  if (prepare_launch(&o, p, k, &L)) return 2;
  Analysis a;
  AnalyzeOptions ao = {.max_blocks = o.blocks};
  int rc = analyze(&a, &L, m, &ao);
  if (rc == 2) { launch_free(&L); return 2; }
  ReportFormat f = !strcmp(o.format, "json") ? FMT_JSON : !strcmp(o.format, "sarif") ? FMT_SARIF : FMT_TEXT;
  fflush(stdout);
  int worst = report(&a, o.file, f, stdout);
  analysis_free(&a);
  launch_free(&L);
  if (rc == 1) return 1;
  return o.fail_on && worst >= o.fail_on ? 1 : 0;
}

static const char *limit_key[] = {"issue", "sfu", "dram", "l2", "l1", "latency", "atomic", "launch"};

/* estimate one file; prints unless quiet; returns exit status and the estimate */
static int estimate_one(Opts *o, const Machine *m, bool quiet, Estimate *out) {
  Program *p = load(o);
  if (!p) return 2;
  Obj *k = pick_kernel(p, o, "estimate");
  if (!k || !k->body) return 2;
  Launch L;
  if (prepare_launch(o, p, k, &L)) return 2;
  Resources res = {.instructions = -1};
  if (o->regs > 0) { res.known = true; res.regs = o->regs; res.smem = kernel_static_shared(k); }
  else if (m->cc_major >= 7) res = kernel_resources(p, k, fmt("sm_%d%d", m->cc_major, m->cc_minor));
  else snprintf(res.why, sizeof res.why, "NVRTC cannot compile for compute capability %d.%d: give --regs", m->cc_major, m->cc_minor);
  int threads = (int)(L.block[0] * L.block[1] * L.block[2]);
  int smem = (res.known ? res.smem : kernel_static_shared(k)) + (int)L.dyn_shared;
  Occupancy oc = occupancy(m, threads, res.known ? res.regs : 0, smem);
  int64_t blocks = L.grid[0] * L.grid[1] * L.grid[2];
  int64_t per_wave = (int64_t)oc.blocks_per_sm * m->sm_count;
  double waves = per_wave ? (double)blocks / (double)per_wave : 0;
  double tail = per_wave ? (double)(blocks % per_wave ? blocks % per_wave : per_wave) / (double)per_wave : 0;
  /* dynamic counts and traffic, from the interpreter on sampled blocks */
  Counts cn;
  Analysis an = {0};
  const char *cal = calibration_path(o->bench.calibration);
  Ceilings ce = ceilings_for(m, cal);
  int rc1 = count_instructions(&L, &cn, 2);
  int rc2 = rc1 ? rc1 : analyze(&an, &L, m, NULL);
  if (rc1 || rc2) { counts_free(&cn); analysis_free(&an); launch_free(&L); return rc1 ? rc1 : rc2; }
  Estimate e = estimate_time(&L, m, &cn, &an, oc, ce);
  CuMAPz cz = cumapz_factors(&an, m, oc);
  /* the roofline: the declared (or counted) work at the machine's ceilings */
  LaunchSpec *spec = find_spec(p, k->name);
  double flops = spec && spec->flops > 0 ? spec->flops : 2.0 * cn.lanes[CL_FP32] / (cn.threads_sampled > 0 ? cn.threads_sampled : 1) * e.threads;
  double t_mem = e.dram_min_bytes / (ce.dram_gbps * 1e9), t_flop = flops / (ce.fp32_gflops * 1e9);
  double roofline = t_mem > t_flop ? t_mem : t_flop;
  const char *roofline_by = t_mem > t_flop ? "DRAM: every buffer once" : spec && spec->flops > 0 ? "FP32: the declared flops" : "FP32: counted operations";
  if (out) *out = e;
  if (quiet) { analysis_free(&an); counts_free(&cn); launch_free(&L); return 0; }
  static const char *cls[] = {"int", "fp32", "fp64", "sfu", "convert", "global ld", "global st", "atomic", "shared ld", "shared st", "local", "barrier", "branch"};
  if (!strcmp(o->format, "json")) {
    printf("{\"file\": ");
    json_str(stdout, o->file);
    printf(", \"kernel\": ");
    json_str(stdout, k->name);
    printf(", \"arch\": \"%s\", \"resources\": ", m->name);
    if (res.known)
      printf("{\"registers\": %d, \"static_shared_bytes\": %d, \"stack_bytes\": %d, \"spill_store_bytes\": %d, \"spill_load_bytes\": %d, "
             "\"sass_instructions\": %d, \"compiler\": \"%s\"}",
             res.regs, res.smem, res.stack, res.spill_stores, res.spill_loads, res.instructions,
             o->regs > 0 ? "--regs" : res.via_nvcc ? "nvcc" : "nvrtc");
    else { printf("{\"unknown\": "); json_str(stdout, res.why); printf("}"); }
    printf(", \"threads_per_block\": %d, \"shared_bytes_per_block\": %d, \"occupancy\": {\"blocks_per_sm\": %d, \"warps_per_sm\": %d, "
           "\"occupancy\": %.4f, \"limit\": \"%s\", \"registers_counted\": %s, \"by_warps\": %d, \"by_blocks\": %d, \"by_registers\": %d, \"by_shared\": %d}, "
           "\"blocks\": %lld, \"waves\": %.3f, \"last_wave_fill\": %.3f",
           threads, smem, oc.blocks_per_sm, oc.warps_per_sm, oc.occupancy, occ_limit_name(oc.limit), res.known ? "true" : "false",
           oc.by_warps, oc.by_blocks, oc.by_regs > 100000 ? -1 : oc.by_regs, oc.by_smem > 100000 ? -1 : oc.by_smem, (long long)blocks, waves, tail);
    printf(", \"per_thread\": {");
    for (int i = 0; i < CL_N; i++) printf("%s\"%s\": %.3f", i ? ", " : "", cls[i], cn.threads_sampled > 0 ? cn.lanes[i] / cn.threads_sampled : 0.0);
    printf("}, \"counts_truncated\": %s, \"ryoo\": {\"instr\": %.1f, \"regions\": %.1f, \"long_regions\": %.1f, \"threads\": %.0f, "
           "\"efficiency\": %.4g, \"utilization\": %.4g, \"utilization_simple\": %.4g}",
           cn.truncated ? "true" : "false", e.instr_per_thread, e.regions_per_thread, e.long_regions_per_thread, e.threads, e.efficiency,
           e.utilization, e.utilization_simple);
    printf(", \"loops\": [");
    for (int i = 0; i < cn.nloops; i++) {
      SrcLoc at = tok_loc(cn.loops[i].loop->tok);
      printf("%s{\"line\": %d, \"entries_per_thread\": %.4g, \"iterations_per_entry\": %.4g, \"unroll\": %.4g, \"static_trip\": %lld}",
             i ? ", " : "", at.line, cn.loops[i].entries / cn.threads_sampled, cn.loops[i].iterations / cn.loops[i].entries, cn.loops[i].unroll,
             (long long)cn.loops[i].static_trip);
    }
    printf("]");
    printf(", \"cumapz\": {\"data_reuse\": %.4g, \"lat_hiding\": %.4g, \"bw_util\": %.4g, \"ch_skew\": %.4g, \"shm_eff\": %.4g, \"branch_eff\": %.4g, \"mpe\": %.4g}",
           cz.data_reuse, cz.lat_hiding, cz.bw_util, cz.ch_skew, cz.shm_eff, cz.branch_eff, cz.mpe);
    printf(", \"estimate\": {\"seconds\": %.6g, \"bottleneck\": \"%s\", \"ceilings\": \"%s\", \"limits\": {", e.total, bottleneck_name(e.bottleneck), ce.source);
    for (int i = 0; i < B_N; i++) printf("%s\"%s\": %.6g", i ? ", " : "", limit_key[i], e.t[i]);
    printf("}, \"dram_bytes\": %.6g, \"l2_bytes\": %.6g, \"shared_bytes\": %.6g, \"warp_instructions\": %.6g, \"l1_wavefronts\": %.6g, "
           "\"roofline_seconds\": %.6g, \"hotspots\": [",
           e.dram_bytes, e.l2_bytes, e.shared_bytes, e.warp_instructions, e.l1_wavefronts, roofline);
    for (int i = 0; i < e.nhot; i++) {
      printf("%s{\"line\": %d, \"col\": %d, \"share\": %.4f, \"of\": \"%s\"", i ? ", " : "", e.hot[i].line, e.hot[i].col, e.hot[i].share,
             e.hot[i].measure);
      if (e.hot[i].what) { printf(", \"access\": "); json_str(stdout, e.hot[i].what); }
      printf("}");
    }
    printf("]}}\n");
  } else {
    printf("%s: %s on %s (%s)\n", o->file, k->name, m->name, m->long_name);
    if (res.known)
      printf("  resources: %d registers per thread, %d bytes static shared, %d bytes stack, spills %d/%d bytes (store/load)%s%s\n", res.regs,
             res.smem, res.stack, res.spill_stores, res.spill_loads, res.instructions >= 0 ? fmt(", %d SASS instructions", res.instructions) : "",
             o->regs > 0 ? " (--regs given)" : res.via_nvcc ? " (ptxas via nvcc: NVRTC not found)" : " (ptxas via NVRTC)");
    else printf("  resources: unknown (%s); occupancy below ignores registers\n", res.why);
    printf("  launch: %lld blocks of %d threads, %d bytes shared per block\n", (long long)blocks, threads, smem);
    printf("  occupancy: %d blocks, %d warps per SM = %.0f%% of %d, limited by %s\n", oc.blocks_per_sm, oc.warps_per_sm, 100 * oc.occupancy,
           m->max_warps_per_sm, occ_limit_name(oc.limit));
    printf("    bounds: warps %d, blocks %d, registers %s, shared memory %s\n", oc.by_warps, oc.by_blocks,
           oc.by_regs > 100000 ? "-" : fmt("%d", oc.by_regs), oc.by_smem > 100000 ? "-" : fmt("%d", oc.by_smem));
    if (per_wave) printf("  waves: %.2f over %d SMs (%lld blocks per wave); the last wave is %.0f%% full\n", waves, m->sm_count, (long long)per_wave, 100 * tail);
    printf("  per thread (%s%.0f sampled threads):", cn.truncated ? "lower bounds, " : "", cn.threads_sampled);
    for (int i = 0; i < CL_N; i++) if (cn.lanes[i] > 0) printf(" %s %.1f", cls[i], cn.lanes[i] / cn.threads_sampled);
    printf("\n  Ryoo: Instr %.0f, Regions %.0f, LongRegions %.0f, Efficiency %.3g, Utilization %.3g (eq. 5.2), %.3g (eq. 6.1)\n",
           e.instr_per_thread, e.regions_per_thread, e.long_regions_per_thread, e.efficiency, e.utilization, e.utilization_simple);
    for (int i = 0; i < cn.nloops; i++) {
      SrcLoc at = tok_loc(cn.loops[i].loop->tok);
      double it = cn.loops[i].iterations / cn.loops[i].entries;
      printf("  loop at line %d: %.4g iterations per entry (measured)", at.line, it);
      if (cn.loops[i].static_trip >= 0 && cn.loops[i].unroll >= (double)cn.loops[i].static_trip) printf(", constant trip count: fully unrolled\n");
      else if (cn.loops[i].unroll > 1) printf(", modelled as unrolled by %.0f (nvcc's heuristic)\n", cn.loops[i].unroll);
      else printf(", not unrolled\n");
    }
    printf("  CuMAPz: data_reuse %.3g, lat_hiding %.3g, bw_util %.3g, ch_skew %.3g, shm_eff %.3g, branch_eff %.3g, MPE %.3g\n", cz.data_reuse,
           cz.lat_hiding, cz.bw_util, cz.ch_skew, cz.shm_eff, cz.branch_eff, cz.mpe);
    printf("  estimate: %.4g ms, bound by %s (ceilings from the %s)\n", e.total * 1e3, bottleneck_name(e.bottleneck), ce.source);
    for (int i = 0; i < e.nhot; i++) {
      if (e.hot[i].what) printf("    where: %s:%d:%d: %s, %.0f%% of the %s\n", o->file, e.hot[i].line, e.hot[i].col, e.hot[i].what, 100 * e.hot[i].share, e.hot[i].measure);
      else printf("    where: %s:%d: %.0f%% of the %s\n", o->file, e.hot[i].line, 100 * e.hot[i].share, e.hot[i].measure);
    }
    printf("    limits (ms):");
    for (int i = 0; i < B_N; i++) printf(" %s %.4g", limit_key[i], e.t[i] * 1e3);
    printf("\n    predicted counters: DRAM %.3g MB, L2 %.3g MB, shared %.3g MB, %.3g warp instructions, %.3g L1 wavefronts\n",
           e.dram_bytes / 1e6, e.l2_bytes / 1e6, e.shared_bytes / 1e6, e.warp_instructions, e.l1_wavefronts);
    if (roofline > 0)
      printf("    roofline: %.4g ms (%s); the estimate is %.2gx above it\n", roofline * 1e3, roofline_by, e.total / roofline);
  }
  analysis_free(&an);
  counts_free(&cn);
  launch_free(&L);
  return 0;
}

/* the ranking of `carve estimate --rank`, and why each variant is slower than the best one:
 * its own bottleneck against the same limit in the best variant */
static void print_ranking(const char **files, const Estimate *es, const int *order, int n, bool json) {
  const Estimate *best = &es[order[0]];
  if (json) {
    printf("[");
    for (int i = 0; i < n; i++) {
      const Estimate *e = &es[order[i]];
      printf("%s{\"rank\": %d, \"file\": ", i ? ", " : "", i + 1);
      json_str(stdout, files[order[i]]);
      printf(", \"seconds\": %.6g, \"vs_best\": %.4g, \"bottleneck\": \"%s\", \"warps_per_sm\": %d, \"occupancy_limit\": \"%s\", "
             "\"warp_instructions\": %.6g, \"dram_bytes\": %.6g, \"l1_wavefronts\": %.6g, \"limits\": {",
             e->total, e->total / best->total, bottleneck_name(e->bottleneck), e->warps_per_sm, occ_limit_name((OccLimit)e->occ_limit),
             e->warp_instructions, e->dram_bytes, e->l1_wavefronts);
      for (int b = 0; b < B_N; b++) printf("%s\"%s\": %.6g", b ? ", " : "", limit_key[b], e->t[b]);
      printf("}}");
    }
    printf("]\n");
    return;
  }
  printf("rank  estimate ms  x best  bottleneck                        warps/SM (limit)        file\n");
  for (int i = 0; i < n; i++) {
    const Estimate *e = &es[order[i]];
    printf("%4d  %11.4f  %6.2f  %-33s %3d (%-17s)  %s\n", i + 1, e->total * 1e3, e->total / best->total, bottleneck_name(e->bottleneck),
           e->warps_per_sm, occ_limit_name((OccLimit)e->occ_limit), files[order[i]]);
  }
  printf("why:\n");
  for (int i = 1; i < n; i++) {
    const Estimate *e = &es[order[i]];
    int b = e->bottleneck;
    if (e->total < best->total * 1.05) {
      printf("  %s: within 5%% of %s (the model cannot tell them apart)\n", files[order[i]], files[order[0]]);
      continue;
    }
    printf("  %s: %.2fx the time of %s; bound by %s: %.4g ms against %.4g ms in the best", files[order[i]], e->total / best->total,
           files[order[0]], bottleneck_name(b), e->t[b] * 1e3, best->t[b] * 1e3);
    if (e->warps_per_sm != best->warps_per_sm) printf(" (%d against %d resident warps per SM)", e->warps_per_sm, best->warps_per_sm);
    if (e->nhot > 0) {
      const struct Hotspot *h = &e->hot[0];
      if (h->what) printf("; mostly line %d:%d, %s (%.0f%%)", h->line, h->col, h->what, 100 * h->share);
      else printf("; mostly line %d (%.0f%%)", h->line, 100 * h->share);
    }
    printf("\n");
  }
}

static int cmd_estimate(int argc, char **argv) {
  bool rank = false, json = false;
  const char **files = NULL;
  int nfiles = 0;
  char **rest = arena_alloc(sizeof(char *) * (size_t)(argc + 1));
  int nrest = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--rank")) { rank = true; continue; }
    if (i + 1 < argc && !strcmp(argv[i], "--format") && !strcmp(argv[i + 1], "json")) json = true;
    rest[nrest++] = argv[i];
  }
  if (rank) {
    /* the files are the arguments that are not flags or flag values */
    char **flags = arena_alloc(sizeof(char *) * (size_t)(nrest + 2));
    int nf = 0;
    static const char *with_value[] = {"-D", "-I", "--kernel", "--format", "--grid", "--block", "--arg", "--arch", "--regs", "--calibration", "--shared"};
    for (int i = 0; i < nrest; i++) {
      bool takes = false;
      for (size_t j = 0; j < sizeof with_value / sizeof *with_value; j++) if (!strcmp(rest[i], with_value[j])) takes = true;
      if (takes && i + 1 < nrest) { flags[nf++] = rest[i]; flags[nf++] = rest[++i]; continue; }
      if (rest[i][0] == '-') { flags[nf++] = rest[i]; continue; }
      const char **nfl = arena_alloc(sizeof(char *) * (size_t)(nfiles + 1));
      if (nfiles) memcpy(nfl, files, sizeof(char *) * (size_t)nfiles);
      nfl[nfiles++] = rest[i];
      files = nfl;
    }
    if (nfiles < 2) return usage_error("estimate", "--rank needs two or more files");
    Estimate *es = arena_alloc(sizeof(Estimate) * (size_t)nfiles);
    int *order = arena_alloc(sizeof(int) * (size_t)nfiles);
    for (int f = 0; f < nfiles; f++) {
      char **av = arena_alloc(sizeof(char *) * (size_t)(nf + 2));
      memcpy(av, flags, sizeof(char *) * (size_t)nf);
      av[nf] = (char *)files[f];
      Opts o;
      int r = parse_opts("estimate", nf + 1, av, &o, usage_estimate);
      if (r) return r < 0 ? 0 : r;
      const Machine *m = machine_find(o.bench.arch ? o.bench.arch : "h100");
      if (!m) return usage_error("estimate", "unknown --arch");
      o.kernel = NULL;
      if ((r = estimate_one(&o, m, true, &es[f]))) return r;
      order[f] = f;
    }
    for (int i = 1; i < nfiles; i++)
      for (int j = i; j > 0 && es[order[j]].total < es[order[j - 1]].total; j--) { int t = order[j]; order[j] = order[j - 1]; order[j - 1] = t; }
    print_ranking(files, es, order, nfiles, json);
    return 0;
  }
  Opts o;
  int r = parse_opts("estimate", nrest, rest, &o, usage_estimate);
  if (r) return r < 0 ? 0 : r;
  const Machine *m = machine_find(o.bench.arch ? o.bench.arch : "h100");
  if (!m) return usage_error("estimate", fmt("unknown --arch '%s' (h100, h200, g80, gt200, c1060)", o.bench.arch));
  return estimate_one(&o, m, false, NULL);
}

static int cmd_bench(int argc, char **argv) {
  Opts o;
  int r = parse_opts("bench", argc, argv, &o, usage_bench);
  if (r) return r < 0 ? 0 : r;
  Program *p = load(&o);
  if (!p) return 2;
  Obj *k = pick_kernel(p, &o, "bench");
  if (!k || !k->body) return 2;
  Launch L;
  if (prepare_launch(&o, p, k, &L)) return 2;
  o.bench.json = !strcmp(o.format, "json");
  /* a library doing the same job is timed beside the kernel whenever the spec names one */
  LaunchSpec *spec = find_spec(p, k->name);
  if (spec && spec->baseline && !o.bench.no_baseline) o.bench.h.baseline = true;
  fflush(stdout);
  int rc = bench_run(&L, o.file, &o.bench);
  launch_free(&L);
  return rc;
}

int main(int argc, char **argv) {
  diag_out = stderr;
  diag_color = isatty(2) && !getenv("NO_COLOR");
  if (argc < 2) { fputs(usage_main, stderr); return 2; }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    if (argc > 2 && !strcmp(argv[2], "check")) fputs(usage_check, stdout);
    else if (argc > 2 && !strcmp(argv[2], "print")) fputs(usage_print, stdout);
    else if (argc > 2 && !strcmp(argv[2], "run")) fputs(usage_run, stdout);
    else if (argc > 2 && !strcmp(argv[2], "bench")) fputs(usage_bench, stdout);
    else if (argc > 2 && !strcmp(argv[2], "arch")) fputs(usage_arch, stdout);
    else if (argc > 2 && !strcmp(argv[2], "analyze")) fputs(usage_analyze, stdout);
    else if (argc > 2 && !strcmp(argv[2], "estimate")) fputs(usage_estimate, stdout);
    else if (argc > 2 && !strcmp(argv[2], "calibrate")) fputs(usage_calibrate, stdout);
    else fputs(usage_main, stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) { printf("carve %s\n", CARVE_VERSION); return 0; }
  int rc;
  if (!strcmp(cmd, "check")) rc = cmd_check(argc - 2, argv + 2);
  else if (!strcmp(cmd, "print")) rc = cmd_print(argc - 2, argv + 2);
  else if (!strcmp(cmd, "run")) rc = cmd_run(argc - 2, argv + 2);
  else if (!strcmp(cmd, "bench")) rc = cmd_bench(argc - 2, argv + 2);
  else if (!strcmp(cmd, "arch")) rc = cmd_arch(argc - 2, argv + 2);
  else if (!strcmp(cmd, "analyze")) rc = cmd_analyze(argc - 2, argv + 2);
  else if (!strcmp(cmd, "estimate")) rc = cmd_estimate(argc - 2, argv + 2);
  else if (!strcmp(cmd, "calibrate")) rc = cmd_calibrate(argc - 2, argv + 2);
  else { fprintf(stderr, "carve: unknown command '%s'\n\n%s", cmd, usage_main); return 2; }
  fflush(stdout);
  arena_free_all();
  return rc;
}
