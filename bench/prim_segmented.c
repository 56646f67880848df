/* SPDX-License-Identifier: MIT */
/* Segmented rows over the same segment layout (input_segment_offsets):
 * lengths vary at random around --segment, or with `skew` one segment holds
 * half the data. Every segment is non-empty, so CUB's identities (the
 * type's max and lowest for min and max, where prism's are +-inf for
 * floats) never show.
 *
 * - segmented-reduce: prism_segmented_reduce by offsets (u32, u64 above
 *   UINT32_MAX elements), unchecked, so queued. Least traffic: read the n
 *   elements and the segments + 1 offsets, write one element per segment.
 * - segmented-scan: prism_segmented_scan_flags with one-byte head flags,
 *   from one buffer into another, queued. Least traffic: read the n
 *   elements and the n flags, write n elements. CUB's counterpart is its
 *   scan by key with the segment ids as keys, which reads 4-byte keys where
 *   prism reads 1-byte flags. */
#include "input.h"
#include "primitive.h"
#include "ref_segmented.h"

#include <stdlib.h>

typedef struct segmented_state {
  prism_context *ctx;
  prism_buffer *in, *segments, *out; /* segments: offsets or head flags */
  bench_case c;
} segmented_state;

static size_t element_size(const bench_case *c) {
  return prism_type_size(c->type);
}

static prism_type offset_type(const bench_case *c) {
  return c->n > UINT32_MAX ? PRISM_U64 : PRISM_U32;
}

static size_t offset_size(const bench_case *c) {
  return prism_type_size(offset_type(c));
}

static size_t segment_count(const bench_case *c) {
  return input_segment_count(c->n, c->segment, c->skew);
}

static void segmented_teardown(void *state) {
  segmented_state *s = state;
  prism_buffer_destroy(s->out);
  prism_buffer_destroy(s->segments);
  prism_buffer_destroy(s->in);
  free(s);
}

/* The input, the aux data (offsets or flags), and out_bytes of output. */
static prism_status segmented_setup(prism_context *ctx, const bench_case *c,
                                    size_t aux_bytes, size_t out_bytes,
                                    void **state) {
  segmented_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  prism_status st = bench_upload_input(ctx, c, &s->in);
  if (st == PRISM_OK)
    st = bench_upload(ctx, c->aux, aux_bytes, &s->segments);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, out_bytes, &s->out);
  if (st != PRISM_OK) {
    segmented_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

/* ---- segmented-reduce ---------------------------------------------------- */

static size_t reduce_aux_bytes(const bench_case *c) {
  return (segment_count(c) + 1) * offset_size(c);
}

static int reduce_fill(bench_case *c, void *input, uint64_t seed) {
  input_fill_random(c->type, input, c->n, seed);
  c->segments = segment_count(c);
  input_segment_offsets(c->n, c->segment, c->skew, seed, offset_size(c),
                        c->aux);
  return 0;
}

static size_t reduce_result_bytes(const bench_case *c) {
  return c->segments * element_size(c);
}

static double reduce_bytes_moved(const bench_case *c) {
  return (double)c->n * (double)element_size(c) + (double)reduce_aux_bytes(c) +
         (double)reduce_result_bytes(c);
}

static prism_status reduce_setup(prism_context *ctx, const bench_case *c,
                                 void **state) {
  return segmented_setup(ctx, c, reduce_aux_bytes(c), reduce_result_bytes(c),
                         state);
}

static prism_status reduce_run(void *state) {
  segmented_state *s = state;
  const bench_case *c = &s->c;
  return prism_segmented_reduce(s->ctx, c->type, c->op, s->in, c->n,
                                offset_type(c), s->segments, c->segments,
                                s->out, 0, NULL);
}

static prism_status reduce_read_result(void *state, void *result) {
  segmented_state *s = state;
  return prism_buffer_read(s->out, 0, result, reduce_result_bytes(&s->c));
}

static int reduce_check(const bench_case *c, const void *result, char *msg,
                        size_t msg_size) {
  return ref_check_segmented_reduce(c->type, c->op, c->input, c->n,
                                    offset_type(c), c->aux, c->segments, result,
                                    msg, msg_size);
}

static void reduce_serial(const bench_case *c, void *result) {
  ref_serial_segmented_reduce(c->type, c->op, c->input, c->n, offset_type(c),
                              c->aux, c->segments, result);
}

static void reduce_cub_request(const bench_case *c, cub_ref_request *request) {
  request->offset_size = offset_size(c);
}

const bench_primitive bench_segmented_reduce = {
    .name = "segmented-reduce",
    .uses = BENCH_USES_OP | BENCH_USES_SEGMENT,
    .by_name_only = 1,
    .skip = bench_skip_u8,
    .aux_bytes = reduce_aux_bytes,
    .fill = reduce_fill,
    .result_bytes = reduce_result_bytes,
    .bytes_moved = reduce_bytes_moved,
    .setup = reduce_setup,
    .run = reduce_run,
    .read_result = reduce_read_result,
    .teardown = segmented_teardown,
    .check = reduce_check,
    .serial = reduce_serial,
    .cub = CUB_REF_SEGMENTED_REDUCE,
    .cub_request = reduce_cub_request,
};

/* ---- segmented-scan ------------------------------------------------------ */

static size_t scan_aux_bytes(const bench_case *c) {
  return c->n;
}

/* The head flags of the layout's offsets. */
static int scan_fill(bench_case *c, void *input, uint64_t seed) {
  size_t segments = segment_count(c);
  void *offsets = malloc((segments + 1) * offset_size(c));
  if (!offsets)
    return -1;
  input_fill_random(c->type, input, c->n, seed);
  input_segment_offsets(c->n, c->segment, c->skew, seed, offset_size(c),
                        offsets);
  input_head_flags(offset_size(c), offsets, segments, c->aux, c->n);
  free(offsets);
  c->segments = segments;
  return 0;
}

static size_t scan_result_bytes(const bench_case *c) {
  return c->n * element_size(c);
}

static double scan_bytes_moved(const bench_case *c) {
  return 2.0 * (double)scan_result_bytes(c) + (double)c->n;
}

static prism_status scan_setup(prism_context *ctx, const bench_case *c,
                               void **state) {
  return segmented_setup(ctx, c, scan_aux_bytes(c), scan_result_bytes(c),
                         state);
}

static prism_status scan_run(void *state) {
  segmented_state *s = state;
  const bench_case *c = &s->c;
  return prism_segmented_scan_flags(s->ctx, c->type, c->op, c->kind, s->in,
                                    PRISM_U8, s->segments, s->out, c->n);
}

static prism_status scan_read_result(void *state, void *result) {
  segmented_state *s = state;
  return prism_buffer_read(s->out, 0, result, scan_result_bytes(&s->c));
}

static int scan_check(const bench_case *c, const void *result, char *msg,
                      size_t msg_size) {
  return ref_check_segmented_scan(c->type, c->op, c->kind, c->input, PRISM_U8,
                                  c->aux, c->n, result, msg, msg_size);
}

static void scan_serial(const bench_case *c, void *result) {
  ref_serial_segmented_scan_flags(c->type, c->op, c->kind, c->input, PRISM_U8,
                                  c->aux, result, c->n);
}

const bench_primitive bench_segmented_scan = {
    .name = "segmented-scan",
    .uses = BENCH_USES_OP | BENCH_USES_KIND | BENCH_USES_SEGMENT,
    .by_name_only = 1,
    .skip = bench_skip_u8,
    .aux_bytes = scan_aux_bytes,
    .fill = scan_fill,
    .result_bytes = scan_result_bytes,
    .bytes_moved = scan_bytes_moved,
    .setup = scan_setup,
    .run = scan_run,
    .read_result = scan_read_result,
    .teardown = segmented_teardown,
    .check = scan_check,
    .serial = scan_serial,
    .cub = CUB_REF_SEGMENTED_SCAN,
};
