/* SPDX-License-Identifier: MIT */
/*
 * Stream compaction (select_flagged, select_if, partition_flagged,
 * partition_if, unique): validate, handle n = 0, route to the backend.
 */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>

/* What one public entry point takes; the mode says which of flags and
 * predicate it has. */
typedef struct select_call {
  const char *fn;
  prism__select_mode mode;
  int partition;
  prism_type type;
  const prism_buffer *in;
  prism_type flag_type;
  const prism_buffer *flags;
  const prism_predicate *predicate;
  prism_buffer *out;
  size_t n;
  prism_buffer *count_out;
  size_t *count;
} select_call;

static prism_status check_select(prism_context *ctx, const select_call *c) {
  const char *fn = c->fn;
  prism_status st = prism__check_type(ctx, c->type, fn);
  if (st != PRISM_OK)
    return st;
  size_t bytes = 0, flag_bytes = 0;
  if (c->mode == PRISM__SELECT_FLAGGED &&
      ((st = prism__check_int_type(ctx, c->flag_type, fn, "flag_type", 1)) !=
           PRISM_OK ||
       (st = prism__check_count(ctx, c->flag_type, c->n, fn, &flag_bytes)) !=
           PRISM_OK))
    return st;
  if (c->mode == PRISM__SELECT_IF) {
    if (!c->predicate)
      return prism__fail(ctx, PRISM_NULL_POINTER, "%s: predicate is NULL", fn);
    if ((unsigned)c->predicate->compare > (unsigned)PRISM_IN_RANGE)
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: predicate->compare %d is not a prism_compare "
                         "(less, less_equal, greater, greater_equal, equal, "
                         "not_equal, in_range)",
                         fn, (int)c->predicate->compare);
  }
  if ((st = prism__check_count(ctx, c->type, c->n, fn, &bytes)) != PRISM_OK ||
      (st = prism__check_view(ctx, c->in, prism_type_size(c->type), bytes, fn,
                              "in")) != PRISM_OK ||
      (c->mode == PRISM__SELECT_FLAGGED &&
       (st = prism__check_view(ctx, c->flags, prism_type_size(c->flag_type),
                               flag_bytes, fn, "flags")) != PRISM_OK) ||
      (st = prism__check_view(ctx, c->out, prism_type_size(c->type), bytes, fn,
                              "out")) != PRISM_OK ||
      (c->count_out &&
       (st = prism__check_view(ctx, c->count_out, sizeof(uint64_t),
                               sizeof(uint64_t), fn, "count_out")) != PRISM_OK))
    return st;
  /* Elements move between tiles while others are still read, and the
   * count lands while tiles run: no buffer written may be one read. in and
   * flags are only read, so they may be one buffer. */
  const int flagged = c->mode == PRISM__SELECT_FLAGGED;
  const size_t count_bytes = c->count_out ? sizeof(uint64_t) : 0;
  if ((st = prism__check_apart(ctx, fn, c->in, 0, bytes, "in", c->out, 0, bytes,
                               "out")) != PRISM_OK ||
      (flagged &&
       (st = prism__check_apart(ctx, fn, c->flags, 0, flag_bytes, "flags",
                                c->out, 0, bytes, "out")) != PRISM_OK) ||
      (st = prism__check_apart(ctx, fn, c->count_out, 0, count_bytes,
                               "count_out", c->in, 0, bytes, "in")) !=
          PRISM_OK ||
      (st = prism__check_apart(ctx, fn, c->count_out, 0, count_bytes,
                               "count_out", c->out, 0, bytes, "out")) !=
          PRISM_OK ||
      (flagged && (st = prism__check_apart(
                       ctx, fn, c->count_out, 0, count_bytes, "count_out",
                       c->flags, 0, flag_bytes, "flags")) != PRISM_OK))
    return st;
  return PRISM_OK;
}

static prism_status select_on(prism_context *ctx, const select_call *c) {
  prism_status st = check_select(ctx, c);
  if (st != PRISM_OK)
    return st;
  if (c->n == 0) {
    /* Nothing kept: the count is 0, on the device too (queued). */
    if (c->count)
      *c->count = 0;
    if (!c->count_out)
      return PRISM_OK;
    const uint64_t zero = 0;
    const prism__mem m = prism__mem_of(c->count_out);
    return ctx->backend->mem_fill(ctx, m.native, m.offset, &zero, sizeof zero,
                                  sizeof zero);
  }
  if (!ctx->backend->select)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", c->fn,
                       ctx->backend->name);
  prism__select_args args;
  args.mode = c->mode;
  args.partition = c->partition;
  args.type = c->type;
  args.in = prism__mem_of(c->in);
  args.out = prism__mem_of(c->out);
  args.n = c->n;
  args.flag_type = c->mode == PRISM__SELECT_FLAGGED ? c->flag_type : PRISM_U8;
  args.flags =
      prism__mem_of(c->mode == PRISM__SELECT_FLAGGED ? c->flags : NULL);
  if (c->mode == PRISM__SELECT_IF) {
    args.predicate = *c->predicate;
  } else {
    args.predicate.compare = PRISM_EQUAL;
    args.predicate.a.u64 = 0;
    args.predicate.b.u64 = 0;
  }
  args.count_out = prism__mem_of(c->count_out);
  args.count = c->count;
  return ctx->backend->select(ctx, &args);
}

static prism_status run_select(prism_context *ctx, const select_call *c) {
  PRISM__ENTER(ctx, c->fn);
  return prism__leave(ctx, select_on(ctx, c));
}

prism_status prism_select_flagged(prism_context *ctx, prism_type type,
                                  const prism_buffer *in, prism_type flag_type,
                                  const prism_buffer *flags, prism_buffer *out,
                                  size_t n, prism_buffer *count_out,
                                  size_t *count) {
  const select_call c = {.fn = "prism_select_flagged",
                         .mode = PRISM__SELECT_FLAGGED,
                         .type = type,
                         .in = in,
                         .flag_type = flag_type,
                         .flags = flags,
                         .out = out,
                         .n = n,
                         .count_out = count_out,
                         .count = count};
  return run_select(ctx, &c);
}

prism_status prism_select_if(prism_context *ctx, prism_type type,
                             const prism_buffer *in,
                             const prism_predicate *predicate,
                             prism_buffer *out, size_t n,
                             prism_buffer *count_out, size_t *count) {
  const select_call c = {.fn = "prism_select_if",
                         .mode = PRISM__SELECT_IF,
                         .type = type,
                         .in = in,
                         .predicate = predicate,
                         .out = out,
                         .n = n,
                         .count_out = count_out,
                         .count = count};
  return run_select(ctx, &c);
}

prism_status prism_partition_flagged(prism_context *ctx, prism_type type,
                                     const prism_buffer *in,
                                     prism_type flag_type,
                                     const prism_buffer *flags,
                                     prism_buffer *out, size_t n,
                                     prism_buffer *count_out, size_t *count) {
  const select_call c = {.fn = "prism_partition_flagged",
                         .mode = PRISM__SELECT_FLAGGED,
                         .partition = 1,
                         .type = type,
                         .in = in,
                         .flag_type = flag_type,
                         .flags = flags,
                         .out = out,
                         .n = n,
                         .count_out = count_out,
                         .count = count};
  return run_select(ctx, &c);
}

prism_status prism_partition_if(prism_context *ctx, prism_type type,
                                const prism_buffer *in,
                                const prism_predicate *predicate,
                                prism_buffer *out, size_t n,
                                prism_buffer *count_out, size_t *count) {
  const select_call c = {.fn = "prism_partition_if",
                         .mode = PRISM__SELECT_IF,
                         .partition = 1,
                         .type = type,
                         .in = in,
                         .predicate = predicate,
                         .out = out,
                         .n = n,
                         .count_out = count_out,
                         .count = count};
  return run_select(ctx, &c);
}

prism_status prism_unique(prism_context *ctx, prism_type type,
                          const prism_buffer *in, prism_buffer *out, size_t n,
                          prism_buffer *count_out, size_t *count) {
  const select_call c = {.fn = "prism_unique",
                         .mode = PRISM__SELECT_UNIQUE,
                         .type = type,
                         .in = in,
                         .out = out,
                         .n = n,
                         .count_out = count_out,
                         .count = count};
  return run_select(ctx, &c);
}
