/* SPDX-License-Identifier: MIT */
/* scan: prism_scan from one buffer into another (not in place, so every
 * call sees the same input). Queued; moves 2n elements (read n, write n). */
#include "primitive.h"
#include "ref_scan.h"

#include <stdlib.h>

typedef struct scan_state {
  prism_context *ctx;
  prism_buffer *in;
  prism_buffer *out;
  bench_case c;
} scan_state;

static size_t scan_result_bytes(const bench_case *c) {
  return c->n * prism_type_size(c->type);
}

static double scan_bytes_moved(const bench_case *c) {
  return 2.0 * (double)c->n * (double)prism_type_size(c->type);
}

static void scan_teardown(void *state) {
  scan_state *s = state;
  prism_buffer_destroy(s->out);
  prism_buffer_destroy(s->in);
  free(s);
}

static prism_status scan_setup(prism_context *ctx, const bench_case *c,
                               void **state) {
  scan_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  prism_status st = bench_upload_input(ctx, c, &s->in);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, scan_result_bytes(c), &s->out);
  if (st != PRISM_OK) {
    scan_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status scan_run(void *state) {
  scan_state *s = state;
  return prism_scan(s->ctx, s->c.type, s->c.op, s->c.kind, s->in, s->out,
                    s->c.n);
}

static prism_status scan_read_result(void *state, void *result) {
  scan_state *s = state;
  return prism_buffer_read(s->out, 0, result, scan_result_bytes(&s->c));
}

static int scan_check(const bench_case *c, const void *result, char *msg,
                      size_t msg_size) {
  return ref_check_scan(c->type, c->op, c->kind, c->input, c->n, result, msg,
                        msg_size);
}

static void scan_serial(const bench_case *c, void *result) {
  ref_serial_scan(c->type, c->op, c->kind, c->input, result, c->n);
}

const bench_primitive bench_scan = {
    .name = "scan",
    .uses = BENCH_USES_OP | BENCH_USES_KIND,
    .skip = bench_skip_u8,
    .result_bytes = scan_result_bytes,
    .bytes_moved = scan_bytes_moved,
    .setup = scan_setup,
    .run = scan_run,
    .read_result = scan_read_result,
    .teardown = scan_teardown,
    .check = scan_check,
    .serial = scan_serial,
    .cub = CUB_REF_SCAN,
};
