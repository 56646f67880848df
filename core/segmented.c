/* SPDX-License-Identifier: MIT */
/* Segmented scan and reduce: validate, handle the no-op cases, route to the
 * backend, report the first bad segment of a checked call. */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>

static prism_status check_kind(prism_context *ctx, prism_scan_kind kind,
                               const char *fn) {
  if (kind != PRISM_INCLUSIVE && kind != PRISM_EXCLUSIVE)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: kind %d is not a prism_scan_kind (inclusive, "
                       "exclusive)",
                       fn, (int)kind);
  return PRISM_OK;
}

/* The bytes check_offsets has found offsets to hold. */
static size_t offsets_bytes(prism_type offset_type, size_t num_segments) {
  return (num_segments + 1) * prism_type_size(offset_type);
}

static prism_status no_backend(prism_context *ctx, const char *fn) {
  return prism__fail(ctx, PRISM_UNSUPPORTED,
                     "%s: not implemented by the %s backend", fn,
                     ctx->backend->name);
}

/* Runs args on the backend; a checked call reports its first bad
 * segment. */
static prism_status run_segmented(prism_context *ctx,
                                  prism__segmented_args *args, int checked,
                                  size_t *first_bad, const char *fn) {
  size_t bad = SIZE_MAX;
  args->first_bad = checked ? &bad : NULL;
  prism_status st = ctx->backend->segmented(ctx, args);
  if (st != PRISM_OK || !checked || bad == SIZE_MAX)
    return st;
  if (first_bad)
    *first_bad = bad;
  return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                     "%s: segment %zu is bad: offsets[%zu] and offsets[%zu] "
                     "must satisfy 0 <= offsets[%zu] <= offsets[%zu] <= n = "
                     "%zu",
                     fn, bad, bad, bad + 1, bad, bad + 1, args->n);
}

static prism_status scan_flags(prism_context *ctx, prism_type type, prism_op op,
                               prism_scan_kind kind, const prism_buffer *in,
                               prism_type flag_type, const prism_buffer *flags,
                               prism_buffer *out, size_t n) {
  static const char fn[] = "prism_segmented_scan_flags";
  size_t bytes = 0, flag_bytes = 0;
  prism_status st;
  if ((st = prism__check_type_op(ctx, type, op, fn)) != PRISM_OK ||
      (st = check_kind(ctx, kind, fn)) != PRISM_OK ||
      (st = prism__check_int_type(ctx, flag_type, fn, "flag_type", 1)) !=
          PRISM_OK ||
      (st = prism__check_count(ctx, type, n, fn, &bytes)) != PRISM_OK ||
      (st = prism__check_count(ctx, flag_type, n, fn, &flag_bytes)) !=
          PRISM_OK ||
      (st = prism__check_view(ctx, in, prism_type_size(type), bytes, fn,
                              "in")) != PRISM_OK ||
      (st = prism__check_view(ctx, flags, prism_type_size(flag_type),
                              flag_bytes, fn, "flags")) != PRISM_OK ||
      (st = prism__check_view(ctx, out, prism_type_size(type), bytes, fn,
                              "out")) != PRISM_OK ||
      (st = prism__check_in_place(ctx, fn, in, bytes, "in", out, bytes,
                                  "out")) != PRISM_OK ||
      (st = prism__check_apart(ctx, fn, flags, 0, flag_bytes, "flags", out, 0,
                               bytes, "out")) != PRISM_OK)
    return st;
  if (n == 0)
    return PRISM_OK;
  if (!ctx->backend->segmented)
    return no_backend(ctx, fn);
  prism__segmented_args args = {.type = type,
                                .op = op,
                                .kind = kind,
                                .in = prism__mem_of(in),
                                .out = prism__mem_of(out),
                                .n = n,
                                .flag_type = flag_type,
                                .flags = prism__mem_of(flags)};
  return ctx->backend->segmented(ctx, &args);
}

static prism_status
scan_offsets(prism_context *ctx, prism_type type, prism_op op,
             prism_scan_kind kind, const prism_buffer *in, prism_buffer *out,
             size_t n, prism_type offset_type, const prism_buffer *offsets,
             size_t num_segments, int checked, size_t *first_bad) {
  static const char fn[] = "prism_segmented_scan_offsets";
  size_t bytes = 0;
  if (first_bad)
    *first_bad = SIZE_MAX;
  prism_status st;
  if ((st = prism__check_type_op(ctx, type, op, fn)) != PRISM_OK ||
      (st = check_kind(ctx, kind, fn)) != PRISM_OK ||
      (st = prism__check_count(ctx, type, n, fn, &bytes)) != PRISM_OK ||
      (st = prism__check_view(ctx, in, prism_type_size(type), bytes, fn,
                              "in")) != PRISM_OK ||
      (st = prism__check_view(ctx, out, prism_type_size(type), bytes, fn,
                              "out")) != PRISM_OK ||
      (st = prism__check_in_place(ctx, fn, in, bytes, "in", out, bytes,
                                  "out")) != PRISM_OK ||
      (st = prism__check_offsets(ctx, offset_type, offsets, num_segments,
                                 fn)) != PRISM_OK ||
      (st = prism__check_apart(ctx, fn, offsets, 0,
                               offsets_bytes(offset_type, num_segments),
                               "offsets", out, 0, bytes, "out")) != PRISM_OK)
    return st;
  if (n == 0 || num_segments == 0)
    return PRISM_OK;
  if (!ctx->backend->segmented)
    return no_backend(ctx, fn);
  prism__segmented_args args = {.type = type,
                                .op = op,
                                .kind = kind,
                                .in = prism__mem_of(in),
                                .out = prism__mem_of(out),
                                .n = n,
                                .offset_type = offset_type,
                                .offsets = prism__mem_of(offsets),
                                .num_segments = num_segments};
  return run_segmented(ctx, &args, checked, first_bad, fn);
}

static prism_status reduce(prism_context *ctx, prism_type type, prism_op op,
                           const prism_buffer *in, size_t n,
                           prism_type offset_type, const prism_buffer *offsets,
                           size_t num_segments, prism_buffer *out, int checked,
                           size_t *first_bad) {
  static const char fn[] = "prism_segmented_reduce";
  size_t bytes = 0, out_bytes = 0;
  if (first_bad)
    *first_bad = SIZE_MAX;
  prism_status st;
  if ((st = prism__check_type_op(ctx, type, op, fn)) != PRISM_OK ||
      (st = prism__check_count(ctx, type, n, fn, &bytes)) != PRISM_OK ||
      (st = prism__check_view(ctx, in, prism_type_size(type), bytes, fn,
                              "in")) != PRISM_OK ||
      (st = prism__check_offsets(ctx, offset_type, offsets, num_segments,
                                 fn)) != PRISM_OK ||
      (st = prism__check_count(ctx, type, num_segments, fn, &out_bytes)) !=
          PRISM_OK ||
      (st = prism__check_view(ctx, out, prism_type_size(type), out_bytes, fn,
                              "out")) != PRISM_OK ||
      (st = prism__check_apart(ctx, fn, in, 0, bytes, "in", out, 0, out_bytes,
                               "out")) != PRISM_OK ||
      (st = prism__check_apart(
           ctx, fn, offsets, 0, offsets_bytes(offset_type, num_segments),
           "offsets", out, 0, out_bytes, "out")) != PRISM_OK)
    return st;
  if (num_segments == 0)
    return PRISM_OK;
  if (!ctx->backend->segmented)
    return no_backend(ctx, fn);
  prism__segmented_args args = {.reduce = 1,
                                .type = type,
                                .op = op,
                                .in = prism__mem_of(in),
                                .out = prism__mem_of(out),
                                .n = n,
                                .offset_type = offset_type,
                                .offsets = prism__mem_of(offsets),
                                .num_segments = num_segments};
  return run_segmented(ctx, &args, checked, first_bad, fn);
}

prism_status prism_segmented_scan_flags(prism_context *ctx, prism_type type,
                                        prism_op op, prism_scan_kind kind,
                                        const prism_buffer *in,
                                        prism_type flag_type,
                                        const prism_buffer *flags,
                                        prism_buffer *out, size_t n) {
  PRISM__ENTER(ctx, "prism_segmented_scan_flags");
  return prism__leave(
      ctx, scan_flags(ctx, type, op, kind, in, flag_type, flags, out, n));
}

prism_status prism_segmented_scan_offsets(
    prism_context *ctx, prism_type type, prism_op op, prism_scan_kind kind,
    const prism_buffer *in, prism_buffer *out, size_t n, prism_type offset_type,
    const prism_buffer *offsets, size_t num_segments, int checked,
    size_t *first_bad) {
  PRISM__ENTER(ctx, "prism_segmented_scan_offsets");
  return prism__leave(ctx,
                      scan_offsets(ctx, type, op, kind, in, out, n, offset_type,
                                   offsets, num_segments, checked, first_bad));
}

prism_status prism_segmented_reduce(prism_context *ctx, prism_type type,
                                    prism_op op, const prism_buffer *in,
                                    size_t n, prism_type offset_type,
                                    const prism_buffer *offsets,
                                    size_t num_segments, prism_buffer *out,
                                    int checked, size_t *first_bad) {
  PRISM__ENTER(ctx, "prism_segmented_reduce");
  return prism__leave(ctx, reduce(ctx, type, op, in, n, offset_type, offsets,
                                  num_segments, out, checked, first_bad));
}
