/* SPDX-License-Identifier: MIT */
/*
 * prism-bench's inputs: seeded data for every row, the same for prism,
 * serial C and CUB. What a row's result must be is the serial reference's
 * (reference/); here is only what goes in.
 */
#ifndef PRISM_BENCH_INPUT_H
#define PRISM_BENCH_INPUT_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/* ---- Any data ------------------------------------------------------------ */

/* The next number of the seeded generator (splitmix64) whose state is
 * *state. */
uint64_t input_random(uint64_t *state);

/* Fill n elements of type with random values from seed: integers over their
 * whole range, floats uniform in [-1, 1). */
void input_fill_random(prism_type type, void *dst, size_t n, uint64_t seed);

/* Fill n keys of type with random bits over the whole width (floats too:
 * every finite value, infinity and NaN can occur), except that -0.0 becomes
 * +0.0: CUB's radix sort ranks the two zeros as equal, prism in total order,
 * and the same data must give the same order to both. */
void input_fill_random_bits(prism_type type, void *dst, size_t n,
                            uint64_t seed);

/* Fill n values of value_size bytes (4 or 8) with 0, 1, ..., n - 1: each
 * key's input index, the values of the sorts' and merge's pairs. */
void input_fill_indices(void *dst, size_t n, size_t value_size);

/* A fingerprint of n elements of size bytes: n and up to 4096 of them,
 * spread over the array. For caches of what a check derives from its
 * input (a reference order), not for telling arrays apart in general. */
uint64_t input_fingerprint(const void *data, size_t n, size_t size);

/* ---- Histograms ---------------------------------------------------------- */

/* [lower, upper) of histogram_even over type: the sample values the
 * uniform data spread over (u8 [0, 256), i32 and u32 their whole range,
 * i64 [-2^40, 2^40), u64 [0, 2^41), floats [-1, 1)). The 64-bit ranges keep
 * (upper - lower) * bins within CUB's 64-bit bin arithmetic. */
void input_histogram_bounds(prism_type type, double *lower, double *upper);

/* The most bins histogram_range can have over type with edges of type
 * (integer edges are distinct values within the type). */
size_t input_histogram_range_max_bins(prism_type type);

/* bins + 1 edges of type, strictly ascending and spaced geometrically: each
 * bin is wider than the one before, the last about 256 times the first
 * (integers: at least 1 apart). Needs bins <= input_histogram_range_max_bins.
 */
void input_histogram_edges(prism_type type, size_t bins, void *edges);

/* n histogram samples of type. edges NULL: for histogram_even over
 * input_histogram_bounds, else for histogram_range over edges. uniform:
 * spread evenly (even: every bin equally likely; range: uniform over
 * [edges[0], edges[bins])); else all in the middle bin. Float samples of
 * the even histogram lie well inside their bin, away from its edges, so
 * that any correct rounding bins them the same way. */
void input_fill_histogram(prism_type type, size_t bins, int uniform,
                          const void *edges, void *dst, size_t n,
                          uint64_t seed);

/* ---- Compaction ---------------------------------------------------------- */

/* The threshold a such that x < a keeps about the fraction keep of
 * input_fill_random's data of type. */
prism_value input_select_threshold(prism_type type, double keep);

/* n one-byte flags, each 1 with probability keep. */
void input_fill_flags(uint8_t *flags, size_t n, double keep, uint64_t seed);

/* n elements in runs of equal values: each element after the first starts
 * a new run (a value unlike the one before) with probability head. Returns
 * the number of runs. */
size_t input_fill_runs(prism_type type, void *dst, size_t n, double head,
                       uint64_t seed);

/* ---- Segments ------------------------------------------------------------ */

/* The default mean segment length, and the one of the other segments of a
 * skewed layout. */
#define INPUT_SEGMENT_MEAN 1000

/* How segment lengths spread (the `skew` of bench_case and the functions
 * below). */
enum {
  INPUT_SEGMENTS_EVEN = 0,  /* at random from 1 to about twice the mean */
  INPUT_SEGMENTS_SKEW = 1,  /* one segment holds half the data */
  INPUT_SEGMENTS_PARETO = 2 /* a power law: Pareto, INPUT_PARETO_SHAPE */
};

/* The shape (tail index) of the Pareto lengths: above 1 the mean is
 * finite; below 2 the variance is not, so most segments are shorter than
 * the mean while the longest are tens to thousands of times it (the more
 * segments, the longer: about count^(1 / shape) times the shortest). */
#define INPUT_PARETO_SHAPE 1.2

/* How many segments input_segment_offsets lays n elements out in: n / mean
 * (at least 1), even or Pareto; skew: one segment of n / 2 elements, with
 * segments of INPUT_SEGMENT_MEAN on either side of it. */
size_t input_segment_count(size_t n, size_t mean, int skew);

/* The segments + 1 offsets (offset_size bytes each, 4 or 8) of that layout,
 * from 0 to n. Every segment is non-empty. Even: lengths vary at random
 * from 1 to about twice the mean; skew: the middle segment holds n / 2;
 * Pareto: lengths 1 + the rest of n in proportion to draws of a Pareto
 * distribution (minimum 1, INPUT_PARETO_SHAPE), in the order drawn. */
void input_segment_offsets(size_t n, size_t mean, int skew, uint64_t seed,
                           size_t offset_size, void *offsets);

/* n head flags of the same segments: 1 at each segment's first element. */
void input_head_flags(size_t offset_size, const void *offsets, size_t segments,
                      uint8_t *flags, size_t n);

#endif /* PRISM_BENCH_INPUT_H */
