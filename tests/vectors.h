/* SPDX-License-Identifier: MIT */
/*
 * Host-side test vectors shared by every backend: seeded generators and the
 * sizes every primitive is run at (edges of every block and tile size either
 * backend uses, powers of two and their neighbours, odd large sizes).
 */
#ifndef PRISM_TESTS_VECTORS_H
#define PRISM_TESTS_VECTORS_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

typedef enum vec_pattern {
  VEC_RANDOM,       /* full range integers; floats uniform in [-1, 1) */
  VEC_SMALL,        /* integers in [-100, 100]; floats integral (exact sums) */
  VEC_EXTREME,      /* type min/max and neighbours: sums wrap around */
  VEC_EQUAL,        /* one value repeated */
  VEC_ASCENDING,    /* sorted */
  VEC_DESCENDING,   /* reverse sorted */
  VEC_SPECIAL,      /* floats: NaN, +-inf, +-0.0, denormals among values */
  VEC_SIGNED_ZEROS, /* floats: only +0.0 and -0.0 */
  VEC_PATTERN_COUNT
} vec_pattern;

const char *vec_pattern_name(vec_pattern pattern);

/** Whether the pattern means anything for the type (float-only patterns). */
int vec_pattern_applies(vec_pattern pattern, prism_type type);

/** Fill n elements of type with the pattern, from seed. */
void vec_fill(prism_type type, vec_pattern pattern, uint64_t seed, void *out,
              size_t n);

/** The sizes every suite runs at, ascending, up to and including 10^6 + 3. */
extern const size_t vec_sizes[];
extern const size_t vec_sizes_count;

/** Larger sizes run on fewer combinations (2^24 + 1 and such). */
extern const size_t vec_large_sizes[];
extern const size_t vec_large_sizes_count;

/** splitmix64: a small, good, seedable generator. */
uint64_t vec_next(uint64_t *state);

#endif /* PRISM_TESTS_VECTORS_H */
