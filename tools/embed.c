/* embed: turn a file into a C header defining one string constant (used to carry
 * bench/calibrate.cu inside the carve binary). usage: embed NAME IN OUT */
#include <stdio.h>
int main(int argc, char **argv) {
  if (argc != 4) { fprintf(stderr, "usage: embed NAME IN OUT\n"); return 2; }
  FILE *in = fopen(argv[2], "rb"), *out = fopen(argv[3], "w");
  if (!in || !out) { perror("embed"); return 2; }
  fprintf(out, "/* generated from %s by tools/embed.c */\nstatic const char %s[] =\n\"", argv[2], argv[1]);
  int c, col = 0;
  while ((c = fgetc(in)) != EOF) {
    if (c == '\n') { fputs("\\n\"\n\"", out); col = 0; continue; }
    if (c == '"' || c == '\\') fputc('\\', out);
    if (c == '?') { fputs("\\?", out); continue; }   /* no trigraphs */
    if (c < 0x20 || c >= 0x7f) fprintf(out, "\\%03o", c); else fputc(c, out);
    if (++col > 4000) { fputs("\"\n\"", out); col = 0; }
  }
  fputs("\";\n", out);
  return fclose(out) != 0;
}
