/* SPDX-License-Identifier: MIT */
/*
 * Gather and scatter of element_size-byte elements by indices of
 * index_type (u32, i32, u64, i64): the serial reference, which is also the
 * serial C version prism-bench times. Every index must lie in range (the
 * elements of in for a gather, of out for a scatter): the loops test
 * nothing per element, since a test, even one always true, slows a random
 * gather larger than the cache. prism's rule for an index out of range
 * (nothing moves there) is checked by tests/test_gather_scatter.c.
 */
#ifndef PRISM_REFERENCE_GATHER_SCATTER_H
#define PRISM_REFERENCE_GATHER_SCATTER_H

#include "prism.h"

#include <stddef.h>

/** out[i] = in[indices[i]] for i < n. */
void ref_gather(size_t element_size, const void *in, prism_type index_type,
                const void *indices, void *out, size_t n);

/** out[indices[i]] = in[i] for i < n, in order: of repeated indices the
 * last one's element stays. */
void ref_scatter(size_t element_size, const void *in, prism_type index_type,
                 const void *indices, void *out, size_t n);

#endif /* PRISM_REFERENCE_GATHER_SCATTER_H */
