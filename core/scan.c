/* SPDX-License-Identifier: MIT */
/* Scan: validate, handle n = 0, route to the backend. */
#include "check.h"
#include "error.h"
#include "handles.h"

static prism_status scan(prism_context *ctx, prism_type type, prism_op op,
                         prism_scan_kind kind, const prism_buffer *in,
                         prism_buffer *out, size_t n) {
  static const char fn[] = "prism_scan";
  size_t bytes = 0;
  prism_status st = prism__check_type_op(ctx, type, op, fn);
  if (st == PRISM_OK && kind != PRISM_INCLUSIVE && kind != PRISM_EXCLUSIVE)
    st = prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                     "%s: kind %d is not a prism_scan_kind (inclusive, "
                     "exclusive)",
                     fn, (int)kind);
  if (st == PRISM_OK)
    st = prism__check_count(ctx, type, n, fn, &bytes);
  if (st == PRISM_OK)
    st = prism__check_view(ctx, in, prism_type_size(type), bytes, fn, "in");
  if (st == PRISM_OK)
    st = prism__check_view(ctx, out, prism_type_size(type), bytes, fn, "out");
  if (st == PRISM_OK)
    st = prism__check_in_place(ctx, fn, in, bytes, "in", out, bytes, "out");
  if (st != PRISM_OK || n == 0)
    return st;
  if (!ctx->backend->scan)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s "
                       "backend",
                       fn, ctx->backend->name);
  prism__scan_args args = {
      type, op, kind, prism__mem_of(in), prism__mem_of(out), n};
  return ctx->backend->scan(ctx, &args);
}

prism_status prism_scan(prism_context *ctx, prism_type type, prism_op op,
                        prism_scan_kind kind, const prism_buffer *in,
                        prism_buffer *out, size_t n) {
  PRISM__ENTER(ctx, "prism_scan");
  return prism__leave(ctx, scan(ctx, type, op, kind, in, out, n));
}
