/* SPDX-License-Identifier: MIT */
/*
 * Throughput against size as SVG, written by hand (no dependency): one
 * chart per primitive, variant and type, n on a log2 axis, G elements/s on
 * a log10 axis, one polyline per series (a device and backend of one
 * result file; references dashed), one legend for all the charts.
 */
#ifndef PRISM_BENCH_PLOT_SVG_H
#define PRISM_BENCH_PLOT_SVG_H

#include <stdio.h>

typedef struct plot_point {
  double x, y; /* n, throughput; both > 0 */
} plot_point;

typedef struct plot_line {
  int series;         /* index into the series */
  plot_point *points; /* ascending x */
  int count;
} plot_line;

typedef struct plot_chart {
  char title[384];
  plot_line *lines;
  int count;
} plot_chart;

typedef struct plot_series {
  const char *label;
  int dashed; /* a reference (CUB, serial C), not prism */
} plot_series;

typedef struct plot_doc {
  const char *title;
  const char *const *subtitles; /* one line per result file */
  int subtitle_count;
  const char *y_label; /* "G elements / s" */
  const plot_series *series;
  int series_count;
  const plot_chart *charts;
  int chart_count;
} plot_doc;

/* Write the document as one SVG image. Returns 0, or -1 on a write error. */
int plot_svg_write(FILE *out, const plot_doc *doc);

#endif /* PRISM_BENCH_PLOT_SVG_H */
