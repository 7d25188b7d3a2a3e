/* json: the one reader and the one string writer for the JSON carve reads back (calibration
 * files, the GPU harness's output, bench's JSON, tune's records).
 *
 * The reader builds a tree (a DOM) over text that json_valid (base.c, RFC 8259) accepted, so a
 * key is found only where it is a member of the object asked, never nested deeper or inside a
 * string, and strings come back decoded (\uXXXX as UTF-8, surrogate pairs joined). The writer
 * quotes and escapes a string. */
#ifndef CARVE_JSON_H
#define CARVE_JSON_H
#include "base.h"

typedef enum {
  JSON_NULL,
  JSON_FALSE,
  JSON_TRUE,
  JSON_NUMBER,
  JSON_STRING,
  JSON_ARRAY,
  JSON_OBJECT
} JsonKind;

typedef struct Json {
  JsonKind kind;
  double num;        /* JSON_NUMBER */
  char *str;         /* JSON_STRING: decoded, NUL-terminated (a \u0000 ends it early) */
  struct Json *kids; /* JSON_ARRAY: the elements; JSON_OBJECT: the members' values */
  char **keys;       /* JSON_OBJECT: the members' keys, decoded */
  int n;             /* elements or members */
} Json;

/* text[0..len) as a tree; NULL with why (json_valid's message: what and where) */
Json *json_parse(const char *text, size_t len, char *why, size_t whylen);
void json_free(Json *j);
/* the member `key` of an object (the last of that name, as most readers do); NULL if j is not an
 * object or has no such member */
const Json *json_get(const Json *j, const char *key);
/* the member as a number or a string; false/NULL when absent or of another kind */
bool json_get_number(const Json *j, const char *key, double *v);
const char *json_get_string(const Json *j, const char *key);
/* s as a JSON string, quoted, with ", \ and control characters escaped */
void json_write_string(Buf *b, const char *s);
/* the same as a string in the arena (printf's %s) */
const char *json_quoted(const char *s);
#endif
