/* SPDX-License-Identifier: MIT */
/* Merge: validate, handle empty sides, route to the backend. */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>
#include <string.h>

/* One run's keys (and values): its element count and byte sizes. */
typedef struct merge_side {
  const prism_buffer *keys, *values;
  size_t n;
  const char *key_name, *value_name;
} merge_side;

static prism_status check_side(prism_context *ctx, const merge_side *s,
                               prism_type key_type, size_t value_size,
                               const char *fn) {
  size_t bytes = 0;
  prism_status st;
  if ((st = prism__check_count(ctx, key_type, s->n, fn, &bytes)) != PRISM_OK ||
      (st = prism__check_view(ctx, s->keys, prism_type_size(key_type), bytes,
                              fn, s->key_name)) != PRISM_OK)
    return st;
  if (value_size)
    st = prism__check_view(ctx, s->values, value_size, s->n * value_size, fn,
                           s->value_name);
  return st;
}

static prism_status merge(prism_context *ctx, prism_type key_type,
                          prism_order order, const merge_side sides[2],
                          prism_buffer *keys_out, const char *out_name,
                          int pairs, prism_buffer *values_out,
                          size_t value_size, const char *fn) {
  /* Merging has no operator: check the type with a valid one. */
  prism_status st = prism__check_type_op(ctx, key_type, PRISM_SUM, fn);
  if (st != PRISM_OK)
    return st;
  if (order != PRISM_ASCENDING && order != PRISM_DESCENDING)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: order %d is not a prism_order", fn, (int)order);
  if (pairs && value_size != 4 && value_size != 8)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: value_size is %zu; must be 4 or 8", fn, value_size);
  const size_t ks = prism_type_size(key_type);
  const size_t na = sides[0].n, nb = sides[1].n;
  const size_t width = ks > value_size ? ks : value_size;
  if (na > SIZE_MAX / width || nb > SIZE_MAX / width ||
      na + nb > SIZE_MAX / width)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: na = %zu and nb = %zu elements overflow the "
                       "address space",
                       fn, na, nb);
  const size_t n = na + nb;
  for (int s = 0; s < 2; s++)
    if ((st = check_side(ctx, &sides[s], key_type, value_size, fn)) != PRISM_OK)
      return st;
  if ((st = prism__check_view(ctx, keys_out, ks, n * ks, fn, out_name)) !=
      PRISM_OK)
    return st;
  if (value_size &&
      (st = prism__check_view(ctx, values_out, value_size, n * value_size, fn,
                              "values_out")) != PRISM_OK)
    return st;

  /* The outputs are written while every input is read: apart from all of
   * them and from each other. Inputs may share memory. */
  const size_t vs = value_size;
  for (int s = 0; s < 2; s++) {
    const merge_side *side = &sides[s];
    if ((st = prism__check_apart(ctx, fn, side->keys, 0, side->n * ks,
                                 side->key_name, keys_out, 0, n * ks,
                                 out_name)) != PRISM_OK)
      return st;
    if (!vs)
      continue;
    if ((st = prism__check_apart(ctx, fn, side->values, 0, side->n * vs,
                                 side->value_name, keys_out, 0, n * ks,
                                 out_name)) != PRISM_OK ||
        (st = prism__check_apart(ctx, fn, side->keys, 0, side->n * ks,
                                 side->key_name, values_out, 0, n * vs,
                                 "values_out")) != PRISM_OK ||
        (st = prism__check_apart(ctx, fn, side->values, 0, side->n * vs,
                                 side->value_name, values_out, 0, n * vs,
                                 "values_out")) != PRISM_OK)
      return st;
  }
  if (vs && (st = prism__check_apart(ctx, fn, keys_out, 0, n * ks, out_name,
                                     values_out, 0, n * vs, "values_out")) !=
                PRISM_OK)
    return st;

  if (n == 0)
    return PRISM_OK;
  /* One side empty: the other is the result. */
  if (na == 0 || nb == 0) {
    const merge_side *full = &sides[na == 0 ? 1 : 0];
    prism__mem src = prism__mem_of(full->keys), dst = prism__mem_of(keys_out);
    st = ctx->backend->mem_copy(ctx, dst.native, dst.offset, src.native,
                                src.offset, n * ks);
    if (st != PRISM_OK || !vs)
      return st;
    src = prism__mem_of(full->values);
    dst = prism__mem_of(values_out);
    return ctx->backend->mem_copy(ctx, dst.native, dst.offset, src.native,
                                  src.offset, n * vs);
  }
  if (!ctx->backend->merge)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  prism__merge_args args;
  memset(&args, 0, sizeof args);
  args.key_type = key_type;
  args.descending = order == PRISM_DESCENDING;
  args.keys_a = prism__mem_of(sides[0].keys);
  args.keys_b = prism__mem_of(sides[1].keys);
  args.keys_out = prism__mem_of(keys_out);
  if (vs) {
    args.values_a = prism__mem_of(sides[0].values);
    args.values_b = prism__mem_of(sides[1].values);
    args.values_out = prism__mem_of(values_out);
  }
  args.na = na;
  args.nb = nb;
  args.value_size = vs;
  return ctx->backend->merge(ctx, &args);
}

prism_status prism_merge_keys(prism_context *ctx, prism_type key_type,
                              prism_order order, const prism_buffer *a,
                              size_t na, const prism_buffer *b, size_t nb,
                              prism_buffer *out) {
  PRISM__ENTER(ctx, "prism_merge_keys");
  const merge_side sides[2] = {{a, NULL, na, "a", NULL},
                               {b, NULL, nb, "b", NULL}};
  return prism__leave(ctx, merge(ctx, key_type, order, sides, out, "out", 0,
                                 NULL, 0, "prism_merge_keys"));
}

prism_status prism_merge_pairs(prism_context *ctx, prism_type key_type,
                               prism_order order, const prism_buffer *keys_a,
                               const prism_buffer *values_a, size_t na,
                               const prism_buffer *keys_b,
                               const prism_buffer *values_b, size_t nb,
                               prism_buffer *keys_out, prism_buffer *values_out,
                               size_t value_size) {
  PRISM__ENTER(ctx, "prism_merge_pairs");
  static const char fn[] = "prism_merge_pairs";
  const merge_side sides[2] = {{keys_a, values_a, na, "keys_a", "values_a"},
                               {keys_b, values_b, nb, "keys_b", "values_b"}};
  return prism__leave(ctx, merge(ctx, key_type, order, sides, keys_out,
                                 "keys_out", 1, values_out, value_size, fn));
}
