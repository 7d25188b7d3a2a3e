/* json: a tree over valid JSON, and the string writer. See json.h.
 *
 * json_parse validates first (json_valid: the one scanner, with its located messages), then
 * builds the tree with a recursive descent that may assume well-formed input. Nesting is
 * bounded by the scanner (64 levels). */
#include "json.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *p;
} Reader;

static void skip_space(Reader *r) {
  while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n') r->p++;
}

static unsigned hex4(const char *p) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    v = v * 16 + (unsigned)(c >= '0' && c <= '9'   ? c - '0'
                            : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                   : c - 'A' + 10);
  }
  return v;
}

static void put_utf8(Buf *b, unsigned cp) {
  if (cp < 0x80) buf_putc(b, (char)cp);
  else if (cp < 0x800) {
    buf_putc(b, (char)(0xc0 | cp >> 6));
    buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    buf_putc(b, (char)(0xe0 | cp >> 12));
    buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else {
    buf_putc(b, (char)(0xf0 | cp >> 18));
    buf_putc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
    buf_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    buf_putc(b, (char)(0x80 | (cp & 0x3f)));
  }
}

/* string = '"' chars '"', escapes decoded; a lone surrogate becomes U+FFFD */
static char *read_string(Reader *r) {
  Buf b = {0};
  buf_puts(&b, "");
  for (r->p++; *r->p != '"'; r->p++) {
    if (*r->p != '\\') {
      buf_putc(&b, *r->p);
      continue;
    }
    char e = *++r->p;
    switch (e) {
    case 'b': buf_putc(&b, '\b'); break;
    case 'f': buf_putc(&b, '\f'); break;
    case 'n': buf_putc(&b, '\n'); break;
    case 'r': buf_putc(&b, '\r'); break;
    case 't': buf_putc(&b, '\t'); break;
    case 'u': {
      unsigned cp = hex4(r->p + 1);
      r->p += 4;
      if (cp >= 0xd800 && cp < 0xdc00 && r->p[1] == '\\' && r->p[2] == 'u') {
        unsigned lo = hex4(r->p + 3);
        if (lo >= 0xdc00 && lo < 0xe000) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          r->p += 6;
        }
      }
      if (cp >= 0xd800 && cp < 0xe000) cp = 0xfffd;
      put_utf8(&b, cp);
      break;
    }
    default: buf_putc(&b, e); break; /* " \ / */
    }
  }
  r->p++;
  return b.s;
}

static void read_value(Reader *r, Json *j);

/* array = '[' (value (',' value)*)? ']';  object = '{' (string ':' value (',' ...)*)? '}' */
static void read_list(Reader *r, Json *j, bool object) {
  char close = object ? '}' : ']';
  int cap = 0;
  r->p++;
  skip_space(r);
  while (*r->p != close) {
    if (j->n == cap) {
      cap = cap ? cap * 2 : 4;
      j->kids = xrealloc(j->kids, sizeof(Json) * (size_t)cap);
      if (object) j->keys = xrealloc(j->keys, sizeof(char *) * (size_t)cap);
    }
    if (object) {
      j->keys[j->n] = read_string(r);
      skip_space(r);
      r->p++; /* ':' */
    }
    read_value(r, &j->kids[j->n++]);
    skip_space(r);
    if (*r->p == ',') {
      r->p++;
      skip_space(r);
    }
  }
  r->p++;
}

static void read_value(Reader *r, Json *j) {
  memset(j, 0, sizeof *j);
  skip_space(r);
  switch (*r->p) {
  case '{':
    j->kind = JSON_OBJECT;
    read_list(r, j, true);
    return;
  case '[':
    j->kind = JSON_ARRAY;
    read_list(r, j, false);
    return;
  case '"':
    j->kind = JSON_STRING;
    j->str = read_string(r);
    return;
  case 't':
    j->kind = JSON_TRUE;
    r->p += 4;
    return;
  case 'f':
    j->kind = JSON_FALSE;
    r->p += 5;
    return;
  case 'n':
    j->kind = JSON_NULL;
    r->p += 4;
    return;
  default: {
    char *end;
    j->kind = JSON_NUMBER;
    j->num = strtod(r->p, &end);
    r->p = end;
  }
  }
}

Json *json_parse(const char *text, size_t len, char *why, size_t whylen) {
  if (!text || !json_valid(text, len, why, whylen)) {
    if (!text) snprintf(why, whylen, "no text");
    return NULL;
  }
  /* the scanner stops at len; the reader relies on a NUL after the value, so it reads a copy */
  char *copy = xmalloc(len + 1);
  memcpy(copy, text, len);
  Reader r = {copy};
  Json *j = xmalloc(sizeof *j);
  read_value(&r, j);
  free(copy);
  return j;
}

static void free_kids(Json *j) {
  for (int i = 0; i < j->n; i++) {
    free_kids(&j->kids[i]);
    if (j->keys) free(j->keys[i]);
  }
  free(j->kids);
  free(j->keys);
  free(j->str);
}

void json_free(Json *j) {
  if (!j) return;
  free_kids(j);
  free(j);
}

const Json *json_get(const Json *j, const char *key) {
  if (!j || j->kind != JSON_OBJECT) return NULL;
  for (int i = j->n - 1; i >= 0; i--)
    if (!strcmp(j->keys[i], key)) return &j->kids[i];
  return NULL;
}

bool json_get_number(const Json *j, const char *key, double *v) {
  const Json *m = json_get(j, key);
  if (!m || m->kind != JSON_NUMBER) return false;
  *v = m->num;
  return true;
}

const char *json_get_string(const Json *j, const char *key) {
  const Json *m = json_get(j, key);
  return m && m->kind == JSON_STRING ? m->str : NULL;
}

void json_write_string(Buf *b, const char *s) {
  buf_putc(b, '"');
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
    if (*p == '"' || *p == '\\') {
      buf_putc(b, '\\');
      buf_putc(b, (char)*p);
    } else if (*p == '\n') buf_puts(b, "\\n");
    else if (*p == '\t') buf_puts(b, "\\t");
    else if (*p == '\r') buf_puts(b, "\\r");
    else if (*p < 0x20) buf_printf(b, "\\u%04x", *p);
    else buf_putc(b, (char)*p);
  }
  buf_putc(b, '"');
}

const char *json_quoted(const char *s) {
  Buf b = {0};
  json_write_string(&b, s);
  char *r = arena_strdup(b.s);
  buf_free(&b);
  return r;
}
