/* carve's command line, host programs (main.h): a program run whole (interpreted, or built by
 * nvcc with carve's runtime), and the launches it recorded, selected (--launch N, --kernel K) and
 * each handed to analyze, estimate, bench or optimize. */
#include "main.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool has_main(Program *p, const char *fn) {
  if (find_host_function(p, fn)) return true;
  for (HostSkip *h = p->host_skipped; h; h = h->next)
    if (!strcmp(h->name, fn ? fn : "main")) return true;
  return false;
}

/* the nvcc route's last result: its temporary directory (recorded buffers) lives until the command ends */
static RtResult nvcc_run;

/* seconds of host code carve run gives the interpreted route before the nvcc route (auto);
 * $CARVE_RUN_INTERP_SECONDS overrides (tests) */
#define RUN_INTERP_SECONDS 60
static double run_interp_seconds(void) {
  const char *e = getenv("CARVE_RUN_INTERP_SECONDS");
  double v = e ? strtod(e, NULL) : 0;
  return v > 0 ? v : RUN_INTERP_SECONDS;
}

static int run_host(Opts *o, Program *p, bool record, FILE *out, HostResult *r, bool launches_only);

/* carve run on the auto route: the interpreted route first, the program's standard output and
 * error and carve's diagnostics held in files and given out when it ends; past RUN_INTERP_SECONDS
 * of host code they are dropped (the interpreted program has no other effect: carve's C library
 * opens no files) and the program runs again built by nvcc, which is said */
static int run_host_interp_first(Opts *o, Program *p, bool record, HostResult *r) {
  const char **argv = arena_alloc(sizeof(char *) * (size_t)(o->nprog_args + 2));
  argv[0] = o->file;
  for (int i = 0; i < o->nprog_args; i++) argv[i + 1] = o->prog_args[i];
  HostOptions ho = {.argc = o->nprog_args + 1,
                    .argv = argv,
                    .record = record,
                    .native = &o->native,
                    .max_seconds = run_interp_seconds(),
                    .func = o->host_fn,
                    .kernel_opt = {.no_race_check = o->no_race, .progress = isatty(2) != 0}};
  if (o->bench.arch && !(ho.machine = machine_flag(o))) return 2;
  int rc = rt_host_run_held(p, &ho, r);
  if (rc == 2 && r->timed_out) {
    host_result_free(r);
    fprintf(
      stderr,
      "carve run: %s: the host code ran %g s in carve's interpreter (launches not counted); running the program again built by nvcc "
      "(host code native, kernels run by carve; --route interp keeps the interpreter)\n",
      o->file, run_interp_seconds());
    o->nvcc_route = true;
    return run_host(o, p, record, NULL, r, false);
  }
  return rc;
}

/* run the host program; r->rec holds its distinct launches when record. 0, 1 (a fault), 2 */
static int run_host(Opts *o, Program *p, bool record, FILE *out, HostResult *r,
                    bool launches_only) {
  const char **argv = arena_alloc(sizeof(char *) * (size_t)(o->nprog_args + 2));
  argv[0] = o->file;
  for (int i = 0; i < o->nprog_args; i++) argv[i + 1] = o->prog_args[i];
  if (o->nvcc_route) { /* built by nvcc, carve's runtime in place of CUDA's (src/rt) */
    RtOptions ro = {.files = o->files,
                    .nfiles = o->nfiles,
                    .nvcc_flags = o->nvcc_words,
                    .nnvcc = o->nnvcc,
                    .pp = &o->pp,
                    .machine = o->machine ? machine_flag(o) ? machine_flag(o)->name : NULL : NULL,
                    .sm = o->bench.arch,
                    .argc = o->nprog_args + 1,
                    .argv = argv,
                    .max_steps = o->max_steps,
                    .no_race = o->no_race,
                    .record = record && strcmp(o->cmd->name, "run"),
                    .out = out,
                    .engine = o->native.engine == ENGINE_NATIVE   ? "native"
                              : o->native.engine == ENGINE_INTERP ? "interp"
                                                                  : "auto",
                    .check = o->native.check == CHECK_ALL    ? "all"
                             : o->native.check == CHECK_NONE ? "none"
                                                             : "sample",
                    .max_seconds = launches_only && !o->max_steps
                                     ? (o->max_seconds > 0 ? o->max_seconds : 60)
                                     : 0};
    rt_cleanup(&nvcc_run);
    int rc = rt_run(p, &ro, &nvcc_run);
    *r = nvcc_run.h;
    memset(&nvcc_run.h, 0, sizeof nvcc_run.h); /* r owns the recorded launches now */
    return rc;
  }
  /* carve run, route auto: the interpreter checks more, but a program at its real size may run
   * its host code for hours there; it gets RUN_INTERP_SECONDS of host code (launches not
   * counted) with its output held back, and past that runs again built by nvcc */
  if (!launches_only && !out && (!o->route || !strcmp(o->route, "auto")) && !o->max_steps &&
      rt_nvcc() && rt_library())
    return run_host_interp_first(o, p, record, r);
  HostOptions ho = {.func = o->host_fn,
                    .argc = o->nprog_args + 1,
                    .argv = argv,
                    .max_steps = o->max_steps,
                    .record = record,
                    .out = out,
                    .copy_launch = o->launch_no,
                    .copy_kernel = o->kernel,
                    .native = &o->native,
                    .max_seconds = launches_only ? (o->max_seconds > 0 ? o->max_seconds : 60) : 0,
                    .kernel_opt = {.max_steps = o->max_steps,
                                   .no_race_check = o->no_race,
                                   .progress = isatty(2) != 0}};
  if (o->bench.arch && !(ho.machine = machine_flag(o))) return 2;
  fflush(stdout);
  return host_run(p, &ho, r);
}

static const char *launch_text(const RecordedLaunch *rl) {
  return fmt("%s<<<(%lld,%lld,%lld), (%lld,%lld,%lld)>>> at %s:%d", rl->kernel->name,
             (long long)rl->grid[0], (long long)rl->grid[1], (long long)rl->grid[2],
             (long long)rl->block[0], (long long)rl->block[1], (long long)rl->block[2],
             rl->site.file ? rl->site.file->name : "?", rl->site.line);
}

/* which engines ran the program's launches (native.c: large launches natively, their sampled
 * blocks checked in the interpreter) */
static const char *engines_text(const HostResult *r) {
  int interp = r->launches - r->invalid_launches - r->native_launches;
  if (!r->native_launches)
    return fmt("every launch in the interpreter (%s)",
               r->launches
                 ? "below the native engine's threshold of 65536 threads, or --engine interp"
                 : "none made");
  return fmt(
    "%d launch%s on the native engine (%.3f s; %llu block%s checked in the interpreter, bit-identical), %d in the interpreter",
    r->native_launches, r->native_launches == 1 ? "" : "es", r->native_seconds,
    (unsigned long long)r->blocks_checked, r->blocks_checked == 1 ? "" : "s",
    interp < 0 ? 0 : interp);
}

/* carve run on a program: its output and exit status are the program's; carve's summary goes to
 * standard error (JSON: standard output, after the program's) */
int cmd_run_host(Opts *o, Program *p) {
  HostResult r;
  int rc = run_host(o, p, true, NULL, &r, false);
  if (!strcmp(o->format, "json")) {
    host_run_json(o, rc, &r);
  } else if (rc != 2 || nvcc_run.unrun) {
    const char *end =
      !o->nvcc_route ? (rc ? "stopped at a fault" : fmt("exit status %d", r.exit_code))
      : nvcc_run.signal
        ? fmt("killed by signal %d (%s)", nvcc_run.signal, strsignal(nvcc_run.signal))
        : fmt("exit status %d%s", r.exit_code,
              rc == 1   ? " after a fault"
              : rc == 2 ? fmt(" (%d launch%s carve could not run)", nvcc_run.unrun,
                              nvcc_run.unrun == 1 ? "" : "es")
                        : "");
    fprintf(
      stderr,
      "carve run: %s: %s (%s); %d launch%s (%d distinct), %.1f M lane-ops in kernels, %.3f s\n",
      o->file, end,
      o->nvcc_route
        ? fmt("host code built by nvcc in %.1f s, kernels run by carve", nvcc_run.build_seconds)
        : "host code interpreted by carve",
      r.launches, r.launches == 1 ? "" : "es", r.nrec, (double)r.kernel_lane_ops / 1e6,
      r.kernel_seconds);
    for (int i = 0; i < r.nrec; i++)
      fprintf(stderr, "  launch %d: %s, %d time%s\n", i + 1, launch_text(&r.rec[i]), r.rec[i].count,
              r.rec[i].count == 1 ? "" : "s");
    fprintf(stderr, "  engines: %s\n", engines_text(&r));
    if (r.invalid_launches)
      fprintf(
        stderr,
        "  %d launch%s not run: a configuration CUDA refuses (cudaErrorInvalidConfiguration)\n",
        r.invalid_launches, r.invalid_launches == 1 ? "" : "es");
    if (r.unrecorded)
      fprintf(stderr,
              "  and %d more launches of other configurations, not recorded (carve keeps 2^20)\n",
              r.unrecorded);
  }
  /* as compute-sanitizer ends: kernel faults and misuses of the runtime */
  if (o->nvcc_route && (rc != 2 || nvcc_run.unrun))
    fprintf(stderr, "========= ERROR SUMMARY: %d error%s\n", nvcc_run.faults + nvcc_run.api_errors,
            nvcc_run.faults + nvcc_run.api_errors == 1 ? "" : "s");
  int code = r.exit_code;
  host_result_free(&r);
  return rc ? rc : code;
}

/* analyze and estimate on a program: the launches it made, unless a launch specification or
 * --grid says otherwise (they override) */
bool use_recorded(Opts *o, Program *p) {
  if (o->launch_no || o->host_fn || o->nvcc_route) return true;
  return !p->specs && !o->grid && has_main(p, NULL);
}

/* the recorded launches to act on: --launch N, --kernel K's first, or every kernel's first;
 * their indices in r->rec in *sel, how many returned (0 after a message) */
static int select_recorded(Opts *o, HostResult *r, int *sel) {
  int n = 0;
  if (o->launch_no) {
    if (o->launch_no > r->nrec) {
      fprintf(stderr, "carve %s: --launch %d: the program made %d distinct launches\n",
              o->cmd->name, o->launch_no, r->nrec);
      return 0;
    }
    sel[n++] = o->launch_no - 1;
    return n;
  }
  for (int i = 0; i < r->nrec; i++) {
    bool seen = false;
    for (int j = 0; j < n; j++) seen |= r->rec[sel[j]].kernel == r->rec[i].kernel;
    if (!seen && (!o->kernel || !strcmp(o->kernel, r->rec[i].kernel->name))) sel[n++] = i;
  }
  if (!n)
    fprintf(stderr, "carve %s: %s\n", o->cmd->name,
            o->kernel ? fmt("the program never launched '%s'", o->kernel)
                      : "the program made no launch");
  for (int i = 0; i < n; i++)
    if (!r->rec[sel[i]].kept) {
      fprintf(
        stderr,
        "carve %s: launch %d's buffers were not kept (carve copies at most 1 GiB of recorded buffers; --launch N picks one)\n",
        o->cmd->name, sel[i] + 1);
      return 0;
    }
  return n;
}

/* the recorded launch with the flags over it */
static bool recorded_overrides(Opts *o, Program *p, const RecordedLaunch *rl, LaunchOverrides *ov) {
  LaunchOverrides fl;
  if (!launch_overrides(o, p, &fl)) return false;
  *ov = rl->ov;
  if (fl.has_block) {
    ov->has_block = true;
    memcpy(ov->block, fl.block, sizeof ov->block);
    ov->machine = fl.machine;
  }
  if (fl.dyn_shared >= 0) ov->dyn_shared = fl.dyn_shared;
  ov->args = arena_alloc(sizeof(ArgSpec *) * (size_t)(rl->ov.nargs + fl.nargs + 1));
  memcpy(ov->args, rl->ov.args, sizeof(ArgSpec *) * (size_t)rl->ov.nargs);
  memcpy(ov->args + rl->ov.nargs, fl.args, sizeof(ArgSpec *) * (size_t)fl.nargs);
  ov->nargs = rl->ov.nargs + fl.nargs;
  return true;
}

/* fn's standard output with "host_program": NOTE as the first member of each JSON object it
 * wrote at the top level (a report of launches recorded from a program that was stopped) */
static int with_json_note(Opts *o, Program *p, RecordedFn *fn, const RecordedLaunch *rl,
                          const LaunchOverrides *ov, void *ctx, const char *note) {
  fflush(stdout);
  FILE *cap = tmpfile();
  int saved = cap ? dup(1) : -1;
  if (saved < 0 || dup2(fileno(cap), 1) < 0) {
    if (cap) fclose(cap);
    if (saved >= 0) close(saved);
    return fn(o, p, rl, ov, ctx);
  }
  int rc = fn(o, p, rl, ov, ctx);
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  rewind(cap);
  int c, depth = 0;
  bool in_str = false, esc = false;
  while ((c = fgetc(cap)) != EOF) {
    putchar(c);
    if (in_str) {
      if (esc) esc = false;
      else if (c == '\\') esc = true;
      else if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') in_str = true;
    else if (c == '{' && depth++ == 0) printf("\"host_program\": %s, ", note);
    else if (c == '}') depth--;
  }
  fclose(cap);
  return rc;
}

/* run the program, then fn on each selected launch (a header line each when there are several).
 * A program whose host code runs past the time limit (--max-seconds, default 60 s) after it made
 * a launch is stopped, and the launches recorded until then are used, said on stderr and in
 * JSON; one that made none in that time on the interpreted route runs again built by nvcc (its
 * host code native) where nvcc is there. */
int each_recorded(Opts *o, Program *p, RecordedFn *fn, void *ctx) {
  FILE *devnull = fopen("/dev/null", "w");
  HostResult r;
  int rc = run_host(o, p, true, devnull ? devnull : stderr, &r, true);
  double limit = o->max_seconds > 0 ? o->max_seconds : 60;
  if (rc == 2 && r.timed_out && !r.nrec && !o->nvcc_route &&
      !(o->route && !strcmp(o->route, "interp")) && rt_nvcc() && rt_library()) {
    fprintf(
      stderr,
      "carve %s: the host program made no launch in %g s of interpreted host code (--max-seconds); running it again built by nvcc "
      "(host code native, kernels run by carve)\n",
      o->cmd->name, limit);
    host_result_free(&r);
    o->nvcc_route = true;
    rc = run_host(o, p, true, devnull ? devnull : stderr, &r, true);
  }
  if (devnull) fclose(devnull);
  if (rc == 2 && r.timed_out && !r.nrec && !o->nvcc_route && rt_nvcc() && !rt_library())
    fprintf(stderr,
            "carve %s: nvcc is at %s, but carve's runtime library is not built (make cudart builds "
            "build/libcarve_cudart.so): the program cannot run again built by nvcc\n",
            o->cmd->name, rt_nvcc());
  if (r.launches && o->whole) /* optimize: which route recorded the launches */
    fprintf(stderr, "carve %s: route: %s\n", o->cmd->name,
            o->nvcc_route ? "host code built by nvcc with carve's runtime, kernels run by carve"
                          : "host code interpreted by carve");
  /* which engines ran the launches while they were recorded (said where the native engine ran:
   * at the program's own, large sizes; a small program's launches are all interpreted) */
  if (r.native_launches) fprintf(stderr, "carve %s: engines: %s\n", o->cmd->name, engines_text(&r));
  const char *note = NULL;
  if (rc == 2 && r.timed_out && r.nrec) {
    fprintf(
      stderr,
      "carve %s: the host program was stopped after %g s in host code (--max-seconds); %d launch%s recorded (%d distinct); "
      "launches after that point are not seen\n",
      o->cmd->name, limit, r.launches, r.launches == 1 ? "" : "es", r.nrec);
    note = fmt(
      "{\"stopped\": true, \"after_seconds\": %g, \"launches\": %d, \"distinct\": %d, \"route\": \"%s\"}",
      limit, r.launches, r.nrec, o->nvcc_route ? "nvcc" : "interp");
    rc = 0;
    o->host_stopped = true;
  } else if (rc == 2 && r.timed_out) {
    fprintf(
      stderr,
      "carve %s: the host program made no launch in %g s (--max-seconds%s): nothing to %s; raise --max-seconds%s\n",
      o->cmd->name, limit, o->nvcc_route ? ", host code built by nvcc" : ", host code interpreted",
      o->cmd->name,
      o->nvcc_route || !rt_nvcc() || !rt_library()
        ? ""
        : ", or --route nvcc to run its host code natively");
    host_result_free(&r);
    return 2;
  }
  if (rc) {
    fprintf(stderr,
            "carve %s: the host program did not run to its end, so its launches are not analyzed\n",
            o->cmd->name);
    host_result_free(&r);
    return rc;
  }
  int *sel = arena_alloc(sizeof(int) * (size_t)(r.nrec + 1));
  int n = select_recorded(o, &r, sel), worst = 0;
  if (!n) {
    host_result_free(&r);
    return 2;
  }
  /* several JSON reports make one JSON array; SARIF is one log: the first launch */
  bool array = n > 1 && !strcmp(o->format, "json");
  if (n > 1 && !strcmp(o->format, "sarif")) {
    fprintf(stderr, "carve %s: SARIF holds one launch: the first; --launch N picks another\n",
            o->cmd->name);
    n = 1;
  }
  if (array) printf("[\n");
  for (int i = 0; i < n && worst < 2; i++) {
    if (array && i) printf(",\n");
    fflush(stdout);
    const RecordedLaunch *rl = &r.rec[sel[i]];
    fprintf(stderr, "carve %s: launch %d of %d distinct: %s (made %d time%s)%s\n", o->cmd->name,
            sel[i] + 1, r.nrec, launch_text(rl), rl->count, rl->count == 1 ? "" : "s",
            n > 1 || r.nrec == 1 ? "" : "; --launch N or --kernel K picks another");
    LaunchOverrides ov;
    int one = !recorded_overrides(o, p, rl, &ov)   ? 2
              : note && !strcmp(o->format, "json") ? with_json_note(o, p, fn, rl, &ov, ctx, note)
                                                   : fn(o, p, rl, &ov, ctx);
    if (one > worst) worst = one;
  }
  if (array) printf("]\n");
  host_result_free(&r);
  return worst;
}

/* the nvcc route's temporary directory (recorded buffers), removed as the command ends */
void recorded_cleanup(void) { rt_cleanup(&nvcc_run); }
