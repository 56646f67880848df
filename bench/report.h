/* SPDX-License-Identifier: MIT */
/*
 * prism-bench output: a fixed-width table for people, CSV and JSON for
 * scripts and for `prism-bench compare`. Rows are printed as they are
 * measured; notes (skipped references, how to read the columns) come at the
 * end. report.c keeps the state and the notes and hands each event to the
 * chosen format: report_table.c, report_csv.c, report_json.c.
 *
 * Every ratio reads the same way: reference time / prism time (for bfs,
 * prism TEPS / reference TEPS), so above 1 prism is better.
 */
#ifndef PRISM_BENCH_REPORT_H
#define PRISM_BENCH_REPORT_H

#include "device_info.h"
#include "meta.h"

#include <stddef.h>
#include <stdio.h>

/* A row whose samples spread wider than this, (max - min) / median, is
 * marked: its median is less certain (a shared or throttling machine). */
#define REPORT_SPREAD_MARK 0.10
/* %copy is shown only for rows that move more than this many times the
 * device's last-level cache: below, the copy rate is not what the row
 * competes with (the row's data may sit in the cache). */
#define REPORT_COPY_CACHE_MULTIPLE 2

typedef enum report_format {
  REPORT_TABLE = 0,
  REPORT_CSV = 1,
  REPORT_JSON = 2
} report_format;

typedef enum report_status {
  REPORT_OK = 0,   /* measured and verified */
  REPORT_SKIP = 1, /* not measured: does not fit, unsupported, ... */
  REPORT_FAIL = 2, /* verification failed */
  REPORT_ERROR = 3 /* a call failed */
} report_status;

/* One measurement. Strings may be NULL where they do not apply; numbers are
 * 0 where they do not apply. */
typedef struct report_row {
  const char *backend;   /* "cuda", "opencl", or a reference: "serial", "cub" */
  const char *device;    /* full name; the table shortens it */
  const char *platform;  /* for CSV and JSON */
  int device_index;      /* the header's device the row belongs to (a
                            reference: the device it stands beside) */
  const char *primitive; /* "reduce", ..., "copy", "memcpy" */
  const char *op;        /* "sum", "min", "max" */
  const char *kind;      /* "inclusive", "exclusive" */
  const char *order;     /* sort: "ascending", "descending" */
  int values;            /* sort: bytes of value per key (0: keys only);
                            -1 where it does not apply */
  unsigned begin_bit, end_bit; /* sort: the bits sorted; end_bit 0: none */
  size_t bins;                 /* histograms; 0 where it does not apply */
  const char *dist;            /* histograms: "uniform", "one-bin" */
  double keep;      /* compaction: fraction kept; -1 where it does not apply */
  size_t segment;   /* segmented: mean segment length; 0: does not apply */
  int skew;         /* segmented: input.h's INPUT_SEGMENTS_* (skew: one segment
                       holds half the data; pareto: power-law lengths) */
  const char *type; /* "i32", ..., "byte" */
  size_t n;         /* elements */
  double seconds;   /* median time of one call */
  double min_s, q1_s, q3_s, max_s; /* the samples' spread, per call */
  double bytes;                    /* minimum bytes one call moves */
  double copy_bytes_per_s;         /* the device's copy bandwidth, for %copy */
  double cache_bytes; /* the device's last-level cache (0: unknown) */
  /* The reference measured beside this row ("cub", "serial", "naive"; NULL
   * for none) and reference time / this time: above 1, this is faster. */
  const char *reference;
  double ratio;
  int reps; /* samples */
  int k;    /* calls per sample */
  report_status status;
  const char *note; /* why a row was skipped or failed */
  /* bfs rows, which have a table of their own: graph is set, n is the
   * vertex count, seconds the median search, reps the searches. */
  const char *graph; /* "rmat:22", "grid:2048x2048", a file */
  size_t edges;      /* the graph's edges as Graph500 counts them (bfs.c) */
  double teps;       /* median over the searches of edges reached / time */
  double teps_hmean; /* their harmonic mean: Graph500's statistic */
} report_row;

/* Start the output on out: the header with the run's metadata and its
 * devices. label_width: the table's primitive column (its labels add the
 * parameters: "scan ex sum", "histogram 256 1bin"). */
void report_begin(report_format format, FILE *out, const bench_meta *meta,
                  const device_info *devices, int device_count,
                  int label_width);

/* Print one row now. */
void report_row_print(const report_row *row);

/* Keep a note for the end of the output (stderr for CSV). */
void report_note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Finish the output: legend and notes. */
void report_end(void);

#endif /* PRISM_BENCH_REPORT_H */
