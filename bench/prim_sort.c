/* SPDX-License-Identifier: MIT */
/* sort: prism_sort_keys, or prism_sort_pairs with values that are each
 * key's input index (4 or 8 bytes), out of place: keys_in (and values_in)
 * are left unchanged, so every call sorts the same input. Queued. Moves
 * the keys and values once each way, the least any sort needs (a radix
 * sort's passes move more). The input is random bits over the key's whole
 * width. */
#include "input.h"
#include "primitive.h"
#include "ref_sort.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct sort_state {
  prism_context *ctx;
  prism_buffer *keys_in, *keys_out;
  prism_buffer *values_in, *values_out; /* NULL for keys only */
  prism_sort_options options;
  bench_case c;
} sort_state;

static size_t sort_result_bytes(const bench_case *c) {
  return c->n * (prism_type_size(c->type) + c->value_size);
}

static double sort_bytes_moved(const bench_case *c) {
  return 2.0 * (double)c->n *
         (double)(prism_type_size(c->type) + c->value_size);
}

static void sort_teardown(void *state) {
  sort_state *s = state;
  prism_buffer_destroy(s->values_out);
  prism_buffer_destroy(s->values_in);
  prism_buffer_destroy(s->keys_out);
  prism_buffer_destroy(s->keys_in);
  free(s);
}

static prism_status sort_setup(prism_context *ctx, const bench_case *c,
                               void **state) {
  sort_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  prism_sort_options_init(&s->options, c->type);
  s->options.order = c->order;
  s->options.begin_bit = c->begin_bit;
  s->options.end_bit = c->end_bit;
  size_t key_bytes = c->n * prism_type_size(c->type);
  prism_status st = bench_upload_input(ctx, c, &s->keys_in);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, key_bytes, &s->keys_out);
  if (st == PRISM_OK && c->value_size) {
    st = bench_upload_indices(ctx, c, &s->values_in);
    if (st == PRISM_OK)
      st = prism_buffer_create(ctx, c->n * c->value_size, &s->values_out);
  }
  if (st != PRISM_OK) {
    sort_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status sort_run(void *state) {
  sort_state *s = state;
  if (s->c.value_size == 0)
    return prism_sort_keys(s->ctx, s->c.type, s->keys_in, s->keys_out, s->c.n,
                           &s->options);
  return prism_sort_pairs(s->ctx, s->c.type, s->keys_in, s->keys_out,
                          s->values_in, s->values_out, s->c.value_size, s->c.n,
                          &s->options);
}

static prism_status sort_read_result(void *state, void *result) {
  sort_state *s = state;
  size_t key_bytes = s->c.n * prism_type_size(s->c.type);
  prism_status st = prism_buffer_read(s->keys_out, 0, result, key_bytes);
  if (st == PRISM_OK && s->c.value_size)
    st = prism_buffer_read(s->values_out, 0, (char *)result + key_bytes,
                           s->c.n * s->c.value_size);
  return st;
}

/* The last reference order computed: every device's result for one case
 * (keys and pairs alike) checks against one host sort, which at 2^28 keys
 * takes longer than the timed runs. Kept until the next case's. */
static struct {
  size_t *order;
  prism_type type;
  prism_order direction;
  unsigned begin, end;
  size_t n;
  uint64_t fingerprint;
} cached;

static const size_t *reference_order(const bench_case *c) {
  uint64_t fp = input_fingerprint(c->input, c->n, prism_type_size(c->type));
  if (cached.order && cached.type == c->type && cached.direction == c->order &&
      cached.begin == c->begin_bit && cached.end == c->end_bit &&
      cached.n == c->n && cached.fingerprint == fp)
    return cached.order;
  free(cached.order);
  cached.order =
      ref_sort_order_new(c->type, c->input, c->n, c->order == PRISM_DESCENDING,
                         c->begin_bit, c->end_bit);
  cached.type = c->type;
  cached.direction = c->order;
  cached.begin = c->begin_bit;
  cached.end = c->end_bit;
  cached.n = c->n;
  cached.fingerprint = fp;
  return cached.order;
}

static int sort_check(const bench_case *c, const void *result, char *msg,
                      size_t msg_size) {
  const size_t *order = reference_order(c);
  if (!order) {
    snprintf(msg, msg_size, "host out of memory for the reference sort");
    return 0;
  }
  return ref_check_sort(c->type, c->value_size, c->input, c->n, order, result,
                        msg, msg_size);
}

static int sort_fill(bench_case *c, void *input, uint64_t seed) {
  input_fill_random_bits(c->type, input, c->n, seed);
  return 0;
}

/* The serial version: qsort in place on scratch (ref_sort.h). */
static size_t sort_serial_scratch_bytes(const bench_case *c) {
  return ref_serial_sort_bytes(c->type, c->value_size, c->begin_bit, c->end_bit,
                               c->n);
}

static void sort_serial_load(const bench_case *c, void *scratch) {
  ref_serial_sort_load(c->type, c->value_size, c->begin_bit, c->end_bit,
                       c->input, c->n, scratch);
}

static void sort_serial(const bench_case *c, void *scratch) {
  ref_serial_sort(c->type, c->order, c->value_size, c->begin_bit, c->end_bit,
                  scratch, c->n);
}

static void sort_serial_store(const bench_case *c, const void *scratch,
                              void *result) {
  ref_serial_sort_store(c->type, c->value_size, c->begin_bit, c->end_bit,
                        scratch, c->n, result);
}

const bench_primitive bench_sort = {
    .name = "sort",
    .uses = BENCH_USES_ORDER | BENCH_USES_VALUES | BENCH_USES_BITS,
    .skip = bench_skip_u8,
    .fill = sort_fill,
    .result_bytes = sort_result_bytes,
    .bytes_moved = sort_bytes_moved,
    .setup = sort_setup,
    .run = sort_run,
    .read_result = sort_read_result,
    .teardown = sort_teardown,
    .check = sort_check,
    .serial = sort_serial,
    .serial_scratch_bytes = sort_serial_scratch_bytes,
    .serial_load = sort_serial_load,
    .serial_store = sort_serial_store,
    .cub = CUB_REF_SORT,
};
