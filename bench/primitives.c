#include "primitive.h"

#include <string.h>

const bench_primitive *const bench_primitives[] = {
    &bench_reduce,
    &bench_scan,
    &bench_sort,
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

prism_status bench_upload_input(prism_context *ctx, const bench_case *c,
                                prism_buffer **out) {
  size_t bytes = c->n * prism_type_size(c->type);
  prism_buffer *buf = NULL;
  prism_status st = prism_buffer_create(ctx, bytes, &buf);
  if (st != PRISM_OK)
    return st;
  st = prism_buffer_write(buf, 0, c->input, bytes);
  if (st != PRISM_OK) {
    prism_buffer_destroy(buf);
    return st;
  }
  *out = buf;
  return PRISM_OK;
}
