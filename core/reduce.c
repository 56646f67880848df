/* SPDX-License-Identifier: MIT */
/* Reduce: validate, handle n = 0 (the identity), route to the backend;
 * the result to the host or to a device buffer. */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

void prism__identity(prism_type type, prism_op op, void *out) {
  prism_value v;
  memset(&v, 0, sizeof v);
  int lo = op == PRISM_MAX; /* MAX starts at the lowest value */
  if (op != PRISM_SUM) {
    switch (type) {
    case PRISM_I32:
      v.i32 = lo ? INT32_MIN : INT32_MAX;
      break;
    case PRISM_U32:
      v.u32 = lo ? 0 : UINT32_MAX;
      break;
    case PRISM_F32:
      v.f32 = lo ? -INFINITY : INFINITY;
      break;
    case PRISM_I64:
      v.i64 = lo ? INT64_MIN : INT64_MAX;
      break;
    case PRISM_U64:
      v.u64 = lo ? 0 : UINT64_MAX;
      break;
    case PRISM_F64:
      v.f64 = lo ? -(double)INFINITY : (double)INFINITY;
      break;
    case PRISM_U8: /* refused before any identity is needed */
      break;
    }
  }
  memcpy(out, &v, prism_type_size(type));
}

static prism_status reduce(prism_context *ctx, prism_type type, prism_op op,
                           const prism_buffer *in, size_t n, void *result) {
  static const char fn[] = "prism_reduce";
  size_t bytes = 0;
  prism_status st = prism__check_type_op(ctx, type, op, fn);
  if (st == PRISM_OK)
    st = prism__check_count(ctx, type, n, fn, &bytes);
  if (st == PRISM_OK)
    st = prism__check_view(ctx, in, prism_type_size(type), bytes, fn, "in");
  if (st != PRISM_OK)
    return st;
  if (!result)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: result is NULL", fn);
  if (n == 0) {
    prism__identity(type, op, result);
    return PRISM_OK;
  }
  if (!ctx->backend->reduce)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s "
                       "backend",
                       fn, ctx->backend->name);
  prism__reduce_args args = {type, op,     prism__mem_of(in),
                             n,    result, prism__mem_of(NULL)};
  return ctx->backend->reduce(ctx, &args);
}

static prism_status reduce_to_buffer(prism_context *ctx, prism_type type,
                                     prism_op op, const prism_buffer *in,
                                     size_t n, prism_buffer *out) {
  static const char fn[] = "prism_reduce_to_buffer";
  size_t bytes = 0;
  prism_status st = prism__check_type_op(ctx, type, op, fn);
  const size_t size = prism_type_size(type);
  if (st == PRISM_OK)
    st = prism__check_count(ctx, type, n, fn, &bytes);
  if (st == PRISM_OK)
    st = prism__check_view(ctx, in, size, bytes, fn, "in");
  if (st == PRISM_OK)
    st = prism__check_view(ctx, out, size, size, fn, "out");
  if (st == PRISM_OK)
    st = prism__check_apart(ctx, fn, in, 0, bytes, "in", out, 0, size, "out");
  if (st != PRISM_OK)
    return st;
  if (n == 0) {
    prism_value identity;
    prism__identity(type, op, &identity);
    const prism__mem m = prism__mem_of(out);
    return ctx->backend->mem_fill(ctx, m.native, m.offset, &identity, size,
                                  size);
  }
  if (!ctx->backend->reduce)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  prism__reduce_args args = {type, op,   prism__mem_of(in),
                             n,    NULL, prism__mem_of(out)};
  return ctx->backend->reduce(ctx, &args);
}

prism_status prism_reduce_to_buffer(prism_context *ctx, prism_type type,
                                    prism_op op, const prism_buffer *in,
                                    size_t n, prism_buffer *out) {
  PRISM__ENTER(ctx, "prism_reduce_to_buffer");
  return prism__leave(ctx, reduce_to_buffer(ctx, type, op, in, n, out));
}

prism_status prism_reduce(prism_context *ctx, prism_type type, prism_op op,
                          const prism_buffer *in, size_t n, void *result) {
  PRISM__ENTER(ctx, "prism_reduce");
  return prism__leave(ctx, reduce(ctx, type, op, in, n, result));
}
