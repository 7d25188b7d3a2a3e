/* base: memory, strings, growable vectors and diagnostics shared by every stage. */
#ifndef CARVE_BASE_H
#define CARVE_BASE_H
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CARVE_VERSION "0.1.0"

/* Arenas. Front-end objects (tokens, types, nodes, objects) are bump-allocated from the
 * *current* arena and freed all at once with it: compilers allocate far more than they free,
 * and an arena makes error recovery leak-free. Each Program owns one (program_free deletes it);
 * outside any program the process arena is current. arena_enter switches and returns the
 * previous one, so a caller restores it; a protected call restores it on error. */
typedef struct Arena Arena;
Arena *arena_new(void);
void arena_delete(Arena *a);        /* NULL: nothing */
Arena *arena_enter(Arena *a);       /* NULL: the process arena; returns the previous current */
size_t arena_bytes(const Arena *a); /* bytes reserved by a (NULL: the process arena) */
void *arena_alloc(size_t n);        /* zeroed, from the current arena */
char *arena_strndup(const char *s, size_t n);
char *arena_strdup(const char *s);
char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
char *vfmt(const char *f, va_list ap);
void arena_free_all(void); /* the process arena */

/* Protected calls (Lua's luaD_rawrunprotected): carve_pcall runs f(ud); an error raised inside
 * by carve_throw (error_tok, out of memory, a named limit) unwinds to the innermost protected
 * call, which returns false after restoring the current arena and diag_quiet. Calls nest: a
 * variant that fails costs that variant, never the process. Library code never exits. */
typedef void ProtectedFn(void *ud);
bool carve_pcall(ProtectedFn *f, void *ud);
_Noreturn void carve_throw(void);
bool carve_protected(void); /* inside a protected call */

void *xmalloc(size_t n); /* zeroed; out of memory raises an error (carve_throw) */
void *xrealloc(void *p, size_t n);

/* Growable string buffer. */
typedef struct {
  char *s;
  size_t len, cap;
} Buf;
void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *f, ...) __attribute__((format(printf, 2, 3)));
void buf_free(Buf *b);

/* A source file as read. */
typedef struct SrcFile {
  char *name;     /* as given, for diagnostics */
  char *contents; /* NUL-terminated, ends in '\n' */
  int id;
  int include_depth; /* #include nesting of this file */
} SrcFile;

/* A position in a source file; `file` NULL means "no location". */
typedef struct {
  SrcFile *file;
  int line, col;
  const char *loc;
} SrcLoc;

typedef enum { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } DiagLevel;

/* Diagnostics are printed gcc-style ("file:line:col: error: msg", the source line and a caret)
 * to the current sink and counted. */
void diag_at(DiagLevel lv, SrcLoc loc, const char *f, ...) __attribute__((format(printf, 3, 4)));
void vdiag_at(DiagLevel lv, SrcLoc loc, const char *f, va_list ap);
extern int diag_errors, diag_warnings;
extern FILE *diag_out;  /* default stderr */
extern bool diag_color; /* colour only when writing to a terminal */
extern bool diag_quiet; /* count but do not print (tentative parsing of host code) */
/* the last error, kept even when quiet (to report a skipped definition when it is used) */
extern char diag_last_msg[512];
extern SrcLoc diag_last_loc;
void diag_reset(void);

/* read a whole file; NULL with errno set on failure */
char *read_file(const char *path, size_t *len);
/* mkdir -p; false with errno set when the directory cannot be made */
bool make_dirs(const char *path);
/* the number member `key` of the JSON object json (a member of that object, not one nested
 * deeper or inside a string: json.h); false when json is not an object or has no such number */
bool json_number(const char *json, const char *key, double *v);
int usage_error(const char *cmd, const char *msg);         /* a command's usage error: 2 */
void arena_push(const char ***arr, int *n, const char *s); /* append to an arena string array */
/* the calibration file: `given`, else $CARVE_CALIBRATION, else ~/.cache/carve/calibration.json */
char *calibration_path(const char *given);
/* processes: a tool by name ($CARVE_NVCC, $CARVE_NCU, PATH, /usr/local/cuda/bin), NULL if absent;
 * run argv with stdout and stderr to files: the exit status, 124 on timeout, -1 if it could not
 * start */
char *find_program(const char *name);
int run_program(char *const argv[], const char *out, const char *err, int timeout_s);
/* Files carve writes. Every file a command writes goes through here: out_begin opens PATH,
 * out_write adds bytes, out_commit_all makes all the files begun since the last commit appear
 * together, out_abort_all discards them. A regular file (or a new one) is written to a fresh
 * temporary in its directory (mkstemp: created exclusively, never through a planted link) and
 * renamed over PATH at commit, so PATH holds the old or the new contents, never half; a
 * symbolic link is followed to the file it names and stays a link. A character device or a FIFO
 * (/dev/null, a named pipe) is written in place. Anything else (a directory, a socket, a link
 * to nothing) is refused. Errors are diagnosed ("carve: error: cannot write 'PATH': why");
 * after one, the caller calls out_abort_all and nothing regular was changed. */
typedef struct OutFile OutFile;
OutFile *out_begin(const char *path); /* NULL after a diagnostic */
bool out_write(OutFile *f, const void *data, size_t n);
bool out_commit_all(void); /* flush and close everything, then rename; false after a diagnostic */
void out_abort_all(void);  /* close and remove the temporaries; nothing was committed */
/* standard output at exit: flushed and checked; false after a diagnostic */
bool out_check_stdout(void);

/* read a whole file of at most max bytes; NULL with errno set on failure (EFBIG: longer) */
char *read_file_max(const char *path, size_t max, size_t *len);
/* is text[0..len) one JSON value (RFC 8259)? false with what is wrong and where in why */
bool json_valid(const char *text, size_t len, char *why, size_t whylen);
#endif
