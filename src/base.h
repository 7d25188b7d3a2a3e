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

/* All front-end objects live until the process ends or the arena is reset: compilers
 * allocate far more than they free, and one arena makes error recovery leak-free. */
void *arena_alloc(size_t n);           /* zeroed */
char *arena_strndup(const char *s, size_t n);
char *arena_strdup(const char *s);
char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
char *vfmt(const char *f, va_list ap);
void arena_free_all(void);

void *xmalloc(size_t n);               /* zeroed; aborts on OOM */
void *xrealloc(void *p, size_t n);

/* Growable string buffer. */
typedef struct { char *s; size_t len, cap; } Buf;
void buf_putc(Buf *b, char c);
void buf_puts(Buf *b, const char *s);
void buf_printf(Buf *b, const char *f, ...) __attribute__((format(printf, 2, 3)));
void buf_free(Buf *b);

/* A source file as read. */
typedef struct SrcFile {
  char *name;     /* as given, for diagnostics */
  char *contents; /* NUL-terminated, ends in '\n' */
  int id;
  int include_depth;  /* #include nesting of this file */
} SrcFile;

/* A position in a source file; `file` NULL means "no location". */
typedef struct { SrcFile *file; int line, col; const char *loc; } SrcLoc;

typedef enum { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } DiagLevel;

/* Diagnostics are printed gcc-style ("file:line:col: error: msg", the source line and a caret)
 * to the current sink and counted. */
void diag_at(DiagLevel lv, SrcLoc loc, const char *f, ...) __attribute__((format(printf, 3, 4)));
void vdiag_at(DiagLevel lv, SrcLoc loc, const char *f, va_list ap);
extern int diag_errors, diag_warnings;
extern FILE *diag_out;       /* default stderr */
extern bool diag_color;      /* colour only when writing to a terminal */
extern bool diag_quiet;      /* count but do not print (tentative parsing of host code) */
/* the last error, kept even when quiet (to report a skipped definition when it is used) */
extern char diag_last_msg[512];
extern SrcLoc diag_last_loc;
void diag_reset(void);

/* read a whole file; NULL with errno set on failure */
char *read_file(const char *path, size_t *len);
/* mkdir -p; false with errno set when the directory cannot be made */
bool make_dirs(const char *path);
/* the number after "key": in a flat JSON text (the harness and calibration outputs) */
bool json_number(const char *json, const char *key, double *v);
/* the calibration file: `given`, else $CARVE_CALIBRATION, else ~/.cache/carve/calibration.json */
char *calibration_path(const char *given);
/* processes: a tool by name ($CARVE_NVCC, $CARVE_NCU, PATH, /usr/local/cuda/bin), NULL if absent;
 * run argv with stdout and stderr to files: the exit status, 124 on timeout, -1 if it could not start */
char *find_program(const char *name);
int run_program(char *const argv[], const char *out, const char *err, int timeout_s);
#endif
