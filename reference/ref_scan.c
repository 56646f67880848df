/* SPDX-License-Identifier: MIT */
/* Reduce and scan: the reference, its tolerances and the comparison (see
 * ref_scan.h). Integers take the serial C versions, which are exact. */
#include "ref_scan.h"

#include "ref_internal.h"
#include "ref_value.h"

#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Floats: sums run in WIDE, so the reference itself is accurate; tol gets
 * each output's bound (ref_scan.h). min/max follow prism.h's rule. */
#define DEFINE_FLOAT_REFERENCE(NAME, T, WIDE, EPS)                             \
  static void scan_##NAME(prism_op op, prism_scan_kind kind, const T *in,      \
                          T *out, size_t n, double *tol) {                     \
    WIDE sum = 0;                                                              \
    double abs = 0;                                                            \
    T acc = op == PRISM_MIN ? (T)INFINITY : (T)-INFINITY;                      \
    for (size_t i = 0; i < n; i++) {                                           \
      T x = in[i];                                                             \
      if (op == PRISM_SUM) {                                                   \
        if (kind == PRISM_EXCLUSIVE) {                                         \
          out[i] = (T)sum;                                                     \
          if (tol)                                                             \
            tol[i] = (double)(i ? i - 1 : 0) * EPS * abs;                      \
        }                                                                      \
        sum += x;                                                              \
        abs += fabs((double)x);                                                \
        if (kind == PRISM_INCLUSIVE) {                                         \
          out[i] = (T)sum;                                                     \
          if (tol)                                                             \
            tol[i] = (double)i * EPS * abs;                                    \
        }                                                                      \
        continue;                                                              \
      }                                                                        \
      if (kind == PRISM_EXCLUSIVE)                                             \
        out[i] = acc;                                                          \
      acc = op == PRISM_MIN ? REF__FLOAT_MIN(acc, x) : REF__FLOAT_MAX(acc, x); \
      if (kind == PRISM_INCLUSIVE)                                             \
        out[i] = acc;                                                          \
    }                                                                          \
  }                                                                            \
  static T reduce_##NAME(prism_op op, const T *in, size_t n) {                 \
    if (op == PRISM_SUM) {                                                     \
      WIDE sum = 0;                                                            \
      for (size_t i = 0; i < n; i++)                                           \
        sum += in[i];                                                          \
      return (T)sum;                                                           \
    }                                                                          \
    T acc = op == PRISM_MIN ? (T)INFINITY : (T)-INFINITY;                      \
    for (size_t i = 0; i < n; i++)                                             \
      acc = op == PRISM_MIN ? REF__FLOAT_MIN(acc, in[i])                       \
                            : REF__FLOAT_MAX(acc, in[i]);                      \
    return acc;                                                                \
  }

DEFINE_FLOAT_REFERENCE(f32, float, double, FLT_EPSILON)
DEFINE_FLOAT_REFERENCE(f64, double, long double, DBL_EPSILON)

void ref_scan(prism_type type, prism_op op, prism_scan_kind kind,
              const void *in, void *out, size_t n, double *tol) {
  if (type == PRISM_F32)
    scan_f32(op, kind, in, out, n, tol);
  else if (type == PRISM_F64)
    scan_f64(op, kind, in, out, n, tol);
  else
    ref_serial_scan(type, op, kind, in, out, n);
}

void ref_reduce(prism_type type, prism_op op, const void *in, size_t n,
                void *out) {
  if (type == PRISM_F32)
    *(float *)out = reduce_f32(op, in, n);
  else if (type == PRISM_F64)
    *(double *)out = reduce_f64(op, in, n);
  else
    ref_serial_reduce(type, op, in, n, out);
}

double ref_sum_tolerance(prism_type type, const void *in, size_t n) {
  double s = 0, eps = type == PRISM_F32 ? FLT_EPSILON : DBL_EPSILON;
  if (type == PRISM_F32)
    for (size_t i = 0; i < n; i++)
      s += fabs((double)((const float *)in)[i]);
  else if (type == PRISM_F64)
    for (size_t i = 0; i < n; i++)
      s += fabs(((const double *)in)[i]);
  return (double)(n ? n - 1 : 0) * eps * s;
}

/* Floats: exact for min/max (NaNs equal, zeros by sign); sums within the
 * tolerance, with inf and NaN matching in kind. */
static int float_matches(double got, double want, double tol, prism_op op) {
  if (isnan(want) || isnan(got))
    return isnan(want) && isnan(got);
  if (op != PRISM_SUM)
    return got == want && signbit(got) == signbit(want);
  if (isinf(want) || isinf(got))
    return got == want;
  /* The reference itself is rounded once to the element type. */
  return fabs(got - want) <= tol + fabs(want) * DBL_EPSILON * 2 || got == want;
}

size_t ref_compare(prism_type type, prism_op op, const void *got,
                   const void *want, const double *tol, size_t n, char *msg,
                   size_t msg_size) {
  size_t size = prism_type_size(type);
  const unsigned char *g = got, *w = want;
  for (size_t i = 0; i < n; i++) {
    int ok;
    double t = tol ? tol[i] : 0;
    if (type == PRISM_F32)
      ok = float_matches(
          ((const float *)got)[i], ((const float *)want)[i],
          t + fabs((double)((const float *)want)[i]) * FLT_EPSILON, op);
    else if (type == PRISM_F64)
      ok = float_matches(((const double *)got)[i], ((const double *)want)[i], t,
                         op);
    else
      ok = memcmp(g + i * size, w + i * size, size) == 0;
    if (!ok) {
      char a[64], b[64];
      ref_format(type, g + i * size, a, sizeof a);
      ref_format(type, w + i * size, b, sizeof b);
      snprintf(msg, msg_size, "element %zu: got %s, want %s", i, a, b);
      return i;
    }
  }
  return n;
}
