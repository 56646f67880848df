/* SPDX-License-Identifier: MIT */
/* Gather and scatter: validate, handle n = 0, route to the backend. */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>

static prism_status check_gather_scatter(
    prism_context *ctx, size_t element_size, const prism_buffer *in,
    size_t in_count, prism_type index_type, const prism_buffer *indices,
    const prism_buffer *out, size_t out_count, size_t n, const char *fn) {
  prism_status st;
  if (element_size != 4 && element_size != 8)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: element_size is %zu; must be 4 or 8", fn,
                       element_size);
  if ((st = prism__check_int_type(ctx, index_type, fn, "index_type", 0)) !=
      PRISM_OK)
    return st;
  size_t index_bytes = 0;
  if ((st = prism__check_count(ctx, index_type, n, fn, &index_bytes)) !=
      PRISM_OK)
    return st;
  if (n > SIZE_MAX / element_size || in_count > SIZE_MAX / element_size ||
      out_count > SIZE_MAX / element_size)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: element counts overflow the address space", fn);
  if ((st = prism__check_view(ctx, in, element_size, in_count * element_size,
                              fn, "in")) != PRISM_OK ||
      (st = prism__check_view(ctx, indices, prism_type_size(index_type),
                              index_bytes, fn, "indices")) != PRISM_OK ||
      (st = prism__check_view(ctx, out, element_size, out_count * element_size,
                              fn, "out")) != PRISM_OK)
    return st;
  /* in and indices are only read, so they may be one buffer; out is
   * written while both are read elsewhere. */
  const size_t in_bytes = in_count * element_size;
  const size_t out_bytes = out_count * element_size;
  if ((st = prism__check_apart(ctx, fn, in, 0, in_bytes, "in", out, 0,
                               out_bytes, "out")) != PRISM_OK ||
      (st = prism__check_apart(ctx, fn, indices, 0, index_bytes, "indices", out,
                               0, out_bytes, "out")) != PRISM_OK)
    return st;
  return PRISM_OK;
}

static prism_status run_gather_scatter(prism_context *ctx,
                                       prism__gather_scatter_args *args,
                                       int checked, size_t *first_bad,
                                       const char *fn) {
  size_t bad = SIZE_MAX;
  if (first_bad)
    *first_bad = SIZE_MAX;
  if (args->n == 0)
    return PRISM_OK;
  if (!ctx->backend->gather_scatter)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  args->first_bad = checked ? &bad : NULL;
  prism_status st = ctx->backend->gather_scatter(ctx, args);
  if (st != PRISM_OK || !checked || bad == SIZE_MAX)
    return st;
  if (first_bad)
    *first_bad = bad;
  return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                     "%s: indices[%zu] is out of range [0, %zu)", fn, bad,
                     args->bound);
}

static prism_status gather(prism_context *ctx, size_t element_size,
                           const prism_buffer *in, size_t in_count,
                           prism_type index_type, const prism_buffer *indices,
                           prism_buffer *out, size_t n, int checked,
                           size_t *first_bad) {
  static const char fn[] = "prism_gather";
  prism_status st = check_gather_scatter(ctx, element_size, in, in_count,
                                         index_type, indices, out, n, n, fn);
  if (st != PRISM_OK)
    return st;
  prism__gather_scatter_args args = {0,
                                     element_size,
                                     index_type,
                                     prism__mem_of(in),
                                     prism__mem_of(indices),
                                     prism__mem_of(out),
                                     n,
                                     in_count,
                                     NULL};
  return run_gather_scatter(ctx, &args, checked, first_bad, fn);
}

static prism_status scatter(prism_context *ctx, size_t element_size,
                            const prism_buffer *in, prism_type index_type,
                            const prism_buffer *indices, prism_buffer *out,
                            size_t out_count, size_t n, int checked,
                            size_t *first_bad) {
  static const char fn[] = "prism_scatter";
  prism_status st = check_gather_scatter(ctx, element_size, in, n, index_type,
                                         indices, out, out_count, n, fn);
  if (st != PRISM_OK)
    return st;
  prism__gather_scatter_args args = {1,
                                     element_size,
                                     index_type,
                                     prism__mem_of(in),
                                     prism__mem_of(indices),
                                     prism__mem_of(out),
                                     n,
                                     out_count,
                                     NULL};
  return run_gather_scatter(ctx, &args, checked, first_bad, fn);
}

prism_status prism_gather(prism_context *ctx, size_t element_size,
                          const prism_buffer *in, size_t in_count,
                          prism_type index_type, const prism_buffer *indices,
                          prism_buffer *out, size_t n, int checked,
                          size_t *first_bad) {
  PRISM__ENTER(ctx, "prism_gather");
  return prism__leave(ctx, gather(ctx, element_size, in, in_count, index_type,
                                  indices, out, n, checked, first_bad));
}

prism_status prism_scatter(prism_context *ctx, size_t element_size,
                           const prism_buffer *in, prism_type index_type,
                           const prism_buffer *indices, prism_buffer *out,
                           size_t out_count, size_t n, int checked,
                           size_t *first_bad) {
  PRISM__ENTER(ctx, "prism_scatter");
  return prism__leave(ctx, scatter(ctx, element_size, in, index_type, indices,
                                   out, out_count, n, checked, first_bad));
}
