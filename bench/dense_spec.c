/* SPDX-License-Identifier: MIT */
/* The dense rows' shapes: parsed, named, chosen (dense_spec.h). */
#include "dense_spec.h"

#include "graph_spec.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LARGEST_ELEMENT 8 /* bytes: a shape must fit at any element size */
#define MAX_POWER_OF_TEN 19

/* Write what is wrong with the entry; returns 0 (the entry is refused). */
#define REFUSE(msg, msg_size, ...) (snprintf(msg, msg_size, __VA_ARGS__), 0)

/* The len characters at s as an extent: 8192, 2^13 or 10^8. */
static int parse_extent(const char *s, size_t len, size_t *out) {
  unsigned long long v;
  if (len > 3 && s[0] == '1' && s[1] == '0' && s[2] == '^') {
    if (!graph_spec_parse_count(s + 3, len - 3, MAX_POWER_OF_TEN, &v))
      return 0;
    size_t x = 1;
    for (unsigned long long i = 0; i < v; i++)
      x *= 10;
    *out = x;
    return 1;
  }
  if (!graph_spec_parse_count(s, len, SIZE_MAX, &v))
    return 0;
  *out = (size_t)v;
  return 1;
}

int dense_shape_parse(const char *entry, dense_shape *shape, char *msg,
                      size_t msg_size) {
  memset(shape, 0, sizeof *shape);
  if (strcmp(entry, "small") == 0)
    return 1;
  const char *p = entry;
  size_t bytes = LARGEST_ELEMENT;
  for (;;) {
    const char *x = strchr(p, 'x');
    size_t len = x ? (size_t)(x - p) : strlen(p), e;
    if (shape->dims == DENSE_MAX_DIMS)
      return REFUSE(msg, msg_size, "'%s': at most %d extents", entry,
                    DENSE_MAX_DIMS);
    if (!parse_extent(p, len, &e))
      return REFUSE(msg, msg_size,
                    "'%s' is not a shape: extents from 1, slowest first, "
                    "joined by x (e.g. 16384x16384, 3x10^8, 512x512x512, "
                    "2^13x2^13), or `small`",
                    entry);
    if (bytes > SIZE_MAX / e)
      return REFUSE(msg, msg_size, "'%s': too many elements", entry);
    bytes *= e;
    shape->extent[shape->dims++] = e;
    if (!x)
      return 1;
    p = x + 1;
  }
}

void dense_shape_name(const dense_shape *shape, char *buf, size_t size) {
  size_t len = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < shape->dims && len < size; i++) {
    int w = snprintf(buf + len, size - len, "%s%zu", i ? "x" : "",
                     shape->extent[i]);
    if (w < 0)
      return;
    len += (size_t)w;
  }
}

size_t dense_shape_points(const dense_shape *shape) {
  size_t n = 1;
  for (unsigned i = 0; i < shape->dims; i++)
    n *= shape->extent[i];
  return n;
}

/* Append the shapes of a list of entries that parse; returns the count. */
static int add_entries(const char *const *entries, int (*takes)(unsigned),
                       dense_shape *out, int count) {
  char msg[256];
  for (; *entries && count < DENSE_MAX_SHAPES; entries++) {
    dense_shape s;
    if (dense_shape_parse(*entries, &s, msg, sizeof msg) && takes(s.dims))
      out[count++] = s;
  }
  return count;
}

int dense_shapes(const dense_shape *given, int given_count, int gpu,
                 const dense_shape_defaults *defaults,
                 int (*takes)(unsigned dims), dense_shape *out, int *left_out) {
  int count = 0;
  *left_out = 0;
  if (given_count == 0)
    return add_entries(gpu ? defaults->gpu : defaults->cpu, takes, out, 0);
  for (int i = 0; i < given_count && count < DENSE_MAX_SHAPES; i++) {
    if (given[i].dims == 0)
      count = add_entries(defaults->small, takes, out, count);
    else if (takes(given[i].dims))
      out[count++] = given[i];
    else
      ++*left_out;
  }
  return count;
}

size_t dense_shapes_widest(const dense_shape *given, int given_count,
                           const dense_shape_defaults *defaults,
                           int (*takes)(unsigned dims)) {
  dense_shape shapes[2 * DENSE_MAX_SHAPES];
  char name[64];
  int left_out, count = dense_shapes(given, given_count, 1, defaults, takes,
                                     shapes, &left_out);
  if (given_count == 0)
    count +=
        dense_shapes(NULL, 0, 0, defaults, takes, shapes + count, &left_out);
  size_t widest = 0;
  for (int i = 0; i < count; i++) {
    dense_shape_name(&shapes[i], name, sizeof name);
    if (strlen(name) > widest)
      widest = strlen(name);
  }
  return widest;
}
