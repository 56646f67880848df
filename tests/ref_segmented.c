/* SPDX-License-Identifier: MIT */
/* Serial reference: segmented scans and reduce. */
#include "ref_segmented.h"

#include "reference.h"

#include <stdlib.h>
#include <string.h>

int ref_flag_set(prism_type flag_type, const void *flags, size_t i) {
  switch (flag_type) {
  case PRISM_U8:
    return ((const uint8_t *)flags)[i] != 0;
  case PRISM_I32:
  case PRISM_U32:
    return ((const uint32_t *)flags)[i] != 0;
  default:
    return ((const uint64_t *)flags)[i] != 0;
  }
}

/* Offset s as a value in [0, n], or -1 when it lies outside. */
static int64_t offset_at(prism_type t, const void *offsets, size_t s,
                         size_t n) {
  int negative = 0;
  uint64_t v;
  switch (t) {
  case PRISM_I32:
    negative = ((const int32_t *)offsets)[s] < 0;
    v = (uint64_t)(int64_t)((const int32_t *)offsets)[s];
    break;
  case PRISM_U32:
    v = ((const uint32_t *)offsets)[s];
    break;
  case PRISM_I64:
    negative = ((const int64_t *)offsets)[s] < 0;
    v = (uint64_t)((const int64_t *)offsets)[s];
    break;
  default:
    v = ((const uint64_t *)offsets)[s];
    break;
  }
  return negative || v > (uint64_t)n ? -1 : (int64_t)v;
}

int ref_segment_good(prism_type offset_type, const void *offsets, size_t s,
                     size_t n, size_t *lo, size_t *hi) {
  int64_t a = offset_at(offset_type, offsets, s, n);
  int64_t b = offset_at(offset_type, offsets, s + 1, n);
  if (a < 0 || b < 0 || a > b)
    return 0;
  *lo = (size_t)a;
  *hi = (size_t)b;
  return 1;
}

size_t ref_first_bad(prism_type offset_type, const void *offsets,
                     size_t num_segments, size_t n) {
  size_t lo, hi;
  for (size_t s = 0; s < num_segments; s++)
    if (!ref_segment_good(offset_type, offsets, s, n, &lo, &hi))
      return s;
  return SIZE_MAX;
}

/* Scan [lo, hi) of in into out (and tol), as one segment. */
static void scan_range(prism_type type, prism_op op, prism_scan_kind kind,
                       const void *in, void *out, size_t lo, size_t hi,
                       double *tol) {
  size_t size = prism_type_size(type);
  if (hi > lo)
    ref_scan(type, op, kind, (const char *)in + lo * size,
             (char *)out + lo * size, hi - lo, tol ? tol + lo : NULL);
}

void ref_segmented_scan_flags(prism_type type, prism_op op,
                              prism_scan_kind kind, const void *in,
                              prism_type flag_type, const void *flags,
                              void *out, size_t n, double *tol) {
  size_t start = 0;
  for (size_t i = 1; i <= n; i++)
    if (i == n || ref_flag_set(flag_type, flags, i)) {
      scan_range(type, op, kind, in, out, start, i, tol);
      start = i;
    }
}

void ref_segmented_scan_segments(prism_type type, prism_op op,
                                 prism_scan_kind kind, const void *in,
                                 void *out, size_t n, prism_type offset_type,
                                 const void *offsets, size_t num_segments,
                                 double *tol) {
  if (tol)
    memset(tol, 0, n * sizeof *tol);
  size_t lo, hi;
  for (size_t s = 0; s < num_segments; s++)
    if (ref_segment_good(offset_type, offsets, s, n, &lo, &hi))
      scan_range(type, op, kind, in, out, lo, hi, tol);
}

/* Marks of the rule, one byte per position. */
#define MARK_START 1
#define MARK_END 2

void ref_segmented_scan_offsets(prism_type type, prism_op op,
                                prism_scan_kind kind, const void *in, void *out,
                                size_t n, prism_type offset_type,
                                const void *offsets, size_t num_segments,
                                double *tol) {
  unsigned char *mark = calloc(n + 1, 1);
  if (!mark)
    abort();
  if (tol)
    memset(tol, 0, n * sizeof *tol);
  size_t lo, hi;
  for (size_t s = 0; s < num_segments; s++)
    if (ref_segment_good(offset_type, offsets, s, n, &lo, &hi) && lo < hi) {
      mark[lo] |= MARK_START;
      mark[hi] |= MARK_END; /* mark[n] is never looked at */
    }
  /* Runs between consecutive marks: scanned when opened by a start. */
  size_t run = 0;
  int inside = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && !mark[i])
      continue;
    if (inside)
      scan_range(type, op, kind, in, out, run, i, tol);
    run = i;
    inside = i < n && (mark[i] & MARK_START);
  }
  free(mark);
}

void ref_segmented_reduce(prism_type type, prism_op op, const void *in,
                          size_t n, prism_type offset_type, const void *offsets,
                          size_t num_segments, void *out, double *tol) {
  size_t size = prism_type_size(type);
  size_t lo, hi;
  for (size_t s = 0; s < num_segments; s++) {
    int good = ref_segment_good(offset_type, offsets, s, n, &lo, &hi);
    if (!good)
      lo = hi = 0;
    ref_reduce(type, op, (const char *)in + lo * size, hi - lo,
               (char *)out + s * size);
    if (tol)
      tol[s] = ref_sum_tolerance(type, (const char *)in + lo * size, hi - lo);
  }
}
