/* SPDX-License-Identifier: MIT */
/* Merge: the serial stable merge (see ref_merge.h). */
#include "ref_merge.h"

#include "key_order.h"

#include <stdint.h>
#include <string.h>

/* One typed loop per key type: images of B-bit keys, values moved as
 * value_size bytes. */
#define MERGE_LOOP(NAME, E, B)                                                 \
  static void merge_##NAME(int descending, const B *a, const char *va,         \
                           size_t na, const B *b, const char *vb, size_t nb,   \
                           size_t vs, B *out, char *vout) {                    \
    const B flip = descending ? (B) ~(B)0 : (B)0;                              \
    size_t i = 0, j = 0, k = 0;                                                \
    while (i < na && j < nb) {                                                 \
      const B x = (B)(PRISM_KEY_IMAGE_##E(a[i]) ^ flip);                       \
      const B y = (B)(PRISM_KEY_IMAGE_##E(b[j]) ^ flip);                       \
      if (y < x) {                                                             \
        out[k] = b[j];                                                         \
        if (vs)                                                                \
          memcpy(vout + k * vs, vb + j * vs, vs);                              \
        j++;                                                                   \
      } else {                                                                 \
        out[k] = a[i];                                                         \
        if (vs)                                                                \
          memcpy(vout + k * vs, va + i * vs, vs);                              \
        i++;                                                                   \
      }                                                                        \
      k++;                                                                     \
    }                                                                          \
    memcpy(out + k, a + i, (na - i) * sizeof(B));                              \
    if (vs)                                                                    \
      memcpy(vout + k * vs, va + i * vs, (na - i) * vs);                       \
    k += na - i;                                                               \
    memcpy(out + k, b + j, (nb - j) * sizeof(B));                              \
    if (vs)                                                                    \
      memcpy(vout + k * vs, vb + j * vs, (nb - j) * vs);                       \
  }

MERGE_LOOP(u32, U32, uint32_t)
MERGE_LOOP(i32, I32, uint32_t)
MERGE_LOOP(f32, F32, uint32_t)
MERGE_LOOP(u64, U64, uint64_t)
MERGE_LOOP(i64, I64, uint64_t)
MERGE_LOOP(f64, F64, uint64_t)

void ref_merge(prism_type key_type, int descending, const void *a,
               const void *values_a, size_t na, const void *b,
               const void *values_b, size_t nb, size_t value_size,
               void *keys_out, void *values_out) {
  switch (key_type) {
#define CASE(NAME, E, B)                                                       \
  case PRISM_##E:                                                              \
    merge_##NAME(descending, a, values_a, na, b, values_b, nb, value_size,     \
                 keys_out, values_out);                                        \
    return;
    CASE(u32, U32, uint32_t)
    CASE(i32, I32, uint32_t)
    CASE(f32, F32, uint32_t)
    CASE(u64, U64, uint64_t)
    CASE(i64, I64, uint64_t)
    CASE(f64, F64, uint64_t)
#undef CASE
  case PRISM_U8: /* not a key type */
    break;
  }
}
