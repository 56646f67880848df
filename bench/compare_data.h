/* SPDX-License-Identifier: MIT */
/*
 * What `prism-bench compare` reads out of its files (compare.c) and draws
 * (compare_plot.c): series, and rows matched across them.
 */
#ifndef PRISM_BENCH_COMPARE_DATA_H
#define PRISM_BENCH_COMPARE_DATA_H

#include <stddef.h>

#define CMP_MAX_SERIES 26 /* labelled A to Z */
#define CMP_MAX_FILES 16
#define CMP_TEXT 256

/* One device and backend of one file: a column. */
typedef struct cmp_series {
  int file;
  char backend[32];
  char platform[CMP_TEXT];
  char device[CMP_TEXT];
  /* For people: "prism opencl (PoCL): AMD EPYC 7B13 [file 2]". */
  char label[2 * CMP_TEXT + 128];
  int reference; /* CUB, serial C, the naive BFS: not prism */
} cmp_series;

/* One (primitive, variant, type, n) with each series' throughput. */
typedef struct cmp_row {
  char primitive[64];
  char variant[CMP_TEXT];
  char type[16];
  size_t n;
  int bfs;                      /* values are GTEPS, not G elements/s */
  int group;                    /* the first row of its primitive, variant
                                   and type, as loaded: the print order */
  double value[CMP_MAX_SERIES]; /* 0: not measured by that series */
} cmp_row;

typedef struct cmp_set {
  cmp_series series[CMP_MAX_SERIES];
  int series_count;
  cmp_row *rows;
  size_t row_count, row_capacity;
  char files[CMP_MAX_FILES][2 * CMP_TEXT]; /* a line about each file */
  int file_count;
  int base; /* the series the ratios divide by */
} cmp_set;

/* Write set as SVG charts to path; 0, or -1 with the reason on stderr. */
int compare_plot(const cmp_set *set, const char *path);

#endif /* PRISM_BENCH_COMPARE_DATA_H */
