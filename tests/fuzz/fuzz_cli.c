/* fuzz_cli: a mutation fuzzer of the carve command line (make fuzz-cli; docs/fuzzing.md).
 *
 * Each execution takes a seed kernel (the bundled examples, the diagnostics corpus), mutates its
 * text (bytes, words, numbers, operators, lines, the launch pragmas, and hostile.h's nesting and
 * macro bombs) and makes flags for it (--grid, --block, --arg scalars and buffers, -D, --kernel,
 * --max-steps, --blocks, --arch, --regs, --calibration, --format, ...), runs
 * `carve run|analyze|estimate` on it with a timeout, and keeps what misbehaves:
 *   crash   a signal, a sanitizer report, an "internal error", or an exit status not in 0-3
 *   hang    no answer within the timeout
 *   memory  the sanitizer's RSS limit reached (a memory bomb)
 * A finding is kept once per signature (the sanitizer's SUMMARY line, the signal, the message)
 * and at most 3 times, as OUT/<kind>-<n>/: input.cu, cmd.sh (reproduces it from the repository
 * root) and stderr.txt.
 *
 * usage: fuzz_cli -carve BIN [-seconds N] [-timeout S] [-out DIR] [-seed N] [-rss MB] SEED.cu...
 * Plain C and POSIX: it needs no clang, and drives any carve binary (the ASan+UBSan one by
 * default in the Makefile). */
#include "hostile.h"
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct { char *name, *text; size_t len; } Seed;
static Seed *seeds;
static size_t nseeds;
static uint64_t rng;

static size_t below(size_t n) { return hostile_below(&rng, n); }
static const char *pick(const char *const *a, size_t n) { return a[below(n)]; }
#define PICK(a) pick(a, sizeof a / sizeof *a)

/* ---- words ---- */
static const char *const numbers[] = {
  "0", "1", "-1", "2", "3", "7", "31", "32", "33", "255", "256", "1023", "1024", "1025", "4096", "65535", "65536",
  "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "9223372036854775807",
  "9223372036854775808", "18446744073709551615", "99999999999999999999", "0x7fffffff", "0x80000000",
  "0xffffffffffffffff", "1e38", "1e39f", "1e400", "-0.0", "0.5", "1e-45", "(1<<31)", "(1<<62)", "(1<<63)", "1/0",
  "1%0", "(0-1)", "NAN", "INFINITY", "FLT_MAX", "INT_MAX", "INT_MIN", "N", "N*N", "", "08", "0b101", "'a'", "1.5f",
};
static const char *const words[] = {
  "__global__", "__device__", "__shared__", "__constant__", "__syncthreads();", "threadIdx.x", "threadIdx.y",
  "blockIdx.x", "blockDim.x", "gridDim.x", "warpSize", "atomicAdd(", "atomicCAS(", "__shfl_down_sync(0xffffffff, ",
  "__shfl_sync(", "__ballot_sync(", "float4", "make_float4(", "int2", "double", "unsigned", "long long", "char",
  "short", "bool", "const", "volatile", "__restrict__", "static", "extern __shared__ float s[];", "struct S { int a; };",
  "typedef", "enum", "sizeof(", "return;", "break;", "continue;", "goto", "switch (x) { case 1: break; }", "if (",
  "for (int i = 0; i < n; i++) ", "while (1) ", "do ", "#pragma unroll ", "#pragma carve ", "#define ", "#undef ",
  "#if ", "#ifdef ", "#else\n", "#endif\n", "#include ", "##", "#", "__VA_ARGS__", "->", "<<", ">>=", "?", ":", "::",
  "[", "]", "(", ")", "{", "}", ";", ",", "*", "&", "~", "!", "-", "+", "/", "%", "=", "==", "'", "\"", "\\", "\n",
  "template <int B>", "new", "delete", "this", "__launch_bounds__(1024)", "__align__(16)", "asm(\"\");",
  "printf(\"%d\", 1);", "__ldg(", "__float_as_int(", "__int_as_float(", "sqrtf(", "__expf(", "fmaf(", "min(", "max(",
};
static const char *const ops[] = {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=", "&&", "||"};

/* ---- seeds ---- */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  HBuf b = {0};
  char tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0 && b.len < (256u << 10)) hb_put(&b, tmp, n);
  fclose(f);
  if (!b.s) hb_puts(&b, "");
  *len = b.len;
  return b.s;
}

static void add_seed(const char *path) {
  size_t len;
  char *t = slurp(path, &len);
  if (!t || strlen(t) != len) { free(t); return; }
  seeds = realloc(seeds, (nseeds + 1) * sizeof *seeds);
  seeds[nseeds++] = (Seed){strdup(path), t, len};
}

/* ---- text mutations ---- */
static void replace(HBuf *b, size_t at, size_t n, const char *with) {
  HBuf r = {0};
  hb_put(&r, b->s, at);
  hb_puts(&r, with);
  hb_put(&r, b->s + at + n, b->len - at - n);
  free(b->s);
  *b = r;
}

static size_t line_start(const HBuf *b, size_t at) { while (at > 0 && b->s[at - 1] != '\n') at--; return at; }
static size_t line_end(const HBuf *b, size_t at) { while (at < b->len && b->s[at] != '\n') at++; return at < b->len ? at + 1 : at; }

/* a number of the text (decimal digits) becomes an interesting one */
static void mutate_number(HBuf *b) {
  for (int tries = 0; tries < 16 && b->len; tries++) {
    size_t at = below(b->len);
    if (b->s[at] < '0' || b->s[at] > '9') continue;
    while (at > 0 && b->s[at - 1] >= '0' && b->s[at - 1] <= '9') at--;
    size_t end = at;
    while (end < b->len && ((b->s[end] >= '0' && b->s[end] <= '9') || b->s[end] == '.')) end++;
    replace(b, at, end - at, PICK(numbers));
    return;
  }
}

static void mutate_operator(HBuf *b) {
  for (int tries = 0; tries < 16 && b->len; tries++) {
    size_t at = below(b->len);
    if (!strchr("+-*/%<>&|^", b->s[at]) || !b->s[at]) continue;
    replace(b, at, 1, PICK(ops));
    return;
  }
}

static void mutate_line(HBuf *b) {
  if (!b->len) return;
  size_t at = line_start(b, below(b->len)), end = line_end(b, at);
  char *line = strndup(b->s + at, end - at);
  switch (below(3)) {
  case 0: replace(b, at, end - at, ""); break;                      /* delete */
  case 1: replace(b, at, 0, line); break;                           /* duplicate */
  default: {                                                        /* a line of another seed */
    const Seed *s = &seeds[below(nseeds)];
    HBuf o = {s->text, s->len, s->len};
    size_t oa = line_start(&o, below(s->len ? s->len : 1)), oe = line_end(&o, oa);
    char *other = strndup(s->text + oa, oe - oa);
    replace(b, at, 0, other);
    free(other);
  }
  }
  free(line);
}

static void mutate_bytes(HBuf *b) {
  size_t at = below(b->len + 1);
  switch (below(3)) {
  case 0: replace(b, at, b->len - at < 16 ? b->len - at : below(16), ""); break;
  case 1: { char c[2] = {(char)(1 + below(255)), 0}; replace(b, at, at < b->len, c); break; }
  default: replace(b, at, 0, PICK(words)); break;
  }
}

static void mutate_text(HBuf *b) {
  int n = 1 + (int)below(4);
  for (int i = 0; i < n; i++) {
    switch (below(10)) {
    case 0: case 1: case 2: mutate_number(b); break;
    case 3: mutate_operator(b); break;
    case 4: case 5: mutate_line(b); break;
    case 6: case 7: mutate_bytes(b); break;
    case 8: {
      size_t cap = b->len + (64u << 10);
      char *d = malloc(cap + 1);
      memcpy(d, b->s, b->len);
      size_t len = hostile_insert(d, b->len, cap, &rng);
      free(b->s);
      b->s = d;
      b->len = len;
      b->cap = cap + 1;
      b->s[len] = 0;
      break;
    }
    default: break;   /* the seed as it is: the flags do the work */
    }
  }
}

/* ---- names in the kernel, for flags ---- */
typedef struct { char names[16][64]; int n; } Names;

static bool ident_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* the last identifier before each ',' or ')' of the first __global__ parameter list */
static void kernel_params(const char *t, Names *params, Names *kernels) {
  for (const char *g = strstr(t, "__global__"); g && kernels->n < 16; g = strstr(g + 1, "__global__")) {
    const char *open = strchr(g, '(');
    if (!open) return;
    const char *e = open;
    while (e > g && !ident_char(e[-1])) e--;
    const char *s = e;
    while (s > g && ident_char(s[-1])) s--;
    if (e > s && e - s < 63) snprintf(kernels->names[kernels->n++], 64, "%.*s", (int)(e - s), s);
    for (const char *p = open + 1; *p && *p != '{' && params->n < 16; p++) {
      if (*p != ',' && *p != ')') continue;
      const char *pe = p;
      while (pe > open && !ident_char(pe[-1])) pe--;
      const char *ps = pe;
      while (ps > open && ident_char(ps[-1])) ps--;
      if (pe > ps && pe - ps < 63) snprintf(params->names[params->n++], 64, "%.*s", (int)(pe - ps), ps);
      if (*p == ')') break;
    }
  }
}

static void macro_names(const char *t, Names *m) {
  for (const char *p = strstr(t, "#define "); p && m->n < 16; p = strstr(p + 1, "#define ")) {
    const char *s = p + 8, *e = s;
    while (ident_char(*e)) e++;
    if (e > s && e - s < 63) snprintf(m->names[m->n++], 64, "%.*s", (int)(e - s), s);
  }
}

/* ---- flags ---- */
typedef struct { char *v[64]; int n; } Argv;
static void push(Argv *a, const char *s) { if (a->n < 62) a->v[a->n++] = strdup(s); }
static void pushf(Argv *a, const char *f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  push(a, buf);
}

static void dims(char *out, size_t n) {
  static const char *const d[] = {"0", "1", "2", "3", "7", "16", "32", "33", "64", "128", "256", "1023", "1024", "1025",
                                  "2048", "65535", "65536", "2147483647", "2147483648", "-1", "N/2", "(N+255)/256", "", "x"};
  int k = 1 + (int)below(4);
  snprintf(out, n, "%s%s%s%s%s%s%s", PICK(d), k > 1 ? "," : "", k > 1 ? PICK(d) : "", k > 2 ? "," : "", k > 2 ? PICK(d) : "",
           k > 3 ? "," : "", k > 3 ? PICK(d) : "");
}

static void buffer_arg(char *out, size_t n, const char *name) {
  static const char *const types[] = {"float", "int", "double", "char", "unsigned", "long", "float4", "int2", "short",
                                      "bool", "half", "float*", "void", "struct S"};
  static const char *const counts[] = {"0", "1", "31", "32", "1024", "-1", "1048576", "2147483648", "1099511627776",
                                       "N", "N*N", "99999999999999999999", "", "1e3"};
  static const char *const inits[] = {"zeros", "fill(1.5)", "fill(-1)", "iota", "iota(3,2)", "random(7)",
                                      "random(1,-1,1)", "random(1,1,-1)", "file(\"in.bin\")", "file(\"/dev/zero\")",
                                      "file(\"/tmp\")", "ones", "", "random(99999999999999999999)", "fill(1e400)"};
  snprintf(out, n, "%s=%s[%s]:%s%s", name, PICK(types), PICK(counts), PICK(inits), below(4) ? "" : " out");
}

static void make_flags(Argv *a, const char *text, const char *input) {
  Names params = {0}, kernels = {0}, macros = {0};
  kernel_params(text, &params, &kernels);
  macro_names(text, &macros);
  static const char *const cmds[] = {"run", "run", "analyze", "estimate"};
  const char *cmd = PICK(cmds);
  push(a, cmd);
  push(a, input);
  char buf[256];
  if (!strcmp(cmd, "run") && below(10)) pushf(a, "--max-steps=%s", below(8) ? "2000000" : PICK(numbers));
  if (below(4) == 0) { dims(buf, sizeof buf); pushf(a, "--grid=%s", buf); }
  if (below(4) == 0) { dims(buf, sizeof buf); pushf(a, "--block=%s", buf); }
  for (int i = 0, n = (int)below(3); i < n && params.n; i++) {
    const char *p = params.names[below((size_t)params.n)];
    if (below(2)) pushf(a, "--arg=%s=%s", p, PICK(numbers));
    else { buffer_arg(buf, sizeof buf, p); pushf(a, "--arg=%s", buf); }
  }
  if (below(4) == 0 && macros.n) pushf(a, "-D%s=%s", macros.names[below((size_t)macros.n)], PICK(numbers));
  if (below(10) == 0 && kernels.n) pushf(a, "--kernel=%s", below(4) ? kernels.names[below((size_t)kernels.n)] : "nosuch");
  if (below(5) == 0) push(a, !strcmp(cmd, "analyze") && below(2) ? "--format=sarif" : "--format=json");
  if (!strcmp(cmd, "run") && below(10) == 0) push(a, "--no-race-check");
  if (!strcmp(cmd, "run") && below(10) == 0 && params.n) pushf(a, "--out=%s=out.bin", params.names[below((size_t)params.n)]);
  if (!strcmp(cmd, "run") && below(20) == 0) push(a, "--dump-inputs=dump");
  if (!strcmp(cmd, "analyze") && below(4) == 0) pushf(a, "--blocks=%s", PICK(numbers));
  if (!strcmp(cmd, "analyze") && below(8) == 0) push(a, below(2) ? "--fail-on=warning" : "--fail-on=error");
  if (strcmp(cmd, "run") && below(6) == 0) {
    static const char *const arch[] = {"h100", "h200", "g80", "gt200", "c1060", "sm_90", "bogus", ""};
    pushf(a, "--arch=%s", PICK(arch));
  }
  if (!strcmp(cmd, "estimate") && below(6) == 0) pushf(a, "--regs=%s", PICK(numbers));
  if (!strcmp(cmd, "estimate") && below(30) == 0) {
    static const char *const cal[] = {"/dev/zero", "/dev/null", "/tmp", "missing.json", "cal.json"};
    pushf(a, "--calibration=%s", PICK(cal));
  }
  if (!strcmp(cmd, "estimate") && below(20) == 0) { push(a, "--rank"); push(a, input); }
}

/* ---- running ---- */
typedef enum { OK, CRASH, HANG, MEMORY } Verdict;
typedef struct { const char *carve, *out; int timeout_s, rss_mb; char dir[64]; } Cfg;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* run argv in cfg->dir with stderr to dir/err; the exit status (128+signal), -1 on timeout */
static int run_child(const Cfg *cfg, Argv *a) {
  char *argv[66];
  argv[0] = (char *)cfg->carve;
  for (int i = 0; i < a->n; i++) argv[i + 1] = a->v[i];
  argv[a->n + 1] = NULL;
  fflush(stdout);   /* or the child's freopen writes our buffered lines again */
  pid_t pid = fork();
  if (pid < 0) return 0;
  if (pid == 0) {
    setpgid(0, 0);
    if (chdir(cfg->dir) != 0) _exit(126);
    if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout) || !freopen("err", "w", stderr)) _exit(126);
    char opts[256];
    snprintf(opts, sizeof opts, "detect_leaks=1:allocator_may_return_null=1:hard_rss_limit_mb=%d:abort_on_error=0", cfg->rss_mb);
    setenv("ASAN_OPTIONS", opts, 1);
    setenv("UBSAN_OPTIONS", "print_stacktrace=1", 1);
    execv(argv[0], argv);
    _exit(127);
  }
  double start = now();
  for (;;) {
    int st;
    pid_t r = waitpid(pid, &st, WNOHANG);
    if (r == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    if (r < 0 && errno != EINTR) return 0;
    if (now() - start > cfg->timeout_s) {
      kill(-pid, SIGKILL);
      waitpid(pid, &st, 0);
      return -1;
    }
    struct timespec ts = {0, 2 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

/* a signature for a sanitizer report: what and where, without the values that vary between
 * inputs (sizes, operands), so one fault is one finding */
static bool signature(const char *err, char *sig, size_t n) {
  const char *p;
  if ((p = strstr(err, "hard rss limit"))) { snprintf(sig, n, "hard rss limit exhausted"); return true; }
  if ((p = strstr(err, "runtime error:"))) {
    const char *s = p;
    while (s > err && s[-1] != '\n') s--;
    size_t k = 0;
    for (; *s && *s != '\n' && k + 1 < n; s++)
      if (s < p || *s < '0' || *s > '9') sig[k++] = *s;   /* the location keeps its digits, the message not */
    sig[k] = 0;
    return true;
  }
  if ((p = strstr(err, "SUMMARY: "))) {
    /* a leak is named by the path through src/main.c that lost it (its first stack's frames there) */
    const char *leak = strstr(err, "Direct leak");
    if (!leak) leak = strstr(err, "Indirect leak");
    const char *end = leak ? strstr(leak, "\n\n") : NULL;
    size_t k = (size_t)snprintf(sig, n, "leak via");
    for (const char *f = leak ? strstr(leak, " in ") : NULL; f && (!end || f < end) && k + 1 < n; f = strstr(f + 1, " in ")) {
      const char *eol = f + strcspn(f, "\n");
      const char *m = strstr(f, " src/main.c:");
      if (m && m < eol) k += (size_t)snprintf(sig + k, n - k, " %.*s", (int)(m - f - 4), f + 4);
    }
    if (leak) return true;
    /* a fault inside the sanitizer's own interceptor (strncmp on a stack overflow) is named
     * by carve's first frame */
    int w = snprintf(sig, n, "%.*s", (int)strcspn(p, "\n"), p);
    const char *own = strstr(err, " src/");
    if (strstr(sig, "libsanitizer") && own && w > 0 && (size_t)w < n) {
      const char *s = own;
      while (s > err && s[-1] != '\n') s--;
      const char *fn = strstr(s, " in ");
      if (fn && fn < own) snprintf(sig + w, n - (size_t)w, " from%.*s", (int)(own - fn), fn);
    }
    return true;
  }
  if ((p = strstr(err, "internal error"))) { snprintf(sig, n, "%.*s", (int)strcspn(p, "\n"), p); return true; }
  return false;
}

/* the verdict, and its signature */
static Verdict judge(const Cfg *cfg, int rc, char *sig, size_t n) {
  char path[128];
  snprintf(path, sizeof path, "%s/err", cfg->dir);
  size_t len;
  char *err = slurp(path, &len);
  bool reported = err && signature(err, sig, n);
  free(err);
  if (rc == -1) { snprintf(sig, n, "hang"); return HANG; }
  if (reported) return strstr(sig, "hard rss limit") ? MEMORY : CRASH;
  snprintf(sig, n, rc >= 128 ? "signal %d" : "exit %d", rc >= 128 ? rc - 128 : rc);
  return rc > 3 ? CRASH : OK;
}

typedef struct { char sig[256]; int kept; } Finding;
static Finding findings[512];
static int nfindings;

static void quote(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++) { if (*s == '\'') fputs("'\\''", f); else fputc(*s, f); }
  fputc('\'', f);
}

static void keep(const Cfg *cfg, Verdict v, const char *sig, const HBuf *text, Argv *a, int *nkept) {
  int i;
  for (i = 0; i < nfindings && strcmp(findings[i].sig, sig); i++) {}
  if (i == nfindings) {
    if (nfindings == 512) return;
    snprintf(findings[nfindings++].sig, sizeof findings[0].sig, "%s", sig);
    printf("fuzz-cli: new %s: %s\n", v == HANG ? "hang" : v == MEMORY ? "memory" : "crash", sig);
    fflush(stdout);
  }
  if (findings[i].kept >= 3) return;
  findings[i].kept++;
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/%s-%d", cfg->out, v == HANG ? "hang" : v == MEMORY ? "memory" : "crash", ++*nkept);
  mkdir(dir, 0777);
  snprintf(path, sizeof path, "%s/input.cu", dir);
  FILE *f = fopen(path, "w");
  if (f) { fwrite(text->s, 1, text->len, f); fclose(f); }
  snprintf(path, sizeof path, "%s/cmd.sh", dir);
  f = fopen(path, "w");
  if (f) {
    fprintf(f, "#!/bin/sh\n# %s\n# from the repository root: sh %s/cmd.sh [CARVE]\ncd \"$(dirname \"$0\")\" || exit 2\n\"${1:-%s}\"", sig, dir, cfg->carve);
    for (int k = 0; k < a->n; k++) { fputc(' ', f); quote(f, a->v[k]); }
    fputc('\n', f);
    fclose(f);
  }
  char from[128];
  snprintf(from, sizeof from, "%s/err", cfg->dir);
  snprintf(path, sizeof path, "%s/stderr.txt", dir);
  rename(from, path);
}

static void usage(void) {
  fprintf(stderr, "usage: fuzz_cli -carve BIN [-seconds N] [-timeout S] [-out DIR] [-seed N] [-rss MB] SEED.cu...\n");
  exit(2);
}

int main(int argc, char **argv) {
  Cfg cfg = {NULL, "fuzz-out/cli", 20, 3072, "/tmp/fuzz-cli-XXXXXX"};
  double seconds = 600;
  rng = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-carve") && i + 1 < argc) cfg.carve = argv[++i];
    else if (!strcmp(argv[i], "-seconds") && i + 1 < argc) seconds = atof(argv[++i]);
    else if (!strcmp(argv[i], "-timeout") && i + 1 < argc) cfg.timeout_s = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-out") && i + 1 < argc) cfg.out = argv[++i];
    else if (!strcmp(argv[i], "-seed") && i + 1 < argc) rng = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-rss") && i + 1 < argc) cfg.rss_mb = atoi(argv[++i]);
    else if (argv[i][0] == '-') usage();
    else add_seed(argv[i]);
  }
  if (!cfg.carve || !nseeds) usage();
  if (access(cfg.carve, X_OK) != 0) { fprintf(stderr, "fuzz_cli: cannot run '%s'\n", cfg.carve); return 2; }
  char abs[4096];
  if (cfg.carve[0] != '/' && getcwd(abs, sizeof abs - 256)) {
    strcat(abs, "/");
    strcat(abs, cfg.carve);
    cfg.carve = strdup(abs);
  }
  if (!mkdtemp(cfg.dir)) { perror("fuzz_cli: mkdtemp"); return 2; }
  char cmd[256];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", cfg.out);
  if (system(cmd) != 0) return 2;
  printf("fuzz-cli: %zu seeds, %s, %.0f s, seed 0x%llx\n", nseeds, cfg.carve, seconds, (unsigned long long)rng);
  double start = now(), last = start;
  long execs = 0;
  int crashes = 0, hangs = 0, memory = 0, nkept = 0;
  while (now() - start < seconds) {
    const Seed *s = &seeds[below(nseeds)];
    HBuf text = {0};
    if (below(20) == 0) {
      /* a hostile program of hostile.h, whole */
      char *d = malloc(64u << 10);
      size_t len = hostile_program(d, 64u << 10, &rng);
      hb_put(&text, d, len);
      free(d);
      if (!text.s) hb_puts(&text, "");
    } else {
      hb_put(&text, s->text, s->len);
      if (below(5)) mutate_text(&text);
    }
    char path[128];
    snprintf(path, sizeof path, "%s/input.cu", cfg.dir);
    FILE *f = fopen(path, "w");
    if (!f) break;
    fwrite(text.s, 1, text.len, f);
    fclose(f);
    Argv a = {0};
    make_flags(&a, text.s, "input.cu");
    int rc = run_child(&cfg, &a);
    char sig[256];
    Verdict v = judge(&cfg, rc, sig, sizeof sig);
    execs++;
    if (v == CRASH) crashes++;
    if (v == HANG) hangs++;
    if (v == MEMORY) memory++;
    if (v != OK) keep(&cfg, v, sig, &text, &a, &nkept);
    for (int i = 0; i < a.n; i++) free(a.v[i]);
    free(text.s);
    if (now() - last > 60) {
      last = now();
      printf("fuzz-cli: %ld executions in %.0f s: %d crashes, %d hangs, %d memory, %d signatures\n", execs, last - start, crashes, hangs, memory, nfindings);
      fflush(stdout);
    }
  }
  printf("fuzz-cli: %ld executions in %.0f s (%.1f/s): %d crashes, %d hangs, %d memory; %d signatures, kept in %s\n", execs,
         now() - start, (double)execs / (now() - start), crashes, hangs, memory, nfindings, cfg.out);
  for (int i = 0; i < nfindings; i++) printf("  %s\n", findings[i].sig);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", cfg.dir);
  if (system(cmd) != 0) return 2;
  return nfindings ? 1 : 0;
}
