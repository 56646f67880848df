/* SPDX-License-Identifier: MIT */
/*
 * The stencil handle, private to core: its description, its weights in a
 * buffer of its context, and whether they are star-shaped (zero off the
 * axes), found at creation.
 */
#ifndef PRISM_CORE_DENSE_H
#define PRISM_CORE_DENSE_H

#include "context.h"

struct prism_stencil_s {
  prism_context *ctx;
  prism_stencil *prev, *next; /* the context's live stencils */
  prism_stencil_desc desc;
  int star;
  prism_buffer *weights; /* (2r + 1)^dims of desc.type */
};

/** desc is well formed (not its device support): fields named in the
 * refusal, as fn's. */
prism_status prism__stencil_desc_check(prism_context *ctx,
                                       const prism_stencil_desc *desc,
                                       const char *fn);

/** Points of the grid, and weights of the box of a radius in dims. */
size_t prism__stencil_points(const prism_stencil_desc *desc);
size_t prism__stencil_weights(unsigned dims, unsigned radius);

/** 1 when every weight off the axes is 0.0. */
int prism__stencil_star(const prism_stencil_desc *desc, const void *weights);

#endif /* PRISM_CORE_DENSE_H */
