/* SPDX-License-Identifier: MIT */
/* The bfs row's statistics (bfs_stats.h). */
#include "bfs_stats.h"

#include "timing.h"

#include <stdlib.h>

int bfs_searches_init(bfs_searches *s, int capacity) {
  s->seconds = malloc((size_t)capacity * sizeof *s->seconds);
  s->teps = malloc((size_t)capacity * sizeof *s->teps);
  s->count = 0;
  return s->seconds && s->teps;
}

void bfs_searches_free(bfs_searches *s) {
  free(s->seconds);
  free(s->teps);
}

void bfs_searches_add(bfs_searches *s, double seconds, size_t edges) {
  s->seconds[s->count] = seconds;
  s->teps[s->count++] = seconds > 0 ? (double)edges / seconds : 0;
}

double bfs_searches_median_teps(bfs_searches *s) {
  bench_timing t;
  bench_sort_doubles(s->teps, s->count);
  bench_timing_from_sorted(s->teps, s->count, &t);
  return t.median_s; /* the median of the TEPS, not a time */
}

void bfs_searches_row(bfs_searches *s, report_row *row) {
  bench_timing t;
  double inverse = 0;
  for (int i = 0; i < s->count; i++)
    inverse += 1 / s->teps[i];
  bench_sort_doubles(s->seconds, s->count);
  bench_timing_from_sorted(s->seconds, s->count, &t);
  row->status = REPORT_OK;
  row->seconds = t.median_s;
  row->min_s = t.min_s;
  row->q1_s = t.q1_s;
  row->q3_s = t.q3_s;
  row->max_s = t.max_s;
  row->teps = bfs_searches_median_teps(s);
  row->teps_hmean = s->count / inverse;
  row->reps = s->count;
  row->k = 1;
}
