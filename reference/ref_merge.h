/* SPDX-License-Identifier: MIT */
/*
 * Merge: the serial stable merge, the reference prism_merge_keys and
 * prism_merge_pairs are checked against and prism-bench's "serial C" row.
 * Keys compare by their order-preserving image (core/key_order.h),
 * complemented for descending order; a key of a goes before an equal key
 * of b; keys and values move as raw bits.
 */
#ifndef PRISM_REFERENCE_MERGE_H
#define PRISM_REFERENCE_MERGE_H

#include "prism.h"

#include <stddef.h>

/**
 * Merge a (na keys of key_type, any type but PRISM_U8) and b (nb) into
 * keys_out (na + nb). value_size 0: keys only (the value arguments are
 * not read); 4 or 8: values_a and values_b move with their keys into
 * values_out. Each step takes a's next key unless b's next key is
 * strictly before it.
 */
void ref_merge(prism_type key_type, int descending, const void *a,
               const void *values_a, size_t na, const void *b,
               const void *values_b, size_t nb, size_t value_size,
               void *keys_out, void *values_out);

#endif /* PRISM_REFERENCE_MERGE_H */
