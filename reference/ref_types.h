/* SPDX-License-Identifier: MIT */
/* The element types as X-macro lists, for code that repeats itself per
 * type: X(name, prism_type without prefix, C type), the name being the
 * prism_value member. */
#ifndef PRISM_REFERENCE_TYPES_H
#define PRISM_REFERENCE_TYPES_H

#include "prism.h"

#include <stdint.h>

/* The types reduce, scan and sort take. */
#define REF_NUMERIC_TYPES(X)                                                   \
  X(i32, I32, int32_t)                                                         \
  X(u32, U32, uint32_t)                                                        \
  X(f32, F32, float)                                                           \
  X(i64, I64, int64_t)                                                         \
  X(u64, U64, uint64_t)                                                        \
  X(f64, F64, double)

/* Every type: the numeric ones and u8 (histograms, compaction). */
#define REF_ALL_TYPES(X)                                                       \
  REF_NUMERIC_TYPES(X)                                                         \
  X(u8, U8, uint8_t)

#endif /* PRISM_REFERENCE_TYPES_H */
