/* json.c: the reader finds a key only where it is a member of the object asked (not nested
 * deeper, not inside a string), decodes strings, refuses what is not JSON with a located
 * message; the writer's strings read back as written. */
#include "../src/json.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>

static Json *parse(const char *s) {
  char why[160];
  return json_parse(s, strlen(s), why, sizeof why);
}

static void test_members_not_mistaken(void) {
  /* the substring search this replaces found each of these keys in the wrong place */
  const char *nested = "{\"baseline\": {\"median_ms\": 2.5}, \"median_ms\": 1.25}";
  double v = 0;
  CHECK(json_number(nested, "median_ms", &v) && v == 1.25, "a member after a nested one of the same name: got %g", v);
  const char *only_nested = "{\"baseline\": {\"median_ms\": 2.5}}";
  CHECK(!json_number(only_nested, "median_ms", &v), "a key present only in a nested object is not a member");
  const char *in_string = "{\"why\": \"\\\"median_ms\\\": 7\", \"n\": 1}";
  CHECK(!json_number(in_string, "median_ms", &v), "a key inside a string is not a member");
  CHECK(json_number(in_string, "n", &v) && v == 1, "the real member next to it: %g", v);
  CHECK(!json_number("{\"a\": \"3\"}", "a", &v), "a string is not a number");
  CHECK(!json_number("[{\"a\": 3}]", "a", &v), "an array is not an object");
  CHECK(!json_number("{\"a\": 3", "a", &v), "not JSON: nothing found");
  CHECK(json_number("{\"a\": 1, \"a\": 2}", "a", &v) && v == 2, "a repeated member: the last, as most readers take it (%g)", v);
  Json *j = parse("{\"compare\": [{\"counter\": \"x\", \"flagged\": true}, {\"counter\": \"y\", \"flagged\": false}], \"e\": -1.5e3}");
  const Json *c = json_get(j, "compare");
  CHECK(c && c->kind == JSON_ARRAY && c->n == 2 && !strcmp(json_get_string(&c->kids[1], "counter"), "y") &&
            json_get(&c->kids[0], "flagged")->kind == JSON_TRUE,
        "arrays of objects walked");
  CHECK(json_get_number(j, "e", &v) && v == -1500, "exponent and sign: %g", v);
  json_free(j);
}

static void test_strings(void) {
  Json *j = parse("{\"s\": \"a\\u00e9\\ud83d\\ude00\\n\\t\\\\\\/\", \"lone\": \"\\ud800x\", \"\\u006b\": 1}");
  CHECK(j && !strcmp(json_get_string(j, "s"), "a\xc3\xa9\xf0\x9f\x98\x80\n\t\\/"), "escapes decoded (UTF-8, a surrogate pair): '%s'",
        j ? json_get_string(j, "s") : "?");
  CHECK(j && !strcmp(json_get_string(j, "lone"), "\xef\xbf\xbdx"), "a lone surrogate is U+FFFD");
  double v;
  CHECK(j && json_get_number(j, "k", &v) && v == 1, "keys are decoded too");
  json_free(j);
  Buf b = {0};
  const char *odd = "q\"b\\s\n\x01\xc3\xa9";
  buf_puts(&b, "{\"x\": ");
  json_write_string(&b, odd);
  buf_puts(&b, "}");
  j = parse(b.s);
  CHECK(j && !strcmp(json_get_string(j, "x"), odd), "the writer's string reads back as written: %s", b.s);
  json_free(j);
  buf_free(&b);
}

static void test_errors(void) {
  char why[160] = "";
  CHECK(!json_parse("{\"a\": 1,\n \"b\": }", 17, why, sizeof why) && strstr(why, "line 2"), "located: %s", why);
  CHECK(!json_parse("{} {}", 5, why, sizeof why) && strstr(why, "text after the value"), "one value: %s", why);
  Json *j = parse("  [1, 2.5, null, false, \"\", {}]  ");
  CHECK(j && j->kind == JSON_ARRAY && j->n == 6 && j->kids[1].num == 2.5 && j->kids[2].kind == JSON_NULL && j->kids[5].kind == JSON_OBJECT,
        "every kind of value");
  json_free(j);
  /* nesting at the scanner's bound (64) parses; deeper is refused, never a deep recursion */
  char deep[200];
  int k = 0;
  for (int i = 0; i < 64; i++) deep[k++] = '[';
  for (int i = 0; i < 64; i++) deep[k++] = ']';
  j = json_parse(deep, (size_t)k, why, sizeof why);
  CHECK(j != NULL, "64 levels parse: %s", why);
  json_free(j);
  memmove(deep + 1, deep, (size_t)k);
  deep[0] = '[';
  deep[++k] = ']';
  k++;
  CHECK(!json_parse(deep, (size_t)k, why, sizeof why) && strstr(why, "deeper than 64"), "65 levels refused: %s", why);
}

int main(void) {
  test_members_not_mistaken();
  test_strings();
  test_errors();
  return TEST_SUMMARY("json");
}
