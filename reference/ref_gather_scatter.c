/* SPDX-License-Identifier: MIT */
/* Gather and scatter (see ref_gather_scatter.h). */
#include "ref_gather_scatter.h"

#include <stdint.h>
#include <string.h>

/* The index types: prism_type without prefix, C type. */
#define INDEX_TYPES(X)                                                         \
  X(U32, uint32_t)                                                             \
  X(I32, int32_t)                                                              \
  X(U64, uint64_t)                                                             \
  X(I64, int64_t)

#define DEFINE_MOVE(E, I)                                                      \
  static void gather_##E(size_t e, const char *in, const I *idx, char *out,    \
                         size_t n) {                                           \
    for (size_t i = 0; i < n; i++)                                             \
      memcpy(out + i * e, in + (size_t)idx[i] * e, e);                         \
  }                                                                            \
  static void scatter_##E(size_t e, const char *in, const I *idx, char *out,   \
                          size_t n) {                                          \
    for (size_t i = 0; i < n; i++)                                             \
      memcpy(out + (size_t)idx[i] * e, in + i * e, e);                         \
  }
INDEX_TYPES(DEFINE_MOVE)

void ref_gather(size_t element_size, const void *in, prism_type index_type,
                const void *indices, void *out, size_t n) {
  switch (index_type) {
#define CASE(E, I)                                                             \
  case PRISM_##E:                                                              \
    gather_##E(element_size, in, indices, out, n);                             \
    break;
    INDEX_TYPES(CASE)
#undef CASE
  default: /* not an index type */
    break;
  }
}

void ref_scatter(size_t element_size, const void *in, prism_type index_type,
                 const void *indices, void *out, size_t n) {
  switch (index_type) {
#define CASE(E, I)                                                             \
  case PRISM_##E:                                                              \
    scatter_##E(element_size, in, indices, out, n);                            \
    break;
    INDEX_TYPES(CASE)
#undef CASE
  default: /* not an index type */
    break;
  }
}
