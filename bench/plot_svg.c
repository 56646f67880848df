/* SPDX-License-Identifier: MIT */
#include "plot_svg.h"

#include <math.h>
#include <string.h>

/* Page layout, in SVG user units (pixels). */
#define CHART_W 520
#define CHART_H 340
#define COLUMNS 2
#define MARGIN 20
#define PLOT_LEFT 64 /* room for the y tick labels and axis label */
#define PLOT_RIGHT 16
#define PLOT_TOP 34    /* the chart's title */
#define PLOT_BOTTOM 50 /* x tick labels and axis label */
#define TITLE_H 30
#define LINE_H 16 /* a subtitle or legend line */
#define FONT "DejaVu Sans, Helvetica, Arial, sans-serif"
#define MAX_X_TICKS 9

/* Okabe and Ito's palette: told apart with most colour-vision deficiencies;
 * past eight the colours repeat with another dash. */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73",
                                      "#CC79A7", "#E69F00", "#56B4E9",
                                      "#000000", "#F0E442"};
#define COLOURS (int)(sizeof colours / sizeof colours[0])

static void xml_text(FILE *out, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<':
      fputs("&lt;", out);
      break;
    case '>':
      fputs("&gt;", out);
      break;
    case '&':
      fputs("&amp;", out);
      break;
    case '"':
      fputs("&quot;", out);
      break;
    default:
      fputc(*s, out);
    }
  }
}

/* The stroke of series s: its colour, dashed for references and for the
 * second round of colours. */
static void stroke(FILE *out, const plot_doc *doc, int s) {
  int dashed = doc->series[s].dashed;
  int round = s / COLOURS;
  fprintf(out, "stroke=\"%s\" stroke-width=\"%s\"", colours[s % COLOURS],
          dashed ? "1.6" : "2.2");
  if (dashed || round)
    fprintf(out, " stroke-dasharray=\"%s\"", dashed ? "6 3" : "2 2");
}

/* ---- Axes ---------------------------------------------------------------- */

typedef struct axes {
  double x0, y0, w, h;   /* the plot area */
  double lx_min, lx_max; /* log2 n at the edges */
  double ly_min, ly_max; /* log10 throughput at the edges */
} axes;

static double px(const axes *a, double x) {
  return a->x0 + (log2(x) - a->lx_min) / (a->lx_max - a->lx_min) * a->w;
}

static double py(const axes *a, double y) {
  return a->y0 + a->h - (log10(y) - a->ly_min) / (a->ly_max - a->ly_min) * a->h;
}

/* The data's range, widened to whole powers of two and of ten. */
static void fit(const plot_chart *c, axes *a) {
  double x_min = INFINITY, x_max = 0, y_min = INFINITY, y_max = 0;
  for (int l = 0; l < c->count; l++) {
    for (int i = 0; i < c->lines[l].count; i++) {
      const plot_point *p = &c->lines[l].points[i];
      x_min = fmin(x_min, p->x), x_max = fmax(x_max, p->x);
      y_min = fmin(y_min, p->y), y_max = fmax(y_max, p->y);
    }
  }
  a->lx_min = floor(log2(x_min));
  a->lx_max = ceil(log2(x_max));
  if (a->lx_max <= a->lx_min)
    a->lx_min -= 1, a->lx_max += 1;
  a->ly_min = floor(log10(y_min));
  a->ly_max = ceil(log10(y_max));
  if (a->ly_max <= a->ly_min)
    a->ly_max += 1;
}

/* "0.01", "1", "100", "10k", "1M": throughputs from tiny to huge. */
static void decade_label(int e, char *buf, size_t size) {
  if (e >= 6)
    snprintf(buf, size, "%gM", pow(10, e - 6));
  else if (e >= 4)
    snprintf(buf, size, "%gk", pow(10, e - 3));
  else
    snprintf(buf, size, "%g", pow(10, e));
}

static void y_axis(FILE *out, const axes *a, const char *label) {
  for (int e = (int)a->ly_min; e <= (int)a->ly_max; e++) {
    char text[32];
    for (int m = 2; m < 10 && e < (int)a->ly_max; m++) { /* minor lines */
      double y = py(a, m * pow(10, e));
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
              "stroke=\"#eeeeee\"/>\n",
              a->x0, y, a->x0 + a->w, y);
    }
    double y = py(a, pow(10, e));
    decade_label(e, text, sizeof text);
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#cccccc\"/>\n"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
            "font-size=\"11\">%s</text>\n",
            a->x0, y, a->x0 + a->w, y, a->x0 - 6, y + 4, text);
  }
  double cx = a->x0 - 46, cy = a->y0 + a->h / 2;
  fprintf(out,
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
          "font-size=\"12\" transform=\"rotate(-90 %.1f %.1f)\">",
          cx, cy, cx, cy);
  xml_text(out, label);
  fputs("</text>\n", out);
}

static void x_axis(FILE *out, const axes *a) {
  int span = (int)(a->lx_max - a->lx_min);
  int step = (span + MAX_X_TICKS - 1) / MAX_X_TICKS;
  double base = a->y0 + a->h;
  for (int k = (int)a->lx_min; k <= (int)a->lx_max; k += step) {
    double x = px(a, pow(2, k));
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
            "stroke=\"#cccccc\"/>\n"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
            "font-size=\"11\">2<tspan dy=\"-5\" font-size=\"8\">%d</tspan>"
            "</text>\n",
            x, a->y0, x, base, x, base + 16, k);
  }
  fprintf(out,
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
          "font-size=\"12\">n (elements)</text>\n",
          a->x0 + a->w / 2, base + 38);
}

/* ---- Charts -------------------------------------------------------------- */

static void lines(FILE *out, const plot_doc *doc, const plot_chart *c,
                  const axes *a) {
  for (int l = 0; l < c->count; l++) {
    const plot_line *line = &c->lines[l];
    fputs("<polyline fill=\"none\" stroke-linejoin=\"round\" ", out);
    stroke(out, doc, line->series);
    fputs(" points=\"", out);
    for (int i = 0; i < line->count; i++)
      fprintf(out, "%s%.1f,%.1f", i ? " " : "", px(a, line->points[i].x),
              py(a, line->points[i].y));
    fputs("\"/>\n", out);
    for (int i = 0; i < line->count; i++)
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\"/>\n",
              px(a, line->points[i].x), py(a, line->points[i].y),
              colours[line->series % COLOURS]);
  }
}

static void chart(FILE *out, const plot_doc *doc, const plot_chart *c,
                  double left, double top) {
  axes a;
  a.x0 = left + PLOT_LEFT;
  a.y0 = top + PLOT_TOP;
  a.w = CHART_W - PLOT_LEFT - PLOT_RIGHT;
  a.h = CHART_H - PLOT_TOP - PLOT_BOTTOM;
  fit(c, &a);
  fprintf(out,
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
          "font-size=\"14\" font-weight=\"bold\">",
          a.x0 + a.w / 2, top + 20);
  xml_text(out, c->title);
  fputs("</text>\n", out);
  y_axis(out, &a, doc->y_label);
  x_axis(out, &a);
  fprintf(out,
          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
          "fill=\"none\" stroke=\"#888888\"/>\n",
          a.x0, a.y0, a.w, a.h);
  lines(out, doc, c, &a);
}

/* ---- Page ---------------------------------------------------------------- */

static double legend(FILE *out, const plot_doc *doc, double top) {
  for (int s = 0; s < doc->series_count; s++) {
    double y = top + s * LINE_H;
    fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" ", MARGIN,
            y - 4, MARGIN + 28, y - 4);
    stroke(out, doc, s);
    fprintf(out, "/>\n<text x=\"%d\" y=\"%.1f\" font-size=\"12\">", MARGIN + 36,
            y);
    xml_text(out, doc->series[s].label);
    fputs("</text>\n", out);
  }
  return top + doc->series_count * LINE_H;
}

int plot_svg_write(FILE *out, const plot_doc *doc) {
  int columns = doc->chart_count < COLUMNS ? 1 : COLUMNS;
  int rows = (doc->chart_count + columns - 1) / columns;
  double head = MARGIN + TITLE_H + (doc->subtitle_count + 1) * LINE_H +
                doc->series_count * LINE_H;
  double width = 2 * MARGIN + columns * CHART_W;
  double height = head + rows * CHART_H + MARGIN;
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
          "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"%s\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
          "<text x=\"%d\" y=\"%d\" font-size=\"18\" font-weight=\"bold\">",
          width, height, width, height, FONT, MARGIN, MARGIN + 18);
  xml_text(out, doc->title);
  fputs("</text>\n", out);
  double y = MARGIN + TITLE_H + 8;
  for (int i = 0; i < doc->subtitle_count; i++, y += LINE_H) {
    fprintf(out,
            "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" "
            "fill=\"#444444\">",
            MARGIN, y);
    xml_text(out, doc->subtitles[i]);
    fputs("</text>\n", out);
  }
  legend(out, doc, y + LINE_H);
  for (int i = 0; i < doc->chart_count; i++)
    chart(out, doc, &doc->charts[i], MARGIN + (i % columns) * CHART_W,
          head + (i / columns) * CHART_H);
  fputs("</svg>\n", out);
  return ferror(out) ? -1 : 0;
}
