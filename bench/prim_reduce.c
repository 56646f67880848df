/* reduce: prism_reduce, which returns its result to the host, so every call
 * already waits for the device. Moves n elements (one read of the input). */
#include "host_ref.h"
#include "primitive.h"

#include <stdlib.h>
#include <string.h>

typedef struct reduce_state {
  prism_context *ctx;
  prism_buffer *in;
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
  free(s);
}

static int reduce_check(const bench_case *c, const void *result, char *msg,
                        size_t msg_size) {
  return host_check_reduce(c->type, c->op, c->input, c->n, result, msg,
                           msg_size);
}

static void reduce_serial(const bench_case *c, void *result) {
  host_reduce(c->type, c->op, c->input, c->n, result);
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
