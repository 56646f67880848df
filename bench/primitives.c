/* SPDX-License-Identifier: MIT */
#include "primitive.h"

#include "input.h"

#include <stdlib.h>
#include <string.h>

const bench_primitive *const bench_primitives[] = {
    &bench_reduce,
    &bench_reduce_device,
    &bench_scan,
    &bench_sort,
    &bench_histogram,
    &bench_histogram_range,
    &bench_select,
    &bench_select_flagged,
    &bench_partition,
    &bench_unique,
    &bench_segmented_reduce,
    &bench_segmented_scan,
    &bench_segmented_sort,
    &bench_gather,
    &bench_scatter,
    &bench_bfs,
    &bench_spmv,
    &bench_transpose,
    &bench_stencil,
    &bench_conv2d,
    &bench_merge,
    &bench_topk,
};

const int bench_primitive_count =
    (int)(sizeof bench_primitives / sizeof bench_primitives[0]);

const bench_primitive *bench_primitive_find(const char *name) {
  for (int i = 0; i < bench_primitive_count; i++) {
    if (strcmp(bench_primitives[i]->name, name) == 0)
      return bench_primitives[i];
  }
  return NULL;
}

prism_status bench_upload(prism_context *ctx, const void *host, size_t bytes,
                          prism_buffer **out) {
  prism_buffer *buf = NULL;
  prism_status st = prism_buffer_create(ctx, bytes ? bytes : 1, &buf);
  if (st != PRISM_OK)
    return st;
  if (bytes)
    st = prism_buffer_write(buf, 0, host, bytes);
  if (st != PRISM_OK) {
    prism_buffer_destroy(buf);
    return st;
  }
  *out = buf;
  return PRISM_OK;
}

prism_status bench_upload_input(prism_context *ctx, const bench_case *c,
                                prism_buffer **out) {
  return bench_upload(ctx, c->input, c->n * prism_type_size(c->type), out);
}

prism_status bench_upload_indices(prism_context *ctx, const bench_case *c,
                                  prism_buffer **out) {
  size_t bytes = c->n * c->value_size;
  void *host = malloc(bytes ? bytes : 1);
  if (!host)
    return (prism_status)-1; /* host out of memory */
  input_fill_indices(host, c->n, c->value_size);
  prism_status st = bench_upload(ctx, host, bytes, out);
  free(host);
  return st;
}

const char *bench_skip_u8(const bench_case *c) {
  return c->type == PRISM_U8 ? "u8 is taken only by histograms and compaction"
                             : NULL;
}
