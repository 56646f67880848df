/*
 * Serial C reference for every primitive, and the comparisons the suites
 * use. Semantics are prism.h's: integer sums wrap modulo 2^bits; min/max
 * propagate NaN and order -0.0 below +0.0.
 *
 * Floating-point sums are compared with a tolerance, since the backends add
 * in their own order: |got - ref| <= PRISM_TEST_SUM_ULPS * eps * S, where ref
 * is the sum computed in double (long double for f64) and S the sum of |x|
 * over the same elements. Backends add in blocked chains of at most about
 * log2(n) tree levels over serial runs; the bound is loose for well-behaved
 * data and exact data (small integers) are also tested bit for bit.
 */
#ifndef PRISM_TESTS_REFERENCE_H
#define PRISM_TESTS_REFERENCE_H

#include "prism.h"

#include <stddef.h>

#define PRISM_TEST_SUM_ULPS 64.0

/** Reduce n elements of type at in into *out (one element). */
void ref_reduce(prism_type type, prism_op op, const void *in, size_t n,
                void *out);

/** Scan n elements. For float sums, also writes the sum of |x| over each
 * prefix into abs_prefix (n doubles) when it is not NULL. */
void ref_scan(prism_type type, prism_op op, prism_scan_kind kind,
              const void *in, void *out, size_t n, double *abs_prefix);

/**
 * Compare n elements got with want. For float sums the tolerance uses
 * abs_scale[i] (the sum of |x| that element i accumulates); for everything
 * else the comparison is exact (all NaNs equal each other). Returns the
 * index of the first mismatch, or n when all match; describes it in msg.
 */
size_t ref_compare(prism_type type, prism_op op, const void *got,
                   const void *want, const double *abs_scale, size_t n,
                   char *msg, size_t msg_size);

/** Sum of |x| over n elements (0 for integer types). */
double ref_abs_sum(prism_type type, const void *in, size_t n);

/** Format one element for messages. */
void ref_format(prism_type type, const void *value, char *buf, size_t size);

#endif /* PRISM_TESTS_REFERENCE_H */
