/* svg: the plots of `carve report`, drawn by carve into inline SVG (no library, no script): a
 * frame with linear or logarithmic axes, lines and points in data coordinates, bars, text.
 * Classes name the styles (html.c's CSS), so the SVG carries no colours of its own. */
#include "report.h"
#include <math.h>
#include <string.h>

void html_escape(Buf *b, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
    case '<': buf_puts(b, "&lt;"); break;
    case '>': buf_puts(b, "&gt;"); break;
    case '&': buf_puts(b, "&amp;"); break;
    case '"': buf_puts(b, "&quot;"); break;
    case '\'': buf_puts(b, "&#39;"); break;
    default:
      /* control characters other than tab and newline are not allowed in HTML text */
      if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n') buf_putc(b, ' ');
      else buf_putc(b, *s);
    }
  }
}

void svg_begin(Buf *b, int w, int h, const char *title) {
  buf_printf(
    b,
    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" role=\"img\"><title>",
    w, h, w, h);
  html_escape(b, title);
  buf_puts(b, "</title>\n");
}

void svg_end(Buf *b) { buf_puts(b, "</svg>\n"); }

void svg_text(Buf *b, double x, double y, const char *anchor, const char *cls, const char *text) {
  buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">", x, y, anchor, cls);
  html_escape(b, text);
  buf_puts(b, "</text>\n");
}

void svg_rect(Buf *b, double x, double y, double w, double h, const char *cls, const char *tip) {
  buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" class=\"%s\">", x, y,
             w > 0 ? w : 0, h > 0 ? h : 0, cls);
  if (tip) {
    buf_puts(b, "<title>");
    html_escape(b, tip);
    buf_puts(b, "</title>");
  }
  buf_puts(b, "</rect>\n");
}

static double to_axis(double v, bool lg) { return lg ? log10(v > 0 ? v : 1e-300) : v; }

double plot_px(const Plot *p, double x) {
  double a = to_axis(p->x0, p->logx), z = to_axis(p->x1, p->logx);
  return p->x + (z > a ? (to_axis(x, p->logx) - a) / (z - a) : 0.5) * p->w;
}

double plot_py(const Plot *p, double y) {
  double a = to_axis(p->y0, p->logy), z = to_axis(p->y1, p->logy);
  return p->y + p->h - (z > a ? (to_axis(y, p->logy) - a) / (z - a) : 0.5) * p->h;
}

/* a number for a tick label: 1e-05, 0.01, 250, 1e+06 */
static char *tick_text(double v) { return fmt("%g", v); }

/* ticks: every decade on a log axis, five steps of 1, 2 or 5 times a power of ten otherwise */
static int ticks(double lo, double hi, bool lg, double *t, int max) {
  int n = 0;
  if (lg) {
    for (double d = pow(10, floor(log10(lo))); d <= hi * 1.0001 && n < max; d *= 10)
      if (d >= lo * 0.9999) t[n++] = d;
    return n;
  }
  double span = hi - lo, step = pow(10, floor(log10(span > 0 ? span : 1)));
  if (span / step < 2.5) step /= 5;
  else if (span / step < 5) step /= 2;
  for (double v = ceil(lo / step) * step; v <= hi + step * 1e-9 && n < max; v += step)
    t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
  return n;
}

void plot_axes(Plot *p, const char *xlabel, const char *ylabel) {
  Buf *b = p->b;
  svg_rect(b, p->x, p->y, p->w, p->h, "frame", NULL);
  double t[32];
  int n = ticks(p->x0, p->x1, p->logx, t, 32);
  for (int i = 0; i < n; i++) {
    double x = plot_px(p, t[i]);
    buf_printf(b, "<path class=\"grid\" d=\"M%.1f %.1fV%.1f\"/>\n", x, p->y, p->y + p->h);
    svg_text(b, x, p->y + p->h + 14, "middle", "tick", tick_text(t[i]));
  }
  n = ticks(p->y0, p->y1, p->logy, t, 32);
  for (int i = 0; i < n; i++) {
    double y = plot_py(p, t[i]);
    buf_printf(b, "<path class=\"grid\" d=\"M%.1f %.1fH%.1f\"/>\n", p->x, y, p->x + p->w);
    svg_text(b, p->x - 4, y + 4, "end", "tick", tick_text(t[i]));
  }
  svg_text(b, p->x + p->w / 2, p->y + p->h + 32, "middle", "axis", xlabel);
  buf_printf(
    b,
    "<text class=\"axis\" text-anchor=\"middle\" transform=\"translate(%.1f %.1f) rotate(-90)\">",
    p->x - 46, p->y + p->h / 2);
  html_escape(b, ylabel);
  buf_puts(b, "</text>\n");
}

void plot_line(Plot *p, const double *xs, const double *ys, int n, const char *cls,
               const char *tip) {
  if (n < 2) return;
  buf_printf(p->b, "<path class=\"%s\" d=\"", cls);
  for (int i = 0; i < n; i++)
    buf_printf(p->b, "%s%.1f %.1f", i ? "L" : "M", plot_px(p, xs[i]), plot_py(p, ys[i]));
  buf_puts(p->b, "\">");
  if (tip) {
    buf_puts(p->b, "<title>");
    html_escape(p->b, tip);
    buf_puts(p->b, "</title>");
  }
  buf_puts(p->b, "</path>\n");
}

/* a point as a small diamond path (paths are what the tests count), with its label beside it */
void plot_point(Plot *p, double x, double y, const char *cls, const char *label) {
  double px = plot_px(p, x), py = plot_py(p, y), r = 6;
  buf_printf(p->b, "<path class=\"%s\" d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\">", cls, px,
             py - r, px + r, py, px, py + r, px - r, py);
  if (label) {
    buf_puts(p->b, "<title>");
    html_escape(p->b, label);
    buf_puts(p->b, "</title>");
  }
  buf_puts(p->b, "</path>\n");
  if (label) svg_text(p->b, px + 9, py - 8, "start", "label", label);
}
