/* Front end: preprocessor, parser, types, printer (round trips), host-code skipping. */
#include "../src/front/front.h"
#include "test.h"
#include <dirent.h>
#include <stdlib.h>

static char diag_text[65536];

/* every program a test loads, freed at the end (each owns an arena) */
static Program *loaded[512];
static int nloaded;
static Program *keep(Program *p) {
  if (p && nloaded < 512) loaded[nloaded++] = p;
  return p;
}

static Program *load_text(const char *src, const PPOptions *opt) {
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  memset(diag_text, 0, sizeof diag_text);
  diag_out = f;
  diag_reset();
  Program *p = keep(load_program_text("t.cu", src, opt));
  fclose(f);
  diag_out = stderr;
  return p;
}

static char *print_text(Program *p) {
  Buf b = {0};
  print_program(&b, p);
  char *s = arena_strdup(b.s ? b.s : "");
  buf_free(&b);
  return s;
}

/* print, parse the print, print again: the two prints must be equal and parse cleanly */
static void round_trip(const char *what, Program *p) {
  char *a = print_text(p);
  Program *q = load_text(a, NULL);
  CHECK(q && diag_errors == 0, "%s: printed text parses again:\n%s\n%s", what, diag_text, a);
  if (!q) return;
  char *b = print_text(q);
  CHECK(!strcmp(a, b), "%s: printing is stable:\n--- first\n%s--- second\n%s", what, a, b);
}

static void test_examples_round_trip(void) {
  DIR *d = opendir("examples");
  CHECK(d != NULL, "examples/ exists");
  if (!d) return;
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 4 || strcmp(e->d_name + len - 3, ".cu")) continue;
    char *path = fmt("examples/%s", e->d_name);
    diag_reset();
    Program *p = keep(load_program(path, NULL));
    CHECK(p && diag_errors == 0, "%s loads", path);
    if (p) round_trip(path, p);
    n++;
  }
  closedir(d);
  CHECK(n >= 17, "found %d example files", n);
}

static void test_fuzz_regressions(void) {
  DIR *d = opendir("tests/fuzz/regress");
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char *path = fmt("tests/fuzz/regress/%s", e->d_name);
    size_t len;
    char *text = read_file(path, &len);
    CHECK(text != NULL, "read %s", path);
    if (!text) continue;
    PPOptions opt = {.no_includes = true};
    bool has_nul = strlen(text) != len;
    Program *p = has_nul ? NULL : load_text(text, &opt);
    /* it either loads or says why: never a silent failure */
    CHECK(has_nul || (p && diag_errors == 0) || strstr(diag_text, "error:"), "%s: loads or is diagnosed:\n%s", path, diag_text);
    if (p && diag_errors == 0) round_trip(path, p);
    free(text);
  }
  closedir(d);
}

static void test_host_code_skipped(void) {
  const char *src =
    "#include <stdio.h>\n#include <vector>\n"
    "template <typename T> T hmax(T a, T b) { return a > b ? a : b; }\n"
    "namespace util { int f() { return 1; } }\n"
    "using namespace std;\n"
    "class Timer { public: void start(); };\n"
    "struct Host { std::vector<int> v; };\n"
    "const int N = 64;\n"
    "static double rtclock() { return 0.0; }\n"
    "__global__ void a(float *x) { x[threadIdx.x] = N; }\n"
    "template <int B> __global__ void templ(float *x) { x[threadIdx.x] = B; }\n"
    "extern \"C\" __global__ void b(float *x, int n) { int i = threadIdx.x; if (i < n) x[i] = float(i) * static_cast<float>(2); }\n"
    "extern \"C\" {\n__device__ int twice(int v) { return 2 * v; }\n}\n"
    "int main(int argc, char **argv) { float *d; cudaMalloc((void **)&d, 4); a<<<1, 32>>>(d); auto l = [](int x) { return x; };\n"
    "  dim3 g(1, 1); b<<<g, 32, 0>>>(d, 4); cudaDeviceSynchronize(); return 0; }\n"
    "__global__ void c(int *y) { y[0] = twice(3); }\n";
  Program *p = load_text(src, NULL);
  CHECK(p != NULL, "host-code file loads");
  if (!p) return;
  CHECK(find_kernel(p, "a") && find_kernel(p, "b") && find_kernel(p, "c"), "kernels a, b, c found");
  CHECK(!find_kernel(p, "templ"), "template kernel without an instance not loaded");
  CHECK(diag_errors == 0 && strstr(diag_text, "t.cu:11:34: warning: template kernel 'templ' has no instance"), "a located warning for the template kernel:\n%s", diag_text);
  CHECK(p->skipped_kernels == 0, "no skipped kernel (%d)", p->skipped_kernels);
}

static void test_macro_locations(void) {
  Program *p = load_text("#define BAD(x) ((x) + undefined_thing)\n__global__ void k(int *o) {\n  o[0] = BAD(1);\n}\n", NULL);
  (void)p;
  CHECK(strstr(diag_text, "t.cu:3:10: error: use of undeclared identifier 'undefined_thing'") != NULL, "error at the use site:\n%s", diag_text);
  CHECK(strstr(diag_text, "t.cu:1:23: note: expanded from macro 'BAD'") != NULL, "note at the macro body:\n%s", diag_text);
  /* an error in a macro argument points at the argument itself */
  load_text("#define ID(x) (x)\n__global__ void k(int *o) {\n  o[0] = ID(1 + nope);\n}\n", NULL);
  CHECK(strstr(diag_text, "t.cu:3:17: error: use of undeclared identifier 'nope'") != NULL, "argument error located:\n%s", diag_text);
}

static void test_include_and_defines(void) {
  const char *inc[] = {"tests/front"};
  const char *defs[] = {"EXTRA=5", "FLAG"};
  PPOptions opt = {.include_dirs = inc, .n_include_dirs = 1, .defines = defs, .n_defines = 2};
  Program *p = load_text("#include \"inc.h\"\n#ifndef FLAG\n#error FLAG must be defined\n#endif\n"
                         "__global__ void k(scalar_t *o) { o[0] = INC_SCALE * EXTRA; }\n", &opt);
  CHECK(p && diag_errors == 0, "include through -I and -D:\n%s", diag_text);
  if (p) {
    char *s = print_text(p);
    CHECK(strstr(s, "typedef float scalar_t;") && strstr(s, "o[0] = 3 * 5;"), "printed:\n%s", s);
  }
  load_text("#include \"missing_header.h\"\n", NULL);
  CHECK(strstr(diag_text, "t.cu:1:10: error: 'missing_header.h' file not found") != NULL, "missing include:\n%s", diag_text);
}

static void test_pragma_unroll(void) {
  Program *p = load_text("#define U 8\n__global__ void k(float *o) {\n  float s = 0;\n#pragma unroll 4\n  for (int i = 0; i < 16; i++) s += i;\n"
                         "#pragma unroll U\n  for (int j = 0; j < 16; j++) s += j;\n#pragma unroll\n  for (int q = 0; q < 2; q++) s += q;\n  o[0] = s;\n}\n", NULL);
  CHECK(p && diag_errors == 0, "pragma unroll parses:\n%s", diag_text);
  if (!p) return;
  Obj *k = find_kernel(p, "k");
  Node *s = k->body->stmts->next;
  CHECK(s->kind == ND_FOR && s->unroll == 4, "unroll 4 attached (%d)", s->unroll);
  CHECK(s->next->kind == ND_FOR && s->next->unroll == 8, "unroll through a macro: %d", s->next->unroll);
  CHECK(s->next->next->unroll == -1, "bare unroll: %d", s->next->next->unroll);
  char *t = print_text(p);
  CHECK(strstr(t, "#pragma unroll 4\n  for (int i = 0; i < 16; i++)") != NULL, "printed with the loop:\n%s", t);
  round_trip("pragma unroll", p);
}

static void test_types(void) {
  CHECK(vector_type("float4")->size == 16 && vector_type("float4")->align == 16, "float4 16/16");
  CHECK(vector_type("float3")->size == 12 && vector_type("float3")->align == 4, "float3 12/4");
  CHECK(vector_type("double2")->size == 16 && vector_type("char4")->size == 4 && vector_type("int2")->align == 8, "vector sizes");
  CHECK(vector_type("float5") == NULL && vector_type("foo4") == NULL, "not vector types");
  CHECK(common_type(ty_int, ty_uint) == ty_uint, "int + unsigned -> unsigned");
  CHECK(common_type(ty_long, ty_uint) == ty_long, "long + unsigned -> long");
  CHECK(common_type(ty_llong, ty_ulong) == ty_ullong || common_type(ty_llong, ty_ulong)->is_unsigned, "long long + unsigned long -> unsigned");
  CHECK(common_type(ty_char, ty_short) == ty_int, "char + short -> int");
  CHECK(common_type(ty_float, ty_llong) == ty_float && common_type(ty_float, ty_double) == ty_double, "float conversions");
  Program *p = load_text("struct S { char c; double d; int i; };\n__global__ void k(int *o) { o[0] = sizeof(struct S); o[1] = sizeof(float4[3]); }\n", NULL);
  CHECK(p && diag_errors == 0, "struct layout parses");
}

/* a kernel declared first and defined later prints as a declaration, then the definition (it
 * printed twice as a definition: found by the fuzz replay of a host program so written) */
static void test_printer_prototype(void) {
  Program *p = load_text("__global__ void k(float *a);\n__device__ float twice(float x) { return 2 * x; }\n"
                         "__global__ void k(float *a) { a[threadIdx.x] = twice(a[threadIdx.x]); }\n", NULL);
  CHECK(p != NULL, "a prototype and a later definition load");
  if (!p) return;
  char *s = print_text(p);
  CHECK(strstr(s, "__global__ void k(float *a);\n") && strstr(s, "__global__ void k(float *a) {"), "a declaration, then the definition:\n%s", s);
  round_trip("prototype", p);
}

static void test_printer_precedence(void) {
  const char *src =
    "__global__ void k(int *o, float *f, int a, int b, int c) {\n"
    "  o[0] = (a + b) * c;\n  o[1] = a - (b - c);\n  o[2] = -(-a);\n  o[3] = a < b ? b : a > c ? c : a;\n"
    "  o[4] = (a, b);\n  o[5] = (a & b) == c;\n  o[6] = ~-a + !b;\n  o[7] = a << (b + c);\n"
    "  f[0] = (float)a / b;\n  f[1] = (float)(a / b);\n  o[8] = *(o + 1) + o[a ? 1 : 2];\n  o[9] -= -1;\n"
    "  for (int i = 0, j = 10; i < j; i++, j--) o[i] += j;\n  do o[0]++; while (o[0] < 3);\n"
    "  switch (a) { case 1: o[1] = 2; break; default: ; }\n  if (a) if (b) o[2] = 1; else o[2] = 2;\n}\n";
  Program *p = load_text(src, NULL);
  CHECK(p && diag_errors == 0, "precedence source parses:\n%s", diag_text);
  if (!p) return;
  char *t = print_text(p);
  const char *want[] = {"o[0] = (a + b) * c;", "o[1] = a - (b - c);", "o[2] = -(-a);", "o[3] = a < b ? b : a > c ? c : a;",
                        "o[4] = (a, b);", "o[5] = (a & b) == c;", "o[6] = ~-a + !b;", "o[7] = a << (b + c);",
                        "f[0] = (float)a / b;", "f[1] = (float)(a / b);", "o[8] = *(o + 1) + o[a ? 1 : 2];", "o[9] -= -1;",
                        "for (int i = 0, j = 10; i < j; i++, j--)"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) CHECK(strstr(t, want[i]) != NULL, "printed '%s' in:\n%s", want[i], t);
  round_trip("precedence", p);
}

static void test_constants_and_structs_print(void) {
  const char *src =
    "typedef struct { float x, y; } P2;\nstruct Q { int a; P2 p; };\nenum Color { RED, GREEN = 5, BLUE };\n"
    "__constant__ float coef[3] = {1.0f, 2.5f, -3.0f};\n__device__ int counter;\nconst int K = 4;\n"
    "__device__ __forceinline__ float sq(float v) { return v * v; }\n"
    "__global__ void __launch_bounds__(256, 2) k(struct Q *q, const float *__restrict__ in, P2 *out) {\n"
    "  __shared__ float tile[16][17];\n  extern __shared__ float dyn[];\n  int c = GREEN;\n"
    "  tile[threadIdx.y][threadIdx.x] = sq(in[threadIdx.x]) * coef[c % 3] + K;\n"
    "  out[0].x = q->p.y + dyn[0] + 'a';\n}\n";
  Program *p = load_text(src, NULL);
  CHECK(p && diag_errors == 0, "structs/constants parse:\n%s", diag_text);
  if (!p) return;
  char *t = print_text(p);
  CHECK(strstr(t, "__constant__ float coef[3] = {1.0f, 2.5f, -3.0f};") && strstr(t, "__shared__ float tile[16][17];") &&
        strstr(t, "extern __shared__ float dyn[];") && strstr(t, "__launch_bounds__(256, 2)") &&
        strstr(t, "const float *__restrict__ in") && strstr(t, "q->p.y"), "printed:\n%s", t);
  round_trip("structs and constants", p);
}

/* launch-spec sizes that overflow 64 bits are errors, never a wrapped negative count */
static void test_spec_overflow(void) {
  const char *defs[] = {"N=3037000500"};
  PPOptions pp = {.defines = defs, .n_defines = 1};
  FILE *f = fmemopen(diag_text, sizeof diag_text - 1, "w");
  memset(diag_text, 0, sizeof diag_text);
  diag_out = f;
  diag_reset();
  Program *p = keep(load_program("examples/mm.cu", &pp));
  fclose(f);
  diag_out = stderr;
  CHECK(p && p->errors > 0 && strstr(diag_text, "integer overflow in constant expression ('*')") && strstr(diag_text, "mm.cu:15:"),
        "N*N overflowing is a located error:\n%s", diag_text);
  CHECK(!strstr(diag_text, "-9223372036709301616"), "no wrapped size is printed");
}


/* the C++ corpus (tests/cxx): each loads without errors and its print loads and is stable */
static void test_cxx_round_trip(void) {
  const char *files[] = {"template_reduce.cu", "cg_reduce.cu", "namespaced.cu", "half_axpy.cu", "include_angle.cu",
                         "class_template.cu", "reduce_add_sync.cu", "device_memcpy.cu", "include_macro.cu"};
  const char *dirs[] = {"tests/cxx/inc"};
  PPOptions opt = {.include_dirs = dirs, .n_include_dirs = 1};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char *path = fmt("tests/cxx/%s", files[i]);
    diag_reset();
    Program *p = keep(load_program(path, &opt));
    CHECK(p && diag_errors == 0, "%s loads", path);
    if (p) round_trip(path, p);
  }
}

/* names: namespaces, aliases, using, '::'; the printer puts definitions back in their
 * namespaces and references fully qualified */
static void test_cxx_names(void) {
  Program *p = load_text(
    "namespace a { namespace b { __device__ int f(int x) { return x + 1; } } typedef float real; }\n"
    "namespace ab = a::b;\nusing namespace a;\n"
    "struct S { real v; };\n"
    "__global__ void k(S *s) { s->v = ab::f(1) + ::a::b::f(2) + b::f(3); }\n", NULL);
  CHECK(p && diag_errors == 0, "namespaces load:\n%s", diag_text);
  if (!p) return;
  Obj *f = NULL;
  for (Obj *o = p->funcs; o; o = o->next) if (!strcmp(o->name, "a::b::f")) f = o;
  CHECK(f != NULL, "the function is named a::b::f");
  char *t = print_text(p);
  CHECK(strstr(t, "namespace a {\nnamespace b {") && strstr(t, "__device__ int f(int x)") && strstr(t, "a::b::f(1) + a::b::f(2) + a::b::f(3)") &&
        strstr(t, "namespace ab = a::b;") && strstr(t, "using namespace a;"), "printed namespaces:\n%s", t);
  round_trip("namespaces", p);
  /* a name of one namespace is not visible from another without qualification */
  p = load_text("namespace a { __device__ int g() { return 1; } }\n__global__ void k(int *o) { o[0] = g(); }\n", NULL);
  CHECK(strstr(diag_text, "t.cu:2:36: error: use of undeclared function 'g'") != NULL, "unqualified name from another namespace:\n%s", diag_text);
}

/* templates: instances named with their arguments, printed as explicit specializations */
static void test_cxx_templates_print(void) {
  Program *p = load_text(
    "#pragma carve launch k<4, int> grid(1) block(4)\n"
    "template <typename T> __device__ T sq(T x) { return x * x; }\n"
    "template <int N, typename T> __global__ void k(T *a) { T s[N]; s[0] = sq(a[0]); a[N - 1] = s[0] + sq<float>(2.0f); }\n", NULL);
  CHECK(p && diag_errors == 0, "templates load:\n%s", diag_text);
  if (!p) return;
  CHECK(find_kernel(p, "k<4, int>") && find_kernel(p, "k<4,int>"), "the instance is the kernel 'k<4, int>'");
  char *t = print_text(p);
  CHECK(strstr(t, "template <int N, typename T> __global__ void k(T *a);") &&
        strstr(t, "template <> __global__ void k<4, int>(int *a) {\n  int s[4];\n  s[0] = sq<int>(a[0]);\n  a[4 - 1] = s[0] + sq<float>(2.0f);") &&
        strstr(t, "template <> __device__ float sq<float>(float x)"), "printed instances:\n%s", t);
  round_trip("templates", p);
  /* "#pragma unroll N" with N a template parameter or a macro: printed as its value */
  p = load_text("#define U 3\n#pragma carve launch k<4> grid(1) block(1)\n"
                "template <int N> __global__ void k(int *a) {\n#pragma unroll N\n  for (int i = 0; i < N; i++) a[i] = i;\n"
                "#pragma unroll U\n  for (int i = 0; i < 6; i++) a[i] += 1;\n}\n", NULL);
  CHECK(p && diag_errors == 0 && !strstr(diag_text, "warning"), "unroll by a template parameter loads quietly:\n%s", diag_text);
  if (!p) return;
  t = print_text(p);
  CHECK(strstr(t, "#pragma unroll 4\n  for") && strstr(t, "#pragma unroll 3\n  for"), "unroll counts printed as values:\n%s", t);
  round_trip("template unroll", p);
}

/* class templates (docs/cxx.md): instances made where device code uses them, the specialization
 * chosen, member functions lowered to functions taking the object's address and printed as the
 * call written; the template printed from its tokens; what is not done is a located error */
static void test_cxx_class_templates(void) {
  Program *p = load_text(
    "template <typename T> struct Sh { __device__ T *get() { extern __shared__ T s_t[]; return s_t; } };\n"
    "template <> struct Sh<int> { __device__ int *get() { extern __shared__ int s_i[]; return s_i + 1; } };\n"
    "template <class T> struct Cv { __device__ operator T *() { extern __shared__ int m[]; return (T *)m; } };\n"
    "template <class T> struct Unused { T x; };\n"
    "__global__ void k(float *a, int *b) {\n"
    "  Sh<float> f; Sh<int> i;\n"
    "  float *p = f.get(); int *q = i.get(); float *r = Cv<float>();\n"
    "  a[0] = p[0] + r[0]; b[0] = q[0];\n}\n", NULL);
  CHECK(p && diag_errors == 0, "class templates load:\n%s", diag_text);
  if (!p) return;
  Obj *fget = NULL, *iget = NULL, *conv = NULL;
  for (Obj *o = p->funcs; o; o = o->next) {
    if (!strcmp(o->name, "Sh<float>::get")) fget = o;
    if (!strcmp(o->name, "Sh<int>::get")) iget = o;
    if (!strcmp(o->name, "Cv<float>::operator float *")) conv = o;
  }
  CHECK(fget && iget && conv && fget->member && !strcmp(fget->member, "get") && fget->params && !strcmp(fget->params->name, "this"),
        "members are functions Name<args>::f with 'this' first");
  CHECK(iget && iget->body && strstr(print_text(p), "return s_i + 1;"), "the specialization Sh<int> is the one parsed");
  char *t = print_text(p);
  CHECK(strstr(t, "template <typename T> struct Sh {") && strstr(t, "template <> struct Sh<int> {") && strstr(t, "template <class T> struct Unused { T x; };") &&
        strstr(t, "Sh<float> f;") && strstr(t, "float *p = f.get();") && strstr(t, "int *q = i.get();") && strstr(t, "float *r = Cv<float>();") &&
        !strstr(t, "Sh<float>::get") && !strstr(t, "this"), "printed as written:\n%s", t);
  round_trip("class templates", p);
  p = load_text("template <class T> struct V { T x; };\n__global__ void k(float *a) { V<float> v; a[0] = 1; }\n", NULL);
  CHECK(strstr(diag_text, "t.cu:1:33: error: unsupported C++: data members of a class template (member functions are)") &&
        strstr(diag_text, "t.cu:2:31: note: in the instance 'V<float>' of the class template, required here"), "data members: a located error:\n%s", diag_text);
  p = load_text("template <class T> struct W : T { };\n__global__ void k(float *a) { W<float> w; a[0] = 1; }\n", NULL);
  CHECK(strstr(diag_text, "t.cu:1:29: error: unsupported C++: inheritance") != NULL, "inheritance: a located error:\n%s", diag_text);
}

int main(void) {
  test_examples_round_trip();
  test_fuzz_regressions();
  test_host_code_skipped();
  test_cxx_class_templates();
  test_macro_locations();
  test_include_and_defines();
  test_pragma_unroll();
  test_types();
  test_printer_prototype();
  test_printer_precedence();
  test_constants_and_structs_print();
  test_spec_overflow();
  test_cxx_round_trip();
  test_cxx_names();
  test_cxx_templates_print();
  while (nloaded) program_free(loaded[--nloaded]);
  return TEST_SUMMARY("front");
}
