/* carve's command line, the whole-program check of optimize's output (main.h). Each kernel's
 * rewrite was verified at its launch; a program is more than its launches: a reassociated sum
 * verified within its rounding bound at one launch can feed hundreds of dependent launches of a
 * host loop (a factorization) whose rounding grows past the program's own check. So the output
 * program and the original are run the same way (the nvcc route where nvcc and carve's runtime
 * are there: host code native, every launch on the native engine; else the interpreter), with
 * the same arguments and -D sizes, and what the host observes is compared: the exit status, the
 * standard output line by line (timing lines left out, numbers within a tolerance), and every
 * device-to-host copy (floats within a tolerance, everything else exactly). docs/optimize.md,
 * "The whole program checked". */
#include "main.h"
#include "search/search.h"
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* floats agree within WHOLE_REL of the larger, or within WHOLE_ABS of the copy's largest
 * magnitude (elements that cancel to near zero carry the rounding of the data, not their own) */
#define WHOLE_REL 1e-4
#define WHOLE_ABS 1e-5

/* what the host observed of one run */
typedef struct {
  int status, exit_code, signal;
  bool timed_out;
  char *out, *log; /* standard output, the device-to-host log (host_log_copy) */
  size_t outlen, loglen;
  double seconds;
} Observed;

static double wall_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static Observed original;
static bool have_original;

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  *len = 0;
  if (!f) return NULL;
  Buf b = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    for (size_t i = 0; i < n; i++) buf_putc(&b, chunk[i]);
  fclose(f);
  *len = b.len;
  return b.s;
}

/* the route the check runs on: the one the launches were recorded by, but built by nvcc (host
 * code native) where the interpreted host program was stopped after its launches (it would not
 * end in time) or the interpreted check ran out of time, when nvcc and carve's runtime are there */
static bool via_nvcc;
static bool nvcc_there(const Opts *o) {
  return !(o->route && !strcmp(o->route, "interp")) && rt_nvcc() && rt_library();
}
static bool check_nvcc(const Opts *o) {
  return nvcc_there(o) && (via_nvcc || o->nvcc_route || o->host_stopped);
}

/* run `file` (the original, or the output written beside it in dir) as o says, its standard
 * output and device-to-host copies into ob; 0 ran to its end, else why in `why` */
static int observe(Opts *o, const char *file, const char *dir, const char *tag, double limit,
                   Observed *ob, char *why, size_t len) {
  memset(ob, 0, sizeof *ob);
  const char *outp = fmt("%s/%s.stdout", dir, tag), *logp = fmt("%s/%s.d2h", dir, tag);
  FILE *out = fopen(outp, "w"), *err = fopen("/dev/null", "w");
  if (!out || !err) {
    if (out) fclose(out);
    if (err) fclose(err);
    snprintf(why, len, "cannot create files in %s", dir);
    return 2;
  }
  /* the file's own directory first for its quoted includes (the output lies in dir) */
  const char *home =
    strrchr(o->file, '/') ? arena_strndup(o->file, (size_t)(strrchr(o->file, '/') - o->file)) : ".";
  PPOptions pp = o->pp;
  pp.include_dirs = NULL;
  pp.n_include_dirs = 0;
  arena_push(&pp.include_dirs, &pp.n_include_dirs, home);
  for (int i = 0; i < o->pp.n_include_dirs; i++)
    arena_push(&pp.include_dirs, &pp.n_include_dirs, o->pp.include_dirs[i]);
  const char **argv = NULL;
  int argc = 0;
  arena_push(&argv, &argc, o->file);
  for (int i = 0; i < o->nprog_args; i++) arena_push(&argv, &argc, o->prog_args[i]);
  int diag_e = diag_errors, diag_w = diag_warnings;
  bool quiet = diag_quiet;
  diag_quiet = true;
  Program *q = load_program(file, &pp);
  int rc = 2;
  double t0 = wall_seconds();
  if (!q) {
    snprintf(why, len, "carve could not read %s", file);
  } else if (check_nvcc(o)) {
    const char **files = NULL, **words = NULL;
    int nfiles = 0, nwords = 0;
    arena_push(&files, &nfiles, file);
    for (int i = 1; i < o->nfiles; i++) arena_push(&files, &nfiles, o->files[i]);
    arena_push(&words, &nwords, fmt("-I%s", home));
    for (int i = 0; i < o->nnvcc; i++) arena_push(&words, &nwords, o->nvcc_words[i]);
    RtOptions ro = {.files = files,
                    .nfiles = nfiles,
                    .nvcc_flags = words,
                    .nnvcc = nwords,
                    .pp = &pp,
                    .machine = o->machine && machine_flag(o) ? machine_flag(o)->name : NULL,
                    .sm = o->bench.arch,
                    .argc = argc,
                    .argv = argv,
                    .no_race = true,
                    .quiet_build = true,
                    .out = out,
                    .err = err,
                    .engine = "native",
                    .check = "none",
                    .max_seconds = limit,
                    .d2h = logp};
    RtResult r = {0};
    rc = rt_run(q, &ro, &r);
    ob->status = rc;
    ob->exit_code = r.h.exit_code;
    ob->signal = r.signal;
    ob->timed_out = r.h.timed_out;
    rt_cleanup(&r);
  } else {
    NativeOptions no = {.engine = ENGINE_NATIVE, .check = CHECK_NONE, .quiet = true};
    FILE *log = fopen(logp, "wb");
    HostOptions ho = {.argc = argc,
                      .argv = argv,
                      .max_seconds = limit,
                      .out = out,
                      .err = err,
                      .native = &no,
                      .d2h = log,
                      .kernel_opt = {.no_race_check = true}};
    if (o->bench.arch) ho.machine = machine_flag(o);
    HostResult r;
    rc = log ? host_run(q, &ho, &r) : 2;
    if (log) {
      fclose(log);
      ob->status = rc;
      ob->exit_code = r.exit_code;
      ob->timed_out = r.timed_out;
      host_result_free(&r);
    }
  }
  ob->seconds = wall_seconds() - t0;
  if (q) program_free(q);
  diag_quiet = quiet;
  diag_errors = diag_e, diag_warnings = diag_w;
  fclose(out);
  fclose(err);
  ob->out = slurp(outp, &ob->outlen);
  ob->log = slurp(logp, &ob->loglen);
  unlink(outp);
  unlink(logp);
  if (ob->timed_out)
    snprintf(why, len, "%s did not end within %g s of host code (--whole-seconds)", tag, limit);
  else if (ob->signal) snprintf(why, len, "%s was killed by signal %d", tag, ob->signal);
  else if (rc == 2 && q) snprintf(why, len, "%s could not be run to its end by carve", tag);
  return ob->timed_out || ob->signal || rc == 2 ? 2 : 0;
}

static void observed_free(Observed *ob) {
  free(ob->out);
  free(ob->log);
  memset(ob, 0, sizeof *ob);
}

/* a line that reports time or speed (it differs from run to run): left out of the comparison */
static bool timing_line(const char *s, size_t n) {
  static const char *words[] = {"time",    "elapsed", "second",     "msec",   "usec",
                                "gflop",   "gb/s",    "throughput", "clock",  "bandwidth",
                                "speedup", "perf",    "duration",   "latency"};
  char low[512];
  size_t l = n < sizeof low - 1 ? n : sizeof low - 1;
  for (size_t i = 0; i < l; i++) low[i] = (char)tolower((unsigned char)s[i]);
  low[l] = 0;
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strstr(low, words[i])) return true;
  /* a number followed by a unit of time: "0.52 ms", "1.3s" */
  for (size_t i = 0; i + 1 < l; i++)
    if (isdigit((unsigned char)low[i])) {
      size_t j = i + 1;
      while (j < l && low[j] == ' ') j++;
      const char *u = low + j;
      if ((!strncmp(u, "ms", 2) || !strncmp(u, "us", 2) || !strncmp(u, "ns", 2) || *u == 's') &&
          !isalpha((unsigned char)u[*u == 's' ? 1 : 2]))
        return true;
    }
  return false;
}

static bool close_num(double x, double y, double abs_tol) {
  if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
  if (x == y) return true;
  return fabs(x - y) <= abs_tol + WHOLE_REL * fmax(fabs(x), fabs(y));
}

/* two lines alike: the same text, numbers within the tolerance (integers exactly) */
static bool same_line(const char *a, size_t na, const char *b, size_t nb) {
  size_t i = 0, j = 0;
  while (i < na && j < nb) {
    bool num_a = isdigit((unsigned char)a[i]) ||
                 ((a[i] == '-' || a[i] == '.') && i + 1 < na && isdigit((unsigned char)a[i + 1]));
    bool word = i > 0 && (isalnum((unsigned char)a[i - 1]) || a[i - 1] == '_');
    if (num_a && !word) {
      char ta[64], tb[64];
      size_t la = 0, lb = 0;
      while (i + la < na && la < 63 && strchr("0123456789.eE+-", a[i + la])) la++;
      while (j + lb < nb && lb < 63 && strchr("0123456789.eE+-", b[j + lb])) lb++;
      memcpy(ta, a + i, la), ta[la] = 0;
      memcpy(tb, b + j, lb), tb[lb] = 0;
      bool fl = strpbrk(ta, ".eE") || strpbrk(tb, ".eE");
      if (fl ? !close_num(strtod(ta, NULL), strtod(tb, NULL), 0) : strcmp(ta, tb)) return false;
      i += la, j += lb;
      continue;
    }
    if (a[i] != b[j]) return false;
    i++, j++;
  }
  return i == na && j == nb;
}

/* the next line of s (from *at) that is not a timing line; false at the end */
static bool next_line(const char *s, size_t n, size_t *at, const char **line, size_t *len) {
  while (*at < n) {
    const char *b = s + *at, *e = memchr(b, '\n', n - *at);
    size_t l = e ? (size_t)(e - b) : n - *at;
    *at += l + (e ? 1 : 0);
    if (!timing_line(b, l)) {
      *line = b, *len = l;
      return true;
    }
  }
  return false;
}

/* the two device-to-host logs compared copy by copy; 0 alike, 1 differ (why) */
static int compare_logs(const Observed *a, const Observed *b, char *why, size_t len, int *ncopies,
                        uint64_t *nbytes) {
  size_t i = 0, j = 0;
  int copy = 0;
  while (i < a->loglen && j < b->loglen) {
    if (a->loglen - i < 10 || b->loglen - j < 10) break;
    char ta = a->log[i], tb = b->log[j];
    int kind = a->log[i + 1];
    uint64_t na, nb;
    memcpy(&na, a->log + i + 2, 8);
    memcpy(&nb, b->log + j + 2, 8);
    i += 10, j += 10;
    copy++;
    if (na != nb) {
      snprintf(why, len, "device-to-host copy %d: %llu bytes, the output's %llu", copy,
               (unsigned long long)na, (unsigned long long)nb);
      return 1;
    }
    if (ta != 'D' || tb != 'D') continue; /* past HOST_LOG_LIMIT: not compared */
    if (a->loglen - i < na || b->loglen - j < nb) break;
    const unsigned char *x = (const unsigned char *)a->log + i,
                        *y = (const unsigned char *)b->log + j;
    i += na, j += nb;
    *nbytes += na;
    (*ncopies)++;
    if (!memcmp(x, y, na)) continue;
    size_t es = kind == HOST_LOG_FLOAT ? 4 : kind == HOST_LOG_DOUBLE ? 8 : 1;
    if (es == 1 || na % es) {
      size_t k = 0;
      while (x[k] == y[k]) k++;
      snprintf(why, len,
               "device-to-host copy %d (%llu bytes, not floating point): byte %zu differs", copy,
               (unsigned long long)na, k);
      return 1;
    }
    double big = 0;
    for (size_t k = 0; k < na; k += es) {
      double v;
      if (es == 4) {
        float f;
        memcpy(&f, x + k, 4);
        v = f;
      } else memcpy(&v, x + k, 8);
      if (isfinite(v) && fabs(v) > big) big = fabs(v);
    }
    for (size_t k = 0; k < na; k += es) {
      double u, v;
      if (es == 4) {
        float f, g;
        memcpy(&f, x + k, 4);
        memcpy(&g, y + k, 4);
        u = f, v = g;
      } else {
        memcpy(&u, x + k, 8);
        memcpy(&v, y + k, 8);
      }
      if (!close_num(u, v, WHOLE_ABS * big)) {
        snprintf(
          why, len,
          "device-to-host copy %d (%llu %s), element %zu: original %.9g, output %.9g (beyond "
          "%g relative, %g of the copy's largest %.6g)",
          copy, (unsigned long long)(na / es), es == 4 ? "floats" : "doubles", k / es, u, v,
          WHOLE_REL, WHOLE_ABS, big);
        return 1;
      }
    }
  }
  if (i != a->loglen || j != b->loglen) {
    snprintf(why, len, "the original made %s device-to-host copies than the output",
             a->loglen - i > b->loglen - j ? "more" : "fewer");
    return 1;
  }
  return 0;
}

/* the first line of a run's standard output that says FAIL (a program's own verdict), or none */
static void find_fail(const Observed *ob, const char **line, size_t *len) {
  size_t at = 0;
  const char *l;
  size_t n;
  while (next_line(ob->out ? ob->out : "", ob->outlen, &at, &l, &n))
    if (memmem(l, n, "FAIL", 4)) {
      *line = l;
      *len = n > 100 ? 100 : n;
      return;
    }
}

/* what two runs observed, compared; 0 alike, 1 differ (why) */
static int compare_observed(const Observed *a, const Observed *b, char *why, size_t len,
                            int *ncopies, uint64_t *nbytes) {
  size_t ia = 0, ib = 0;
  const char *la, *lb;
  size_t na, nb;
  int line = 0;
  for (;;) {
    bool ga = next_line(a->out ? a->out : "", a->outlen, &ia, &la, &na);
    bool gb = next_line(b->out ? b->out : "", b->outlen, &ib, &lb, &nb);
    if (!ga && !gb) break;
    line++;
    if (ga != gb || !same_line(la, na, lb, nb)) {
      const char *fl = NULL;
      size_t fn = 0;
      find_fail(b, &fl, &fn);
      const char *ofl = NULL;
      size_t ofn = 0;
      find_fail(a, &ofl, &ofn);
      snprintf(why, len, "%s%.*s%sstandard output line %d: original \"%.*s\", output \"%.*s\"",
               fl && !ofl ? "the program's own check failed (\"" : "", fl && !ofl ? (int)fn : 0,
               fl && !ofl ? fl : "", fl && !ofl ? "\"); " : "", line,
               ga ? (int)(na > 100 ? 100 : na) : 0, ga ? la : "",
               gb ? (int)(nb > 100 ? 100 : nb) : 0, gb ? lb : "");
      return 1;
    }
  }
  if (a->status != b->status || a->exit_code != b->exit_code) {
    snprintf(why, len, "the exit status differs (original %d, output %d%s)", a->exit_code,
             b->exit_code, b->status == 1 ? " after a fault" : "");
    return 1;
  }
  return compare_logs(a, b, why, len, ncopies, nbytes);
}

/* the output text of optimize run against the original; 0 alike (said in `why`), 1 differs (why),
 * 2 not checked (why). The original runs once per command (and again to see whether it is
 * deterministic when the output differs) */
int whole_check(Opts *o, const Buf *text, double limit, char *why, size_t len) {
  if (o->host_stopped && !check_nvcc(o)) {
    snprintf(why, len,
             "the host program ran past --max-seconds when its launches were recorded, and %s to "
             "run its host code natively",
             o->route && !strcmp(o->route, "interp") ? "--route interp leaves no nvcc route"
             : !rt_nvcc()                            ? "there is no nvcc"
                          : "carve's runtime library is not built (make cudart)");
    return 2;
  }
  char tmpl[] = "/tmp/carve-whole-XXXXXX";
  char *dir = mkdtemp(tmpl);
  if (!dir) {
    snprintf(why, len, "cannot create a temporary directory");
    return 2;
  }
  search_guard_tmpdir(dir);
  const char *base = strrchr(o->file, '/') ? strrchr(o->file, '/') + 1 : o->file;
  const char *path = fmt("%s/%s", dir, base);
  int rc = 2;
  Observed out = {0};
  if (!write_file(path, text->s ? text->s : "", text->len)) {
    snprintf(why, len, "cannot write %s", path);
    goto done;
  }
  if (!have_original) {
    fprintf(stderr, "carve optimize: checking the whole program: running the original%s\n",
            check_nvcc(o) ? " (built by nvcc, kernels on carve's native engine)"
                          : " (host code interpreted, kernels on carve's native engine)");
    int r = observe(o, o->file, dir, "the original", limit, &original, why, len);
    if (r && original.timed_out && !check_nvcc(o) && nvcc_there(o)) {
      fprintf(stderr, "carve optimize: %s; running it again built by nvcc\n", why);
      observed_free(&original);
      via_nvcc = true;
      r = observe(o, o->file, dir, "the original", limit, &original, why, len);
    }
    if (r) goto done;
    have_original = true;
  }
  if (observe(o, path, dir, "the output", limit, &out, why, len)) goto done;
  int ncopies = 0;
  uint64_t nbytes = 0;
  rc = compare_observed(&original, &out, why, len, &ncopies, &nbytes);
  if (rc) { /* is the original itself the same from run to run? */
    Observed again;
    char w2[256];
    int nc = 0;
    uint64_t nb = 0;
    if (!observe(o, o->file, dir, "the original", limit, &again, w2, sizeof w2) &&
        compare_observed(&original, &again, w2, sizeof w2, &nc, &nb)) {
      char w[512];
      snprintf(w, sizeof w, "the original's own output differs between two runs (%s)", w2);
      snprintf(why, len, "%s", w);
      rc = 2;
    }
    observed_free(&again);
  } else
    snprintf(why, len,
             "the same exit status (%d), standard output (timing lines left out) and %d "
             "device-to-host cop%s (%llu bytes) as the original; %s, %.1f s and %.1f s",
             out.exit_code, ncopies, ncopies == 1 ? "y" : "ies", (unsigned long long)nbytes,
             check_nvcc(o) ? "host code built by nvcc, kernels on carve's native engine"
                           : "host code interpreted, kernels on carve's native engine",
             original.seconds, out.seconds);
done:
  observed_free(&out);
  unlink(path);
  rmdir(dir);
  search_unguard_tmpdir(dir);
  return rc;
}

void whole_check_end(void) {
  observed_free(&original);
  have_original = false;
  via_nvcc = false;
}
