/* SPDX-License-Identifier: MIT */
/* reduce: prism_reduce, which returns its result to the host, so every call
 * already waits for the device; and reduce-device, prism_reduce_to_buffer,
 * which leaves it in a device buffer and is queued, as CUB's reduce is.
 * Both move n elements (one read of the input). */
#include "primitive.h"
#include "ref_scan.h"

#include <stdlib.h>
#include <string.h>

typedef struct reduce_state {
  prism_context *ctx;
  prism_buffer *in;
  prism_buffer *out; /* reduce-device: the result's buffer */
  bench_case c;
  union {
    int64_t i;
    double d;
  } result;
} reduce_state;

static size_t reduce_result_bytes(const bench_case *c) {
  return prism_type_size(c->type);
}

static double reduce_bytes_moved(const bench_case *c) {
  return (double)c->n * (double)prism_type_size(c->type);
}

static prism_status reduce_setup(prism_context *ctx, const bench_case *c,
                                 void **state) {
  reduce_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  prism_status st = bench_upload_input(ctx, c, &s->in);
  if (st != PRISM_OK) {
    free(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status reduce_run(void *state) {
  reduce_state *s = state;
  return prism_reduce(s->ctx, s->c.type, s->c.op, s->in, s->c.n, &s->result);
}

static prism_status reduce_read_result(void *state, void *result) {
  reduce_state *s = state;
  memcpy(result, &s->result, prism_type_size(s->c.type));
  return PRISM_OK;
}

static void reduce_teardown(void *state) {
  reduce_state *s = state;
  prism_buffer_destroy(s->in);
  prism_buffer_destroy(s->out);
  free(s);
}

static prism_status reduce_device_setup(prism_context *ctx, const bench_case *c,
                                        void **state) {
  prism_status st = reduce_setup(ctx, c, state);
  if (st != PRISM_OK)
    return st;
  reduce_state *s = *state;
  if ((st = prism_buffer_create(ctx, prism_type_size(c->type), &s->out)) !=
      PRISM_OK) {
    reduce_teardown(s);
    *state = NULL;
  }
  return st;
}

static prism_status reduce_device_run(void *state) {
  reduce_state *s = state;
  return prism_reduce_to_buffer(s->ctx, s->c.type, s->c.op, s->in, s->c.n,
                                s->out);
}

static prism_status reduce_device_read_result(void *state, void *result) {
  reduce_state *s = state;
  return prism_buffer_read(s->out, 0, result, prism_type_size(s->c.type));
}

static int reduce_check(const bench_case *c, const void *result, char *msg,
                        size_t msg_size) {
  return ref_check_reduce(c->type, c->op, c->input, c->n, result, msg,
                          msg_size);
}

static void reduce_serial(const bench_case *c, void *result) {
  ref_serial_reduce(c->type, c->op, c->input, c->n, result);
}

const bench_primitive bench_reduce = {
    .name = "reduce",
    .uses = BENCH_USES_OP,
    .skip = bench_skip_u8,
    .result_bytes = reduce_result_bytes,
    .bytes_moved = reduce_bytes_moved,
    .setup = reduce_setup,
    .run = reduce_run,
    .read_result = reduce_read_result,
    .teardown = reduce_teardown,
    .check = reduce_check,
    .serial = reduce_serial,
    .cub = CUB_REF_REDUCE,
};

const bench_primitive bench_reduce_device = {
    .name = "reduce-device",
    .uses = BENCH_USES_OP,
    .skip = bench_skip_u8,
    .result_bytes = reduce_result_bytes,
    .bytes_moved = reduce_bytes_moved,
    .setup = reduce_device_setup,
    .run = reduce_device_run,
    .read_result = reduce_device_read_result,
    .teardown = reduce_teardown,
    .check = reduce_check,
    .serial = reduce_serial,
    .cub = CUB_REF_REDUCE,
};
