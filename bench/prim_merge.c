/* SPDX-License-Identifier: MIT */
/* merge: prism_merge_keys, or prism_merge_pairs with values that are each
 * key's input index (4 or 8 bytes), of the input's two halves, each sorted
 * in the case's order on the host (not timed): a is the first n / 2
 * keys, b the rest, both views of one buffer. Queued. Moves every key
 * (and value) once each way, the least a merge needs. References: CUB's
 * DeviceMerge on NVIDIA devices, a serial merge on CPUs. */
#include "input.h"
#include "primitive.h"
#include "ref_merge.h"
#include "ref_sort.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct merge_state {
  prism_context *ctx;
  prism_buffer *keys, *a, *b, *keys_out;
  prism_buffer *values, *va, *vb, *values_out; /* NULL for keys only */
  bench_case c;
} merge_state;

static size_t half(const bench_case *c) {
  return c->n / 2;
}

static size_t merge_result_bytes(const bench_case *c) {
  return c->n * (prism_type_size(c->type) + c->value_size);
}

static double merge_bytes_moved(const bench_case *c) {
  return 2.0 * (double)c->n *
         (double)(prism_type_size(c->type) + c->value_size);
}

/* The values (each key's input index) on the host, for the serial
 * merge. */
static size_t merge_aux_bytes(const bench_case *c) {
  return c->n * c->value_size;
}

/* Sorts keys[0, n) in place in the case's order by the reference's
 * stable order. Returns 0, or -1 when the host is out of memory. */
static int sort_run(const bench_case *c, unsigned char *keys, size_t n) {
  const size_t ks = prism_type_size(c->type);
  size_t *order = ref_sort_order_new(
      c->type, keys, n, c->order == PRISM_DESCENDING, 0, (unsigned)(ks * 8));
  unsigned char *copy = malloc(n > 0 ? n * ks : 1);
  if (!order || !copy) {
    free(order);
    free(copy);
    return -1;
  }
  memcpy(copy, keys, n * ks);
  for (size_t i = 0; i < n; i++)
    memcpy(keys + i * ks, copy + order[i] * ks, ks);
  free(copy);
  free(order);
  return 0;
}

static int merge_fill(bench_case *c, void *input, uint64_t seed) {
  const size_t ks = prism_type_size(c->type);
  input_fill_random_bits(c->type, input, c->n, seed);
  if (sort_run(c, input, half(c)) != 0 ||
      sort_run(c, (unsigned char *)input + half(c) * ks, c->n - half(c)) != 0)
    return -1;
  if (c->value_size != 0)
    input_fill_indices(c->aux, c->n, c->value_size);
  return 0;
}

static void merge_teardown(void *state) {
  merge_state *s = state;
  prism_buffer *const all[] = {s->values_out, s->vb, s->va, s->values,
                               s->keys_out,   s->b,  s->a,  s->keys};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
    prism_buffer_destroy(all[i]);
  free(s);
}

static prism_status merge_setup(prism_context *ctx, const bench_case *c,
                                void **state) {
  merge_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const size_t na = half(c), nb = c->n - na;
  prism_status st = bench_upload_input(ctx, c, &s->keys);
  if (st == PRISM_OK)
    st = prism_buffer_view(s->keys, 0, na * ks, &s->a);
  if (st == PRISM_OK)
    st = prism_buffer_view(s->keys, na * ks, nb * ks, &s->b);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, c->n * ks, &s->keys_out);
  if (st == PRISM_OK && vs) {
    st = bench_upload(ctx, c->aux, c->n * vs, &s->values);
    if (st == PRISM_OK)
      st = prism_buffer_view(s->values, 0, na * vs, &s->va);
    if (st == PRISM_OK)
      st = prism_buffer_view(s->values, na * vs, nb * vs, &s->vb);
    if (st == PRISM_OK)
      st = prism_buffer_create(ctx, c->n * vs, &s->values_out);
  }
  if (st != PRISM_OK) {
    merge_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status merge_run(void *state) {
  merge_state *s = state;
  const size_t na = half(&s->c), nb = s->c.n - na;
  if (s->c.value_size == 0)
    return prism_merge_keys(s->ctx, s->c.type, s->c.order, s->a, na, s->b, nb,
                            s->keys_out);
  return prism_merge_pairs(s->ctx, s->c.type, s->c.order, s->a, s->va, na, s->b,
                           s->vb, nb, s->keys_out, s->values_out,
                           s->c.value_size);
}

static prism_status merge_read_result(void *state, void *result) {
  merge_state *s = state;
  const size_t key_bytes = s->c.n * prism_type_size(s->c.type);
  prism_status st = prism_buffer_read(s->keys_out, 0, result, key_bytes);
  if (st == PRISM_OK && s->c.value_size)
    st = prism_buffer_read(s->values_out, 0, (char *)result + key_bytes,
                           s->c.n * s->c.value_size);
  return st;
}

/* The serial merge, writing the result layout: n keys, then n values. */
static void merge_serial(const bench_case *c, void *result) {
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const size_t na = half(c);
  const char *in = c->input, *values = c->aux;
  ref_merge(c->type, c->order == PRISM_DESCENDING, in, values, na, in + na * ks,
            vs ? values + na * vs : NULL, c->n - na, vs, result,
            vs ? (char *)result + c->n * ks : NULL);
}

static int merge_check(const bench_case *c, const void *result, char *msg,
                       size_t msg_size) {
  const size_t bytes = merge_result_bytes(c);
  unsigned char *want = malloc(bytes ? bytes : 1);
  if (!want) {
    snprintf(msg, msg_size, "host out of memory for the reference merge");
    return 0;
  }
  merge_serial(c, want);
  const size_t ks = prism_type_size(c->type), vs = c->value_size;
  const unsigned char *got = result;
  int ok = 1;
  for (size_t i = 0; i < c->n && ok; i++) {
    if (memcmp(got + i * ks, want + i * ks, ks) != 0) {
      snprintf(msg, msg_size, "key %zu differs from the serial merge's", i);
      ok = 0;
    } else if (vs && memcmp(got + c->n * ks + i * vs, want + c->n * ks + i * vs,
                            vs) != 0) {
      snprintf(msg, msg_size,
               "value %zu differs from the serial merge's (stability)", i);
      ok = 0;
    }
  }
  free(want);
  return ok;
}

/* CUB reads the halves from the input; its values are the input indices
 * it makes itself, so the host's copy of them stays here. */
static void merge_cub_request(const bench_case *c, cub_ref_request *r) {
  r->split = half(c);
  r->aux = NULL;
  r->aux_bytes = 0;
}

const bench_primitive bench_merge = {
    .name = "merge",
    .by_name_only = 1,
    .uses = BENCH_USES_ORDER | BENCH_USES_VALUES,
    .skip = bench_skip_u8,
    .aux_bytes = merge_aux_bytes,
    .fill = merge_fill,
    .result_bytes = merge_result_bytes,
    .bytes_moved = merge_bytes_moved,
    .setup = merge_setup,
    .run = merge_run,
    .read_result = merge_read_result,
    .teardown = merge_teardown,
    .check = merge_check,
    .serial = merge_serial,
    .cub = CUB_REF_MERGE,
    .cub_request = merge_cub_request,
};
