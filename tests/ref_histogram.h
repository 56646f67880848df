/* SPDX-License-Identifier: MIT */
/*
 * Serial reference: histograms, computed straight from prism.h's
 * definitions, independent of how the backends map samples to bins.
 * Counts are 64-bit here; the suites compare them with either counter type.
 */
#ifndef PRISM_TESTS_REF_HISTOGRAM_H
#define PRISM_TESTS_REF_HISTOGRAM_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/** The bin of sample i of prism_histogram_even, or -1 when not counted.
 * The bounds must be ones the call accepts. Integers: floor((x - lower) *
 * bins / (upper - lower)) in exact 128-bit arithmetic. Floats: lower,
 * upper and scale = bins / (upper - lower) rounded to the sample type,
 * then (x - lower) * scale in the sample type, truncated and capped. */
int64_t ref_histogram_even_bin(prism_type type, const void *samples, size_t i,
                               size_t bins, double lower, double upper);

/** The bin of sample i among bins bins with edges (bins + 1 ascending
 * values of type), or -1: the b with edges[b] <= x < edges[b + 1]. */
int64_t ref_histogram_range_bin(prism_type type, const void *samples, size_t i,
                                size_t bins, const void *edges);

/** counts[0..bins) of prism_histogram_even over n samples. */
void ref_histogram_even(prism_type type, const void *samples, size_t n,
                        size_t bins, double lower, double upper,
                        uint64_t *counts);

/** counts[0..bins) of prism_histogram_range over n samples. */
void ref_histogram_range(prism_type type, const void *samples, size_t n,
                         size_t bins, const void *edges, uint64_t *counts);

#endif
