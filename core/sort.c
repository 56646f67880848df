/* SPDX-License-Identifier: MIT */
/* Radix sort and segmented sort: validate, handle the no-op cases, route to
 * the backend (and report a segmented sort's first bad segment). */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>
#include <string.h>

void prism_sort_options_init(prism_sort_options *options, prism_type key_type) {
  if (!options)
    return;
  memset(options, 0, sizeof *options);
  options->order = PRISM_ASCENDING;
  options->begin_bit = 0;
  options->end_bit = (unsigned)(prism_type_size(key_type) * 8);
}

static prism_status check_options(prism_context *ctx, prism_type key_type,
                                  const prism_sort_options *o, const char *fn) {
  unsigned bits = (unsigned)(prism_type_size(key_type) * 8);
  if (o->order != PRISM_ASCENDING && o->order != PRISM_DESCENDING)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: options->order %d is not a prism_order", fn,
                       (int)o->order);
  if (o->end_bit > bits)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: options->end_bit %u is past the %u bits of %s keys",
                       fn, o->end_bit, bits, prism_type_name(key_type));
  if (o->begin_bit >= o->end_bit)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: options->begin_bit %u must be below end_bit %u", fn,
                       o->begin_bit, o->end_bit);
  return PRISM_OK;
}

/* Checks shared by keys and pairs; fills args except the values. */
static prism_status check_keys(prism_context *ctx, prism_type key_type,
                               const prism_buffer *keys_in,
                               prism_buffer *keys_out, size_t n,
                               const prism_sort_options *options,
                               const char *fn, prism__sort_args *args) {
  size_t bytes = 0;
  /* Sorting has no operator: check the type with a valid one. */
  prism_status st = prism__check_type_op(ctx, key_type, PRISM_SUM, fn);
  if (st != PRISM_OK)
    return st;
  prism_sort_options defaults;
  if (!options) {
    prism_sort_options_init(&defaults, key_type);
    options = &defaults;
  }
  if ((st = check_options(ctx, key_type, options, fn)) != PRISM_OK ||
      (st = prism__check_count(ctx, key_type, n, fn, &bytes)) != PRISM_OK ||
      (st = prism__check_view(ctx, keys_in, prism_type_size(key_type), bytes,
                              fn, "keys_in")) != PRISM_OK ||
      (st = prism__check_view(ctx, keys_out, prism_type_size(key_type), bytes,
                              fn, "keys_out")) != PRISM_OK ||
      (st = prism__check_in_place(ctx, fn, keys_in, bytes, "keys_in", keys_out,
                                  bytes, "keys_out")) != PRISM_OK)
    return st;
  memset(args, 0, sizeof *args);
  args->key_type = key_type;
  args->keys_in = prism__mem_of(keys_in);
  args->keys_out = prism__mem_of(keys_out);
  args->n = n;
  args->descending = options->order == PRISM_DESCENDING;
  args->begin_bit = options->begin_bit;
  args->end_bit = options->end_bit;
  return PRISM_OK;
}

static prism_status run_sort(prism_context *ctx, const prism__sort_args *args,
                             const char *fn) {
  if (args->n == 0)
    return PRISM_OK;
  if (!ctx->backend->sort)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  return ctx->backend->sort(ctx, args);
}

static prism_status sort_keys(prism_context *ctx, prism_type key_type,
                              const prism_buffer *keys_in,
                              prism_buffer *keys_out, size_t n,
                              const prism_sort_options *options) {
  static const char fn[] = "prism_sort_keys";
  prism__sort_args args;
  prism_status st =
      check_keys(ctx, key_type, keys_in, keys_out, n, options, fn, &args);
  return st != PRISM_OK ? st : run_sort(ctx, &args, fn);
}

prism_status prism_sort_keys(prism_context *ctx, prism_type key_type,
                             const prism_buffer *keys_in,
                             prism_buffer *keys_out, size_t n,
                             const prism_sort_options *options) {
  PRISM__ENTER(ctx, "prism_sort_keys");
  return prism__leave(ctx,
                      sort_keys(ctx, key_type, keys_in, keys_out, n, options));
}

/* Keys and values are apart: a key buffer is never a value buffer. */
static prism_status check_pair_buffers(prism_context *ctx,
                                       const prism_buffer *const keys[2],
                                       size_t key_bytes,
                                       const prism_buffer *const values[2],
                                       size_t value_bytes, const char *fn) {
  static const char *const key_names[2] = {"keys_in", "keys_out"};
  static const char *const value_names[2] = {"values_in", "values_out"};
  prism_status st = PRISM_OK;
  for (int k = 0; k < 2 && st == PRISM_OK; k++)
    for (int v = 0; v < 2 && st == PRISM_OK; v++)
      st = prism__check_apart(ctx, fn, keys[k], 0, key_bytes, key_names[k],
                              values[v], 0, value_bytes, value_names[v]);
  return st;
}

/* The value checks of a pairs call; fills args' values. */
static prism_status check_values(prism_context *ctx, prism_type key_type,
                                 const prism_buffer *keys_in,
                                 const prism_buffer *keys_out,
                                 const prism_buffer *values_in,
                                 prism_buffer *values_out, size_t value_size,
                                 size_t n, const char *fn,
                                 prism__sort_args *args) {
  prism_status st;
  if (value_size != 4 && value_size != 8)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: value_size is %zu; must be 4 or 8", fn, value_size);
  if (n > SIZE_MAX / value_size)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: n = %zu values of %zu bytes overflow the address "
                       "space",
                       fn, n, value_size);
  size_t bytes = n * value_size;
  if ((st = prism__check_view(ctx, values_in, value_size, bytes, fn,
                              "values_in")) != PRISM_OK ||
      (st = prism__check_view(ctx, values_out, value_size, bytes, fn,
                              "values_out")) != PRISM_OK ||
      (st = prism__check_in_place(ctx, fn, values_in, bytes, "values_in",
                                  values_out, bytes, "values_out")) != PRISM_OK)
    return st;
  const prism_buffer *const keys[2] = {keys_in, keys_out};
  const prism_buffer *const values[2] = {values_in, values_out};
  if ((st = check_pair_buffers(ctx, keys, n * prism_type_size(key_type), values,
                               bytes, fn)) != PRISM_OK)
    return st;
  args->values_in = prism__mem_of(values_in);
  args->values_out = prism__mem_of(values_out);
  args->value_size = value_size;
  return PRISM_OK;
}

static prism_status sort_pairs(prism_context *ctx, prism_type key_type,
                               const prism_buffer *keys_in,
                               prism_buffer *keys_out,
                               const prism_buffer *values_in,
                               prism_buffer *values_out, size_t value_size,
                               size_t n, const prism_sort_options *options) {
  static const char fn[] = "prism_sort_pairs";
  prism__sort_args args;
  prism_status st =
      check_keys(ctx, key_type, keys_in, keys_out, n, options, fn, &args);
  if (st == PRISM_OK)
    st = check_values(ctx, key_type, keys_in, keys_out, values_in, values_out,
                      value_size, n, fn, &args);
  return st != PRISM_OK ? st : run_sort(ctx, &args, fn);
}

prism_status prism_sort_pairs(prism_context *ctx, prism_type key_type,
                              const prism_buffer *keys_in,
                              prism_buffer *keys_out,
                              const prism_buffer *values_in,
                              prism_buffer *values_out, size_t value_size,
                              size_t n, const prism_sort_options *options) {
  PRISM__ENTER(ctx, "prism_sort_pairs");
  return prism__leave(ctx,
                      sort_pairs(ctx, key_type, keys_in, keys_out, values_in,
                                 values_out, value_size, n, options));
}

/* ---- segmented sort ----------------------------------------------------- */

/* Checks the offsets (and that they are apart from the outputs), handles
 * the no-op cases, runs the backend and reports a bad segment. args holds
 * the checked sort; outputs: the output buffers (one or two) and their
 * bytes. */
static prism_status
run_segmented_sort(prism_context *ctx, prism__sort_args *sort,
                   prism_type offset_type, const prism_buffer *offsets,
                   size_t num_segments, const prism_buffer *const outputs[2],
                   const size_t output_bytes[2], size_t *first_bad,
                   const char *fn) {
  static const char *const output_names[2] = {"keys_out", "values_out"};
  prism_status st =
      prism__check_offsets(ctx, offset_type, offsets, num_segments, fn);
  if (st != PRISM_OK)
    return st;
  if (num_segments > UINT32_MAX - 1u)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: num_segments = %zu; must be below 2^32", fn,
                       num_segments);
  const size_t offset_bytes = (num_segments + 1) * prism_type_size(offset_type);
  for (int i = 0; i < 2 && outputs[i]; i++)
    if ((st = prism__check_apart(ctx, fn, offsets, 0, offset_bytes, "offsets",
                                 outputs[i], 0, output_bytes[i],
                                 output_names[i])) != PRISM_OK)
      return st;
  if (sort->n == 0 || num_segments == 0)
    return PRISM_OK;
  if (!ctx->backend->segmented_sort)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  size_t bad = SIZE_MAX;
  prism__segmented_sort_args args = {.sort = *sort,
                                     .offset_type = offset_type,
                                     .offsets = prism__mem_of(offsets),
                                     .num_segments = num_segments,
                                     .first_bad = &bad};
  if ((st = ctx->backend->segmented_sort(ctx, &args)) != PRISM_OK)
    return st;
  if (bad == SIZE_MAX)
    return PRISM_OK;
  if (first_bad)
    *first_bad = bad;
  return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                     "%s: segment %zu is bad: offsets[%zu] and offsets[%zu] "
                     "must satisfy 0 <= offsets[%zu] <= offsets[%zu] <= n = "
                     "%zu; nothing was sorted",
                     fn, bad, bad, bad + 1, bad, bad + 1, sort->n);
}

static prism_status
segmented_sort_keys(prism_context *ctx, prism_type key_type,
                    const prism_buffer *keys_in, prism_buffer *keys_out,
                    size_t n, prism_type offset_type,
                    const prism_buffer *offsets, size_t num_segments,
                    const prism_sort_options *options, size_t *first_bad) {
  static const char fn[] = "prism_segmented_sort_keys";
  if (first_bad)
    *first_bad = SIZE_MAX;
  prism__sort_args args;
  prism_status st =
      check_keys(ctx, key_type, keys_in, keys_out, n, options, fn, &args);
  if (st != PRISM_OK)
    return st;
  const prism_buffer *const outputs[2] = {keys_out, NULL};
  const size_t output_bytes[2] = {n * prism_type_size(key_type), 0};
  return run_segmented_sort(ctx, &args, offset_type, offsets, num_segments,
                            outputs, output_bytes, first_bad, fn);
}

prism_status prism_segmented_sort_keys(
    prism_context *ctx, prism_type key_type, const prism_buffer *keys_in,
    prism_buffer *keys_out, size_t n, prism_type offset_type,
    const prism_buffer *offsets, size_t num_segments,
    const prism_sort_options *options, size_t *first_bad) {
  PRISM__ENTER(ctx, "prism_segmented_sort_keys");
  return prism__leave(
      ctx, segmented_sort_keys(ctx, key_type, keys_in, keys_out, n, offset_type,
                               offsets, num_segments, options, first_bad));
}

static prism_status
segmented_sort_pairs(prism_context *ctx, prism_type key_type,
                     const prism_buffer *keys_in, prism_buffer *keys_out,
                     const prism_buffer *values_in, prism_buffer *values_out,
                     size_t value_size, size_t n, prism_type offset_type,
                     const prism_buffer *offsets, size_t num_segments,
                     const prism_sort_options *options, size_t *first_bad) {
  static const char fn[] = "prism_segmented_sort_pairs";
  if (first_bad)
    *first_bad = SIZE_MAX;
  prism__sort_args args;
  prism_status st =
      check_keys(ctx, key_type, keys_in, keys_out, n, options, fn, &args);
  if (st == PRISM_OK)
    st = check_values(ctx, key_type, keys_in, keys_out, values_in, values_out,
                      value_size, n, fn, &args);
  if (st != PRISM_OK)
    return st;
  const prism_buffer *const outputs[2] = {keys_out, values_out};
  const size_t output_bytes[2] = {n * prism_type_size(key_type),
                                  n * value_size};
  return run_segmented_sort(ctx, &args, offset_type, offsets, num_segments,
                            outputs, output_bytes, first_bad, fn);
}

prism_status prism_segmented_sort_pairs(
    prism_context *ctx, prism_type key_type, const prism_buffer *keys_in,
    prism_buffer *keys_out, const prism_buffer *values_in,
    prism_buffer *values_out, size_t value_size, size_t n,
    prism_type offset_type, const prism_buffer *offsets, size_t num_segments,
    const prism_sort_options *options, size_t *first_bad) {
  PRISM__ENTER(ctx, "prism_segmented_sort_pairs");
  return prism__leave(
      ctx, segmented_sort_pairs(ctx, key_type, keys_in, keys_out, values_in,
                                values_out, value_size, n, offset_type, offsets,
                                num_segments, options, first_bad));
}
