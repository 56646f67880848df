/* SPDX-License-Identifier: MIT */
/*
 * Stream compaction: which elements are kept, decided one at a time with
 * C's own comparisons (so floats follow IEEE-754: NaN fails every
 * comparison but !=, -0.0 == +0.0, as prism.h's predicates do), and the
 * stable copy of the kept elements and, for partitions, of the rest.
 *
 * Two shapes of the same rules: ref_keep_* then ref_compact, which leaves
 * every element of out past the result alone (the tests check that prism
 * writes nothing there); and ref_select_if, ref_partition_if,
 * ref_select_flagged and ref_unique, one pass without a branch on the
 * data, the serial C versions prism-bench times.
 */
#ifndef PRISM_REFERENCE_SELECT_H
#define PRISM_REFERENCE_SELECT_H

#include "prism.h"

#include <stddef.h>

/** keep[i] = 1 when flag i (of flag_type: u8, i32, u32, i64, u64) is not
 * zero, else 0. */
void ref_keep_flagged(prism_type flag_type, const void *flags, size_t n,
                      unsigned char *keep);

/** keep[i] = 1 when element i of in satisfies the predicate. */
void ref_keep_if(prism_type type, const void *in, size_t n,
                 const prism_predicate *predicate, unsigned char *keep);

/** keep[i] = 1 for i = 0 and where in[i] != in[i - 1] (the type's !=). */
void ref_keep_unique(prism_type type, const void *in, size_t n,
                     unsigned char *keep);

/** The elements of in with keep[i] set, in order, into out[0..k); with
 * partition, the others after them, in order, at out[k..n). Other
 * elements of out are left as they are. Returns k. */
size_t ref_compact(prism_type type, const void *in, const unsigned char *keep,
                   size_t n, int partition, void *out);

/** How many elements of in satisfy the predicate. */
size_t ref_count_if(prism_type type, const void *in, size_t n,
                    const prism_predicate *predicate);

/*
 * One pass each, returning k, the number kept, with the kept elements in
 * order at out[0..k). out holds n elements; the selections may write any
 * of them past k (each element is stored, and the store kept when it
 * passes).
 */

/** prism_select_if. */
size_t ref_select_if(prism_type type, const void *in, size_t n,
                     const prism_predicate *predicate, void *out);

/** prism_partition_if: the rejected elements follow, in order, at
 * out[k..n). */
size_t ref_partition_if(prism_type type, const void *in, size_t n,
                        const prism_predicate *predicate, void *out);

/** prism_select_flagged over elements of element_size bytes and flags of
 * flag_type (u8, i32, u32, i64, u64). */
size_t ref_select_flagged(size_t element_size, const void *in,
                          prism_type flag_type, const void *flags, size_t n,
                          void *out);

/** prism_unique: the first element of every run of equal ones. */
size_t ref_unique(prism_type type, const void *in, size_t n, void *out);

#endif /* PRISM_REFERENCE_SELECT_H */
