/* SPDX-License-Identifier: MIT */
/*
 * Reduce and scan: the serial reference, the serial C versions prism-bench
 * times, and the comparisons. Semantics are prism.h's: integer sums wrap
 * modulo 2^bits; min/max propagate NaN and order -0.0 below +0.0.
 *
 * - ref_reduce, ref_scan: the reference. Float sums run in a wider type
 *   (double for f32, long double for f64) and are rounded once, so the
 *   reference itself is accurate; everything else is exact.
 * - ref_serial_reduce, ref_serial_scan: what a C programmer would write,
 *   timed as prism-bench's "serial C" rows: one pass in the element type
 *   with C's own < and > (so float min/max follow neither of prism's NaN
 *   and signed-zero rules; the bench's data has neither). For integers
 *   they give the reference's results, which ref_reduce and ref_scan are
 *   built on.
 *
 * Floating-point sums are compared with a tolerance, since the backends
 * add in their own order. ref_compare takes |got - ref| <= (k - 1) * eps *
 * S, where ref is the sum of the same k terms in the wider type and S the
 * sum of their magnitudes. That is the classical worst-case bound of
 * recursive summation, and it holds for every order and tree shape of k
 * terms, so it can never fail a correct backend. It is loose for large k,
 * so the tests' vectors also hold float data whose sums are exact (small
 * integers, repeated values), which must match bit for bit.
 * ref_check_reduce and ref_check_scan, prism-bench's checks of random data,
 * take a fixed fraction of S instead (1e-3 for f32, 1e-9 for f64): tighter
 * on random data at the bench's sizes, a sanity check beside the tests.
 */
#ifndef PRISM_REFERENCE_SCAN_H
#define PRISM_REFERENCE_SCAN_H

#include "prism.h"

#include <stddef.h>

/** Reduce n elements of type at in into *out (one element). */
void ref_reduce(prism_type type, prism_op op, const void *in, size_t n,
                void *out);

/** Scan n elements. For float sums, also writes each element's tolerance
 * (see above) into tol (n doubles) when it is not NULL. */
void ref_scan(prism_type type, prism_op op, prism_scan_kind kind,
              const void *in, void *out, size_t n, double *tol);

/**
 * Compare n elements got with want. For float sums element i may differ
 * by tol[i]; everything else compares exactly (all NaNs equal each other,
 * zeros by sign). Returns the index of the first mismatch, or n when all
 * match; describes it in msg.
 */
size_t ref_compare(prism_type type, prism_op op, const void *got,
                   const void *want, const double *tol, size_t n, char *msg,
                   size_t msg_size);

/** The tolerance of a float sum of n elements (0 for integer types). */
double ref_sum_tolerance(prism_type type, const void *in, size_t n);

/** The serial C reduce of n elements into *out (one element). */
void ref_serial_reduce(prism_type type, prism_op op, const void *in, size_t n,
                       void *out);

/** The serial C scan of n elements; out may equal in. */
void ref_serial_scan(prism_type type, prism_op op, prism_scan_kind kind,
                     const void *in, void *out, size_t n);

/** prism-bench's check of a reduce result against its input: 1 when it
 * matches (exact for integers and min/max, within the bench's tolerance
 * for float sums), else 0 with a one-line explanation in msg. */
int ref_check_reduce(prism_type type, prism_op op, const void *in, size_t n,
                     const void *got, char *msg, size_t msg_size);

/** The same for a scan result, element by element. */
int ref_check_scan(prism_type type, prism_op op, prism_scan_kind kind,
                   const void *in, size_t n, const void *got, char *msg,
                   size_t msg_size);

#endif /* PRISM_REFERENCE_SCAN_H */
