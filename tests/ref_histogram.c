/* SPDX-License-Identifier: MIT */
/* Serial reference: histograms (see ref_histogram.h). */
#include "ref_histogram.h"

#include <math.h>
#include <string.h>

typedef __int128 i128;

/* Sample i of an integer type, exactly. */
static i128 int_sample(prism_type type, const void *p, size_t i) {
  switch (type) {
  case PRISM_U8:
    return ((const uint8_t *)p)[i];
  case PRISM_I32:
    return ((const int32_t *)p)[i];
  case PRISM_U32:
    return ((const uint32_t *)p)[i];
  case PRISM_I64:
    return ((const int64_t *)p)[i];
  default:
    return ((const uint64_t *)p)[i];
  }
}

/* The float rule, in float precision (no step may be done wider). */
static int64_t f32_bin(float x, size_t bins, double lower, double upper) {
  const float lo = (float)lower, hi = (float)upper;
  const float scale = (float)bins / (float)(hi - lo);
  if (!(lo <= x && x < hi))
    return -1;
  const float d = x - lo;
  const float t = d * scale;
  if ((double)t >= (double)(bins - 1))
    return (int64_t)(bins - 1);
  return (int64_t)(uint32_t)t;
}

static int64_t f64_bin(double x, size_t bins, double lower, double upper) {
  const double scale = (double)bins / (upper - lower);
  if (!(lower <= x && x < upper))
    return -1;
  const double d = x - lower;
  const double t = d * scale;
  if (t >= (double)(bins - 1))
    return (int64_t)(bins - 1);
  return (int64_t)(uint32_t)t;
}

int64_t ref_histogram_even_bin(prism_type type, const void *samples, size_t i,
                               size_t bins, double lower, double upper) {
  if (type == PRISM_F32)
    return f32_bin(((const float *)samples)[i], bins, lower, upper);
  if (type == PRISM_F64)
    return f64_bin(((const double *)samples)[i], bins, lower, upper);
  /* Whole bounds within [-2^63, 2^64]: exact as 128-bit integers. */
  const i128 lo = (i128)lower, hi = (i128)upper;
  const i128 x = int_sample(type, samples, i);
  if (x < lo || x >= hi)
    return -1;
  return (int64_t)((x - lo) * (i128)bins / (hi - lo));
}

/* -1, 0, 1 as a < b, a == b, a > b for element i of a and j of b; 2 when
 * either is NaN (unordered). */
static int compare(prism_type type, const void *a, size_t i, const void *b,
                   size_t j) {
  if (type == PRISM_F32 || type == PRISM_F64) {
    const double x =
        type == PRISM_F32 ? ((const float *)a)[i] : ((const double *)a)[i];
    const double y =
        type == PRISM_F32 ? ((const float *)b)[j] : ((const double *)b)[j];
    if (isnan(x) || isnan(y))
      return 2;
    return x < y ? -1 : x > y;
  }
  const i128 x = int_sample(type, a, i), y = int_sample(type, b, j);
  return x < y ? -1 : x > y;
}

int64_t ref_histogram_range_bin(prism_type type, const void *samples, size_t i,
                                size_t bins, const void *edges) {
  /* Below the first edge, at or past the last, or NaN: not counted. */
  const int first = compare(type, samples, i, edges, 0);
  const int last = compare(type, samples, i, edges, bins);
  if (first == 2 || first < 0 || last >= 0)
    return -1;
  /* The last edge at or below x: bisect [lo, hi) with edges[lo] <= x <
   * edges[hi]. */
  size_t lo = 0, hi = bins;
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    if (compare(type, samples, i, edges, mid) >= 0)
      lo = mid;
    else
      hi = mid;
  }
  return (int64_t)lo;
}

void ref_histogram_even(prism_type type, const void *samples, size_t n,
                        size_t bins, double lower, double upper,
                        uint64_t *counts) {
  memset(counts, 0, bins * sizeof *counts);
  for (size_t i = 0; i < n; i++) {
    const int64_t b =
        ref_histogram_even_bin(type, samples, i, bins, lower, upper);
    if (b >= 0)
      counts[b]++;
  }
}

void ref_histogram_range(prism_type type, const void *samples, size_t n,
                         size_t bins, const void *edges, uint64_t *counts) {
  memset(counts, 0, bins * sizeof *counts);
  for (size_t i = 0; i < n; i++) {
    const int64_t b = ref_histogram_range_bin(type, samples, i, bins, edges);
    if (b >= 0)
      counts[b]++;
  }
}
