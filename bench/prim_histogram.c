/* SPDX-License-Identifier: MIT */
/* histogram: prism_histogram_even over input_histogram_bounds (the whole
 * value range of 8- and 32-bit integers, so that uniform samples are
 * uniform over the bins); histogram-range: prism_histogram_range over
 * geometric edges (input_histogram_edges), uploaded by every call as the API
 * does. Counters are u32 (u64 above UINT32_MAX samples), overwritten by
 * each call. Queued. Moves the n samples once and writes the bins counters
 * (range: and reads the bins + 1 edges), the least any histogram needs. */
#include "input.h"
#include "primitive.h"
#include "ref_histogram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct histogram_state {
  prism_context *ctx;
  prism_buffer *samples, *counts;
  bench_case c;
} histogram_state;

/* histogram-range's cases carry their edges in aux; histogram's have none. */
static int is_range(const bench_case *c) {
  return c->aux != NULL;
}

/* The counter type a histogram of n samples uses. */
static prism_type counter_type(size_t n) {
  return n > UINT32_MAX ? PRISM_U64 : PRISM_U32;
}

static size_t counter_size(const bench_case *c) {
  return prism_type_size(counter_type(c->n));
}

static size_t histogram_result_bytes(const bench_case *c) {
  return c->bins * counter_size(c);
}

static double histogram_bytes_moved(const bench_case *c) {
  double bytes = (double)c->n * (double)prism_type_size(c->type) +
                 (double)c->bins * (double)counter_size(c);
  if (is_range(c))
    bytes += (double)(c->bins + 1) * (double)prism_type_size(c->type);
  return bytes;
}

static int histogram_fill(bench_case *c, void *input, uint64_t seed) {
  input_fill_histogram(c->type, c->bins, c->dist == BENCH_DIST_UNIFORM, NULL,
                       input, c->n, seed);
  return 0;
}

static void histogram_teardown(void *state) {
  histogram_state *s = state;
  prism_buffer_destroy(s->counts);
  prism_buffer_destroy(s->samples);
  free(s);
}

static prism_status histogram_setup(prism_context *ctx, const bench_case *c,
                                    void **state) {
  histogram_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  prism_status st = bench_upload_input(ctx, c, &s->samples);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, histogram_result_bytes(c), &s->counts);
  if (st != PRISM_OK) {
    histogram_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status histogram_run(void *state) {
  histogram_state *s = state;
  const bench_case *c = &s->c;
  double lower, upper;
  input_histogram_bounds(c->type, &lower, &upper);
  return prism_histogram_even(s->ctx, c->type, s->samples, c->n, c->bins, lower,
                              upper, counter_type(c->n), s->counts);
}

static prism_status histogram_range_run(void *state) {
  histogram_state *s = state;
  const bench_case *c = &s->c;
  return prism_histogram_range(s->ctx, c->type, s->samples, c->n, c->bins,
                               c->aux, counter_type(c->n), s->counts);
}

static prism_status histogram_read_result(void *state, void *result) {
  histogram_state *s = state;
  return prism_buffer_read(s->counts, 0, result, histogram_result_bytes(&s->c));
}

static void histogram_serial(const bench_case *c, void *result) {
  if (is_range(c)) {
    ref_histogram_range_counters(c->type, c->input, c->n, c->bins, c->aux,
                                 counter_type(c->n), result);
  } else {
    double lower, upper;
    input_histogram_bounds(c->type, &lower, &upper);
    ref_histogram_even_counters(c->type, c->input, c->n, c->bins, lower, upper,
                                counter_type(c->n), result);
  }
}

/* The counts against the serial ones: exact. */
static int check_counts(prism_type type, const void *want, const void *got,
                        size_t bins, char *msg, size_t msg_size) {
  int wide = type == PRISM_U64;
  for (size_t b = 0; b < bins; b++) {
    uint64_t w =
        wide ? ((const uint64_t *)want)[b] : ((const uint32_t *)want)[b];
    uint64_t g = wide ? ((const uint64_t *)got)[b] : ((const uint32_t *)got)[b];
    if (w != g) {
      snprintf(msg, msg_size, "bin %zu: got %llu, serial C gives %llu", b,
               (unsigned long long)g, (unsigned long long)w);
      return 0;
    }
  }
  return 1;
}

static int histogram_check(const bench_case *c, const void *result, char *msg,
                           size_t msg_size) {
  void *want = malloc(histogram_result_bytes(c));
  if (!want) {
    snprintf(msg, msg_size, "host out of memory for the check");
    return 0;
  }
  histogram_serial(c, want);
  int ok =
      check_counts(counter_type(c->n), want, result, c->bins, msg, msg_size);
  free(want);
  return ok;
}

static void histogram_cub_request(const bench_case *c,
                                  cub_ref_request *request) {
  input_histogram_bounds(c->type, &request->lower, &request->upper);
}

const bench_primitive bench_histogram = {
    .name = "histogram",
    .uses = BENCH_USES_BINS | BENCH_USES_DIST,
    .by_name_only = 1,
    .fill = histogram_fill,
    .result_bytes = histogram_result_bytes,
    .bytes_moved = histogram_bytes_moved,
    .setup = histogram_setup,
    .run = histogram_run,
    .read_result = histogram_read_result,
    .teardown = histogram_teardown,
    .check = histogram_check,
    .serial = histogram_serial,
    .cub = CUB_REF_HISTOGRAM_EVEN,
    .cub_request = histogram_cub_request,
};

/* ---- histogram-range ----------------------------------------------------- */

static const char *histogram_range_skip(const bench_case *c) {
  static char why[96];
  size_t max = input_histogram_range_max_bins(c->type);
  if (c->bins <= max)
    return NULL;
  snprintf(why, sizeof why, "%s edges allow at most %zu bins",
           prism_type_name(c->type), max);
  return why;
}

static size_t histogram_range_aux_bytes(const bench_case *c) {
  return (c->bins + 1) * prism_type_size(c->type);
}

static int histogram_range_fill(bench_case *c, void *input, uint64_t seed) {
  input_histogram_edges(c->type, c->bins, c->aux);
  input_fill_histogram(c->type, c->bins, c->dist == BENCH_DIST_UNIFORM, c->aux,
                       input, c->n, seed);
  return 0;
}

const bench_primitive bench_histogram_range = {
    .name = "histogram-range",
    .uses = BENCH_USES_BINS | BENCH_USES_DIST,
    .by_name_only = 1,
    .skip = histogram_range_skip,
    .aux_bytes = histogram_range_aux_bytes,
    .fill = histogram_range_fill,
    .result_bytes = histogram_result_bytes,
    .bytes_moved = histogram_bytes_moved,
    .setup = histogram_setup,
    .run = histogram_range_run,
    .read_result = histogram_read_result,
    .teardown = histogram_teardown,
    .check = histogram_check,
    .serial = histogram_serial,
    .cub = CUB_REF_HISTOGRAM_RANGE,
};
