/* SPDX-License-Identifier: MIT */
/* Segmented scans and reduce (see ref_segmented.h): the segments are found
 * once here, and each is handed to ref_scan.h's reference, serial version
 * or check. */
#include "ref_segmented.h"

#include "ref_scan.h"

#include <stdio.h>
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

/* The first set flag at or after from, or n: the next segment's start. */
static size_t next_head(prism_type flag_type, const void *flags, size_t from,
                        size_t n) {
  size_t i = from;
  switch (flag_type) {
  case PRISM_U8:
    while (i < n && !((const uint8_t *)flags)[i])
      i++;
    break;
  case PRISM_I32:
  case PRISM_U32:
    while (i < n && !((const uint32_t *)flags)[i])
      i++;
    break;
  default:
    while (i < n && !((const uint64_t *)flags)[i])
      i++;
    break;
  }
  return i;
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

/* The bounds of segment s for a reduce: its own, or empty when bad. */
static void reduce_bounds(prism_type offset_type, const void *offsets, size_t s,
                          size_t n, size_t *lo, size_t *hi) {
  if (!ref_segment_good(offset_type, offsets, s, n, lo, hi))
    *lo = *hi = 0;
}

/* ---- One segment --------------------------------------------------------- */

/* Scan [lo, hi) of in into out (and tol), as one segment: the reference,
 * or (serial) the serial C version. */
static void scan_range(int serial, prism_type type, prism_op op,
                       prism_scan_kind kind, const void *in, void *out,
                       size_t lo, size_t hi, double *tol) {
  size_t size = prism_type_size(type);
  const char *from = (const char *)in + lo * size;
  char *to = (char *)out + lo * size;
  if (hi <= lo)
    return;
  if (serial)
    ref_serial_scan(type, op, kind, from, to, hi - lo);
  else
    ref_scan(type, op, kind, from, to, hi - lo, tol ? tol + lo : NULL);
}

/* "segment s [lo, hi): " before a check's message. */
static int segment_mismatch(size_t s, size_t lo, size_t hi, const char *what,
                            char *msg, size_t msg_size) {
  snprintf(msg, msg_size, "segment %zu [%zu, %zu): %s", s, lo, hi, what);
  return 0;
}

/* ---- By head flags ------------------------------------------------------- */

static void scan_flag_runs(int serial, prism_type type, prism_op op,
                           prism_scan_kind kind, const void *in,
                           prism_type flag_type, const void *flags, void *out,
                           size_t n, double *tol) {
  for (size_t lo = 0, hi; lo < n; lo = hi) {
    hi = next_head(flag_type, flags, lo + 1, n);
    scan_range(serial, type, op, kind, in, out, lo, hi, tol);
  }
}

void ref_segmented_scan_flags(prism_type type, prism_op op,
                              prism_scan_kind kind, const void *in,
                              prism_type flag_type, const void *flags,
                              void *out, size_t n, double *tol) {
  scan_flag_runs(0, type, op, kind, in, flag_type, flags, out, n, tol);
}

void ref_serial_segmented_scan_flags(prism_type type, prism_op op,
                                     prism_scan_kind kind, const void *in,
                                     prism_type flag_type, const void *flags,
                                     void *out, size_t n) {
  scan_flag_runs(1, type, op, kind, in, flag_type, flags, out, n, NULL);
}

int ref_check_segmented_scan(prism_type type, prism_op op, prism_scan_kind kind,
                             const void *in, prism_type flag_type,
                             const void *flags, size_t n, const void *got,
                             char *msg, size_t msg_size) {
  size_t size = prism_type_size(type);
  char what[384];
  size_t s = 0;
  for (size_t lo = 0, hi; lo < n; lo = hi, s++) {
    hi = next_head(flag_type, flags, lo + 1, n);
    if (!ref_check_scan(type, op, kind, (const char *)in + lo * size, hi - lo,
                        (const char *)got + lo * size, what, sizeof what))
      return segment_mismatch(s, lo, hi, what, msg, msg_size);
  }
  return 1;
}

/* ---- By offsets ---------------------------------------------------------- */

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
      scan_range(0, type, op, kind, in, out, lo, hi, tol);
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
      scan_range(0, type, op, kind, in, out, run, i, tol);
    run = i;
    inside = i < n && (mark[i] & MARK_START);
  }
  free(mark);
}

/* Reduce every segment: the reference (and its tolerances), or (serial)
 * the serial C version. */
static void reduce_segments(int serial, prism_type type, prism_op op,
                            const void *in, size_t n, prism_type offset_type,
                            const void *offsets, size_t num_segments, void *out,
                            double *tol) {
  size_t size = prism_type_size(type);
  size_t lo, hi;
  for (size_t s = 0; s < num_segments; s++) {
    reduce_bounds(offset_type, offsets, s, n, &lo, &hi);
    const char *from = (const char *)in + lo * size;
    char *to = (char *)out + s * size;
    if (serial)
      ref_serial_reduce(type, op, from, hi - lo, to);
    else
      ref_reduce(type, op, from, hi - lo, to);
    if (tol)
      tol[s] = ref_sum_tolerance(type, from, hi - lo);
  }
}

void ref_segmented_reduce(prism_type type, prism_op op, const void *in,
                          size_t n, prism_type offset_type, const void *offsets,
                          size_t num_segments, void *out, double *tol) {
  reduce_segments(0, type, op, in, n, offset_type, offsets, num_segments, out,
                  tol);
}

void ref_serial_segmented_reduce(prism_type type, prism_op op, const void *in,
                                 size_t n, prism_type offset_type,
                                 const void *offsets, size_t num_segments,
                                 void *out) {
  reduce_segments(1, type, op, in, n, offset_type, offsets, num_segments, out,
                  NULL);
}

int ref_check_segmented_reduce(prism_type type, prism_op op, const void *in,
                               size_t n, prism_type offset_type,
                               const void *offsets, size_t num_segments,
                               const void *got, char *msg, size_t msg_size) {
  size_t size = prism_type_size(type);
  char what[384];
  size_t lo, hi;
  for (size_t s = 0; s < num_segments; s++) {
    reduce_bounds(offset_type, offsets, s, n, &lo, &hi);
    if (!ref_check_reduce(type, op, (const char *)in + lo * size, hi - lo,
                          (const char *)got + s * size, what, sizeof what))
      return segment_mismatch(s, lo, hi, what, msg, msg_size);
  }
  return 1;
}
