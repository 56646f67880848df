/* SPDX-License-Identifier: MIT */
/* Serial reference: stream compaction. */
#include "ref_select.h"

#include <stdint.h>
#include <string.h>

void ref_keep_flagged(prism_type flag_type, const void *flags, size_t n,
                      unsigned char *keep) {
  const size_t size = prism_type_size(flag_type);
  const unsigned char *bytes = flags;
  for (size_t i = 0; i < n; i++) {
    uint64_t bits = 0;
    memcpy(&bits, bytes + i * size, size);
    keep[i] = bits != 0;
  }
}

/* x compare a (and x <= b for a range), as C compares T. */
#define REF_PREDICATE(T, x, p, a, b)                                           \
  ((p)->compare == PRISM_LESS            ? (x) < (a)                           \
   : (p)->compare == PRISM_LESS_EQUAL    ? (x) <= (a)                          \
   : (p)->compare == PRISM_GREATER       ? (x) > (a)                           \
   : (p)->compare == PRISM_GREATER_EQUAL ? (x) >= (a)                          \
   : (p)->compare == PRISM_EQUAL         ? (x) == (a)                          \
   : (p)->compare == PRISM_NOT_EQUAL     ? (x) != (a)                          \
                                         : (a) <= (x) && (x) <= (b))

#define REF_KEEP_IF(T, member)                                                 \
  do {                                                                         \
    const T *v = in;                                                           \
    const T a = predicate->a.member, b = predicate->b.member;                  \
    for (size_t i = 0; i < n; i++)                                             \
      keep[i] = REF_PREDICATE(T, v[i], predicate, a, b);                       \
  } while (0)

void ref_keep_if(prism_type type, const void *in, size_t n,
                 const prism_predicate *predicate, unsigned char *keep) {
  switch (type) {
  case PRISM_I32:
    REF_KEEP_IF(int32_t, i32);
    break;
  case PRISM_U32:
    REF_KEEP_IF(uint32_t, u32);
    break;
  case PRISM_F32:
    REF_KEEP_IF(float, f32);
    break;
  case PRISM_I64:
    REF_KEEP_IF(int64_t, i64);
    break;
  case PRISM_U64:
    REF_KEEP_IF(uint64_t, u64);
    break;
  case PRISM_F64:
    REF_KEEP_IF(double, f64);
    break;
  case PRISM_U8:
    REF_KEEP_IF(uint8_t, u8);
    break;
  }
}

#define REF_KEEP_UNIQUE(T)                                                     \
  do {                                                                         \
    const T *v = in;                                                           \
    for (size_t i = 0; i < n; i++)                                             \
      keep[i] = i == 0 || v[i] != v[i - 1];                                    \
  } while (0)

void ref_keep_unique(prism_type type, const void *in, size_t n,
                     unsigned char *keep) {
  switch (type) {
  case PRISM_I32:
    REF_KEEP_UNIQUE(int32_t);
    break;
  case PRISM_U32:
    REF_KEEP_UNIQUE(uint32_t);
    break;
  case PRISM_F32:
    REF_KEEP_UNIQUE(float);
    break;
  case PRISM_I64:
    REF_KEEP_UNIQUE(int64_t);
    break;
  case PRISM_U64:
    REF_KEEP_UNIQUE(uint64_t);
    break;
  case PRISM_F64:
    REF_KEEP_UNIQUE(double);
    break;
  case PRISM_U8:
    REF_KEEP_UNIQUE(uint8_t);
    break;
  }
}

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
