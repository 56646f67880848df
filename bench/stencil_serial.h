/* SPDX-License-Identifier: MIT */
/*
 * The serial C stencil of the stencil and conv2d rows, and their checks.
 * A plan holds the stencil's nonzero weights and their offsets in the
 * order prism_stencil_create documents (dz, then dy, then dx, each from -r
 * to r); a point is acc = fma(w, in(p + d), acc) over them from +0.0, in()
 * outside the grid as the border says (0.0 for the zero border). So the
 * serial result has prism's bits, and a check of prism (or of a reference
 * that sums the same way) compares bits.
 */
#ifndef PRISM_BENCH_STENCIL_SERIAL_H
#define PRISM_BENCH_STENCIL_SERIAL_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

/* The most weights a box has: (2 PRISM_STENCIL_MAX_RADIUS + 1)^3. */
#define STENCIL_MAX_BOX                                                        \
  ((2 * PRISM_STENCIL_MAX_RADIUS + 1) * (2 * PRISM_STENCIL_MAX_RADIUS + 1) *   \
   (2 * PRISM_STENCIL_MAX_RADIUS + 1))

typedef struct stencil_plan {
  prism_stencil_desc desc;
  size_t taps; /* the nonzero weights */
  int dx[STENCIL_MAX_BOX], dy[STENCIL_MAX_BOX], dz[STENCIL_MAX_BOX];
  ptrdiff_t offset[STENCIL_MAX_BOX]; /* dx + nx (dy + ny dz) */
  float w32[STENCIL_MAX_BOX];        /* the weights, of desc.type */
  double w64[STENCIL_MAX_BOX];
} stencil_plan;

/* The plan of desc (checked by the caller) and its dense box of weights
 * (of desc->type, dx fastest). */
void stencil_plan_make(stencil_plan *p, const prism_stencil_desc *desc,
                       const void *weights);

/* The grid's points. */
size_t stencil_points(const stencil_plan *p);

/* One application: out = S(in), the whole grid, a loop over the points
 * with the taps' offsets where all of them are inside the grid and the
 * border's rule where not. */
void stencil_serial(const stencil_plan *p, const void *in, void *out);

/* Whether result has the bits of S(in), else 0 with the first point that
 * does not in msg. serial (S(in), or NULL) is compared whole; without it,
 * each point is computed: every point while points x taps is at most
 * STENCIL_CHECK_ALL_WORK, else the points within radius + 1 of a face
 * and STENCIL_CHECK_SAMPLE others drawn from seed. */
#define STENCIL_CHECK_ALL_WORK ((size_t)1 << 27)
#define STENCIL_CHECK_SAMPLE ((size_t)1 << 18)
int stencil_check_bits(const stencil_plan *p, const void *in,
                       const void *result, const void *serial, uint64_t seed,
                       char *msg, size_t msg_size);

/* Whether result is S(in) within slack (taps + 2) eps sum |w in(p + d)|
 * at the same points (for a reference that sums in another order, as
 * cuDNN's FFT and Winograd algorithms do), else 0 with the first point
 * that is not in msg. */
int stencil_check_close(const stencil_plan *p, const void *in,
                        const void *result, double slack, uint64_t seed,
                        char *msg, size_t msg_size);

#endif /* PRISM_BENCH_STENCIL_SERIAL_H */
