/* SPDX-License-Identifier: MIT */
/*
 * Top-k: the reference prism_topk is checked against, and prism-bench's
 * "serial C" row. Keys compare by their order-preserving image
 * (core/key_order.h), complemented for descending order; equal keys go
 * to the lowest column. The chosen columns are the first k of the row
 * after a stable sort in order, so the keys and values of a result
 * follow from them: keys_out[r][i] = keys[r][cols_out[r][i]].
 */
#ifndef PRISM_REFERENCE_TOPK_H
#define PRISM_REFERENCE_TOPK_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/* For each row of keys (rows x cols keys of key_type, row-major), the
 * columns of the first k keys after a stable sort in order (descending
 * nonzero: largest first; keys compared by the order-preserving image of
 * core/key_order.h, floats in IEEE total order), in rank order, into
 * cols_out (rows x k uint64_t). A partial sort (a bounded heap of k per
 * row, O(cols log k)), so it also serves as the bench's serial C
 * reference. Returns 0, or -1 when out of memory. */
int ref_topk(prism_type key_type, const void *keys, size_t rows, size_t cols,
             size_t k, int descending, uint64_t *cols_out);

#endif /* PRISM_REFERENCE_TOPK_H */
