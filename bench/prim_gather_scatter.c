/* SPDX-License-Identifier: MIT */
/* gather and scatter: prism_gather (out[i] = in[idx[i]]) and prism_scatter
 * (out[idx[i]] = in[i]) of 4- or 8-byte elements (the element type only
 * sets the size), with u32 indices that are a random permutation of
 * [0, n): every element is read and written once, in random order on one
 * side. Unchecked, so queued. Moves the indices and the elements once each
 * way: n x (4 + 2 x element size) bytes. No CUB counterpart; %copy is the
 * reference on a GPU. */
#include "input.h"
#include "primitive.h"
#include "ref_gather_scatter.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Mixed into the case's seed for the permutation. */
#define PERMUTATION_SEED 0x5ca77e12u

typedef struct move_state {
  prism_context *ctx;
  prism_buffer *in, *indices, *out;
  bench_case c;
} move_state;

static size_t element_size(const bench_case *c) {
  return prism_type_size(c->type);
}

static const char *move_skip(const bench_case *c) {
  if (c->type == PRISM_U8)
    return "gather and scatter move 4- or 8-byte elements";
  if (c->n > UINT32_MAX)
    return "the bench's indices are u32: n < 2^32";
  return NULL;
}

static size_t indices_bytes(const bench_case *c) {
  return c->n * sizeof(uint32_t);
}

/* Random elements, and a random permutation of [0, n) (Fisher-Yates) as
 * the indices (n < 2^32: move_skip). */
static int move_fill(bench_case *c, void *input, uint64_t seed) {
  uint32_t *idx = c->aux;
  input_fill_random(c->type, input, c->n, seed);
  for (size_t i = 0; i < c->n; i++)
    idx[i] = (uint32_t)i;
  uint64_t state = seed ^ PERMUTATION_SEED;
  for (size_t i = c->n; i > 1; i--) {
    size_t j = (size_t)(input_random(&state) % i);
    uint32_t t = idx[i - 1];
    idx[i - 1] = idx[j];
    idx[j] = t;
  }
  return 0;
}

static size_t move_result_bytes(const bench_case *c) {
  return c->n * element_size(c);
}

static double move_bytes_moved(const bench_case *c) {
  return (double)c->n * (double)(sizeof(uint32_t) + 2 * element_size(c));
}

static void move_teardown(void *state) {
  move_state *s = state;
  prism_buffer_destroy(s->out);
  prism_buffer_destroy(s->indices);
  prism_buffer_destroy(s->in);
  free(s);
}

static prism_status move_setup(prism_context *ctx, const bench_case *c,
                               void **state) {
  move_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  prism_status st = bench_upload_input(ctx, c, &s->in);
  if (st == PRISM_OK)
    st = bench_upload(ctx, c->aux, indices_bytes(c), &s->indices);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, move_result_bytes(c), &s->out);
  if (st != PRISM_OK) {
    move_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status gather_run(void *state) {
  move_state *s = state;
  return prism_gather(s->ctx, element_size(&s->c), s->in, s->c.n, PRISM_U32,
                      s->indices, s->out, s->c.n, 0, NULL);
}

static prism_status scatter_run(void *state) {
  move_state *s = state;
  return prism_scatter(s->ctx, element_size(&s->c), s->in, PRISM_U32,
                       s->indices, s->out, s->c.n, s->c.n, 0, NULL);
}

static prism_status move_read_result(void *state, void *result) {
  move_state *s = state;
  return prism_buffer_read(s->out, 0, result, move_result_bytes(&s->c));
}

static void gather_serial(const bench_case *c, void *result) {
  ref_gather(element_size(c), c->input, PRISM_U32, c->aux, result, c->n);
}

static void scatter_serial(const bench_case *c, void *result) {
  ref_scatter(element_size(c), c->input, PRISM_U32, c->aux, result, c->n);
}

/* The serial version into fresh memory, compared byte for byte (the
 * indices are a permutation, so every output element is defined). */
static int check_with(void (*serial)(const bench_case *, void *),
                      const bench_case *c, const void *result, char *msg,
                      size_t msg_size) {
  const size_t e = element_size(c);
  char *want = malloc(move_result_bytes(c) ? move_result_bytes(c) : 1);
  if (!want) {
    snprintf(msg, msg_size, "host out of memory for the check");
    return 0;
  }
  serial(c, want);
  const char *got = result;
  int ok = 1;
  for (size_t i = 0; i < c->n && ok; i++)
    if (memcmp(got + i * e, want + i * e, e) != 0) {
      snprintf(msg, msg_size, "element %zu differs from the serial result", i);
      ok = 0;
    }
  free(want);
  return ok;
}

static int gather_check(const bench_case *c, const void *result, char *msg,
                        size_t msg_size) {
  return check_with(gather_serial, c, result, msg, msg_size);
}

static int scatter_check(const bench_case *c, const void *result, char *msg,
                         size_t msg_size) {
  return check_with(scatter_serial, c, result, msg, msg_size);
}

const bench_primitive bench_gather = {
    .name = "gather",
    .by_name_only = 1,
    .skip = move_skip,
    .aux_bytes = indices_bytes,
    .fill = move_fill,
    .result_bytes = move_result_bytes,
    .bytes_moved = move_bytes_moved,
    .setup = move_setup,
    .run = gather_run,
    .read_result = move_read_result,
    .teardown = move_teardown,
    .check = gather_check,
    .serial = gather_serial,
    .cub = CUB_REF_NONE,
};

const bench_primitive bench_scatter = {
    .name = "scatter",
    .by_name_only = 1,
    .skip = move_skip,
    .aux_bytes = indices_bytes,
    .fill = move_fill,
    .result_bytes = move_result_bytes,
    .bytes_moved = move_bytes_moved,
    .setup = move_setup,
    .run = scatter_run,
    .read_result = move_read_result,
    .teardown = move_teardown,
    .check = scatter_check,
    .serial = scatter_serial,
    .cub = CUB_REF_NONE,
};
