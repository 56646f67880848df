/* SPDX-License-Identifier: MIT */
/* Top-k: validate, handle the no-op case, route to the backend. */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>
#include <string.h>

void prism_topk_options_init(prism_topk_options *options) {
  if (!options)
    return;
  memset(options, 0, sizeof *options);
  options->order = PRISM_DESCENDING;
  options->sorted = 1;
}

/* rows * cols and rows * k elements of width bytes fit in size_t bytes. */
static prism_status check_shape(prism_context *ctx, size_t rows, size_t cols,
                                size_t k, size_t width, const char *fn) {
  if (k == 0)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: k is 0; must be at least 1", fn);
  if (k > cols)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: k = %zu is more than cols = %zu", fn, k, cols);
  if (rows && cols > SIZE_MAX / width / rows)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: rows = %zu x cols = %zu elements overflow the "
                       "address space",
                       fn, rows, cols);
  return PRISM_OK;
}

static prism_status topk(prism_context *ctx, prism_type key_type,
                         const prism_buffer *keys_in,
                         const prism_buffer *values_in, size_t rows,
                         size_t cols, size_t k, prism_buffer *keys_out,
                         prism_buffer *values_out, size_t value_size,
                         const prism_topk_options *options, const char *fn) {
  /* Top-k has no operator: check the type with a valid one. */
  prism_status st = prism__check_type_op(ctx, key_type, PRISM_SUM, fn);
  if (st != PRISM_OK)
    return st;
  prism_topk_options defaults;
  if (!options) {
    prism_topk_options_init(&defaults);
    options = &defaults;
  }
  if (options->order != PRISM_ASCENDING && options->order != PRISM_DESCENDING)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: options->order %d is not a prism_order", fn,
                       (int)options->order);
  if (!keys_out && !values_out)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: keys_out and values_out are both NULL; ask for "
                       "at least one",
                       fn);
  if (values_out && value_size != 4 && value_size != 8)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: value_size is %zu; must be 4 or 8 with values_out",
                       fn, value_size);
  if (!values_out && value_size != 0)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: value_size is %zu without values_out; must be 0",
                       fn, value_size);
  if (!values_out && values_in)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: values_in is given without values_out", fn);
  const size_t ks = prism_type_size(key_type), vs = value_size;
  if ((st = check_shape(ctx, rows, cols, k, ks > vs ? ks : vs, fn)) != PRISM_OK)
    return st;
  if (values_out && !values_in && vs == 4 && cols > (size_t)UINT32_MAX + 1)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: cols = %zu columns do not fit u32 indices "
                       "(value_size 4); use value_size 8",
                       fn, cols);
  const size_t in_n = rows * cols, out_n = rows * k;
  if ((st = prism__check_view(ctx, keys_in, ks, in_n * ks, fn, "keys_in")) !=
      PRISM_OK)
    return st;
  if (values_in && (st = prism__check_view(ctx, values_in, vs, in_n * vs, fn,
                                           "values_in")) != PRISM_OK)
    return st;
  if (keys_out && (st = prism__check_view(ctx, keys_out, ks, out_n * ks, fn,
                                          "keys_out")) != PRISM_OK)
    return st;
  if (values_out && (st = prism__check_view(ctx, values_out, vs, out_n * vs, fn,
                                            "values_out")) != PRISM_OK)
    return st;

  /* The outputs are written while the inputs are read: apart from both
   * and from each other. The inputs may share memory. */
  const prism_buffer *const ins[2] = {keys_in, values_in};
  const size_t in_bytes[2] = {in_n * ks, in_n * vs};
  static const char *const in_names[2] = {"keys_in", "values_in"};
  prism_buffer *const outs[2] = {keys_out, values_out};
  const size_t out_bytes[2] = {out_n * ks, out_n * vs};
  static const char *const out_names[2] = {"keys_out", "values_out"};
  for (int o = 0; o < 2; o++)
    for (int i = 0; i < 2; i++)
      if ((st = prism__check_apart(ctx, fn, ins[i], 0, in_bytes[i], in_names[i],
                                   outs[o], 0, out_bytes[o], out_names[o])) !=
          PRISM_OK)
        return st;
  if ((st = prism__check_apart(ctx, fn, keys_out, 0, out_bytes[0], out_names[0],
                               values_out, 0, out_bytes[1], out_names[1])) !=
      PRISM_OK)
    return st;

  if (rows == 0)
    return PRISM_OK;
  if (!ctx->backend->topk)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  prism__topk_args args;
  memset(&args, 0, sizeof args);
  args.key_type = key_type;
  args.keys_in = prism__mem_of(keys_in);
  if (values_in)
    args.values_in = prism__mem_of(values_in);
  if (keys_out)
    args.keys_out = prism__mem_of(keys_out);
  if (values_out)
    args.values_out = prism__mem_of(values_out);
  args.value_size = vs;
  args.rows = rows;
  args.cols = cols;
  args.k = k;
  args.descending = options->order == PRISM_DESCENDING;
  args.sorted = options->sorted != 0;
  return ctx->backend->topk(ctx, &args);
}

prism_status prism_topk(prism_context *ctx, prism_type key_type,
                        const prism_buffer *keys_in,
                        const prism_buffer *values_in, size_t rows, size_t cols,
                        size_t k, prism_buffer *keys_out,
                        prism_buffer *values_out, size_t value_size,
                        const prism_topk_options *options) {
  PRISM__ENTER(ctx, "prism_topk");
  return prism__leave(ctx, topk(ctx, key_type, keys_in, values_in, rows, cols,
                                k, keys_out, values_out, value_size, options,
                                "prism_topk"));
}
