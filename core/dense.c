/* SPDX-License-Identifier: MIT */
/*
 * Dense patterns: transpose, and stencils. A stencil is made once from its
 * grid and host weights (checked, copied to a buffer of the context, its
 * shape classified: star-shaped or a full box); an application then
 * checks its two grids and launches, ping-ponging through the context's
 * scratch pool when it iterates. The sum every backend computes is fixed
 * in core/backend.h (prism__stencil_args).
 */
#include "check.h"
#include "dense.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- transpose ----------------------------------------------------------- */

static prism_status transpose(prism_context *ctx, size_t element_size,
                              const prism_buffer *in, prism_buffer *out,
                              size_t rows, size_t cols, size_t batch) {
  static const char fn[] = "prism_transpose";
  if (element_size != 1 && element_size != 2 && element_size != 4 &&
      element_size != 8)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: element_size is %zu; must be 1, 2, 4 or 8", fn,
                       element_size);
  size_t bytes = element_size;
  const size_t factors[3] = {rows, cols, batch};
  for (int i = 0; i < 3; i++) {
    if (factors[i] != 0 && bytes > SIZE_MAX / factors[i])
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: rows * cols * batch * element_size (%zu * %zu "
                         "* %zu * %zu) overflows the address space",
                         fn, rows, cols, batch, element_size);
    bytes *= factors[i];
  }
  prism_status st;
  if ((st = prism__check_view(ctx, in, element_size, bytes, fn, "in")) !=
          PRISM_OK ||
      (st = prism__check_view(ctx, out, element_size, bytes, fn, "out")) !=
          PRISM_OK)
    return st;
  if (bytes > 0 && prism__mem_same(prism__mem_of(in), prism__mem_of(out)))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: in and out are the same memory; the transpose is "
                       "out of place (give out a buffer of its own)",
                       fn);
  if ((st = prism__check_apart(ctx, fn, in, 0, bytes, "in", out, 0, bytes,
                               "out")) != PRISM_OK)
    return st;
  if (bytes == 0)
    return PRISM_OK;
  /* One row or one column: the transpose is the same bytes. */
  if (rows == 1 || cols == 1) {
    const prism__mem src = prism__mem_of(in), dst = prism__mem_of(out);
    return ctx->backend->mem_copy(ctx, dst.native, dst.offset, src.native,
                                  src.offset, bytes);
  }
  if (!ctx->backend->transpose)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  const prism__transpose_args args = {.element_size = element_size,
                                      .rows = rows,
                                      .cols = cols,
                                      .batch = batch,
                                      .in = prism__mem_of(in),
                                      .out = prism__mem_of(out)};
  return ctx->backend->transpose(ctx, &args);
}

prism_status prism_transpose(prism_context *ctx, size_t element_size,
                             const prism_buffer *in, prism_buffer *out,
                             size_t rows, size_t cols, size_t batch) {
  PRISM__ENTER(ctx, "prism_transpose");
  return prism__leave(ctx,
                      transpose(ctx, element_size, in, out, rows, cols, batch));
}

/* ---- stencils ------------------------------------------------------------ */

static const char create_fn[] = "prism_stencil_create";

const char *prism_border_name(prism_border border) {
  switch (border) {
  case PRISM_BORDER_ZERO:
    return "zero";
  case PRISM_BORDER_CLAMP:
    return "clamp";
  case PRISM_BORDER_PERIODIC:
    return "periodic";
  }
  return "?";
}

void prism_stencil_desc_init(prism_stencil_desc *desc) {
  if (!desc)
    return;
  memset(desc, 0, sizeof *desc);
  desc->type = PRISM_F32;
  desc->dims = 2;
  desc->nx = desc->ny = desc->nz = 1;
  desc->radius = 1;
  desc->border = PRISM_BORDER_ZERO;
}

size_t prism__stencil_points(const prism_stencil_desc *d) {
  return d->nx * d->ny * d->nz;
}

size_t prism__stencil_weights(unsigned dims, unsigned radius) {
  size_t side = 2 * (size_t)radius + 1, n = 1;
  for (unsigned i = 0; i < dims; i++)
    n *= side;
  return n;
}

prism_status prism__stencil_desc_check(prism_context *ctx,
                                       const prism_stencil_desc *d,
                                       const char *fn) {
  if (!d)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: desc is NULL", fn);
  if (d->type != PRISM_F32 && d->type != PRISM_F64)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: desc->type is %s; must be f32 or f64", fn,
                       prism_type_name(d->type));
  if (d->dims < 1 || d->dims > 3)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: desc->dims is %u; must be 1, 2 or 3", fn, d->dims);
  const size_t ext[3] = {d->nx, d->ny, d->nz};
  static const char *const names[3] = {"nx", "ny", "nz"};
  size_t bytes = prism_type_size(d->type);
  for (unsigned i = 0; i < 3; i++) {
    if (ext[i] == 0)
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: desc->%s is 0; every extent must be at least 1",
                         fn, names[i]);
    if (i >= d->dims && ext[i] != 1)
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: desc->%s is %zu for a %u-D grid; an axis past "
                         "dims must be 1",
                         fn, names[i], ext[i], d->dims);
    if (bytes > SIZE_MAX / ext[i])
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: desc->nx * ny * nz * element size (%zu * %zu * "
                         "%zu * %zu) overflows the address space",
                         fn, d->nx, d->ny, d->nz, prism_type_size(d->type));
    bytes *= ext[i];
  }
  if (d->radius > PRISM_STENCIL_MAX_RADIUS)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: desc->radius is %u; the largest supported is %d",
                       fn, d->radius, PRISM_STENCIL_MAX_RADIUS);
  if (d->border != PRISM_BORDER_ZERO && d->border != PRISM_BORDER_CLAMP &&
      d->border != PRISM_BORDER_PERIODIC)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: desc->border is %d; must be PRISM_BORDER_ZERO, "
                       "_CLAMP or _PERIODIC",
                       fn, (int)d->border);
  return PRISM_OK;
}

/* Weight i of the box read as a double (a float widened exactly). */
static double weight_at(const void *w, prism_type type, size_t i) {
  if (type == PRISM_F64)
    return ((const double *)w)[i];
  return ((const float *)w)[i];
}

int prism__stencil_star(const prism_stencil_desc *d, const void *weights) {
  const size_t side = 2 * (size_t)d->radius + 1;
  const size_t n = prism__stencil_weights(d->dims, d->radius);
  for (size_t i = 0; i < n; i++) {
    const size_t dx = i % side, dy = i / side % side, dz = i / (side * side);
    const int off_axes = (dx != d->radius) + (d->dims >= 2 && dy != d->radius) +
                         (d->dims >= 3 && dz != d->radius);
    if (off_axes >= 2 && weight_at(weights, d->type, i) != 0.0)
      return 0;
  }
  return 1;
}

static void link_stencil(prism_context *ctx, prism_stencil *s) {
  s->next = ctx->stencils;
  if (ctx->stencils)
    ctx->stencils->prev = s;
  ctx->stencils = s;
}

static void unlink_stencil(prism_stencil *s) {
  if (s->prev)
    s->prev->next = s->next;
  else
    s->ctx->stencils = s->next;
  if (s->next)
    s->next->prev = s->prev;
}

static void release(prism_stencil *s) {
  prism_buffer_destroy(s->weights);
  free(s);
}

static prism_status create(prism_context *ctx, const prism_stencil_desc *desc,
                           const void *weights, prism_stencil **out) {
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", create_fn);
  *out = NULL;
  prism_status st = prism__stencil_desc_check(ctx, desc, create_fn);
  if (st != PRISM_OK)
    return st;
  if (!weights)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: weights is NULL",
                       create_fn);
  if ((st = prism__check_type(ctx, desc->type, create_fn)) != PRISM_OK)
    return st;
  if (!ctx->backend->stencil)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: stencils are not implemented by the %s backend",
                       create_fn, ctx->backend->name);
  prism_stencil *s = calloc(1, sizeof *s);
  if (!s)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "%s: out of host memory",
                       create_fn);
  s->ctx = ctx;
  s->desc = *desc;
  s->star = prism__stencil_star(desc, weights);
  const size_t bytes = prism__stencil_weights(desc->dims, desc->radius) *
                       prism_type_size(desc->type);
  if ((st = prism_buffer_create(ctx, bytes, &s->weights)) != PRISM_OK ||
      (st = prism_buffer_write(s->weights, 0, weights, bytes)) != PRISM_OK ||
      (st = prism__handle_add(ctx, s, PRISM__HANDLE_STENCIL, create_fn)) !=
          PRISM_OK) {
    release(s);
    return st;
  }
  link_stencil(ctx, s);
  *out = s;
  return PRISM_OK;
}

prism_status prism_stencil_create(prism_context *ctx,
                                  const prism_stencil_desc *desc,
                                  const void *weights, prism_stencil **out) {
  PRISM__ENTER(ctx, create_fn);
  return prism__leave(ctx, create(ctx, desc, weights, out));
}

void prism_stencil_destroy(prism_stencil *stencil) {
  prism_context *ctx = prism__enter_destroy(stencil, PRISM__HANDLE_STENCIL);
  if (!ctx)
    return;
  unlink_stencil(stencil);
  release(stencil);
  prism__leave(ctx, PRISM_OK);
}

void prism__stencils_release_all(prism_context *ctx) {
  while (ctx->stencils) {
    prism_stencil *s = ctx->stencils;
    ctx->stencils = s->next;
    prism__handle_remove(s);
    release(s);
  }
}

prism_stencil_desc prism_stencil_describe(const prism_stencil *stencil) {
  prism_stencil_desc d;
  memset(&d, 0, sizeof d);
  prism__handle_lock();
  if (prism__handle_live_locked(stencil, PRISM__HANDLE_STENCIL))
    d = stencil->desc;
  prism__handle_unlock();
  return d;
}

int prism_stencil_is_star(const prism_stencil *stencil) {
  prism__handle_lock();
  int star = prism__handle_live_locked(stencil, PRISM__HANDLE_STENCIL)
                 ? stencil->star
                 : 0;
  prism__handle_unlock();
  return star;
}

static prism_status apply(prism_context *ctx, const prism_stencil *s,
                          const prism_buffer *in, prism_buffer *out,
                          size_t iterations) {
  static const char fn[] = "prism_stencil_apply";
  if (!s)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: stencil is NULL", fn);
  prism_context *owner = prism__handle_context(s, PRISM__HANDLE_STENCIL);
  if (!owner)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: stencil is not a live prism stencil (destroyed, "
                       "or never created)",
                       fn);
  if (owner != ctx)
    return prism__fail(ctx, PRISM_CONTEXT_MISMATCH,
                       "%s: stencil belongs to another context", fn);
  const size_t size = prism_type_size(s->desc.type);
  const size_t bytes = prism__stencil_points(&s->desc) * size;
  prism_status st;
  if ((st = prism__check_view(ctx, in, size, bytes, fn, "in")) != PRISM_OK ||
      (st = prism__check_view(ctx, out, size, bytes, fn, "out")) != PRISM_OK)
    return st;
  if (prism__mem_same(prism__mem_of(in), prism__mem_of(out)))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: in and out are the same memory; a stencil is "
                       "applied out of place (give out a grid of its own)",
                       fn);
  if ((st = prism__check_apart(ctx, fn, in, 0, bytes, "in", out, 0, bytes,
                               "out")) != PRISM_OK)
    return st;
  const prism__mem src = prism__mem_of(in), dst = prism__mem_of(out);
  if (iterations == 0)
    return ctx->backend->mem_copy(ctx, dst.native, dst.offset, src.native,
                                  src.offset, bytes);
  prism__mem tmp = {NULL, 0};
  if (iterations > 1 &&
      (st = prism__scratch(ctx, bytes, &tmp.native)) != PRISM_OK)
    return st;
  prism__stencil_args args = {.type = s->desc.type,
                              .dims = s->desc.dims,
                              .nx = s->desc.nx,
                              .ny = s->desc.ny,
                              .nz = s->desc.nz,
                              .radius = s->desc.radius,
                              .border = s->desc.border,
                              .star = s->star,
                              .weights = prism__mem_of(s->weights)};
  /* The last application writes out; before it they alternate, so the
   * first writes out when iterations is odd and scratch when even. */
  prism__mem from = src;
  for (size_t i = 0; i < iterations; i++) {
    const int to_out = (iterations - 1 - i) % 2 == 0;
    args.in = from;
    args.out = to_out ? dst : tmp;
    if ((st = ctx->backend->stencil(ctx, &args)) != PRISM_OK)
      return st;
    from = args.out;
  }
  return PRISM_OK;
}

prism_status prism_stencil_apply(prism_context *ctx,
                                 const prism_stencil *stencil,
                                 const prism_buffer *in, prism_buffer *out,
                                 size_t iterations) {
  PRISM__ENTER(ctx, "prism_stencil_apply");
  return prism__leave(ctx, apply(ctx, stencil, in, out, iterations));
}
