/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L

#include "timing.h"

#include <stdlib.h>
#include <time.h>

/* Samples are stored to take their median; more than this is never useful. */
#define BENCH_MAX_REPS 100000
#define BENCH_MIN_REPS 3

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* k calls then one sync; *per_call gets the sample's time divided by k.
 * With prepare, each call follows its own prepare, and only the calls are
 * timed (sync is then NULL: such calls block). */
static int sample(bench_fn prepare, bench_fn call, bench_fn sync, void *arg,
                  int k, double *per_call) {
  double start = bench_now(), untimed = 0;
  for (int i = 0; i < k; i++) {
    if (prepare) {
      double before = bench_now();
      int rc = prepare(arg);
      untimed += bench_now() - before;
      if (rc != 0)
        return rc;
    }
    int rc = call(arg);
    if (rc != 0)
      return rc;
  }
  if (sync) {
    int rc = sync(arg);
    if (rc != 0)
      return rc;
  }
  *per_call = (bench_now() - start - untimed) / k;
  return 0;
}

/* Calls needed for a sample of at least min_sample_s, within [1, max_k]. */
static int calls_per_sample(double per_call, const bench_timer *cfg) {
  if (per_call <= 0)
    return cfg->max_k;
  double k = cfg->min_sample_s / per_call;
  if (k >= cfg->max_k)
    return cfg->max_k;
  return k < 1 ? 1 : (int)k + 1;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

void bench_sort_doubles(double *x, int count) {
  qsort(x, (size_t)count, sizeof *x, compare_double);
}

/* The p-quantile of count sorted values, linear between neighbours (p 0.5
 * is the usual median). */
static double quantile(const double *sorted, int count, double p) {
  double at = p * (count - 1);
  int i = (int)at;
  if (i + 1 >= count)
    return sorted[count - 1];
  return sorted[i] + (at - i) * (sorted[i + 1] - sorted[i]);
}

void bench_timing_from_sorted(const double *sorted, int count,
                              bench_timing *out) {
  out->min_s = sorted[0];
  out->q1_s = quantile(sorted, count, 0.25);
  out->median_s = quantile(sorted, count, 0.5);
  out->q3_s = quantile(sorted, count, 0.75);
  out->max_s = sorted[count - 1];
  out->k = 1;
  out->reps = count;
}

static int time_calls(bench_fn prepare, bench_fn call, bench_fn sync, void *arg,
                      const bench_timer *cfg, bench_timing *out) {
  double t = 0;
  int rc;

  /* Warm-up: one lone call (caches, lazily built kernels), then one sample at
   * the k it suggests, which refines k. */
  if ((rc = sample(prepare, call, sync, arg, 1, &t)) != 0)
    return rc;
  if ((rc = sample(prepare, call, sync, arg, 1, &t)) != 0)
    return rc;
  int k = calls_per_sample(t, cfg);
  if (k > 1) {
    if ((rc = sample(prepare, call, sync, arg, k, &t)) != 0)
      return rc;
    k = calls_per_sample(t, cfg);
  }

  int reps = cfg->reps < 1 ? 1 : cfg->reps;
  if (reps > BENCH_MAX_REPS)
    reps = BENCH_MAX_REPS;
  double sample_s = t * k;
  if (cfg->max_total_s > 0 && sample_s * reps > cfg->max_total_s) {
    int fit = (int)(cfg->max_total_s / sample_s);
    reps = fit < BENCH_MIN_REPS ? BENCH_MIN_REPS : fit;
    if (reps > cfg->reps)
      reps = cfg->reps;
  }

  double *times = malloc(sizeof *times * (size_t)reps);
  if (!times)
    return -1;
  for (int i = 0; i < reps; i++) {
    if ((rc = sample(prepare, call, sync, arg, k, &times[i])) != 0) {
      free(times);
      return rc;
    }
  }
  bench_sort_doubles(times, reps);
  bench_timing_from_sorted(times, reps, out);
  out->k = k;
  free(times);
  return 0;
}

int bench_time(bench_fn call, bench_fn sync, void *arg, const bench_timer *cfg,
               bench_timing *out) {
  return time_calls(NULL, call, sync, arg, cfg, out);
}

int bench_time_prepared(bench_fn prepare, bench_fn call, void *arg,
                        const bench_timer *cfg, bench_timing *out) {
  return time_calls(prepare, call, NULL, arg, cfg, out);
}
