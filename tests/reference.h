/* SPDX-License-Identifier: MIT */
/*
 * Serial C reference for every primitive, and the comparisons the suites
 * use. Semantics are prism.h's: integer sums wrap modulo 2^bits; min/max
 * propagate NaN and order -0.0 below +0.0.
 *
 * Floating-point sums are compared with a tolerance, since the backends add
 * in their own order: |got - ref| <= (k - 1) * eps * S, where ref is the sum
 * of the same k terms in higher precision (double for f32, long double for
 * f64) and S the sum of their magnitudes. That is the classical worst-case
 * bound of recursive summation, and it holds for every order and tree shape
 * of k terms, so it can never fail a correct backend. It is loose for large
 * k, so the vectors also hold float data whose sums are exact (small
 * integers, repeated values), which must match bit for bit.
 */
#ifndef PRISM_TESTS_REFERENCE_H
#define PRISM_TESTS_REFERENCE_H

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
 * zeros by sign). Returns the
 * index of the first mismatch, or n when all match; describes it in msg.
 */
size_t ref_compare(prism_type type, prism_op op, const void *got,
                   const void *want, const double *tol, size_t n, char *msg,
                   size_t msg_size);

/** The tolerance of a float sum of n elements (0 for integer types). */
double ref_sum_tolerance(prism_type type, const void *in, size_t n);

/**
 * The stable sorted order of n keys of key_type: perm[i] is the input index
 * of the i-th key, comparing bits [begin_bit, end_bit) of each key's
 * order-preserving image (core/key_order.h), reversed when descending, ties
 * in input order. Independent of radix sorting: a comparison sort.
 */
void ref_sort_order(prism_type key_type, const void *keys, size_t n,
                    int descending, unsigned begin_bit, unsigned end_bit,
                    size_t *perm);

/** Format one element for messages. */
void ref_format(prism_type type, const void *value, char *buf, size_t size);

#endif /* PRISM_TESTS_REFERENCE_H */
