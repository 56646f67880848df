/* SPDX-License-Identifier: MIT */
/*
 * Serial reference of the stream compaction primitives: which elements are
 * kept, decided one at a time with C's own comparisons (so floats follow
 * IEEE-754: NaN fails every comparison but !=, -0.0 == +0.0), then a
 * stable copy of the kept elements and, for partitions, of the rest.
 */
#ifndef PRISM_TESTS_REF_SELECT_H
#define PRISM_TESTS_REF_SELECT_H

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

#endif
