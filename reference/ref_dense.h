/* SPDX-License-Identifier: MIT */
/*
 * Dense patterns: the batched transpose (elements moved bit for bit) and
 * stencils, summed exactly as prism.h defines them (terms in the order dz,
 * dy, dx, each from -r to r, zero weights skipped, fused multiply-adds
 * from +0.0), so that every backend's result must equal these bit for
 * bit. Both are also the serial C versions prism-bench times.
 */
#ifndef PRISM_REFERENCE_DENSE_H
#define PRISM_REFERENCE_DENSE_H

#include "prism.h"

#include <stddef.h>

/** For each b < batch, out[b][c][r] = in[b][r][c] (r < rows, c < cols),
 * elements of element_size bytes (1, 2, 4 or 8; any other moves bytes one
 * element at a time the same way). */
void ref_transpose(size_t element_size, const void *in, void *out, size_t rows,
                   size_t cols, size_t batch);

/**
 * One application of the stencil d describes (d->type F32 or F64, a well
 * formed description: prism_stencil_create's checks): out gets
 * nx * ny * nz points, each the sum over the box of d->radius of
 * weights[(dx + r) + (2r + 1) ((dy + r') + (2r + 1) (dz + r''))] *
 * in(p + d), r' and r'' being r on the axes within dims and 0 past them,
 * and in(...) outside the grid by d->border per axis: 0.0 (zero), the
 * nearest index (clamp), or the index modulo the extent (periodic, any
 * radius against any extent). The sum: acc = +0.0, then over dz, dy, dx
 * from -r to r in that order, skipping weights equal to 0.0 of either
 * sign, acc = fma(w, in(p + d), acc) (fmaf for f32). in and out must not
 * overlap.
 */
void ref_stencil(const prism_stencil_desc *d, const void *weights,
                 const void *in, void *out);

/** out = S(S(...S(in))) with S applied iterations times (0: a copy of
 * in). in is not written; the intermediate grids are the function's own.
 * in and out must not overlap. */
void ref_stencil_iterate(const prism_stencil_desc *d, const void *weights,
                         const void *in, void *out, size_t iterations);

#endif /* PRISM_REFERENCE_DENSE_H */
