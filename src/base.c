#include "base.h"
#include "json.h"
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- arena ---- */
typedef struct Chunk {
  struct Chunk *next;
  size_t used, cap;
  max_align_t data[];
} Chunk;
struct Arena {
  Chunk *chunks;
  size_t bytes;
};
static Arena process_arena;
static Arena *cur_arena = &process_arena;

static _Noreturn void out_of_memory(void) {
  fprintf(stderr, "carve: out of memory\n");
  carve_throw();
}

Arena *arena_new(void) {
  Arena *a = calloc(1, sizeof(Arena));
  if (!a) out_of_memory();
  return a;
}

static void free_chunks(Arena *a) {
  while (a->chunks) {
    Chunk *n = a->chunks->next;
    free(a->chunks);
    a->chunks = n;
  }
  a->bytes = 0;
}

void arena_delete(Arena *a) {
  if (!a) return;
  if (cur_arena == a) cur_arena = &process_arena;
  free_chunks(a);
  free(a);
}

Arena *arena_enter(Arena *a) {
  Arena *prev = cur_arena;
  cur_arena = a ? a : &process_arena;
  return prev == &process_arena ? NULL : prev;
}

size_t arena_bytes(const Arena *a) { return (a ? a : &process_arena)->bytes; }

void *arena_alloc(size_t n) {
  Arena *a = cur_arena;
  n = (n + 15) & ~(size_t)15;
  if (!a->chunks || a->chunks->used + n > a->chunks->cap) {
    /* small first chunks: a variant of a small kernel needs a few kilobytes, not megabytes */
    size_t cap = a->bytes < (64 << 10)  ? (16 << 10)
                 : a->bytes < (4 << 20) ? (256 << 10)
                                        : (4 << 20);
    if (n > cap) cap = n;
    /* calloc'ed chunks are bump-allocated once and never reused: already zero */
    Chunk *c = calloc(1, sizeof(Chunk) + cap);
    if (!c) out_of_memory();
    c->next = a->chunks;
    c->used = 0;
    c->cap = cap;
    a->chunks = c;
    a->bytes += cap;
  }
  void *p = (char *)a->chunks->data + a->chunks->used;
  a->chunks->used += n;
  return p;
}

void arena_free_all(void) { free_chunks(&process_arena); }

/* ---- protected calls ---- */
typedef struct PCall {
  struct PCall *prev;
  jmp_buf jb;
} PCall;
static PCall *pcall_top;

bool carve_pcall(ProtectedFn *f, void *ud) {
  PCall pc;
  pc.prev = pcall_top;
  Arena *volatile arena = cur_arena;
  volatile bool quiet = diag_quiet;
  pcall_top = &pc;
  bool ok = !setjmp(pc.jb);
  if (ok) f(ud);
  pcall_top = pc.prev;
  if (!ok) {
    cur_arena = arena;
    diag_quiet = quiet;
  }
  return ok;
}

bool carve_protected(void) { return pcall_top != NULL; }

void carve_throw(void) {
  if (!pcall_top) {
    /* a bug: every entry point runs its work inside a protected call */
    fprintf(stderr, "carve: internal error: an error was raised outside any protected call\n");
    abort();
  }
  longjmp(pcall_top->jb, 1);
}

char *arena_strndup(const char *s, size_t n) {
  char *p = arena_alloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}
char *arena_strdup(const char *s) { return arena_strndup(s, strlen(s)); }

char *vfmt(const char *f, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, f, ap2);
  va_end(ap2);
  char *p = arena_alloc((size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, f, ap);
  return p;
}
char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *p = vfmt(f, ap);
  va_end(ap);
  return p;
}

void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) out_of_memory();
  return p;
}
void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) out_of_memory();
  return p;
}

/* ---- Buf ---- */
static void buf_grow(Buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  b->s = xrealloc(b->s, cap);
  b->cap = cap;
}
void buf_putc(Buf *b, char c) {
  buf_grow(b, 1);
  b->s[b->len++] = c;
  b->s[b->len] = 0;
}
void buf_puts(Buf *b, const char *s) {
  size_t n = strlen(s);
  buf_grow(b, n);
  memcpy(b->s + b->len, s, n + 1);
  b->len += n;
}
void buf_printf(Buf *b, const char *f, ...) {
  va_list ap, ap2;
  va_start(ap, f);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  buf_grow(b, (size_t)n);
  vsnprintf(b->s + b->len, (size_t)n + 1, f, ap2);
  va_end(ap2);
  b->len += (size_t)n;
}
void buf_free(Buf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
}

/* ---- diagnostics ---- */
int diag_errors, diag_warnings;
FILE *diag_out;
bool diag_color, diag_quiet;
char diag_last_msg[512];
SrcLoc diag_last_loc;

void diag_reset(void) { diag_errors = diag_warnings = 0; }

/* the source line under a diagnostic, cut to a window around the caret: a generated line can
 * be megabytes long, and a diagnostic per token of it must not print it whole each time */
enum { SOURCE_WINDOW = 100 };
static void print_source_line(FILE *o, SrcLoc loc) {
  const char *start = loc.loc, *base = loc.file->contents;
  if (!start) return;
  while (start > base && start[-1] != '\n' && loc.loc - start < SOURCE_WINDOW) start--;
  bool cut_left = start > base && start[-1] != '\n';
  const char *end = loc.loc;
  while (*end && *end != '\n' && end - loc.loc < SOURCE_WINDOW) end++;
  bool cut_right = *end && *end != '\n';
  fprintf(o, "%5d | %s%.*s%s\n      | %s", loc.line, cut_left ? "..." : "", (int)(end - start),
          start, cut_right ? "..." : "", cut_left ? "   " : "");
  for (const char *p = start; p < loc.loc; p++) fputc(*p == '\t' ? '\t' : ' ', o);
  fprintf(o, "%s^%s\n", diag_color ? "\033[1;32m" : "", diag_color ? "\033[0m" : "");
}

void vdiag_at(DiagLevel lv, SrcLoc loc, const char *f, va_list ap) {
  if (lv == DIAG_ERROR) diag_errors++;
  if (lv == DIAG_WARNING) diag_warnings++;
  if (lv == DIAG_ERROR) {
    va_list ap2;
    va_copy(ap2, ap);
    vsnprintf(diag_last_msg, sizeof diag_last_msg, f, ap2);
    va_end(ap2);
    diag_last_loc = loc;
  }
  if (diag_quiet) return;
  FILE *o = diag_out ? diag_out : stderr;
  static const char *names[] = {"note", "warning", "error"};
  static const char *colors[] = {"\033[1;36m", "\033[1;35m", "\033[1;31m"};
  if (loc.file)
    fprintf(o, "%s%s:%d:%d: ", diag_color ? "\033[1m" : "", loc.file->name, loc.line, loc.col);
  else fprintf(o, "%scarve: ", diag_color ? "\033[1m" : "");
  fprintf(o, "%s%s:%s ", diag_color ? colors[lv] : "", names[lv],
          diag_color ? "\033[0m\033[1m" : "");
  vfprintf(o, f, ap);
  fprintf(o, "%s\n", diag_color ? "\033[0m" : "");
  if (loc.file) print_source_line(o, loc);
}

void diag_at(DiagLevel lv, SrcLoc loc, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  vdiag_at(lv, loc, f, ap);
  va_end(ap);
}

bool make_dirs(const char *path) {
  char *p = arena_strdup(path);
  for (char *c = p + 1; *c; c++)
    if (*c == '/') {
      *c = 0;
      mkdir(p, 0777);
      *c = '/';
    }
  return mkdir(p, 0777) == 0 || errno == EEXIST;
}

bool json_number(const char *js, const char *key, double *v) {
  char why[160];
  Json *j = js ? json_parse(js, strlen(js), why, sizeof why) : NULL;
  bool ok = json_get_number(j, key, v);
  json_free(j);
  return ok;
}

char *calibration_path(const char *given) {
  if (given) return arena_strdup(given);
  const char *env = getenv("CARVE_CALIBRATION");
  if (env && *env) return arena_strdup(env);
  const char *home = getenv("HOME");
  return fmt("%s/.cache/carve/calibration.json", home ? home : ".");
}

char *read_file(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  Buf b = {0};
  char tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, fp)) > 0) {
    buf_grow(&b, n);
    memcpy(b.s + b.len, tmp, n);
    b.len += n;
  }
  int err = ferror(fp);
  fclose(fp);
  if (err) {
    buf_free(&b);
    errno = EIO;
    return NULL;
  }
  buf_grow(&b, 1);
  b.s[b.len] = 0;
  if (len) *len = b.len;
  return b.s;
}

/* ---- processes ---- */
char *find_program(const char *name) {
  const char *env = strcmp(name, "nvcc") ? (strcmp(name, "ncu") ? NULL : getenv("CARVE_NCU"))
                                         : getenv("CARVE_NVCC");
  if (env && *env) return access(env, X_OK) == 0 ? arena_strdup(env) : NULL;
  const char *path = getenv("PATH");
  char *p = arena_strdup(path ? path : "/usr/bin:/bin");
  char *extra[] = {"/usr/local/cuda/bin", NULL};
  for (char *dir = strtok(p, ":"); dir; dir = strtok(NULL, ":")) {
    char *f = fmt("%s/%s", dir, name);
    if (access(f, X_OK) == 0) return f;
  }
  for (int i = 0; extra[i]; i++) {
    char *f = fmt("%s/%s", extra[i], name);
    if (access(f, X_OK) == 0) return f;
  }
  return NULL;
}

/* run argv with stdout and stderr to files; returns the exit status, 124 on timeout, -1 if
 * it could not start */
int run_program(char *const argv[], const char *out, const char *err, int timeout_s) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    setpgid(0, 0);
    if (out && !freopen(out, "w", stdout)) _exit(127);
    if (err && !freopen(err, "w", stderr)) _exit(127);
    execvp(argv[0], argv);
    _exit(127);
  }
  time_t start = time(NULL);
  int status;
  for (;;) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) return -1;
    if (timeout_s > 0 && time(NULL) - start > timeout_s) {
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      return 124;
    }
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* ---- files carve writes ---- */
struct OutFile {
  struct OutFile *next;
  char *path;   /* as given, for messages */
  char *target; /* what the rename replaces (links resolved); NULL: written in place */
  char *tmp;    /* the temporary, until renamed */
  FILE *fp;
  bool to_stdout; /* "-": held in memory (mem, memlen), written to standard output at commit */
  char *mem;
  size_t memlen;
};
static OutFile *out_files;

static bool out_fail(const char *path, const char *why) {
  diag_at(DIAG_ERROR, (SrcLoc){0}, "cannot write '%s': %s", path, why);
  return false;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

static void out_free(OutFile *f) {
  if (f->fp) fclose(f->fp);
  if (f->tmp) unlink(f->tmp);
  free(f->path);
  free(f->target);
  free(f->tmp);
  free(f->mem);
  free(f);
}

/* the path a rename must replace: path itself, or the file its links name; NULL with why */
static char *out_target(const char *path, struct stat *st, bool *exists, const char **why) {
  struct stat lst;
  *exists = false;
  if (lstat(path, &lst) != 0) {
    if (errno != ENOENT) {
      *why = strerror(errno);
      return NULL;
    }
    return dup_str(path);
  }
  if (!S_ISLNK(lst.st_mode)) {
    *st = lst;
    *exists = true;
    return dup_str(path);
  }
  /* never create a file through a link: a link to nothing is refused */
  char *real = realpath(path, NULL);
  if (!real || stat(real, st) != 0) {
    free(real);
    *why = "a symbolic link to a missing file";
    return NULL;
  }
  *exists = true;
  return real;
}

/* a fresh temporary beside target, with the mode the file will have */
static FILE *out_temp(const char *target, const struct stat *st, bool exists, char **tmp) {
  const char *slash = strrchr(target, '/');
  int dirlen = slash ? (int)(slash - target) + 1 : 0;
  char *t = xmalloc((size_t)dirlen + 16);
  snprintf(t, (size_t)dirlen + 16, "%.*s.carve-XXXXXX", dirlen, target);
  int fd = mkstemp(t);
  mode_t mask = umask(0);
  umask(mask);
  FILE *fp = NULL;
  if (fd >= 0 && fchmod(fd, exists ? st->st_mode & 07777 : 0666 & ~mask) == 0)
    fp = fdopen(fd, "wb");
  if (!fp) {
    int e = errno;
    if (fd >= 0) {
      close(fd);
      unlink(t);
    }
    free(t);
    errno = e;
    return NULL;
  }
  *tmp = t;
  return fp;
}

OutFile *out_begin(const char *path) {
  if (!strcmp(path, "-")) { /* standard output, as everywhere: written whole at commit */
    OutFile *f = xmalloc(sizeof *f);
    f->path = dup_str("standard output");
    f->to_stdout = true;
    f->fp = open_memstream(&f->mem, &f->memlen);
    if (!f->fp) {
      out_fail(f->path, strerror(errno));
      out_free(f);
      return NULL;
    }
    f->next = out_files;
    out_files = f;
    return f;
  }
  struct stat st;
  bool exists;
  const char *why = NULL;
  char *target = out_target(path, &st, &exists, &why);
  if (!target) {
    out_fail(path, why);
    return NULL;
  }
  OutFile *f = xmalloc(sizeof *f);
  f->path = dup_str(path);
  if (exists && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
    int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    free(target);
    f->fp = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f->fp && fd >= 0) close(fd);
  } else if (exists && !S_ISREG(st.st_mode)) {
    free(target);
    out_fail(path, S_ISDIR(st.st_mode) ? "it is a directory"
                                       : "not a regular file, character device or FIFO");
    out_free(f);
    return NULL;
  } else {
    f->target = target;
    f->fp = out_temp(target, &st, exists, &f->tmp);
  }
  if (!f->fp) {
    out_fail(path, strerror(errno));
    out_free(f);
    return NULL;
  }
  f->next = out_files;
  out_files = f;
  return f;
}

bool out_write(OutFile *f, const void *data, size_t n) {
  if (n && fwrite(data, 1, n, f->fp) != n) return out_fail(f->path, strerror(errno));
  return true;
}

void out_abort_all(void) {
  while (out_files) {
    OutFile *n = out_files->next;
    out_free(out_files);
    out_files = n;
  }
}

bool out_commit_all(void) {
  /* every write is checked (a full disk, /dev/full) before any rename: all or nothing */
  for (OutFile *f = out_files; f; f = f->next) {
    errno = 0;
    bool bad = fflush(f->fp) != 0 || ferror(f->fp);
    int err = errno;
    bad |= fclose(f->fp) != 0;
    if (!err) err = errno;
    f->fp = NULL;
    if (bad) {
      out_fail(f->path, err ? strerror(err) : "write error");
      out_abort_all();
      return false;
    }
  }
  bool ok = true;
  for (OutFile *f = out_files; f; f = f->next)
    if (f->to_stdout) {
      if ((f->memlen && fwrite(f->mem, 1, f->memlen, stdout) != f->memlen) || fflush(stdout))
        ok = out_fail(f->path, strerror(errno));
    } else if (f->tmp) {
      if (rename(f->tmp, f->target) != 0) ok = out_fail(f->path, strerror(errno));
      else {
        free(f->tmp);
        f->tmp = NULL;
      }
    }
  out_abort_all();
  return ok;
}

bool out_check_stdout(void) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return true;
  diag_at(DIAG_ERROR, (SrcLoc){0}, "cannot write to standard output%s%s", errno ? ": " : "",
          errno ? strerror(errno) : "");
  return false;
}

char *read_file_max(const char *path, size_t max, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  char *s = xmalloc(max + 2);
  size_t n = fread(s, 1, max + 1, fp);
  int err = ferror(fp);
  fclose(fp);
  if (err || n > max) {
    free(s);
    errno = err ? EIO : EFBIG;
    return NULL;
  }
  s[n] = 0;
  if (len) *len = n;
  return s;
}

/* ---- JSON well-formedness (RFC 8259) ---- */
typedef struct {
  const char *p, *end;
  int depth;
  const char *err;
} JScan;

static bool jerr(JScan *j, const char *what) {
  if (!j->err) j->err = what;
  return false;
}
static void jspace(JScan *j) {
  while (j->p < j->end && *j->p && strchr(" \t\r\n", *j->p)) j->p++;
}
static bool jdigits(JScan *j) {
  const char *s = j->p;
  while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
  return j->p > s || jerr(j, "a digit expected");
}
static bool jnumber(JScan *j) {
  if (*j->p == '-') j->p++;
  if (j->p < j->end && *j->p == '0') j->p++;
  else if (!jdigits(j)) return false;
  if (j->p < j->end && *j->p == '.') {
    j->p++;
    if (!jdigits(j)) return false;
  }
  if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
    j->p++;
    if (j->p < j->end && (*j->p == '+' || *j->p == '-')) j->p++;
    if (!jdigits(j)) return false;
  }
  return true;
}
static bool jstring(JScan *j) {
  if (j->p >= j->end || *j->p != '"') return jerr(j, "a string expected");
  for (j->p++; j->p < j->end; j->p++) {
    unsigned char c = (unsigned char)*j->p;
    if (c == '"') {
      j->p++;
      return true;
    }
    if (c < 0x20) return jerr(j, "a control character in a string");
    if (c != '\\') continue;
    if (++j->p >= j->end) break;
    if (*j->p == 'u') {
      for (int i = 0; i < 4; i++)
        if (++j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p) || !*j->p)
          return jerr(j, "a bad \\u escape");
    } else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) return jerr(j, "a bad escape in a string");
  }
  return jerr(j, "an unterminated string");
}
static bool jvalue(JScan *j);
static bool jlist(JScan *j, char close, bool object) {
  if (++j->depth > 64) return jerr(j, "nesting deeper than 64");
  j->p++;
  jspace(j);
  if (j->p < j->end && *j->p == close) {
    j->p++;
    j->depth--;
    return true;
  }
  for (;;) {
    if (object) {
      if (!jstring(j)) return false;
      jspace(j);
      if (j->p >= j->end || *j->p != ':') return jerr(j, "':' expected");
      j->p++;
    }
    if (!jvalue(j)) return false;
    jspace(j);
    if (j->p < j->end && *j->p == ',') {
      j->p++;
      jspace(j);
      continue;
    }
    if (j->p < j->end && *j->p == close) {
      j->p++;
      j->depth--;
      return true;
    }
    return jerr(j, object ? "',' or '}' expected" : "',' or ']' expected");
  }
}
static bool jvalue(JScan *j) {
  jspace(j);
  if (j->p >= j->end) return jerr(j, "a value expected");
  static const char *words[] = {"true", "false", "null"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if ((size_t)(j->end - j->p) >= n && !memcmp(j->p, words[i], n)) {
      j->p += n;
      return true;
    }
  }
  char c = *j->p;
  if (c == '{' || c == '[') return jlist(j, c == '{' ? '}' : ']', c == '{');
  if (c == '"') return jstring(j);
  if (c == '-' || (c >= '0' && c <= '9')) return jnumber(j);
  return jerr(j, "a value expected");
}

bool json_valid(const char *text, size_t len, char *why, size_t whylen) {
  JScan j = {text, text + len, 0, NULL};
  if (jvalue(&j)) {
    jspace(&j);
    if (j.p == j.end) return true;
    jerr(&j, "text after the value");
  }
  int line = 1, col = 1;
  for (const char *c = text; c < j.p && c < j.end; c++) {
    if (*c == '\n') {
      line++;
      col = 1;
    } else col++;
  }
  snprintf(why, whylen, "not JSON: %s at line %d, column %d", j.err, line, col);
  return false;
}

/* "carve CMD: error: MSG (see 'carve CMD --help')" on stderr; 2, a usage error's exit status */
int usage_error(const char *cmd, const char *msg) {
  fprintf(stderr, "carve %s: error: %s (see 'carve %s --help')\n", cmd, msg, cmd);
  return 2;
}

/* s appended to an arena array of *n strings (flag lists: they live as long as the command) */
void arena_push(const char ***arr, int *n, const char *s) {
  const char **a = arena_alloc(sizeof(char *) * (size_t)(*n + 1));
  if (*n) memcpy(a, *arr, sizeof(char *) * (size_t)*n);
  a[(*n)++] = s;
  *arr = a;
}
