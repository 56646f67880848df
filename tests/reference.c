/* SPDX-License-Identifier: MIT */
/* Serial reference implementations and comparisons. */
#include "reference.h"

#include "key_order.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* min/max on floats: NaN wins, -0.0 < +0.0. */
#define FLOAT_LESS(a, b)                                                       \
  ((a) < (b) || ((a) == (b) && signbit(a) && !signbit(b)))
#define FLOAT_MIN(a, b)                                                        \
  (isnan(a) ? (a) : isnan(b) ? (b) : FLOAT_LESS(b, a) ? (b) : (a))
#define FLOAT_MAX(a, b)                                                        \
  (isnan(a) ? (a) : isnan(b) ? (b) : FLOAT_LESS(a, b) ? (b) : (a))
#define INT_MIN_(a, b) ((b) < (a) ? (b) : (a))
#define INT_MAX_(a, b) ((a) < (b) ? (b) : (a))

/* One serial scan per type: acc holds the running value; for floats the
 * sum runs in a wider type so the reference itself is accurate. Signed
 * integer sums wrap through the unsigned type UT. */
#define DEFINE_INT_SCAN(NAME, T, UT, TMIN, TMAX)                               \
  static void NAME(prism_op op, prism_scan_kind kind, const T *in, T *out,     \
                   size_t n) {                                                 \
    T acc = op == PRISM_SUM ? 0 : op == PRISM_MIN ? TMAX : TMIN;               \
    for (size_t i = 0; i < n; i++) {                                           \
      T x = in[i];                                                             \
      if (kind == PRISM_EXCLUSIVE)                                             \
        out[i] = acc;                                                          \
      if (op == PRISM_SUM)                                                     \
        acc = (T)((UT)acc + (UT)x);                                            \
      else if (op == PRISM_MIN)                                                \
        acc = INT_MIN_(acc, x);                                                \
      else                                                                     \
        acc = INT_MAX_(acc, x);                                                \
      if (kind == PRISM_INCLUSIVE)                                             \
        out[i] = acc;                                                          \
    }                                                                          \
  }

#define DEFINE_FLOAT_SCAN(NAME, T, WIDE, EPS)                                  \
  static void NAME(prism_op op, prism_scan_kind kind, const T *in, T *out,     \
                   size_t n, double *tol) {                                    \
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
      acc = op == PRISM_MIN ? FLOAT_MIN(acc, x) : FLOAT_MAX(acc, x);           \
      if (kind == PRISM_INCLUSIVE)                                             \
        out[i] = acc;                                                          \
    }                                                                          \
  }

DEFINE_INT_SCAN(scan_i32, int32_t, uint32_t, INT32_MIN, INT32_MAX)
DEFINE_INT_SCAN(scan_u32, uint32_t, uint32_t, 0, UINT32_MAX)
DEFINE_INT_SCAN(scan_i64, int64_t, uint64_t, INT64_MIN, INT64_MAX)
DEFINE_INT_SCAN(scan_u64, uint64_t, uint64_t, 0, UINT64_MAX)
DEFINE_FLOAT_SCAN(scan_f32, float, double, FLT_EPSILON)
DEFINE_FLOAT_SCAN(scan_f64, double, long double, DBL_EPSILON)

void ref_scan(prism_type type, prism_op op, prism_scan_kind kind,
              const void *in, void *out, size_t n, double *tol) {
  switch (type) {
  case PRISM_I32:
    scan_i32(op, kind, in, out, n);
    break;
  case PRISM_U32:
    scan_u32(op, kind, in, out, n);
    break;
  case PRISM_I64:
    scan_i64(op, kind, in, out, n);
    break;
  case PRISM_U64:
    scan_u64(op, kind, in, out, n);
    break;
  case PRISM_F32:
    scan_f32(op, kind, in, out, n, tol);
    break;
  case PRISM_F64:
    scan_f64(op, kind, in, out, n, tol);
    break;
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
}

void ref_reduce(prism_type type, prism_op op, const void *in, size_t n,
                void *out) {
  /* The last element of the inclusive scan; for n = 0 the first element of
   * an exclusive scan, which is the identity. */
  size_t size = prism_type_size(type);
  if (n == 0) {
    const uint64_t zero = 0;
    ref_scan(type, op, PRISM_EXCLUSIVE, &zero, out, 1, NULL);
    return;
  }
  unsigned char *all = malloc(n * size);
  if (!all)
    abort();
  ref_scan(type, op, PRISM_INCLUSIVE, in, all, n, NULL);
  memcpy(out, all + (n - 1) * size, size);
  free(all);
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

/* The part of a key's image that the sort compares. */
static uint64_t sort_image(prism_type type, const void *keys, size_t i) {
  uint32_t b32;
  uint64_t b64;
  switch (type) {
  case PRISM_U32:
    memcpy(&b32, (const char *)keys + i * 4, 4);
    return PRISM_KEY_IMAGE_U32(b32);
  case PRISM_I32:
    memcpy(&b32, (const char *)keys + i * 4, 4);
    return PRISM_KEY_IMAGE_I32(b32);
  case PRISM_F32:
    memcpy(&b32, (const char *)keys + i * 4, 4);
    return PRISM_KEY_IMAGE_F32(b32);
  case PRISM_U64:
    memcpy(&b64, (const char *)keys + i * 8, 8);
    return PRISM_KEY_IMAGE_U64(b64);
  case PRISM_I64:
    memcpy(&b64, (const char *)keys + i * 8, 8);
    return PRISM_KEY_IMAGE_I64(b64);
  case PRISM_F64:
    memcpy(&b64, (const char *)keys + i * 8, 8);
    return PRISM_KEY_IMAGE_F64(b64);
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
  return 0;
}

typedef struct sort_item {
  uint64_t key;
  size_t index;
} sort_item;

static int compare_items(const void *a, const void *b) {
  const sort_item *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

void ref_sort_order(prism_type key_type, const void *keys, size_t n,
                    int descending, unsigned begin_bit, unsigned end_bit,
                    size_t *perm) {
  sort_item *items = malloc((n ? n : 1) * sizeof *items);
  if (!items)
    abort();
  unsigned width = end_bit - begin_bit;
  uint64_t mask = width >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1);
  for (size_t i = 0; i < n; i++) {
    uint64_t image = sort_image(key_type, keys, i);
    if (descending)
      image = ~image;
    items[i].key = (image >> begin_bit) & mask;
    items[i].index = i;
  }
  qsort(items, n, sizeof *items, compare_items);
  for (size_t i = 0; i < n; i++)
    perm[i] = items[i].index;
  free(items);
}

void ref_format(prism_type type, const void *v, char *buf, size_t size) {
  switch (type) {
  case PRISM_I32:
    snprintf(buf, size, "%" PRId32, *(const int32_t *)v);
    break;
  case PRISM_U32:
    snprintf(buf, size, "%" PRIu32, *(const uint32_t *)v);
    break;
  case PRISM_I64:
    snprintf(buf, size, "%" PRId64, *(const int64_t *)v);
    break;
  case PRISM_U64:
    snprintf(buf, size, "%" PRIu64, *(const uint64_t *)v);
    break;
  case PRISM_F32:
    snprintf(buf, size, "%.9g", (double)*(const float *)v);
    break;
  case PRISM_F64:
    snprintf(buf, size, "%.17g", *(const double *)v);
    break;
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
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
