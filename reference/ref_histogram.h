/* SPDX-License-Identifier: MIT */
/*
 * Histograms: the serial reference, computed straight from prism.h's
 * definitions, independent of how the backends map samples to bins; it is
 * also the serial C version prism-bench times. Integer bins are exact
 * (estimated in double, then corrected with exact products: no division
 * per sample); float bins follow prism.h's rounding rule, each step in the
 * sample type.
 */
#ifndef PRISM_REFERENCE_HISTOGRAM_H
#define PRISM_REFERENCE_HISTOGRAM_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/** The bin of sample i of prism_histogram_even, or -1 when not counted.
 * The bounds must be ones the call accepts. Integers: floor((x - lower) *
 * bins / (upper - lower)), exactly. Floats: lower, upper and scale = bins /
 * (upper - lower) rounded to the sample type, then (x - lower) * scale in
 * the sample type, truncated and capped. */
int64_t ref_histogram_even_bin(prism_type type, const void *samples, size_t i,
                               size_t bins, double lower, double upper);

/** The bin of sample i among bins bins with edges (bins + 1 ascending
 * values of type), or -1: the b with edges[b] <= x < edges[b + 1]. */
int64_t ref_histogram_range_bin(prism_type type, const void *samples, size_t i,
                                size_t bins, const void *edges);

/** counts[0..bins) of prism_histogram_even over n samples, in counters of
 * counter_type (PRISM_U32 or PRISM_U64), as the call writes them. */
void ref_histogram_even_counters(prism_type type, const void *samples, size_t n,
                                 size_t bins, double lower, double upper,
                                 prism_type counter_type, void *counts);

/** counts[0..bins) of prism_histogram_range over n samples, likewise. */
void ref_histogram_range_counters(prism_type type, const void *samples,
                                  size_t n, size_t bins, const void *edges,
                                  prism_type counter_type, void *counts);

/** ref_histogram_even_counters with 64-bit counts. */
void ref_histogram_even(prism_type type, const void *samples, size_t n,
                        size_t bins, double lower, double upper,
                        uint64_t *counts);

/** ref_histogram_range_counters with 64-bit counts. */
void ref_histogram_range(prism_type type, const void *samples, size_t n,
                         size_t bins, const void *edges, uint64_t *counts);

#endif /* PRISM_REFERENCE_HISTOGRAM_H */
