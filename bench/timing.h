/* SPDX-License-Identifier: MIT */
/*
 * Timing for prism-bench: one method for every row, prism or reference.
 *
 * A sample is k back-to-back calls followed by one sync, timed with the
 * host's monotonic clock and divided by k; k is chosen so that a sample lasts
 * at least min_sample_s (queue and launch overheads then overlap the way they
 * do in a real pipeline). The reported time is the median of the samples;
 * the fastest, the slowest and the quartiles go beside it, so that a reader
 * sees how far one run of the row can be trusted.
 */
#ifndef PRISM_BENCH_TIMING_H
#define PRISM_BENCH_TIMING_H

#ifdef __cplusplus
extern "C" {
#endif

/* One call of the thing measured, or the sync after k calls. Returns 0, or a
 * nonzero status that stops the measurement and is handed back. */
typedef int (*bench_fn)(void *arg);

typedef struct bench_timer {
  int reps;            /* timed samples after the warm-up */
  double min_sample_s; /* a sample lasts at least this long... */
  int max_k;           /* ...unless that would take more calls than this */
  double max_total_s;  /* fewer samples (at least 3) if reps would run over */
} bench_timer;

typedef struct bench_timing {
  double median_s; /* median time of one call */
  double min_s;    /* fastest sample, per call */
  double q1_s;     /* first quartile of the samples, per call */
  double q3_s;     /* third quartile */
  double max_s;    /* slowest sample, per call */
  int k;           /* calls per sample */
  int reps;        /* samples taken */
} bench_timing;

/* Seconds on the monotonic clock. */
double bench_now(void);

/* x[0 .. count) in ascending order. */
void bench_sort_doubles(double *x, int count);

/* Fill median, quartiles, min and max from count > 0 times, sorted
 * ascending (bfs.c: one time per search). */
void bench_timing_from_sorted(const double *sorted, int count,
                              bench_timing *out);

/* Warm up, pick k, take the samples. sync may be NULL (calls that block).
 * Returns 0, the first nonzero value call or sync returned, or -1 when the
 * host has no memory for the samples. */
int bench_time(bench_fn call, bench_fn sync, void *arg, const bench_timer *cfg,
               bench_timing *out);

/* As bench_time for blocking calls that each need work first which is not
 * to be timed (qsort sorts in place: each call gets a fresh copy of the
 * input). prepare runs before every call, outside the clock. */
int bench_time_prepared(bench_fn prepare, bench_fn call, void *arg,
                        const bench_timer *cfg, bench_timing *out);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_BENCH_TIMING_H */
