/* SPDX-License-Identifier: MIT */
/* segmented-sort: prism_segmented_sort_keys, or prism_segmented_sort_pairs
 * with values that are each key's input index (4 or 8 bytes), of every
 * segment of the layout input_segment_offsets makes (--segment: the mean
 * length, `skew` or a Pareto power law), by offsets (u32, u64 above
 * UINT32_MAX keys), out of place: keys_in (and values_in) are left
 * unchanged, so every call sorts the same input. The call waits once for
 * its split of the segments by length; that wait is part of the time. The
 * keys are random bits over the key's whole width (as sort's). Moves the
 * keys and values once each way and reads the offsets once, the least any
 * segmented sort needs. References: CUB's DeviceSegmentedSort (its stable
 * sorts) on NVIDIA devices, qsort of each segment on CPUs.
 *
 * The host data (c->aux): the segments + 1 offsets as uint64_t (what the
 * references take), then, below 2^32 keys, the same offsets as uint32_t
 * (what prism and CUB get). */
#include "input.h"
#include "primitive.h"
#include "ref_sort.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct segsort_state {
  prism_context *ctx;
  prism_buffer *keys_in, *keys_out, *offsets;
  prism_buffer *values_in, *values_out; /* NULL for keys only */
  prism_sort_options options;
  bench_case c;
} segsort_state;

static size_t key_size(const bench_case *c) {
  return prism_type_size(c->type);
}

static unsigned key_bits(const bench_case *c) {
  return (unsigned)(key_size(c) * 8);
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

/* The offsets as the references take them. */
static const uint64_t *host_offsets(const bench_case *c) {
  return c->aux;
}

/* The offsets as prism and CUB take them (offset_type). */
static const void *device_offsets(const bench_case *c) {
  const uint64_t *wide = host_offsets(c);
  return offset_size(c) == 8 ? (const void *)wide
                             : (const void *)(wide + c->segments + 1);
}

static size_t device_offset_bytes(const bench_case *c) {
  return (c->segments + 1) * offset_size(c);
}

static size_t segsort_aux_bytes(const bench_case *c) {
  size_t count = segment_count(c) + 1;
  return count * 8 + (offset_size(c) == 8 ? 0 : count * offset_size(c));
}

static int segsort_fill(bench_case *c, void *input, uint64_t seed) {
  input_fill_random_bits(c->type, input, c->n, seed);
  c->segments = segment_count(c);
  uint64_t *wide = c->aux;
  input_segment_offsets(c->n, c->segment, c->skew, seed, 8, wide);
  if (offset_size(c) == 4) {
    uint32_t *narrow = (uint32_t *)(wide + c->segments + 1);
    for (size_t i = 0; i <= c->segments; i++)
      narrow[i] = (uint32_t)wide[i];
  }
  return 0;
}

static size_t segsort_result_bytes(const bench_case *c) {
  return c->n * (key_size(c) + c->value_size);
}

static double segsort_bytes_moved(const bench_case *c) {
  return 2.0 * (double)segsort_result_bytes(c) +
         (double)((segment_count(c) + 1) * offset_size(c));
}

static void segsort_teardown(void *state) {
  segsort_state *s = state;
  prism_buffer *const all[] = {s->values_out, s->values_in, s->offsets,
                               s->keys_out, s->keys_in};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    prism_buffer_destroy(all[i]);
  free(s);
}

static prism_status segsort_setup(prism_context *ctx, const bench_case *c,
                                  void **state) {
  segsort_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  prism_sort_options_init(&s->options, c->type);
  s->options.order = c->order;
  prism_status st = bench_upload_input(ctx, c, &s->keys_in);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, c->n * key_size(c), &s->keys_out);
  if (st == PRISM_OK)
    st = bench_upload(ctx, device_offsets(c), device_offset_bytes(c),
                      &s->offsets);
  if (st == PRISM_OK && c->value_size) {
    st = bench_upload_indices(ctx, c, &s->values_in);
    if (st == PRISM_OK)
      st = prism_buffer_create(ctx, c->n * c->value_size, &s->values_out);
  }
  if (st != PRISM_OK) {
    segsort_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status segsort_run(void *state) {
  segsort_state *s = state;
  const bench_case *c = &s->c;
  if (c->value_size == 0)
    return prism_segmented_sort_keys(s->ctx, c->type, s->keys_in, s->keys_out,
                                     c->n, offset_type(c), s->offsets,
                                     c->segments, &s->options, NULL);
  return prism_segmented_sort_pairs(s->ctx, c->type, s->keys_in, s->keys_out,
                                    s->values_in, s->values_out, c->value_size,
                                    c->n, offset_type(c), s->offsets,
                                    c->segments, &s->options, NULL);
}

static prism_status segsort_read_result(void *state, void *result) {
  segsort_state *s = state;
  size_t key_bytes = s->c.n * key_size(&s->c);
  prism_status st = prism_buffer_read(s->keys_out, 0, result, key_bytes);
  if (st == PRISM_OK && s->c.value_size)
    st = prism_buffer_read(s->values_out, 0, (char *)result + key_bytes,
                           s->c.n * s->c.value_size);
  return st;
}

/* The last reference order computed: every device's result for one case
 * (keys and pairs alike) checks against one host sort. Kept until the next
 * case's (as sort's). */
static struct {
  size_t *order;
  prism_type type;
  prism_order direction;
  size_t n, segments;
  uint64_t keys, offsets; /* fingerprints */
} cached;

static const size_t *reference_order(const bench_case *c) {
  uint64_t keys = input_fingerprint(c->input, c->n, key_size(c));
  uint64_t offsets = input_fingerprint(c->aux, c->segments + 1, 8);
  if (cached.order && cached.type == c->type && cached.direction == c->order &&
      cached.n == c->n && cached.segments == c->segments &&
      cached.keys == keys && cached.offsets == offsets)
    return cached.order;
  free(cached.order);
  cached.order = ref_segmented_sort_order_new(
      c->type, c->input, c->n, host_offsets(c), c->segments,
      c->order == PRISM_DESCENDING, 0, key_bits(c));
  cached.type = c->type;
  cached.direction = c->order;
  cached.n = c->n;
  cached.segments = c->segments;
  cached.keys = keys;
  cached.offsets = offsets;
  return cached.order;
}

static int segsort_check(const bench_case *c, const void *result, char *msg,
                         size_t msg_size) {
  const size_t *order = reference_order(c);
  if (!order) {
    snprintf(msg, msg_size, "host out of memory for the reference sort");
    return 0;
  }
  return ref_check_sort(c->type, c->value_size, c->input, c->n, order, result,
                        msg, msg_size);
}

/* The serial version: qsort of each segment in place on scratch
 * (ref_sort.h), loaded from the input before every call, untimed. */
static size_t segsort_serial_scratch_bytes(const bench_case *c) {
  return ref_serial_sort_bytes(c->type, c->value_size, 0, key_bits(c), c->n);
}

static void segsort_serial_load(const bench_case *c, void *scratch) {
  ref_serial_sort_load(c->type, c->value_size, 0, key_bits(c), c->input, c->n,
                       scratch);
}

static void segsort_serial(const bench_case *c, void *scratch) {
  ref_serial_segmented_sort(c->type, c->order, c->value_size, 0, key_bits(c),
                            scratch, c->n, host_offsets(c), c->segments);
}

static void segsort_serial_store(const bench_case *c, const void *scratch,
                                 void *result) {
  ref_serial_sort_store(c->type, c->value_size, 0, key_bits(c), scratch, c->n,
                        result);
}

/* CUB gets the offsets prism gets; its values are the input indices it
 * makes itself. */
static void segsort_cub_request(const bench_case *c, cub_ref_request *r) {
  r->aux = device_offsets(c);
  r->aux_bytes = device_offset_bytes(c);
  r->offset_size = offset_size(c);
  r->begin_bit = 0;
  r->end_bit = key_bits(c);
}

const bench_primitive bench_segmented_sort = {
    .name = "segmented-sort",
    .uses = BENCH_USES_ORDER | BENCH_USES_VALUES | BENCH_USES_SEGMENT,
    .by_name_only = 1,
    .skip = bench_skip_u8,
    .aux_bytes = segsort_aux_bytes,
    .fill = segsort_fill,
    .result_bytes = segsort_result_bytes,
    .bytes_moved = segsort_bytes_moved,
    .setup = segsort_setup,
    .run = segsort_run,
    .read_result = segsort_read_result,
    .teardown = segsort_teardown,
    .check = segsort_check,
    .serial = segsort_serial,
    .serial_scratch_bytes = segsort_serial_scratch_bytes,
    .serial_load = segsort_serial_load,
    .serial_store = segsort_serial_store,
    .cub = CUB_REF_SEGMENTED_SORT,
    .cub_request = segsort_cub_request,
};
