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

/* Fill n elements of type with random values from seed: integers over their
 * whole range, floats uniform in [-1, 1). */
void host_fill_random(prism_type type, void *dst, size_t n, uint64_t seed);

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

#endif /* PRISM_BENCH_HOST_REF_H */
