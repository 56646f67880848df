/* SPDX-License-Identifier: MIT */
/*
 * The host side of prism-bench: seeded input data, the serial C version of
 * each primitive (timed as the reference on CPU devices), and the checks that
 * verify a device's result.
 *
 * The serial versions are what a C programmer would write: one pass in the
 * element type, integers wrapping like prism's. The checks are separate and
 * careful instead: floats are accumulated in a wider type and compared with
 * a tolerance relative to the sum of magnitudes, because prism adds in a
 * different order (bench verification is a sanity check; the exact edge
 * cases live in the tests).
 */
#ifndef PRISM_BENCH_HOST_REF_H
#define PRISM_BENCH_HOST_REF_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/* The next number of the seeded generator (splitmix64) whose state is
 * *state. */
uint64_t host_random(uint64_t *state);

/* Fill n elements of type with random values from seed: integers over their
 * whole range, floats uniform in [-1, 1). */
void host_fill_random(prism_type type, void *dst, size_t n, uint64_t seed);

/* Fill n keys of type with random bits over the whole width (floats too:
 * every finite value, infinity and NaN can occur), except that -0.0 becomes
 * +0.0: CUB's radix sort ranks the two zeros as equal, prism in total order,
 * and the same data must give the same order to both. */
void host_fill_random_bits(prism_type type, void *dst, size_t n, uint64_t seed);

/* Serial reduce of n elements into *result (one element of type). */
void host_reduce(prism_type type, prism_op op, const void *in, size_t n,
                 void *result);

/* Serial scan of n elements; out may equal in. */
void host_scan(prism_type type, prism_op op, prism_scan_kind kind,
               const void *in, void *out, size_t n);

/* Check a reduce result against the input. Returns 1 when it matches (exact
 * for integers and min/max, within tolerance for float sums), else 0 with a
 * one-line explanation in msg. */
int host_check_reduce(prism_type type, prism_op op, const void *in, size_t n,
                      const void *got, char *msg, size_t msg_size);

/* Check a scan result, element by element, like host_check_reduce. */
int host_check_scan(prism_type type, prism_op op, prism_scan_kind kind,
                    const void *in, size_t n, const void *got, char *msg,
                    size_t msg_size);

/* ---- Sort (host_sort.c) ------------------------------------------------
 *
 * Keys sort by their order-preserving image (core/key_order.h) restricted
 * to bits [begin_bit, end_bit), complemented for descending order: the
 * order prism_sort_keys promises. Pairs carry value_size bytes (4 or 8)
 * whose value is the key's index in the input, so that checking the values
 * checks stability. A sort result on the host is the n keys followed, for
 * pairs, by the n values. */

/* The serial version: qsort by key image, what a C programmer would write.
 * qsort is not stable, so when equal images can hold different keys (pairs,
 * or bits narrower than the key) it sorts (key, index) records and breaks
 * ties by index. It works in place on scratch: host_sort_serial_load
 * fills scratch from the input before each call (not timed),
 * host_sort_serial sorts it (timed), host_sort_serial_store writes the
 * result. */
size_t host_sort_serial_bytes(prism_type type, size_t value_size,
                              unsigned begin_bit, unsigned end_bit, size_t n);
void host_sort_serial_load(prism_type type, size_t value_size,
                           unsigned begin_bit, unsigned end_bit, const void *in,
                           size_t n, void *scratch);
void host_sort_serial(prism_type type, prism_order order, size_t value_size,
                      unsigned begin_bit, unsigned end_bit, void *scratch,
                      size_t n);
void host_sort_serial_store(prism_type type, size_t value_size,
                            unsigned begin_bit, unsigned end_bit,
                            const void *scratch, size_t n, void *result);

/* Check a sort result (keys, then values for pairs) against a stable LSD
 * radix sort of the input on the host: every key, and every value, must
 * match. 1 when it does, else 0 with the first difference in msg. */
int host_check_sort(prism_type type, prism_order order, size_t value_size,
                    unsigned begin_bit, unsigned end_bit, const void *in,
                    size_t n, const void *got, char *msg, size_t msg_size);

#endif /* PRISM_BENCH_HOST_REF_H */
