/* SPDX-License-Identifier: MIT */
/* Reduce and scan: the serial C versions prism-bench times, and its checks
 * (see ref_scan.h). */
#include "ref_scan.h"

#include "ref_internal.h"
#include "ref_value.h"

#include <stdio.h>

/* name, prism_type without prefix, element type, type the serial sum runs in
 * (unsigned for integers, so sums wrap like prism's), identity of min, identity
 * of max. */
#define SERIAL_TYPES(X)                                                        \
  X(i32, I32, int32_t, uint32_t, INT32_MAX, INT32_MIN)                         \
  X(u32, U32, uint32_t, uint32_t, UINT32_MAX, 0)                               \
  X(f32, F32, float, float, INFINITY, -INFINITY)                               \
  X(i64, I64, int64_t, uint64_t, INT64_MAX, INT64_MIN)                         \
  X(u64, U64, uint64_t, uint64_t, UINT64_MAX, 0)                               \
  X(f64, F64, double, double, INFINITY, -INFINITY)

#define INT_TYPES(X)                                                           \
  X(i32, I32, int32_t, uint32_t, INT32_MAX, INT32_MIN)                         \
  X(u32, U32, uint32_t, uint32_t, UINT32_MAX, 0)                               \
  X(i64, I64, int64_t, uint64_t, INT64_MAX, INT64_MIN)                         \
  X(u64, U64, uint64_t, uint64_t, UINT64_MAX, 0)

/* Float checks: name, prism_type without prefix, element type, the wider type
 * the check adds in, and the tolerance relative to the sum of magnitudes.
 */
#define FLOAT_TYPES(X)                                                         \
  X(f32, F32, float, double, 1e-3)                                             \
  X(f64, F64, double, long double, 1e-9)

/* ---- Serial versions (timed) -------------------------------------------- */

#define REDUCE_LOOP(T, ACC, INIT, COMBINE)                                     \
  do {                                                                         \
    ACC acc = INIT;                                                            \
    for (size_t i = 0; i < n; i++)                                             \
      acc = COMBINE(acc, in[i]);                                               \
    *out = (T)acc;                                                             \
  } while (0)

#define SCAN_LOOP(T, ACC, INIT, COMBINE, EXCLUSIVE)                            \
  do {                                                                         \
    ACC acc = INIT;                                                            \
    for (size_t i = 0; i < n; i++) {                                           \
      T x = in[i];                                                             \
      if (EXCLUSIVE)                                                           \
        out[i] = (T)acc;                                                       \
      acc = COMBINE(acc, x);                                                   \
      if (!(EXCLUSIVE))                                                        \
        out[i] = (T)acc;                                                       \
    }                                                                          \
  } while (0)

/* The loop for either kind, each with its constant EXCLUSIVE. */
#define SCAN_EITHER(T, ACC, INIT, COMBINE)                                     \
  do {                                                                         \
    if (exclusive)                                                             \
      SCAN_LOOP(T, ACC, INIT, COMBINE, 1);                                     \
    else                                                                       \
      SCAN_LOOP(T, ACC, INIT, COMBINE, 0);                                     \
  } while (0)

/* LOOP for op, with its accumulator type, identity and combine. */
#define BY_OP(LOOP, NAME, T, U, MIN_ID, MAX_ID)                                \
  switch (op) {                                                                \
  case PRISM_SUM:                                                              \
    LOOP(T, U, 0, sum_##NAME);                                                 \
    break;                                                                     \
  case PRISM_MIN:                                                              \
    LOOP(T, T, MIN_ID, min_##NAME);                                            \
    break;                                                                     \
  case PRISM_MAX:                                                              \
    LOOP(T, T, MAX_ID, max_##NAME);                                            \
    break;                                                                     \
  }

#define DEFINE_SERIAL(NAME, E, T, U, MIN_ID, MAX_ID)                           \
  static inline U sum_##NAME(U a, T x) {                                       \
    return (U)(a + (U)x);                                                      \
  }                                                                            \
  static inline T min_##NAME(T a, T x) {                                       \
    return x < a ? x : a;                                                      \
  }                                                                            \
  static inline T max_##NAME(T a, T x) {                                       \
    return x > a ? x : a;                                                      \
  }                                                                            \
  static void reduce_##NAME(prism_op op, const T *in, size_t n, T *out) {      \
    BY_OP(REDUCE_LOOP, NAME, T, U, MIN_ID, MAX_ID);                            \
  }                                                                            \
  static void scan_##NAME(prism_op op, int exclusive, const T *in, T *out,     \
                          size_t n) {                                          \
    BY_OP(SCAN_EITHER, NAME, T, U, MIN_ID, MAX_ID);                            \
  }
SERIAL_TYPES(DEFINE_SERIAL)

void ref_serial_reduce(prism_type type, prism_op op, const void *in, size_t n,
                       void *out) {
  switch (type) {
#define CASE(NAME, E, T, U, MIN_ID, MAX_ID)                                    \
  case PRISM_##E:                                                              \
    reduce_##NAME(op, (const T *)in, n, (T *)out);                             \
    break;
    SERIAL_TYPES(CASE)
#undef CASE
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
}

void ref_serial_scan(prism_type type, prism_op op, prism_scan_kind kind,
                     const void *in, void *out, size_t n) {
  int exclusive = kind == PRISM_EXCLUSIVE;
  switch (type) {
#define CASE(NAME, E, T, U, MIN_ID, MAX_ID)                                    \
  case PRISM_##E:                                                              \
    scan_##NAME(op, exclusive, (const T *)in, (T *)out, n);                    \
    break;
    SERIAL_TYPES(CASE)
#undef CASE
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
}

/* ---- Checks -------------------------------------------------------------- */

/* Integers: the serial arithmetic is exact (modulo 2^bits), so compare
 * equal. */
static int int_mismatch(prism_type type, const char *where, const void *got,
                        const void *want, char *msg, size_t msg_size) {
  char g[32], w[32];
  ref_format(type, got, g, sizeof g);
  ref_format(type, want, w, sizeof w);
  snprintf(msg, msg_size, "%sgot %s, serial C gives %s", where, g, w);
  return 0;
}

#define DEFINE_INT_CHECKS(NAME, E, T, U, MIN_ID, MAX_ID)                       \
  static int check_reduce_##NAME(prism_op op, const T *in, size_t n,           \
                                 const T *got, char *msg, size_t msg_size) {   \
    T want = 0;                                                                \
    reduce_##NAME(op, in, n, &want);                                           \
    if (*got == want)                                                          \
      return 1;                                                                \
    return int_mismatch(PRISM_##E, "", got, &want, msg, msg_size);             \
  }                                                                            \
  static int check_scan_##NAME(prism_op op, int exclusive, const T *in,        \
                               size_t n, const T *got, char *msg,              \
                               size_t msg_size) {                              \
    T acc = op == PRISM_SUM ? 0 : op == PRISM_MIN ? MIN_ID : MAX_ID;           \
    for (size_t i = 0; i < n; i++) {                                           \
      T x = in[i];                                                             \
      T prev = acc;                                                            \
      acc = op == PRISM_SUM   ? (T)sum_##NAME((U)acc, x)                       \
            : op == PRISM_MIN ? min_##NAME(acc, x)                             \
                              : max_##NAME(acc, x);                            \
      T want = exclusive ? prev : acc;                                         \
      if (got[i] != want) {                                                    \
        char where[48];                                                        \
        snprintf(where, sizeof where, "element %zu: ", i);                     \
        return int_mismatch(PRISM_##E, where, &got[i], &want, msg, msg_size);  \
      }                                                                        \
    }                                                                          \
    return 1;                                                                  \
  }
INT_TYPES(DEFINE_INT_CHECKS)

/* Floats: min and max follow prism's rules (NaN wins, -0.0 below +0.0) and
 * are exact; sums are compared within TOL * (sum of |x| so far). */
#define DEFINE_FLOAT_CHECKS(NAME, E, T, W, TOL)                                \
  /* Whether got passes for the exact value want with magnitude scale. */      \
  static int close_##NAME(T got, W want, W scale) {                            \
    if ((W)got == want) /* infinities included */                              \
      return 1;                                                                \
    if (isnan(want) || isnan(got))                                             \
      return isnan(want) && isnan(got);                                        \
    W diff = (W)got - want;                                                    \
    return (diff < 0 ? -diff : diff) <= (W)TOL * scale;                        \
  }                                                                            \
  static int float_mismatch_##NAME(const char *where, T got, W want, W scale,  \
                                   char *msg, size_t msg_size) {               \
    snprintf(msg, msg_size,                                                    \
             "%sgot %.9g, serial C gives %.9g (tolerance %.3g)", where,        \
             (double)got, (double)want, (double)((W)TOL * scale));             \
    return 0;                                                                  \
  }                                                                            \
  /* Exact for min/max; sum in W with the running sum of magnitudes. */        \
  static void step_##NAME(prism_op op, W *acc, W *abs_acc, T x) {              \
    if (op == PRISM_SUM) {                                                     \
      *acc += x;                                                               \
      *abs_acc += x < 0 ? -x : x;                                              \
    } else {                                                                   \
      T a = (T)*acc;                                                           \
      *acc = op == PRISM_MIN ? REF__FLOAT_MIN(a, x) : REF__FLOAT_MAX(a, x);    \
    }                                                                          \
  }                                                                            \
  static W identity_##NAME(prism_op op) {                                      \
    return op == PRISM_SUM ? 0 : op == PRISM_MIN ? INFINITY : -INFINITY;       \
  }                                                                            \
  static int check_reduce_##NAME(prism_op op, const T *in, size_t n,           \
                                 const T *got, char *msg, size_t msg_size) {   \
    W acc = identity_##NAME(op), abs_acc = 0;                                  \
    for (size_t i = 0; i < n; i++)                                             \
      step_##NAME(op, &acc, &abs_acc, in[i]);                                  \
    if (close_##NAME(*got, acc, abs_acc))                                      \
      return 1;                                                                \
    return float_mismatch_##NAME("", *got, acc, abs_acc, msg, msg_size);       \
  }                                                                            \
  static int check_scan_##NAME(prism_op op, int exclusive, const T *in,        \
                               size_t n, const T *got, char *msg,              \
                               size_t msg_size) {                              \
    W acc = identity_##NAME(op), abs_acc = 0;                                  \
    for (size_t i = 0; i < n; i++) {                                           \
      W prev = acc;                                                            \
      step_##NAME(op, &acc, &abs_acc, in[i]);                                  \
      W want = exclusive ? prev : acc;                                         \
      if (!close_##NAME(got[i], want, abs_acc)) {                              \
        char where[48];                                                        \
        snprintf(where, sizeof where, "element %zu: ", i);                     \
        return float_mismatch_##NAME(where, got[i], want, abs_acc, msg,        \
                                     msg_size);                                \
      }                                                                        \
    }                                                                          \
    return 1;                                                                  \
  }
FLOAT_TYPES(DEFINE_FLOAT_CHECKS)

int ref_check_reduce(prism_type type, prism_op op, const void *in, size_t n,
                     const void *got, char *msg, size_t msg_size) {
  switch (type) {
#define CASE(NAME, E, T, U, MIN_ID, MAX_ID)                                    \
  case PRISM_##E:                                                              \
    return check_reduce_##NAME(op, (const T *)in, n, (const T *)got, msg,      \
                               msg_size);
    SERIAL_TYPES(CASE)
#undef CASE
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
  snprintf(msg, msg_size, "unknown type %d", (int)type);
  return 0;
}

int ref_check_scan(prism_type type, prism_op op, prism_scan_kind kind,
                   const void *in, size_t n, const void *got, char *msg,
                   size_t msg_size) {
  int exclusive = kind == PRISM_EXCLUSIVE;
  switch (type) {
#define CASE(NAME, E, T, U, MIN_ID, MAX_ID)                                    \
  case PRISM_##E:                                                              \
    return check_scan_##NAME(op, exclusive, (const T *)in, n, (const T *)got,  \
                             msg, msg_size);
    SERIAL_TYPES(CASE)
#undef CASE
  case PRISM_U8: /* not taken by these primitives */
    break;
  }
  snprintf(msg, msg_size, "unknown type %d", (int)type);
  return 0;
}
