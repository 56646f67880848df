/* SPDX-License-Identifier: MIT */
/*
 * Sort: the reference order, the serial C sort prism-bench times, and its
 * check. Keys sort by their order-preserving image (core/key_order.h, the
 * definition the library's kernels use) restricted to bits [begin_bit,
 * end_bit), complemented for descending order, ties in input order: the
 * order prism_sort_keys and prism_sort_pairs promise, and within each
 * segment the order prism_segmented_sort_keys and _pairs promise.
 */
#ifndef PRISM_REFERENCE_SORT_H
#define PRISM_REFERENCE_SORT_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/**
 * The stable sorted order of n keys of key_type: perm[i] is the input index
 * of the i-th key. A stable LSD radix sort of the images' fields, 8 bits a
 * pass, on the host. Aborts when the host is out of memory.
 */
void ref_sort_order(prism_type key_type, const void *keys, size_t n,
                    int descending, unsigned begin_bit, unsigned end_bit,
                    size_t *perm);

/** The same order in a new malloc'd array (free it), or NULL when the host
 * is out of memory. */
size_t *ref_sort_order_new(prism_type key_type, const void *keys, size_t n,
                           int descending, unsigned begin_bit,
                           unsigned end_bit);

/**
 * The stable order of a segmented sort: perm[i] is the input index of the
 * key that lands at i; segments [offsets[s], offsets[s+1]) each sorted as
 * ref_sort_order sorts, positions outside every segment map to themselves.
 * offsets: num_segments + 1 host values, non-decreasing, <= n. New malloc'd
 * array (free it), or NULL when the host is out of memory.
 */
size_t *ref_segmented_sort_order_new(prism_type key_type, const void *keys,
                                     size_t n, const uint64_t *offsets,
                                     size_t num_segments, int descending,
                                     unsigned begin_bit, unsigned end_bit);

/*
 * The serial C sort: qsort by key image, what a C programmer would write,
 * timed as prism-bench's "serial C" row. qsort is not stable, so when equal
 * images can hold different keys (pairs, or bits narrower than the key) it
 * sorts (key, index) records and breaks ties by index; a pair's value
 * (value_size 4 or 8 bytes, 0 for keys only) is its key's input index. It
 * works in place on scratch of ref_serial_sort_bytes: ref_serial_sort_load
 * fills scratch from the input before each call (not timed),
 * ref_serial_sort sorts it (timed), ref_serial_sort_store writes the
 * result: the n keys, then for pairs the n values.
 */
size_t ref_serial_sort_bytes(prism_type type, size_t value_size,
                             unsigned begin_bit, unsigned end_bit, size_t n);
void ref_serial_sort_load(prism_type type, size_t value_size,
                          unsigned begin_bit, unsigned end_bit, const void *in,
                          size_t n, void *scratch);
void ref_serial_sort(prism_type type, prism_order order, size_t value_size,
                     unsigned begin_bit, unsigned end_bit, void *scratch,
                     size_t n);
/* The serial C segmented sort prism-bench times: ref_serial_sort on each
 * segment of the scratch that ref_serial_sort_load filled (and
 * ref_serial_sort_store reads back). */
void ref_serial_segmented_sort(prism_type type, prism_order order,
                               size_t value_size, unsigned begin_bit,
                               unsigned end_bit, void *scratch, size_t n,
                               const uint64_t *offsets, size_t num_segments);
void ref_serial_sort_store(prism_type type, size_t value_size,
                           unsigned begin_bit, unsigned end_bit,
                           const void *scratch, size_t n, void *result);

/**
 * prism-bench's check of a sort result (the n keys, then for pairs the n
 * values of value_size bytes, each its key's input index) against order,
 * the reference order of in (ref_sort_order): every key, and every value,
 * must match. 1 when they do, else 0 with the first difference in msg.
 */
int ref_check_sort(prism_type type, size_t value_size, const void *in, size_t n,
                   const size_t *order, const void *got, char *msg,
                   size_t msg_size);

#endif /* PRISM_REFERENCE_SORT_H */
