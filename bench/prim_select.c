/* SPDX-License-Identifier: MIT */
/* Stream compaction, timed in the form a user who chains primitives calls
 * it: the count goes to an 8-byte device buffer (count_out) and count is
 * NULL, so every call is queued; CUB's num_selected_out stays on the device
 * too. in and out are different buffers, so every call sees the same input.
 *
 * - select: prism_select_if with x < a, a chosen so that about --keep of
 *   the random input passes (input_select_threshold).
 * - select-flagged: prism_select_flagged with one-byte flags, each set with
 *   probability --keep.
 * - partition: prism_partition_if with the predicate of select.
 * - unique: prism_unique over runs of equal values; each element starts a
 *   run with probability --keep, so about that fraction is kept.
 *
 * Least traffic of one call: read the n elements (and the n flags), write
 * the k kept (partition: all n), write the 8-byte count. */
#include "input.h"
#include "primitive.h"
#include "ref_select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAGS_SEED 0x5bd1e995u /* flags draw from their own sequence */

typedef struct compaction_state {
  prism_context *ctx;
  prism_buffer *in, *flags, *out, *count;
  prism_predicate predicate;
  bench_case c;
} compaction_state;

static size_t element_size(const bench_case *c) {
  return prism_type_size(c->type);
}

static size_t compaction_result_bytes(const bench_case *c) {
  return 8 + c->n * element_size(c);
}

/* Read n, write the kept ones and the count. */
static double select_bytes_moved(const bench_case *c) {
  return (double)(c->n + c->kept) * (double)element_size(c) + 8;
}

static double select_flagged_bytes_moved(const bench_case *c) {
  return select_bytes_moved(c) + (double)c->n;
}

static double partition_bytes_moved(const bench_case *c) {
  return 2.0 * (double)c->n * (double)element_size(c) + 8;
}

static prism_predicate predicate_of(const bench_case *c) {
  prism_predicate p;
  memset(&p, 0, sizeof p);
  p.compare = PRISM_LESS;
  p.a = input_select_threshold(c->type, c->keep);
  return p;
}

/* ---- Data ---------------------------------------------------------------- */

static int select_fill(bench_case *c, void *input, uint64_t seed) {
  prism_predicate p = predicate_of(c);
  input_fill_random(c->type, input, c->n, seed);
  c->kept = ref_count_if(c->type, input, c->n, &p);
  return 0;
}

static size_t flags_bytes(const bench_case *c) {
  return c->n;
}

static int select_flagged_fill(bench_case *c, void *input, uint64_t seed) {
  const uint8_t *flags = c->aux;
  input_fill_random(c->type, input, c->n, seed);
  input_fill_flags(c->aux, c->n, c->keep, seed ^ FLAGS_SEED);
  c->kept = 0;
  for (size_t i = 0; i < c->n; i++)
    c->kept += flags[i];
  return 0;
}

static int unique_fill(bench_case *c, void *input, uint64_t seed) {
  c->kept = input_fill_runs(c->type, input, c->n, c->keep, seed);
  return 0;
}

/* ---- Device side --------------------------------------------------------- */

static void compaction_teardown(void *state) {
  compaction_state *s = state;
  prism_buffer_destroy(s->count);
  prism_buffer_destroy(s->out);
  prism_buffer_destroy(s->flags);
  prism_buffer_destroy(s->in);
  free(s);
}

static prism_status compaction_setup(prism_context *ctx, const bench_case *c,
                                     void **state) {
  compaction_state *s = calloc(1, sizeof *s);
  if (!s)
    return PRISM_OUT_OF_MEMORY;
  s->ctx = ctx;
  s->c = *c;
  s->predicate = predicate_of(c);
  prism_status st = bench_upload_input(ctx, c, &s->in);
  if (st == PRISM_OK && c->aux)
    st = bench_upload(ctx, c->aux, c->n, &s->flags);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, c->n * element_size(c), &s->out);
  if (st == PRISM_OK)
    st = prism_buffer_create(ctx, 8, &s->count);
  if (st != PRISM_OK) {
    compaction_teardown(s);
    return st;
  }
  *state = s;
  return PRISM_OK;
}

static prism_status select_run(void *state) {
  compaction_state *s = state;
  return prism_select_if(s->ctx, s->c.type, s->in, &s->predicate, s->out,
                         s->c.n, s->count, NULL);
}

static prism_status select_flagged_run(void *state) {
  compaction_state *s = state;
  return prism_select_flagged(s->ctx, s->c.type, s->in, PRISM_U8, s->flags,
                              s->out, s->c.n, s->count, NULL);
}

static prism_status partition_run(void *state) {
  compaction_state *s = state;
  return prism_partition_if(s->ctx, s->c.type, s->in, &s->predicate, s->out,
                            s->c.n, s->count, NULL);
}

static prism_status unique_run(void *state) {
  compaction_state *s = state;
  return prism_unique(s->ctx, s->c.type, s->in, s->out, s->c.n, s->count, NULL);
}

/* The count, then the elements it names (partition: all n). A count above
 * n is left for the check to report, with nothing more read. */
static prism_status compaction_read(compaction_state *s, void *result,
                                    int whole) {
  uint64_t count;
  prism_status st = prism_buffer_read(s->count, 0, &count, 8);
  if (st != PRISM_OK)
    return st;
  memcpy(result, &count, 8);
  size_t k = whole ? s->c.n : count > s->c.n ? 0 : (size_t)count;
  if (k == 0)
    return PRISM_OK;
  return prism_buffer_read(s->out, 0, (char *)result + 8,
                           k * element_size(&s->c));
}

static prism_status select_read_result(void *state, void *result) {
  return compaction_read(state, result, 0);
}

static prism_status partition_read_result(void *state, void *result) {
  return compaction_read(state, result, 1);
}

/* ---- Serial versions and checks ------------------------------------------ */

/* The compaction layout: the count, then the elements. */
static void *elements_of(void *result) {
  return (char *)result + 8;
}

static void set_count(void *result, size_t k) {
  uint64_t count = k;
  memcpy(result, &count, 8);
}

static void select_serial(const bench_case *c, void *result) {
  prism_predicate p = predicate_of(c);
  set_count(result,
            ref_select_if(c->type, c->input, c->n, &p, elements_of(result)));
}

static void select_flagged_serial(const bench_case *c, void *result) {
  set_count(result, ref_select_flagged(element_size(c), c->input, PRISM_U8,
                                       c->aux, c->n, elements_of(result)));
}

static void partition_serial(const bench_case *c, void *result) {
  prism_predicate p = predicate_of(c);
  set_count(result,
            ref_partition_if(c->type, c->input, c->n, &p, elements_of(result)));
}

static void unique_serial(const bench_case *c, void *result) {
  set_count(result, ref_unique(c->type, c->input, c->n, elements_of(result)));
}

/* A result against the serial one want: the same count, and the same bytes
 * in the first count elements (every element when whole: partition). */
static int compare_compaction(size_t es, const void *want, const void *got,
                              size_t n, int whole, char *msg, size_t msg_size) {
  uint64_t want_count, got_count;
  memcpy(&want_count, want, 8);
  memcpy(&got_count, got, 8);
  if (got_count != want_count) {
    snprintf(msg, msg_size, "count: got %llu, serial C gives %llu",
             (unsigned long long)got_count, (unsigned long long)want_count);
    return 0;
  }
  const char *w = (const char *)want + 8, *g = (const char *)got + 8;
  size_t check = whole ? n : (size_t)want_count;
  for (size_t i = 0; i < check; i++) {
    if (memcmp(w + i * es, g + i * es, es)) {
      snprintf(msg, msg_size,
               "element %zu of %zu differs from serial C's (bytes at "
               "offset %zu)",
               i, check, i * es);
      return 0;
    }
  }
  return 1;
}

/* Run the serial version into fresh memory and compare. */
static int check_with(void (*serial)(const bench_case *, void *), int whole,
                      const bench_case *c, const void *result, char *msg,
                      size_t msg_size) {
  void *want = malloc(compaction_result_bytes(c));
  if (!want) {
    snprintf(msg, msg_size, "host out of memory for the check");
    return 0;
  }
  serial(c, want);
  int ok = compare_compaction(element_size(c), want, result, c->n, whole, msg,
                              msg_size);
  free(want);
  return ok;
}

static int select_check(const bench_case *c, const void *result, char *msg,
                        size_t msg_size) {
  return check_with(select_serial, 0, c, result, msg, msg_size);
}

static int select_flagged_check(const bench_case *c, const void *result,
                                char *msg, size_t msg_size) {
  return check_with(select_flagged_serial, 0, c, result, msg, msg_size);
}

static int partition_check(const bench_case *c, const void *result, char *msg,
                           size_t msg_size) {
  return check_with(partition_serial, 1, c, result, msg, msg_size);
}

static int unique_check(const bench_case *c, const void *result, char *msg,
                        size_t msg_size) {
  return check_with(unique_serial, 0, c, result, msg, msg_size);
}

static void select_cub_request(const bench_case *c, cub_ref_request *request) {
  request->threshold = predicate_of(c).a;
}

/* ---- The primitives ------------------------------------------------------ */

const bench_primitive bench_select = {
    .name = "select",
    .uses = BENCH_USES_KEEP,
    .by_name_only = 1,
    .fill = select_fill,
    .result_bytes = compaction_result_bytes,
    .bytes_moved = select_bytes_moved,
    .setup = compaction_setup,
    .run = select_run,
    .read_result = select_read_result,
    .teardown = compaction_teardown,
    .check = select_check,
    .serial = select_serial,
    .cub = CUB_REF_SELECT_IF,
    .cub_request = select_cub_request,
};

const bench_primitive bench_select_flagged = {
    .name = "select-flagged",
    .uses = BENCH_USES_KEEP,
    .by_name_only = 1,
    .aux_bytes = flags_bytes,
    .fill = select_flagged_fill,
    .result_bytes = compaction_result_bytes,
    .bytes_moved = select_flagged_bytes_moved,
    .setup = compaction_setup,
    .run = select_flagged_run,
    .read_result = select_read_result,
    .teardown = compaction_teardown,
    .check = select_flagged_check,
    .serial = select_flagged_serial,
    .cub = CUB_REF_SELECT_FLAGGED,
};

const bench_primitive bench_partition = {
    .name = "partition",
    .uses = BENCH_USES_KEEP,
    .by_name_only = 1,
    .fill = select_fill,
    .result_bytes = compaction_result_bytes,
    .bytes_moved = partition_bytes_moved,
    .setup = compaction_setup,
    .run = partition_run,
    .read_result = partition_read_result,
    .teardown = compaction_teardown,
    .check = partition_check,
    .serial = partition_serial,
    .cub = CUB_REF_PARTITION_IF,
    .cub_request = select_cub_request,
};

const bench_primitive bench_unique = {
    .name = "unique",
    .uses = BENCH_USES_KEEP,
    .by_name_only = 1,
    .fill = unique_fill,
    .result_bytes = compaction_result_bytes,
    .bytes_moved = select_bytes_moved,
    .setup = compaction_setup,
    .run = unique_run,
    .read_result = select_read_result,
    .teardown = compaction_teardown,
    .check = unique_check,
    .serial = unique_serial,
    .cub = CUB_REF_UNIQUE,
};
