/* SPDX-License-Identifier: MIT */
/* Stream compaction (see ref_select.h). One list of the comparisons serves
 * every loop, so the keep flags, the count and the one-pass selections
 * read the same predicate. */
#include "ref_select.h"

#include "ref_types.h"

#include <string.h>

/* prism_compare and its test of x against the constants a and b. */
#define COMPARES(X, x)                                                         \
  X(PRISM_LESS, (x) < a)                                                       \
  X(PRISM_LESS_EQUAL, (x) <= a)                                                \
  X(PRISM_GREATER, (x) > a)                                                    \
  X(PRISM_GREATER_EQUAL, (x) >= a)                                             \
  X(PRISM_EQUAL, (x) == a)                                                     \
  X(PRISM_NOT_EQUAL, (x) != a)                                                 \
  X(PRISM_IN_RANGE, a <= (x) && (x) <= b)

/* The loops, one per comparison: n, in, keep or out and k in scope. Every
 * selection stores each element and advances past the kept ones, without
 * a branch that random data would mispredict (out[k] with k <= i stays
 * within out's n elements; the rejected pass of partition stops once all
 * are in). */
#define KEEP_LOOP(C, PASS)                                                     \
  case C:                                                                      \
    for (size_t i = 0; i < n; i++)                                             \
      keep[i] = (PASS);                                                        \
    break;
#define COUNT_LOOP(C, PASS)                                                    \
  case C:                                                                      \
    for (size_t i = 0; i < n; i++)                                             \
      k += (PASS);                                                             \
    break;
#define SELECT_LOOP(C, PASS)                                                   \
  case C:                                                                      \
    for (size_t i = 0; i < n; i++) {                                           \
      out[k] = in[i];                                                          \
      k += (PASS);                                                             \
    }                                                                          \
    break;
#define REJECT_LOOP(C, PASS)                                                   \
  case C:                                                                      \
    for (size_t i = 0; i < n && j < n; i++) { /* j == n: all are in */         \
      out[j] = in[i];                                                          \
      j += !(PASS);                                                            \
    }                                                                          \
    break;

#define DEFINE_PREDICATE(NAME, E, T)                                           \
  static void keep_if_##NAME(const T *in, size_t n, const prism_predicate *p,  \
                             unsigned char *keep) {                            \
    const T a = p->a.NAME, b = p->b.NAME;                                      \
    switch (p->compare) { COMPARES(KEEP_LOOP, in[i]) }                         \
  }                                                                            \
  static size_t count_if_##NAME(const T *in, size_t n,                         \
                                const prism_predicate *p) {                    \
    const T a = p->a.NAME, b = p->b.NAME;                                      \
    size_t k = 0;                                                              \
    switch (p->compare) { COMPARES(COUNT_LOOP, in[i]) }                        \
    return k;                                                                  \
  }                                                                            \
  static size_t select_if_##NAME(const T *in, size_t n,                        \
                                 const prism_predicate *p, T *out) {           \
    const T a = p->a.NAME, b = p->b.NAME;                                      \
    size_t k = 0;                                                              \
    switch (p->compare) { COMPARES(SELECT_LOOP, in[i]) }                       \
    return k;                                                                  \
  }                                                                            \
  static size_t partition_if_##NAME(const T *in, size_t n,                     \
                                    const prism_predicate *p, T *out) {        \
    const T a = p->a.NAME, b = p->b.NAME;                                      \
    size_t k = select_if_##NAME(in, n, p, out), j = k;                         \
    switch (p->compare) { COMPARES(REJECT_LOOP, in[i]) }                       \
    return k;                                                                  \
  }                                                                            \
  static void keep_unique_##NAME(const T *in, size_t n, unsigned char *keep) { \
    for (size_t i = 0; i < n; i++)                                             \
      keep[i] = i == 0 || in[i] != in[i - 1];                                  \
  }                                                                            \
  static size_t unique_##NAME(const T *in, size_t n, T *out) {                 \
    size_t k = n > 0;                                                          \
    if (n > 0)                                                                 \
      out[0] = in[0];                                                          \
    for (size_t i = 1; i < n; i++) {                                           \
      out[k] = in[i];                                                          \
      k += in[i] != in[i - 1];                                                 \
    }                                                                          \
    return k;                                                                  \
  }
REF_ALL_TYPES(DEFINE_PREDICATE)

void ref_keep_if(prism_type type, const void *in, size_t n,
                 const prism_predicate *predicate, unsigned char *keep) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    keep_if_##NAME((const T *)in, n, predicate, keep);                         \
    break;
    REF_ALL_TYPES(CASE)
#undef CASE
  }
}

size_t ref_count_if(prism_type type, const void *in, size_t n,
                    const prism_predicate *predicate) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return count_if_##NAME((const T *)in, n, predicate);
    REF_ALL_TYPES(CASE)
#undef CASE
  }
  return 0;
}

size_t ref_select_if(prism_type type, const void *in, size_t n,
                     const prism_predicate *predicate, void *out) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return select_if_##NAME((const T *)in, n, predicate, (T *)out);
    REF_ALL_TYPES(CASE)
#undef CASE
  }
  return 0;
}

size_t ref_partition_if(prism_type type, const void *in, size_t n,
                        const prism_predicate *predicate, void *out) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return partition_if_##NAME((const T *)in, n, predicate, (T *)out);
    REF_ALL_TYPES(CASE)
#undef CASE
  }
  return 0;
}

void ref_keep_unique(prism_type type, const void *in, size_t n,
                     unsigned char *keep) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    keep_unique_##NAME((const T *)in, n, keep);                                \
    break;
    REF_ALL_TYPES(CASE)
#undef CASE
  }
}

size_t ref_unique(prism_type type, const void *in, size_t n, void *out) {
  switch (type) {
#define CASE(NAME, E, T)                                                       \
  case PRISM_##E:                                                              \
    return unique_##NAME((const T *)in, n, (T *)out);
    REF_ALL_TYPES(CASE)
#undef CASE
  }
  return 0;
}

/* ---- Flags --------------------------------------------------------------- */

/* The flag types: prism_type without prefix, the unsigned type of a flag's
 * bits (a flag is set when any bit is). */
#define FLAG_TYPES(X)                                                          \
  X(U8, uint8_t)                                                               \
  X(I32, uint32_t)                                                             \
  X(U32, uint32_t)                                                             \
  X(I64, uint64_t)                                                             \
  X(U64, uint64_t)

#define DEFINE_FLAGGED(E, F)                                                   \
  static void keep_flagged_##E(const F *flags, size_t n,                       \
                               unsigned char *keep) {                          \
    for (size_t i = 0; i < n; i++)                                             \
      keep[i] = flags[i] != 0;                                                 \
  }                                                                            \
  static size_t select_flagged_##E(size_t element_size, const char *in,        \
                                   const F *flags, size_t n, char *out) {      \
    size_t k = 0;                                                              \
    for (size_t i = 0; i < n; i++) {                                           \
      memcpy(out + k * element_size, in + i * element_size, element_size);     \
      k += flags[i] != 0;                                                      \
    }                                                                          \
    return k;                                                                  \
  }
FLAG_TYPES(DEFINE_FLAGGED)

void ref_keep_flagged(prism_type flag_type, const void *flags, size_t n,
                      unsigned char *keep) {
  switch (flag_type) {
#define CASE(E, F)                                                             \
  case PRISM_##E:                                                              \
    keep_flagged_##E((const F *)flags, n, keep);                               \
    break;
    FLAG_TYPES(CASE)
#undef CASE
  default: /* not a flag type */
    break;
  }
}

size_t ref_select_flagged(size_t element_size, const void *in,
                          prism_type flag_type, const void *flags, size_t n,
                          void *out) {
  switch (flag_type) {
#define CASE(E, F)                                                             \
  case PRISM_##E:                                                              \
    return select_flagged_##E(element_size, (const char *)in,                  \
                              (const F *)flags, n, (char *)out);
    FLAG_TYPES(CASE)
#undef CASE
  default: /* not a flag type */
    break;
  }
  return 0;
}

/* ---- The copy of a keep mask --------------------------------------------- */

size_t ref_compact(prism_type type, const void *in, const unsigned char *keep,
                   size_t n, int partition, void *out) {
  const size_t size = prism_type_size(type);
  const unsigned char *src = in;
  unsigned char *dst = out;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (keep[i])
      memcpy(dst + k++ * size, src + i * size, size);
  if (partition) {
    size_t r = k;
    for (size_t i = 0; i < n; i++)
      if (!keep[i])
        memcpy(dst + r++ * size, src + i * size, size);
  }
  return k;
}
