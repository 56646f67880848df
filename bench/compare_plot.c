/* SPDX-License-Identifier: MIT */
/* compare's charts: its matched rows regrouped as plot_svg.h wants them. */
#include "compare_data.h"
#include "plot_svg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows with no curve over n: the copy rows (one size per device) and bfs
 * (graphs, not sizes). */
static int plotted(const cmp_row *r) {
  return !r->bfs && strcmp(r->primitive, "copy") != 0 &&
         strcmp(r->primitive, "memcpy") != 0;
}

static int same_chart(const cmp_row *a, const cmp_row *b) {
  return strcmp(a->primitive, b->primitive) == 0 &&
         strcmp(a->variant, b->variant) == 0 && strcmp(a->type, b->type) == 0;
}

static int by_n(const void *a, const void *b) {
  const plot_point *p = a, *q = b;
  return (p->x > q->x) - (p->x < q->x);
}

/* The line of series s in the chart of row `first`: every row of the same
 * chart that s measured. Returns its points (count may be 0). */
static int collect(const cmp_set *set, size_t first, int s,
                   plot_point *points) {
  int count = 0;
  for (size_t i = first; i < set->row_count; i++) {
    const cmp_row *r = &set->rows[i];
    if (same_chart(r, &set->rows[first]) && r->value[s] > 0) {
      points[count].x = (double)r->n;
      points[count++].y = r->value[s];
    }
  }
  qsort(points, (size_t)count, sizeof *points, by_n);
  return count;
}

/* The chart whose first row is `first`: a line per series with points.
 * Its memory is points (rows * series of them) and lines. */
static void build_chart(const cmp_set *set, size_t first, plot_chart *c,
                        plot_line *lines, plot_point *points) {
  const cmp_row *r = &set->rows[first];
  snprintf(c->title, sizeof c->title, "%s%s%s %s", r->primitive,
           r->variant[0] ? " " : "", r->variant, r->type);
  c->lines = lines;
  c->count = 0;
  for (int s = 0; s < set->series_count; s++) {
    int count = collect(set, first, s, points);
    if (count == 0)
      continue;
    lines[c->count].series = s;
    lines[c->count].points = points;
    lines[c->count++].count = count;
    points += count;
  }
}

/* Whether row i starts a chart (no earlier row of the same chart). */
static int first_of_chart(const cmp_set *set, size_t i) {
  if (!plotted(&set->rows[i]))
    return 0;
  for (size_t j = 0; j < i; j++) {
    if (same_chart(&set->rows[j], &set->rows[i]))
      return 0;
  }
  return 1;
}

static int write_doc(const cmp_set *set, const plot_chart *charts, int count,
                     const char *path) {
  plot_series series[CMP_MAX_SERIES];
  const char *subtitles[CMP_MAX_FILES];
  for (int s = 0; s < set->series_count; s++) {
    series[s].label = set->series[s].label;
    series[s].dashed = set->series[s].reference;
  }
  for (int f = 0; f < set->file_count; f++)
    subtitles[f] = set->files[f];
  plot_doc doc = {"prism-bench: throughput against n (log-log; dashed: "
                  "references)",
                  subtitles,
                  set->file_count,
                  "G elements / s",
                  series,
                  set->series_count,
                  charts,
                  count};
  FILE *out = fopen(path, "w");
  if (!out) {
    fprintf(stderr, "prism-bench compare: --svg %s: %s\n", path,
            strerror(errno));
    return -1;
  }
  int rc = plot_svg_write(out, &doc);
  if (fclose(out) != 0 || rc != 0) {
    fprintf(stderr, "prism-bench compare: --svg %s: write error\n", path);
    return -1;
  }
  return 0;
}

int compare_plot(const cmp_set *set, const char *path) {
  size_t rows = set->row_count ? set->row_count : 1;
  size_t per_chart = (size_t)set->series_count;
  plot_chart *charts = calloc(rows, sizeof *charts);
  plot_line *lines = calloc(rows * per_chart + 1, sizeof *lines);
  plot_point *points = calloc(rows * per_chart + 1, sizeof *points);
  int count = 0, rc = -1;
  if (charts && lines && points) {
    size_t used_lines = 0, used_points = 0;
    for (size_t i = 0; i < set->row_count; i++) {
      if (!first_of_chart(set, i))
        continue;
      plot_chart *c = &charts[count++];
      build_chart(set, i, c, lines + used_lines, points + used_points);
      used_lines += (size_t)c->count;
      for (int l = 0; l < c->count; l++)
        used_points += (size_t)c->lines[l].count;
    }
    rc = write_doc(set, charts, count, path);
  } else {
    fprintf(stderr, "prism-bench compare: out of host memory\n");
  }
  free(points);
  free(lines);
  free(charts);
  return rc;
}
