/* SPDX-License-Identifier: MIT */
/*
 * The host side of the histogram, compaction and segmented rows: their
 * seeded input data, their serial C versions (timed as the reference on
 * CPU devices) and the checks that verify a device's result (and CUB's).
 *
 * Result layouts on the host, shared by prism, serial C and CUB:
 * - histograms: bins counters of counter_type (u32, or u64 when n exceeds
 *   UINT32_MAX);
 * - compaction: the number of elements kept as a uint64_t, then n elements
 *   (select and unique: the first `count` are meaningful; partition: all n);
 * - segmented reduce: one element per segment; segmented scan: n elements.
 */
#ifndef PRISM_BENCH_HOST_MORE_H
#define PRISM_BENCH_HOST_MORE_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/* ---- Histograms ---------------------------------------------------------- */

/* The counter type a histogram of n samples uses. */
prism_type host_counter_type(size_t n);

/* [lower, upper) of histogram_even over type: the sample values the
 * uniform data spread over (u8 [0, 256), i32 and u32 their whole range,
 * i64 [-2^40, 2^40), u64 [0, 2^41), floats [-1, 1)). The 64-bit ranges keep
 * (upper - lower) * bins within CUB's 64-bit bin arithmetic. */
void host_histogram_bounds(prism_type type, double *lower, double *upper);

/* The most bins histogram_range can have over type with edges of type
 * (integer edges are distinct values within the type). */
size_t host_histogram_range_max_bins(prism_type type);

/* bins + 1 edges of type, strictly ascending and spaced geometrically: each
 * bin is wider than the one before, the last about 256 times the first
 * (integers: at least 1 apart). Needs bins <= host_histogram_range_max_bins. */
void host_histogram_edges(prism_type type, size_t bins, void *edges);

/* n histogram samples of type. edges NULL: for histogram_even over
 * host_histogram_bounds, else for histogram_range over edges. uniform:
 * spread evenly (even: every bin equally likely; range: uniform over
 * [edges[0], edges[bins])); else all in the middle bin. Float samples of
 * the even histogram lie well inside their bin, away from its edges, so
 * that any correct rounding bins them the same way. */
void host_fill_histogram(prism_type type, size_t bins, int uniform,
                         const void *edges, void *dst, size_t n, uint64_t seed);

/* The serial versions: counts (bins counters of counter_type) of n samples,
 * by prism_histogram_even's rule (bounds as host_histogram_bounds gives
 * them) or by binary search over edges. */
void host_histogram_even(prism_type type, const void *samples, size_t n,
                         size_t bins, double lower, double upper,
                         prism_type counter_type, void *counts);
void host_histogram_range(prism_type type, const void *samples, size_t n,
                          size_t bins, const void *edges,
                          prism_type counter_type, void *counts);

/* Check counts against the serial result want: exact. */
int host_check_counts(prism_type counter_type, const void *want,
                      const void *got, size_t bins, char *msg, size_t msg_size);

/* ---- Compaction ---------------------------------------------------------- */

/* The threshold a such that x < a keeps about the fraction keep of
 * host_fill_random's data of type. */
prism_value host_select_threshold(prism_type type, double keep);

/* n one-byte flags, each 1 with probability keep. */
void host_fill_flags(uint8_t *flags, size_t n, double keep, uint64_t seed);

/* n elements in runs of equal values: each element after the first starts
 * a new run (a value unlike the one before) with probability head. Returns
 * the number of runs. */
size_t host_fill_runs(prism_type type, void *dst, size_t n, double head,
                      uint64_t seed);

/* The number of elements x < threshold. */
size_t host_count_below(prism_type type, prism_value threshold, const void *in,
                        size_t n);

/* The serial versions; result in the compaction layout (above). */
void host_select_if(prism_type type, prism_value threshold, const void *in,
                    size_t n, void *result);
void host_select_flagged(size_t element_size, const void *in,
                         const uint8_t *flags, size_t n, void *result);
void host_partition_if(prism_type type, prism_value threshold, const void *in,
                       size_t n, void *result);
void host_unique(prism_type type, const void *in, size_t n, void *result);

/* Check a compaction result against the serial one want: the same count,
 * and the same bytes in the first count elements (every element when
 * whole: partition). */
int host_check_compaction(size_t element_size, const void *want,
                          const void *got, size_t n, int whole, char *msg,
                          size_t msg_size);

/* ---- Segments ------------------------------------------------------------ */

/* The default mean segment length, and the one of the other segments of a
 * skewed layout. */
#define HOST_SEGMENT_MEAN 1000

/* How many segments host_segment_offsets lays n elements out in: n / mean
 * (at least 1); skew: one segment of n / 2 elements, with segments of
 * HOST_SEGMENT_MEAN on either side of it. */
size_t host_segment_count(size_t n, size_t mean, int skew);

/* The segments + 1 offsets (offset_size bytes each, 4 or 8) of that layout,
 * from 0 to n. Every segment is non-empty; lengths vary at random from 1 to
 * about twice the mean (the middle one of a skewed layout holds n / 2). */
void host_segment_offsets(size_t n, size_t mean, int skew, uint64_t seed,
                          size_t offset_size, void *offsets);

/* n head flags of the same segments: 1 at each segment's first element. */
void host_head_flags(size_t offset_size, const void *offsets, size_t segments,
                     uint8_t *flags, size_t n);

/* The serial versions: host_reduce over each segment, host_scan over each
 * run between head flags. */
void host_segmented_reduce(prism_type type, prism_op op, const void *in,
                           size_t offset_size, const void *offsets,
                           size_t segments, void *out);
void host_segmented_scan(prism_type type, prism_op op, prism_scan_kind kind,
                         const void *in, const uint8_t *flags, size_t n,
                         void *out);

/* Checks, segment by segment, with host_check_reduce and host_check_scan's
 * rules. */
int host_check_segmented_reduce(prism_type type, prism_op op, const void *in,
                                size_t offset_size, const void *offsets,
                                size_t segments, const void *got, char *msg,
                                size_t msg_size);
int host_check_segmented_scan(prism_type type, prism_op op,
                              prism_scan_kind kind, const void *in,
                              const uint8_t *flags, size_t n, const void *got,
                              char *msg, size_t msg_size);

#endif /* PRISM_BENCH_HOST_MORE_H */
