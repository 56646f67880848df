/* SPDX-License-Identifier: MIT */
/*
 * prism_transpose and stencils against the serial reference
 * (reference/ref_dense.h), bit for bit.
 *
 * Transpose: 1 x 1, 1 x N, N x 1, primes, every tile size and its
 * neighbours, tall and skinny, wide, batches, element sizes 1, 2, 4 and 8
 * (random bytes: NaN payloads and all), sides in multiples of 2 and 4 (the
 * packed path of 1-, 2- and 4-byte elements) at aligned and unaligned views,
 * the transpose of the transpose, views, nothing to do, the same bits on
 * a second run; then bad input.
 *
 * Stencils: 1-D, 2-D and 3-D, radii 0 to 8, every border mode, shapes
 * from 1 x 1 x 1 through primes and tile sizes, radii beyond the grid,
 * star-shaped and full boxes, NaN and infinities in the weights and the
 * input, zero weights that must keep a NaN out, iterations, f32 and f64,
 * views, the same bits on a second run; the handle's accessors and
 * lifetime; then bad input. Values are compared bit for bit, except that
 * where the reference has a NaN any NaN is accepted (IEEE 754 leaves a NaN
 * result's sign and payload to the hardware).
 */
#include "harness.h"
#include "ref_dense.h"
#include "vectors.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 1;

/* Poisoned bytes past every output (and around every view) that must stay
 * untouched. */
#define GUARD_BYTES 64

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const prism_type value_types[] = {PRISM_F32, PRISM_F64};
static const prism_border borders[] = {PRISM_BORDER_ZERO, PRISM_BORDER_CLAMP,
                                       PRISM_BORDER_PERIODIC};
static const size_t element_sizes[] = {1, 2, 4, 8};

/* ---- Host data ----------------------------------------------------------- */

static double unit(uint64_t *state) {
  return (double)(vec_next(state) >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

static void *random_bytes(size_t bytes, uint64_t seed) {
  unsigned char *p = harness_malloc(bytes);
  uint64_t state = seed;
  for (size_t i = 0; i < bytes; i += 8) {
    const uint64_t v = vec_next(&state);
    memcpy(p + i, &v, bytes - i < 8 ? bytes - i : 8);
  }
  return p;
}

static void set_value(prism_type type, void *p, size_t i, double v) {
  if (type == PRISM_F64)
    ((double *)p)[i] = v;
  else
    ((float *)p)[i] = (float)v;
}

static double get_value(prism_type type, const void *p, size_t i) {
  return type == PRISM_F64 ? ((const double *)p)[i] : ((const float *)p)[i];
}

/* Every byte of p[from, to) is the poison. */
static void assert_poison(const unsigned char *p, size_t from, size_t to,
                          const char *where, const char *name) {
  for (size_t b = from; b < to; b++)
    cr_assert_eq(p[b], HARNESS_POISON, "%s: byte %zu %s written", name, b,
                 where);
}

/* ---- Transpose ----------------------------------------------------------- */

/* One transpose on the device against the reference: in (random bytes)
 * and out at in_at / out_at elements into larger poisoned buffers (views
 * when not 0), nothing outside out's range written, in never written, the
 * same bits again over other bytes, and the transpose of the result the
 * input. */
static void check_transpose(prism_context *ctx, size_t size, size_t rows,
                            size_t cols, size_t batch, size_t in_at,
                            size_t out_at, const char *name) {
  const size_t n = rows * cols * batch, bytes = n * size;
  const size_t in_off = in_at * size, out_off = out_at * size;
  char label[160];
  snprintf(label, sizeof label,
           "%s: %zu x %zu (batch %zu) of %zu-byte elements, in at %zu, out "
           "at %zu",
           name, rows, cols, batch, size, in_at, out_at);
  unsigned char *host =
      random_bytes(bytes, 17 + rows * 31 + cols * 7 + batch * 3 + size);
  unsigned char *want = harness_malloc(bytes);
  ref_transpose(size, host, want, rows, cols, batch);

  prism_buffer *inbuf = harness_poisoned(ctx, in_off + bytes + GUARD_BYTES);
  prism_buffer *outbuf = harness_poisoned(ctx, out_off + bytes + GUARD_BYTES);
  HARNESS_OK(ctx, prism_buffer_write(inbuf, in_off, host, bytes));
  prism_buffer *in = inbuf, *out = outbuf;
  if (in_at)
    HARNESS_OK(ctx, prism_buffer_view(inbuf, in_off, bytes, &in));
  if (out_at)
    HARNESS_OK(ctx, prism_buffer_view(outbuf, out_off, bytes, &out));

  prism_status st = prism_transpose(ctx, size, in, out, rows, cols, batch);
  cr_assert_eq(st, PRISM_OK, "%s: %s: %s", label, prism_status_name(st),
               prism_context_last_error(ctx));
  unsigned char *got = harness_download(outbuf);
  if (memcmp(got + out_off, want, bytes) != 0) {
    size_t i = 0;
    while (memcmp(got + out_off + i * size, want + i * size, size) == 0)
      i++;
    const size_t m = i / (rows * cols), c = i % (rows * cols) / rows,
                 r = i % rows;
    cr_assert_fail("%s: out[%zu][%zu][%zu] (element %zu) is not in[%zu][%zu]"
                   "[%zu]",
                   label, m, c, r, i, m, r, c);
  }
  assert_poison(got, 0, out_off, "before out", label);
  assert_poison(got, out_off + bytes, out_off + bytes + GUARD_BYTES, "past out",
                label);
  unsigned char *in_after = harness_download(inbuf);
  assert_poison(in_after, 0, in_off, "before in", label);
  cr_assert(memcmp(in_after + in_off, host, bytes) == 0, "%s: in written",
            label);
  assert_poison(in_after, in_off + bytes, in_off + bytes + GUARD_BYTES,
                "past in", label);
  free(in_after);

  /* The same bits again, over other bytes; then back. */
  const unsigned char zero = 0;
  HARNESS_OK(ctx, prism_buffer_fill(outbuf, out_off, &zero, 1, bytes));
  HARNESS_OK(ctx, prism_transpose(ctx, size, in, out, rows, cols, batch));
  unsigned char *again = harness_download(outbuf);
  cr_assert(memcmp(again + out_off, got + out_off, bytes) == 0,
            "%s: a second run gave other bits", label);
  free(again);
  prism_buffer *back = harness_poisoned(ctx, bytes + GUARD_BYTES);
  HARNESS_OK(ctx, prism_transpose(ctx, size, out, back, cols, rows, batch));
  unsigned char *twice = harness_download(back);
  cr_assert(memcmp(twice, host, bytes) == 0,
            "%s: transposing the transpose does not give the input", label);
  assert_poison(twice, bytes, bytes + GUARD_BYTES, "past the transpose back",
                label);
  free(twice);

  prism_buffer_destroy(back);
  if (in != inbuf)
    prism_buffer_destroy(in);
  if (out != outbuf)
    prism_buffer_destroy(out);
  prism_buffer_destroy(inbuf);
  prism_buffer_destroy(outbuf);
  free(got);
  free(want);
  free(host);
}

typedef struct shape {
  size_t rows, cols, batch;
} shape;

/* Every shape at every element size, whole buffers. */
static void transpose_shapes(const shape *shapes, size_t count,
                             const char *name) {
  prism_context *ctx = harness_context();
  for (size_t s = 0; s < count; s++)
    for (size_t e = 0; e < COUNT(element_sizes); e++)
      check_transpose(ctx, element_sizes[e], shapes[s].rows, shapes[s].cols,
                      shapes[s].batch, 0, 0, name);
  prism_context_destroy(ctx);
}

Test(transpose, small_shapes) {
  static const shape shapes[] = {
      {1, 1, 1},   {1, 2, 1},    {2, 1, 1},     {2, 2, 1},     {1, 37, 1},
      {37, 1, 1},  {1, 1000, 1}, {1000, 1, 1},  {7, 13, 1},    {13, 7, 1},
      {37, 53, 1}, {53, 37, 1},  {101, 103, 1}, {103, 101, 1}, {3, 5, 1}};
  transpose_shapes(shapes, COUNT(shapes), "small shapes");
}

/* Each side on a tile size and either side of it, against itself, against
 * the next and against a short side. */
Test(transpose, tile_sizes) {
  static const size_t sides[] = {15, 16, 17, 31,  32,  33,
                                 63, 64, 65, 127, 128, 129};
  shape shapes[4 * COUNT(sides)];
  size_t count = 0;
  for (size_t i = 0; i < COUNT(sides); i++) {
    const size_t t = sides[i], next = sides[(i + 1) % COUNT(sides)];
    shapes[count++] = (shape){t, t, 1};
    shapes[count++] = (shape){t, next, 1};
    shapes[count++] = (shape){t, 5, 1};
    shapes[count++] = (shape){5, t, 1};
  }
  transpose_shapes(shapes, count, "tile sizes");
}

Test(transpose, tall_and_wide) {
  static const shape shapes[] = {{3, 100003, 1}, {100003, 3, 1}, {2, 65537, 1},
                                 {65537, 2, 1},  {1, 100003, 1}, {100003, 1, 1},
                                 {5, 4099, 1},   {4099, 5, 1}};
  transpose_shapes(shapes, COUNT(shapes), "tall and wide");
}

Test(transpose, batches) {
  static const shape shapes[] = {{33, 17, 2},  {1, 5, 7},     {5, 1, 7},
                                 {64, 64, 3},  {3, 1000, 5},  {1000, 3, 5},
                                 {17, 129, 4}, {1, 1, 9},     {37, 53, 2},
                                 {2, 2, 1000}, {128, 129, 2}, {7, 65, 11}};
  transpose_shapes(shapes, COUNT(shapes), "batches");
}

/* Sides that are multiples of 2 and 4, so 1-, 2- and 4-byte elements take
 * the packed path (words of w elements, w x w blocks transposed in
 * registers): one block, one row or column of blocks, blocks across tile
 * edges, skinny and wide, batches; and sides a multiple of 2 only (1-byte
 * elements move one by one, the others packed). */
Test(transpose, packed_shapes) {
  static const shape shapes[] = {{4, 4, 1},      {4, 8, 1},      {8, 4, 1},
                                 {2, 2, 1},      {2, 6, 1},      {6, 10, 1},
                                 {4, 100004, 1}, {100004, 4, 1}, {8, 65540, 1},
                                 {65540, 8, 1},  {128, 128, 1},  {132, 260, 1},
                                 {260, 132, 1},  {256, 4100, 1}, {36, 52, 3},
                                 {4, 4, 1000},   {64, 68, 2},    {2, 130, 5}};
  transpose_shapes(shapes, COUNT(shapes), "packed shapes");
}

/* Packed shapes with in and out at word-aligned offsets (packed) and at
 * offsets that leave a side unaligned (element by element). */
Test(transpose, packed_views) {
  prism_context *ctx = harness_context();
  static const shape shapes[] = {{4, 4, 1}, {36, 52, 2}, {132, 64, 1}};
  static const size_t offsets[][2] = {{4, 8}, {16, 0}, {0, 12},
                                      {2, 0}, {0, 1},  {3, 6}};
  for (size_t s = 0; s < COUNT(shapes); s++)
    for (size_t e = 0; e < COUNT(element_sizes); e++)
      for (size_t o = 0; o < COUNT(offsets); o++)
        check_transpose(ctx, element_sizes[e], shapes[s].rows, shapes[s].cols,
                        shapes[s].batch, offsets[o][0], offsets[o][1],
                        "packed views");
  prism_context_destroy(ctx);
}

/* in and out at odd element offsets into larger buffers, and at 16. */
Test(transpose, views) {
  prism_context *ctx = harness_context();
  static const shape shapes[] = {
      {1, 1, 1}, {37, 53, 1}, {64, 65, 2}, {3, 1000, 1}, {129, 17, 3}};
  static const size_t offsets[][2] = {{3, 5}, {16, 0}, {0, 7}, {1, 16}};
  for (size_t s = 0; s < COUNT(shapes); s++)
    for (size_t e = 0; e < COUNT(element_sizes); e++)
      for (size_t o = 0; o < COUNT(offsets); o++)
        check_transpose(ctx, element_sizes[e], shapes[s].rows, shapes[s].cols,
                        shapes[s].batch, offsets[o][0], offsets[o][1], "views");
  prism_context_destroy(ctx);
}

/* rows, cols or batch 0: PRISM_OK and nothing written. */
Test(transpose, zero_size) {
  prism_context *ctx = harness_context();
  static const shape shapes[] = {{0, 5, 1}, {5, 0, 1}, {5, 5, 0},
                                 {0, 0, 0}, {0, 1, 3}, {1000, 1000, 0}};
  prism_buffer *in = harness_poisoned(ctx, GUARD_BYTES);
  prism_buffer *out = harness_poisoned(ctx, GUARD_BYTES);
  prism_buffer *empty_in = NULL, *empty_out = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty_in));
  HARNESS_OK(ctx, prism_buffer_create(ctx, 0, &empty_out));
  for (size_t s = 0; s < COUNT(shapes); s++)
    for (size_t e = 0; e < COUNT(element_sizes); e++) {
      HARNESS_OK(ctx,
                 prism_transpose(ctx, element_sizes[e], in, out, shapes[s].rows,
                                 shapes[s].cols, shapes[s].batch));
      HARNESS_OK(ctx, prism_transpose(ctx, element_sizes[e], empty_in,
                                      empty_out, shapes[s].rows, shapes[s].cols,
                                      shapes[s].batch));
    }
  unsigned char *got = harness_download(out);
  assert_poison(got, 0, GUARD_BYTES, "of out", "an empty transpose");
  free(got);
  prism_buffer_destroy(empty_in);
  prism_buffer_destroy(empty_out);
  prism_buffer_destroy(in);
  prism_buffer_destroy(out);
  harness_assert_alive(ctx, "empty transposes");
  prism_context_destroy(ctx);
}

Test(transpose, bad_input) {
  prism_context *ctx = harness_context();
  const char *fn = "prism_transpose";
  const size_t rows = 10, cols = 12, size = 4, bytes = rows * cols * size;
  prism_buffer *in = harness_poisoned(ctx, bytes);
  prism_buffer *out = harness_poisoned(ctx, bytes);
  prism_buffer *small = harness_poisoned(ctx, bytes - 1);
  prism_buffer *big = harness_poisoned(ctx, 3 * bytes);

  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "element_size",
                 prism_transpose(ctx, 3, in, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "element_size",
                 prism_transpose(ctx, 0, in, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "element_size",
                 prism_transpose(ctx, 16, in, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, fn,
                 prism_transpose(ctx, 5, in, out, rows, cols, 1));
  /* rows * cols * batch * element_size beyond SIZE_MAX, each factor the
   * one that tips it over. */
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows",
                 prism_transpose(ctx, 1, in, out, SIZE_MAX / 2, 3, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows",
                 prism_transpose(ctx, 8, in, out, SIZE_MAX / 8 + 1, 1, 1));
  HARNESS_EXPECT(
      ctx, PRISM_INVALID_ARGUMENT, "overflows",
      prism_transpose(ctx, 2, in, out, (size_t)1 << 32, (size_t)1 << 31, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows",
                 prism_transpose(ctx, 4, in, out, 1, 1, SIZE_MAX / 4 + 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "rows * cols * batch",
                 prism_transpose(ctx, 4, in, out, SIZE_MAX, SIZE_MAX, 2));

  /* NULL, short, foreign and destroyed buffers. */
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "in",
                 prism_transpose(ctx, size, NULL, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_transpose(ctx, size, in, NULL, rows, cols, 1));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_transpose(NULL, size, in, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "in holds",
                 prism_transpose(ctx, size, small, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out holds",
                 prism_transpose(ctx, size, in, small, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "in holds",
                 prism_transpose(ctx, size, in, big, rows, cols, 2));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out holds",
                 prism_transpose(ctx, 8, big, out, rows, cols, 1));
  prism_context *other = harness_context();
  prism_buffer *foreign = harness_poisoned(other, bytes);
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "in belongs",
                 prism_transpose(ctx, size, foreign, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "out belongs",
                 prism_transpose(ctx, size, in, foreign, rows, cols, 1));
  prism_buffer_destroy(foreign);
  prism_context_destroy(other);
  prism_buffer *dead = harness_poisoned(ctx, bytes);
  prism_buffer_destroy(dead);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in is not a live prism buffer",
                 prism_transpose(ctx, size, dead, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "out is not a live prism buffer",
                 prism_transpose(ctx, size, in, dead, rows, cols, 1));

  /* In place, and overlapping views; views apart are fine for the checks
   * (the call itself is made in transpose/views). */
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, size, in, in, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, size, big, big, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, size, in, in, 1, 1, 1));
  prism_buffer *va = NULL, *vb = NULL, *vsame = NULL, *odd = NULL;
  HARNESS_OK(ctx, prism_buffer_view(big, 0, bytes, &va));
  HARNESS_OK(ctx, prism_buffer_view(big, bytes - 4 * size, bytes, &vb));
  HARNESS_OK(ctx, prism_buffer_view(big, 0, bytes, &vsame));
  HARNESS_OK(ctx, prism_buffer_view(big, 2, bytes, &odd));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, size, va, vb, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, size, vb, va, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, size, va, vsame, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, 1, va, vb, rows * size, cols, 1));
  /* A view that does not start on an element. */
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "element size",
                 prism_transpose(ctx, size, odd, out, rows, cols, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "out is a view",
                 prism_transpose(ctx, size, in, odd, rows, cols, 1));

  /* out untouched by every refusal. */
  unsigned char *got = harness_download(out);
  assert_poison(got, 0, bytes, "of out", "a refused transpose");
  free(got);
  harness_assert_alive(ctx, "refused transposes");
  prism_buffer_destroy(va);
  prism_buffer_destroy(vb);
  prism_buffer_destroy(vsame);
  prism_buffer_destroy(odd);
  prism_buffer_destroy(in);
  prism_buffer_destroy(out);
  prism_buffer_destroy(small);
  prism_buffer_destroy(big);
  prism_context_destroy(ctx);
}

/* A transpose after refusals gives the reference's bits. */
Test(transpose, works_after_refusals) {
  prism_context *ctx = harness_context();
  prism_buffer *a = harness_poisoned(ctx, 64);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "element_size",
                 prism_transpose(ctx, 3, a, a, 4, 4, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_transpose(ctx, 4, a, a, 4, 4, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows",
                 prism_transpose(ctx, 8, a, a, SIZE_MAX, 2, 1));
  prism_buffer_destroy(a);
  check_transpose(ctx, 4, 7, 9, 2, 0, 0, "after refusals");
  check_transpose(ctx, 1, 33, 3, 1, 1, 0, "after refusals");
  prism_context_destroy(ctx);
}

/* ---- Stencils: host helpers ---------------------------------------------- */

static prism_stencil_desc make_desc(prism_type type, unsigned dims, size_t nx,
                                    size_t ny, size_t nz, unsigned radius,
                                    prism_border border) {
  prism_stencil_desc d;
  prism_stencil_desc_init(&d);
  d.type = type;
  d.dims = dims;
  d.nx = nx;
  d.ny = ny;
  d.nz = nz;
  d.radius = radius;
  d.border = border;
  return d;
}

static size_t box_count(unsigned dims, unsigned radius) {
  size_t n = 1;
  for (unsigned i = 0; i < dims; i++)
    n *= 2 * (size_t)radius + 1;
  return n;
}

static size_t grid_points(const prism_stencil_desc *d) {
  return d->nx * d->ny * d->nz;
}

/* How many of weight i's offsets (dx, dy, dz) are not 0. */
static int off_axes(unsigned dims, unsigned radius, size_t i) {
  const size_t side = 2 * (size_t)radius + 1;
  const size_t dx = i % side, dy = i / side % side, dz = i / (side * side);
  return (dx != radius) + (dims >= 2 && dy != radius) +
         (dims >= 3 && dz != radius);
}

typedef enum weights_kind {
  W_BOX,  /* random over the whole box */
  W_STAR, /* random on the axes, 0.0 and -0.0 off them */
} weights_kind;

/* (2r + 1)^dims weights in [-1, 1), none of them 0. */
static void *make_weights(prism_type type, unsigned dims, unsigned radius,
                          weights_kind kind, uint64_t seed) {
  const size_t n = box_count(dims, radius);
  void *w = harness_malloc(n * prism_type_size(type));
  uint64_t state = seed;
  for (size_t i = 0; i < n; i++) {
    double v = unit(&state);
    if (v == 0)
      v = 0.5;
    if (kind == W_STAR && off_axes(dims, radius, i) >= 2)
      v = i % 2 ? -0.0 : 0.0;
    set_value(type, w, i, v);
  }
  return w;
}

/* Whether every weight off the axes is 0.0 (either sign). */
static int expect_star(const prism_stencil_desc *d, const void *w) {
  const size_t n = box_count(d->dims, d->radius);
  for (size_t i = 0; i < n; i++)
    if (off_axes(d->dims, d->radius, i) >= 2 && get_value(d->type, w, i) != 0)
      return 0;
  return 1;
}

/* n values in [-1, 1); with special, NaN at every 97th position, +inf
 * every 89th, -inf every 83rd, -0.0 every 79th. */
static void *make_grid(prism_type type, size_t n, uint64_t seed, int special) {
  void *g = harness_malloc(n * prism_type_size(type));
  uint64_t state = seed;
  for (size_t i = 0; i < n; i++) {
    double v = unit(&state);
    if (special && i % 97 == 5)
      v = NAN;
    else if (special && i % 89 == 7)
      v = INFINITY;
    else if (special && i % 83 == 11)
      v = -INFINITY;
    else if (special && i % 79 == 3)
      v = -0.0;
    set_value(type, g, i, v);
  }
  return g;
}

/* The first element where got and want differ (bits, or a NaN where the
 * other is not), or (size_t)-1. */
static size_t first_difference(prism_type type, const void *got,
                               const void *want, size_t n) {
  const size_t size = prism_type_size(type);
  if (memcmp(got, want, n * size) == 0)
    return (size_t)-1;
  for (size_t i = 0; i < n; i++) {
    const unsigned char *g = (const unsigned char *)got + i * size;
    const unsigned char *w = (const unsigned char *)want + i * size;
    if (memcmp(g, w, size) == 0)
      continue;
    if (isnan(get_value(type, got, i)) && isnan(get_value(type, want, i)))
      continue;
    return i;
  }
  return (size_t)-1;
}

/* The grid in words; iterations SIZE_MAX leaves them out. */
static void describe_grid(char *out, size_t size, const char *name,
                          const prism_stencil_desc *d, size_t iterations) {
  int k =
      snprintf(out, size, "%s: %s %u-D %zu x %zu x %zu, radius %u, %s border",
               name, prism_type_name(d->type), d->dims, d->nx, d->ny, d->nz,
               d->radius, prism_border_name(d->border));
  if (iterations != SIZE_MAX && k > 0 && (size_t)k < size)
    snprintf(out + k, size - (size_t)k, ", %zu iterations", iterations);
}

/* ---- Stencils: the checks ------------------------------------------------ */

/* s (made from d and w) applied iterations times on the device against the
 * reference: in and out at in_at / out_at elements into larger poisoned
 * buffers (views when not 0), nothing outside out's range written, in
 * never written, and the same bits again over other bytes. */
static void check_apply(prism_context *ctx, const prism_stencil *s,
                        const prism_stencil_desc *d, const void *w,
                        const void *in_host, size_t iterations, size_t in_at,
                        size_t out_at, const char *name) {
  const size_t size = prism_type_size(d->type), n = grid_points(d);
  const size_t bytes = n * size, in_off = in_at * size, out_off = out_at * size;
  char label[256];
  describe_grid(label, sizeof label, name, d, iterations);
  void *want = harness_malloc(bytes);
  ref_stencil_iterate(d, w, in_host, want, iterations);

  prism_buffer *inbuf = harness_poisoned(ctx, in_off + bytes + GUARD_BYTES);
  prism_buffer *outbuf = harness_poisoned(ctx, out_off + bytes + GUARD_BYTES);
  HARNESS_OK(ctx, prism_buffer_write(inbuf, in_off, in_host, bytes));
  prism_buffer *in = inbuf, *out = outbuf;
  if (in_at)
    HARNESS_OK(ctx, prism_buffer_view(inbuf, in_off, bytes, &in));
  if (out_at)
    HARNESS_OK(ctx, prism_buffer_view(outbuf, out_off, bytes, &out));

  prism_status st = prism_stencil_apply(ctx, s, in, out, iterations);
  cr_assert_eq(st, PRISM_OK, "%s: %s: %s", label, prism_status_name(st),
               prism_context_last_error(ctx));
  unsigned char *got = harness_download(outbuf);
  const size_t bad = first_difference(d->type, got + out_off, want, n);
  if (bad != (size_t)-1) {
    const double g = get_value(d->type, got + out_off, bad);
    const double r = get_value(d->type, want, bad);
    cr_assert_fail("%s: point (%zu, %zu, %zu) = %a (%.17g), reference %a "
                   "(%.17g)",
                   label, bad % d->nx, bad / d->nx % d->ny,
                   bad / (d->nx * d->ny), g, g, r, r);
  }
  assert_poison(got, 0, out_off, "before out", label);
  assert_poison(got, out_off + bytes, out_off + bytes + GUARD_BYTES, "past out",
                label);
  unsigned char *in_after = harness_download(inbuf);
  assert_poison(in_after, 0, in_off, "before in", label);
  cr_assert(memcmp(in_after + in_off, in_host, bytes) == 0, "%s: in written",
            label);
  assert_poison(in_after, in_off + bytes, in_off + bytes + GUARD_BYTES,
                "past in", label);
  free(in_after);

  const unsigned char zero = 0;
  HARNESS_OK(ctx, prism_buffer_fill(outbuf, out_off, &zero, 1, bytes));
  HARNESS_OK(ctx, prism_stencil_apply(ctx, s, in, out, iterations));
  unsigned char *again = harness_download(outbuf);
  cr_assert(memcmp(again + out_off, got + out_off, bytes) == 0,
            "%s: a second run gave other bits", label);
  free(again);

  if (in != inbuf)
    prism_buffer_destroy(in);
  if (out != outbuf)
    prism_buffer_destroy(out);
  prism_buffer_destroy(inbuf);
  prism_buffer_destroy(outbuf);
  free(got);
  free(want);
}

/* A stencil made from d and w: created, its description and shape
 * checked. */
static prism_stencil *create_stencil(prism_context *ctx,
                                     const prism_stencil_desc *d, const void *w,
                                     const char *name) {
  prism_stencil *s = NULL;
  char label[256];
  describe_grid(label, sizeof label, name, d, SIZE_MAX);
  prism_status st = prism_stencil_create(ctx, d, w, &s);
  cr_assert_eq(st, PRISM_OK, "%s: prism_stencil_create: %s: %s", label,
               prism_status_name(st), prism_context_last_error(ctx));
  cr_assert_not_null(s, "%s: no stencil", label);
  const prism_stencil_desc got = prism_stencil_describe(s);
  cr_assert(got.type == d->type && got.dims == d->dims && got.nx == d->nx &&
                got.ny == d->ny && got.nz == d->nz && got.radius == d->radius &&
                got.border == d->border,
            "%s: prism_stencil_describe does not give the description back",
            label);
  cr_assert_eq(prism_stencil_is_star(s), expect_star(d, w),
               "%s: prism_stencil_is_star is %d", label,
               prism_stencil_is_star(s));
  return s;
}

static void check_stencil(prism_context *ctx, const prism_stencil_desc *d,
                          const void *w, const void *in, size_t iterations,
                          size_t in_at, size_t out_at, const char *name) {
  prism_stencil *s = create_stencil(ctx, d, w, name);
  check_apply(ctx, s, d, w, in, iterations, in_at, out_at, name);
  prism_stencil_destroy(s);
}

typedef struct grid {
  size_t nx, ny, nz;
} grid;

/* Every grid at every radius, border and type: one application, random
 * input, weights of kind. */
static void sweep(unsigned dims, const grid *grids, size_t ngrids,
                  const unsigned *radii, size_t nradii, weights_kind kind,
                  int special, const char *name) {
  prism_context *ctx = harness_context();
  for (size_t t = 0; t < COUNT(value_types); t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    for (size_t g = 0; g < ngrids; g++) {
      const size_t n = grids[g].nx * grids[g].ny * grids[g].nz;
      void *in = make_grid(type, n, 100 + n + g, special);
      for (size_t r = 0; r < nradii; r++) {
        void *w = make_weights(type, dims, radii[r], kind, 7 + radii[r] + g);
        for (size_t b = 0; b < COUNT(borders); b++) {
          const prism_stencil_desc d =
              make_desc(type, dims, grids[g].nx, grids[g].ny, grids[g].nz,
                        radii[r], borders[b]);
          check_stencil(ctx, &d, w, in, 1, 0, 0, name);
        }
        free(w);
      }
      free(in);
    }
  }
  prism_context_destroy(ctx);
}

static const unsigned all_radii[] = {0, 1, 2, 3, 7, 8};

/* ---- Stencils: the tests ------------------------------------------------- */

Test(stencil, one_d) {
  static const grid grids[] = {
      {1, 1, 1},   {2, 1, 1},   {3, 1, 1},   {15, 1, 1},   {16, 1, 1},
      {17, 1, 1},  {31, 1, 1},  {32, 1, 1},  {33, 1, 1},   {63, 1, 1},
      {64, 1, 1},  {65, 1, 1},  {127, 1, 1}, {128, 1, 1},  {129, 1, 1},
      {255, 1, 1}, {256, 1, 1}, {257, 1, 1}, {1000, 1, 1}, {100003, 1, 1}};
  sweep(1, grids, COUNT(grids), all_radii, COUNT(all_radii), W_BOX, 0, "1-D");
}

Test(stencil, two_d_radii) {
  static const grid grids[] = {{1, 1, 1},   {1, 37, 1},  {37, 1, 1},
                               {37, 53, 1}, {15, 17, 1}, {17, 15, 1},
                               {16, 16, 1}, {2, 3, 1}};
  sweep(2, grids, COUNT(grids), all_radii, COUNT(all_radii), W_BOX, 0,
        "2-D radii");
}

/* Sides on the tile sizes and either side of them. */
Test(stencil, two_d_tiles) {
  static const grid grids[] = {
      {31, 33, 1},   {33, 31, 1},   {32, 32, 1},   {63, 65, 1},
      {65, 63, 1},   {64, 64, 1},   {127, 129, 1}, {129, 127, 1},
      {128, 128, 1}, {255, 257, 1}, {257, 255, 1}, {256, 256, 1},
      {512, 300, 1}, {1, 1000, 1},  {1000, 1, 1},  {3, 257, 1}};
  static const unsigned radii[] = {1, 2};
  sweep(2, grids, COUNT(grids), radii, COUNT(radii), W_BOX, 0, "2-D tiles");
}

/* Large radii on grids past one tile, and the largest grid at radius 3. */
Test(stencil, two_d_large) {
  static const grid big[] = {{512, 300, 1}};
  static const unsigned big_radii[] = {3};
  static const grid grids[] = {{64, 64, 1}, {129, 127, 1}, {3, 300, 1}};
  static const unsigned radii[] = {7, 8};
  sweep(2, big, COUNT(big), big_radii, COUNT(big_radii), W_BOX, 0, "2-D large");
  sweep(2, grids, COUNT(grids), radii, COUNT(radii), W_BOX, 0, "2-D large");
}

Test(stencil, three_d_radii) {
  static const grid grids[] = {{1, 1, 1}, {5, 7, 11}, {2, 3, 4},
                               {9, 8, 7}, {1, 1, 5},  {1, 6, 1}};
  sweep(3, grids, COUNT(grids), all_radii, COUNT(all_radii), W_BOX, 0,
        "3-D radii");
}

Test(stencil, three_d_tiles) {
  static const grid grids[] = {{40, 30, 20}, {17, 15, 16}, {16, 16, 16},
                               {33, 31, 3},  {3, 33, 31},  {65, 3, 5},
                               {1, 64, 65},  {129, 2, 2}};
  static const unsigned radii[] = {1, 2};
  sweep(3, grids, COUNT(grids), radii, COUNT(radii), W_BOX, 0, "3-D tiles");
}

/* Grids smaller than the radius on some or every axis. */
Test(stencil, radius_beyond_grid) {
  static const grid g1[] = {{1, 1, 1}, {2, 1, 1}, {3, 1, 1}};
  static const grid g2[] = {{3, 2, 1}, {1, 3, 1}, {2, 40, 1}};
  static const grid g3[] = {{3, 1, 2}, {2, 3, 1}, {1, 1, 1}, {20, 2, 3}};
  static const unsigned radii[] = {3, 7, 8};
  sweep(1, g1, COUNT(g1), radii, COUNT(radii), W_BOX, 0, "1-D beyond");
  sweep(2, g2, COUNT(g2), radii, COUNT(radii), W_BOX, 0, "2-D beyond");
  sweep(3, g3, COUNT(g3), radii, COUNT(radii), W_BOX, 0, "3-D beyond");
}

/* The reference and the device against sums worked out by hand: a 3-point
 * grid {1, 10, 100}, radius 7, every weight 1 (small integers: exact). */
Test(stencil, radius_beyond_grid_by_hand) {
  prism_context *ctx = harness_context();
  /* Zero: the grid once. Clamp: indices -7..7 from x; those below 0 read
   * point 0 and those past 2 point 2. Periodic: 15 taps, 5 turns. */
  static const double want[3][3] = {{111, 111, 111},
                                    {8 + 10 + 600, 7 + 10 + 700, 6 + 10 + 800},
                                    {555, 555, 555}};
  for (size_t t = 0; t < COUNT(value_types); t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    const size_t size = prism_type_size(type);
    void *w = harness_malloc(15 * size), *in = harness_malloc(3 * size);
    void *ref = harness_malloc(3 * size);
    for (size_t i = 0; i < 15; i++)
      set_value(type, w, i, 1);
    set_value(type, in, 0, 1);
    set_value(type, in, 1, 10);
    set_value(type, in, 2, 100);
    for (size_t b = 0; b < COUNT(borders); b++) {
      const prism_stencil_desc d = make_desc(type, 1, 3, 1, 1, 7, borders[b]);
      ref_stencil(&d, w, in, ref);
      for (size_t i = 0; i < 3; i++)
        cr_assert_eq(get_value(type, ref, i), want[b][i],
                     "the reference, %s border, point %zu: %g, not %g",
                     prism_border_name(borders[b]), i, get_value(type, ref, i),
                     want[b][i]);
      check_stencil(ctx, &d, w, in, 1, 0, 0, "by hand");
    }
    free(w);
    free(in);
    free(ref);
  }
  prism_context_destroy(ctx);
}

/* The 5-point and 7-point Laplacians. */
static void *laplacian(prism_type type, unsigned dims) {
  const size_t n = box_count(dims, 1);
  void *w = harness_malloc(n * prism_type_size(type));
  for (size_t i = 0; i < n; i++) {
    const int off = off_axes(dims, 1, i);
    set_value(type, w, i, off == 0 ? -2.0 * dims : off == 1 ? 1.0 : 0.0);
  }
  return w;
}

Test(stencil, star_shapes) {
  prism_context *ctx = harness_context();
  static const grid g2[] = {{64, 64, 1}, {37, 53, 1}, {1, 1, 1}, {129, 3, 1}};
  static const grid g3[] = {{40, 30, 20}, {5, 7, 11}, {1, 1, 1}, {2, 33, 3}};
  for (size_t t = 0; t < COUNT(value_types); t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    for (unsigned dims = 2; dims <= 3; dims++) {
      const grid *grids = dims == 2 ? g2 : g3;
      void *lap = laplacian(type, dims);
      void *star3 = make_weights(type, dims, 3, W_STAR, 31 + dims);
      void *star8 = make_weights(type, dims, 8, W_STAR, 37 + dims);
      for (size_t g = 0; g < 4; g++) {
        const size_t n = grids[g].nx * grids[g].ny * grids[g].nz;
        void *in = make_grid(type, n, 5 + g, 0);
        for (size_t b = 0; b < COUNT(borders); b++) {
          prism_stencil_desc d = make_desc(type, dims, grids[g].nx, grids[g].ny,
                                           grids[g].nz, 1, borders[b]);
          cr_assert(expect_star(&d, lap));
          check_stencil(ctx, &d, lap, in, 1, 0, 0, "Laplacian");
          d.radius = 3;
          check_stencil(ctx, &d, star3, in, 1, 0, 0, "star radius 3");
          if (dims == 2 || n < 2000) {
            d.radius = 8;
            check_stencil(ctx, &d, star8, in, 1, 0, 0, "star radius 8");
          }
        }
        free(in);
      }
      free(lap);
      free(star3);
      free(star8);
    }
  }

  /* The shape found at creation: a full box is not a star, one weight off
   * the axes makes a star a box, and a 1-D or radius 0 box is a star. */
  prism_stencil *s = NULL;
  prism_stencil_desc d = make_desc(PRISM_F32, 2, 16, 16, 1, 2, 0);
  float *w = make_weights(PRISM_F32, 2, 2, W_BOX, 3);
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d, w, &s));
  cr_assert_eq(prism_stencil_is_star(s), 0, "a random 5 x 5 box is a star");
  prism_stencil_destroy(s);
  free(w);
  w = make_weights(PRISM_F32, 2, 2, W_STAR, 3);
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d, w, &s));
  cr_assert_eq(prism_stencil_is_star(s), 1, "a 5 x 5 star is not a star");
  prism_stencil_destroy(s);
  w[0] = 1e-30f;
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d, w, &s));
  cr_assert_eq(prism_stencil_is_star(s), 0, "a weight off the axes ignored");
  prism_stencil_destroy(s);
  w[0] = NAN;
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d, w, &s));
  cr_assert_eq(prism_stencil_is_star(s), 0, "a NaN off the axes ignored");
  prism_stencil_destroy(s);
  free(w);
  d = make_desc(PRISM_F32, 1, 100, 1, 1, 8, 0);
  w = make_weights(PRISM_F32, 1, 8, W_BOX, 4);
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d, w, &s));
  cr_assert_eq(prism_stencil_is_star(s), 1, "a 1-D stencil is not a star");
  prism_stencil_destroy(s);
  d = make_desc(PRISM_F32, 3, 4, 4, 4, 0, 0);
  HARNESS_OK(ctx, prism_stencil_create(ctx, &d, w, &s));
  cr_assert_eq(prism_stencil_is_star(s), 1, "radius 0 is not a star");
  prism_stencil_destroy(s);
  free(w);
  prism_context_destroy(ctx);
}

/* NaN and infinities in the weights, in the input, and in both. */
Test(stencil, special_values) {
  prism_context *ctx = harness_context();
  static const grid grids[] = {{1000, 1, 1}, {37, 53, 1}, {5, 7, 11}};
  static const unsigned dims_of[] = {1, 2, 3};
  static const unsigned radii[] = {1, 2};
  for (size_t t = 0; t < COUNT(value_types); t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    for (size_t g = 0; g < COUNT(grids); g++) {
      const size_t n = grids[g].nx * grids[g].ny * grids[g].nz;
      void *plain = make_grid(type, n, 41 + g, 0);
      void *special = make_grid(type, n, 43 + g, 1);
      for (size_t r = 0; r < COUNT(radii); r++) {
        const unsigned dims = dims_of[g];
        const size_t nw = box_count(dims, radii[r]);
        void *w = make_weights(type, dims, radii[r], W_BOX, 47 + g);
        void *odd = make_weights(type, dims, radii[r], W_BOX, 53 + g);
        set_value(type, odd, 0, NAN);
        set_value(type, odd, nw / 2 + 1, INFINITY);
        set_value(type, odd, nw - 1, -INFINITY);
        for (size_t b = 0; b < COUNT(borders); b++) {
          const prism_stencil_desc d =
              make_desc(type, dims, grids[g].nx, grids[g].ny, grids[g].nz,
                        radii[r], borders[b]);
          check_stencil(ctx, &d, w, special, 1, 0, 0, "special input");
          check_stencil(ctx, &d, odd, plain, 1, 0, 0, "special weights");
          check_stencil(ctx, &d, odd, special, 1, 0, 0, "special both");
        }
        free(w);
        free(odd);
      }
      free(plain);
      free(special);
    }
  }
  prism_context_destroy(ctx);
}

/* A zero weight takes no part: a NaN or infinity under it stays out. */
Test(stencil, zero_weights) {
  prism_context *ctx = harness_context();
  for (size_t t = 0; t < COUNT(value_types); t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    const size_t size = prism_type_size(type);
    /* 1-D {0, 1, -0}: out = in, NaN only where in is NaN. */
    const size_t n = 1000;
    void *in = make_grid(type, n, 61, 1);
    void *w = harness_malloc(3 * size);
    set_value(type, w, 0, 0.0);
    set_value(type, w, 1, 1.0);
    set_value(type, w, 2, -0.0);
    for (size_t b = 0; b < COUNT(borders); b++) {
      const prism_stencil_desc d = make_desc(type, 1, n, 1, 1, 1, borders[b]);
      prism_stencil *s = create_stencil(ctx, &d, w, "zero weights");
      check_apply(ctx, s, &d, w, in, 1, 0, 0, "zero weights");
      prism_buffer *ib = harness_upload(ctx, in, n * size);
      prism_buffer *ob = harness_poisoned(ctx, n * size);
      HARNESS_OK(ctx, prism_stencil_apply(ctx, s, ib, ob, 1));
      void *got = harness_download(ob);
      for (size_t i = 0; i < n; i++) {
        const double v = get_value(type, in, i), g = get_value(type, got, i);
        cr_assert(isnan(v) ? isnan(g) : g == v, "%s point %zu: %g, not %g",
                  prism_border_name(borders[b]), i, g, v);
      }
      free(got);
      prism_buffer_destroy(ib);
      prism_buffer_destroy(ob);
      prism_stencil_destroy(s);
    }
    free(w);
    free(in);

    /* 2-D and 3-D boxes: every weight zero (all +0.0), and zeros on every
     * other position, over an input of NaN and infinities. */
    for (unsigned dims = 2; dims <= 3; dims++) {
      const size_t nx = 13, ny = 11, nz = dims == 3 ? 7 : 1,
                   points = nx * ny * nz;
      const size_t nw = box_count(dims, 2);
      void *g = make_grid(type, points, 67, 1);
      for (size_t i = 0; i < points; i += 3)
        set_value(type, g, i, i % 2 ? NAN : INFINITY);
      void *zeros = harness_malloc(nw * size);
      void *holes = make_weights(type, dims, 2, W_BOX, 71);
      for (size_t i = 0; i < nw; i++) {
        set_value(type, zeros, i, i % 2 ? 0.0 : -0.0);
        if (i % 2)
          set_value(type, holes, i, i % 4 == 1 ? 0.0 : -0.0);
      }
      for (size_t b = 0; b < COUNT(borders); b++) {
        const prism_stencil_desc d =
            make_desc(type, dims, nx, ny, nz, 2, borders[b]);
        check_stencil(ctx, &d, zeros, g, 1, 0, 0, "all weights zero");
        check_stencil(ctx, &d, holes, g, 1, 0, 0, "zero weights");
        /* No term at all: every point +0.0. */
        void *ref = harness_malloc(points * size);
        ref_stencil(&d, zeros, g, ref);
        for (size_t i = 0; i < points; i++)
          cr_assert(get_value(type, ref, i) == 0 &&
                        !signbit(get_value(type, ref, i)),
                    "the reference: an all-zero box gives %g",
                    get_value(type, ref, i));
        free(ref);
      }
      free(g);
      free(zeros);
      free(holes);
    }
  }
  prism_context_destroy(ctx);
}

/* Iterations 0 (a copy), 1, 2, 3 and 5, through the context's scratch;
 * one stencil run at every count and grids of several sizes in one
 * context (the scratch grows and is reused). */
Test(stencil, iterated) {
  prism_context *ctx = harness_context();
  static const size_t counts[] = {0, 1, 2, 3, 5};
  static const grid grids[] = {{1000, 1, 1}, {37, 53, 1}, {5, 7, 11},
                               {64, 64, 1},  {3, 1, 1},   {40, 30, 20}};
  static const unsigned dims_of[] = {1, 2, 3, 2, 1, 3};
  static const unsigned radii[] = {2, 1, 1, 1, 7, 1};
  for (size_t t = 0; t < COUNT(value_types); t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    for (size_t g = 0; g < COUNT(grids); g++) {
      const size_t n = grids[g].nx * grids[g].ny * grids[g].nz;
      void *in = make_grid(type, n, 73 + g, 0);
      /* Weights of sum about 1 keep the values in range; the 64 x 64 grid
       * takes a damped Laplacian, a star. */
      void *w;
      if (g == 3) {
        w = laplacian(type, 2);
        for (size_t i = 0; i < 9; i++)
          set_value(type, w, i, get_value(type, w, i) * 0.125);
      } else {
        const size_t nw = box_count(dims_of[g], radii[g]);
        w = make_weights(type, dims_of[g], radii[g], W_BOX, 79 + g);
        for (size_t i = 0; i < nw; i++)
          set_value(type, w, i, get_value(type, w, i) / (double)nw);
      }
      for (size_t b = 0; b < COUNT(borders); b++) {
        const prism_stencil_desc d =
            make_desc(type, dims_of[g], grids[g].nx, grids[g].ny, grids[g].nz,
                      radii[g], borders[b]);
        prism_stencil *s = create_stencil(ctx, &d, w, "iterated");
        for (size_t c = 0; c < COUNT(counts); c++)
          check_apply(ctx, s, &d, w, in, counts[c], 0, 0, "iterated");
        prism_stencil_destroy(s);
      }
      free(w);
      free(in);
    }
  }
  prism_context_destroy(ctx);
}

/* in and out as views at element offsets inside larger buffers, and as
 * two views apart in one buffer. */
Test(stencil, views) {
  prism_context *ctx = harness_context();
  static const grid grids[] = {{1000, 1, 1}, {37, 53, 1}, {5, 7, 11}};
  static const unsigned dims_of[] = {1, 2, 3};
  static const size_t offsets[][2] = {{3, 5}, {16, 0}, {0, 1}};
  static const size_t counts[] = {0, 1, 3};
  for (size_t t = 0; t < COUNT(value_types); t++) {
    const prism_type type = value_types[t];
    if (!prism_context_supports(ctx, type))
      continue;
    const size_t size = prism_type_size(type);
    for (size_t g = 0; g < COUNT(grids); g++) {
      const size_t n = grids[g].nx * grids[g].ny * grids[g].nz;
      void *in = make_grid(type, n, 83 + g, 0);
      const size_t nw = box_count(dims_of[g], 2);
      void *w = make_weights(type, dims_of[g], 2, W_BOX, 89 + g);
      for (size_t i = 0; i < nw; i++)
        set_value(type, w, i, get_value(type, w, i) / (double)nw);
      const prism_stencil_desc d =
          make_desc(type, dims_of[g], grids[g].nx, grids[g].ny, grids[g].nz, 2,
                    borders[g % COUNT(borders)]);
      prism_stencil *s = create_stencil(ctx, &d, w, "views");
      for (size_t o = 0; o < COUNT(offsets); o++)
        for (size_t c = 0; c < COUNT(counts); c++)
          check_apply(ctx, s, &d, w, in, counts[c], offsets[o][0],
                      offsets[o][1], "views");

      /* One buffer: in at element 1, out right after it. */
      const size_t bytes = n * size;
      prism_buffer *one = harness_poisoned(ctx, 2 * bytes + size + GUARD_BYTES);
      prism_buffer *vin = NULL, *vout = NULL;
      HARNESS_OK(ctx, prism_buffer_write(one, size, in, bytes));
      HARNESS_OK(ctx, prism_buffer_view(one, size, bytes, &vin));
      HARNESS_OK(ctx, prism_buffer_view(one, size + bytes, bytes, &vout));
      HARNESS_OK(ctx, prism_stencil_apply(ctx, s, vin, vout, 2));
      unsigned char *got = harness_download(one);
      void *want = harness_malloc(bytes);
      ref_stencil_iterate(&d, w, in, want, 2);
      cr_assert(first_difference(type, got + size + bytes, want, n) ==
                    (size_t)-1,
                "views of one buffer: not the reference's bits");
      cr_assert(memcmp(got + size, in, bytes) == 0,
                "views of one buffer: in written");
      assert_poison(got, 0, size, "before in", "views of one buffer");
      assert_poison(got, size + 2 * bytes, size + 2 * bytes + GUARD_BYTES,
                    "past out", "views of one buffer");
      free(got);
      free(want);
      prism_buffer_destroy(vin);
      prism_buffer_destroy(vout);
      prism_buffer_destroy(one);
      prism_stencil_destroy(s);
      free(w);
      free(in);
    }
  }
  prism_context_destroy(ctx);
}

/* ---- Stencils: the handle ------------------------------------------------ */

Test(stencil, names_and_defaults) {
  cr_assert_str_eq(prism_border_name(PRISM_BORDER_ZERO), "zero");
  cr_assert_str_eq(prism_border_name(PRISM_BORDER_CLAMP), "clamp");
  cr_assert_str_eq(prism_border_name(PRISM_BORDER_PERIODIC), "periodic");
  cr_assert_str_eq(prism_border_name((prism_border)7), "?");
  cr_assert_str_eq(prism_border_name((prism_border)-1), "?");
  prism_stencil_desc d;
  memset(&d, 0x5a, sizeof d);
  prism_stencil_desc_init(&d);
  cr_assert_eq(d.type, PRISM_F32);
  cr_assert_eq(d.dims, 2);
  cr_assert_eq(d.nx, 1);
  cr_assert_eq(d.ny, 1);
  cr_assert_eq(d.nz, 1);
  cr_assert_eq(d.radius, 1);
  cr_assert_eq(d.border, PRISM_BORDER_ZERO);
  prism_stencil_desc_init(NULL);
  cr_assert_eq(PRISM_STENCIL_MAX_RADIUS, 8);
}

/* prism_stencil_describe round trips; the accessors on NULL and dead
 * stencils; a stencil left on a context is released with it. */
Test(stencil, lifetime) {
  prism_context *ctx = harness_context();
  float w[17 * 17 * 17];
  for (size_t i = 0; i < COUNT(w); i++)
    w[i] = (float)(i % 7) - 3.0f;
  static const prism_stencil_desc descs[] = {
      {PRISM_F32, 1, 100003, 1, 1, 8, PRISM_BORDER_PERIODIC},
      {PRISM_F32, 2, 37, 53, 1, 0, PRISM_BORDER_CLAMP},
      {PRISM_F32, 3, 5, 7, 11, 3, PRISM_BORDER_ZERO},
      {PRISM_F32, 3, 1, 1, 1, 8, PRISM_BORDER_CLAMP}};
  for (size_t i = 0; i < COUNT(descs); i++) {
    prism_stencil *s = create_stencil(ctx, &descs[i], w, "lifetime");
    prism_stencil_destroy(s);
    const prism_stencil_desc dead = prism_stencil_describe(s);
    cr_assert(dead.type == 0 && dead.dims == 0 && dead.nx == 0 &&
                  dead.ny == 0 && dead.nz == 0 && dead.radius == 0 &&
                  dead.border == 0,
              "a destroyed stencil's description is not zeroed");
    cr_assert_eq(prism_stencil_is_star(s), 0);
    prism_stencil_destroy(s); /* twice: nothing happens */
  }
  if (prism_context_supports(ctx, PRISM_F64)) {
    double wd[27];
    for (size_t i = 0; i < COUNT(wd); i++)
      wd[i] = i == 13 ? 1 : 0;
    const prism_stencil_desc d =
        make_desc(PRISM_F64, 3, 4, 5, 6, 1, PRISM_BORDER_PERIODIC);
    prism_stencil *s = create_stencil(ctx, &d, wd, "lifetime f64");
    cr_assert_eq(prism_stencil_is_star(s), 1);
    prism_stencil_destroy(s);
  }
  prism_stencil_destroy(NULL);
  const prism_stencil_desc none = prism_stencil_describe(NULL);
  cr_assert_eq(none.dims, 0);
  cr_assert_eq(none.nx, 0);
  cr_assert_eq(prism_stencil_is_star(NULL), 0);

  /* The weights are copied: changing or freeing the host array after
   * creation changes nothing. */
  prism_stencil_desc d = make_desc(PRISM_F32, 2, 9, 8, 1, 1, 1);
  float *mine = make_weights(PRISM_F32, 2, 1, W_BOX, 97);
  float copy[9];
  memcpy(copy, mine, sizeof copy);
  prism_stencil *s = create_stencil(ctx, &d, mine, "copied weights");
  for (size_t i = 0; i < 9; i++)
    mine[i] = NAN;
  free(mine);
  float *in = make_grid(PRISM_F32, 72, 101, 0);
  check_apply(ctx, s, &d, copy, in, 1, 0, 0, "copied weights");
  free(in);

  prism_stencil *left = create_stencil(ctx, &d, copy, "left");
  prism_stencil_destroy(s);
  cr_assert_eq(prism_stencil_describe(left).nx, 9);
  prism_context_destroy(ctx);
  cr_assert_eq(prism_stencil_describe(left).nx, 0);
  cr_assert_eq(prism_stencil_is_star(left), 0);
  prism_stencil_destroy(left);
}

/* ---- Stencils: bad input ------------------------------------------------- */

Test(stencil, bad_create) {
  prism_context *ctx = harness_context();
  float w[17 * 17 * 17] = {0};
  w[1] = 1;
  prism_stencil *s = NULL;
  const prism_stencil_desc good =
      make_desc(PRISM_F32, 2, 10, 12, 1, 1, PRISM_BORDER_ZERO);
  prism_stencil_desc d = good;

  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "desc",
                 prism_stencil_create(ctx, NULL, w, &s));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "weights",
                 prism_stencil_create(ctx, &d, NULL, &s));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_stencil_create(ctx, &d, w, NULL));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_stencil_create(NULL, &d, w, &s));
  cr_assert_null(s);
  prism_context *dead = harness_context();
  prism_context_destroy(dead);
  HARNESS_EXPECT(NULL, PRISM_INVALID_ARGUMENT, "not a live prism context",
                 prism_stencil_create(dead, &d, w, &s));

  d.type = PRISM_I32;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->type",
                 prism_stencil_create(ctx, &d, w, &s));
  d.type = PRISM_U8;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->type",
                 prism_stencil_create(ctx, &d, w, &s));
  d.type = (prism_type)99;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->type",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.dims = 0;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->dims",
                 prism_stencil_create(ctx, &d, w, &s));
  d.dims = 4;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->dims",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.nx = 0;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->nx",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.ny = 0;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->ny",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.dims = 3;
  d.nz = 0;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->nz",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.nz = 0;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->nz",
                 prism_stencil_create(ctx, &d, w, &s));
  /* Axes past dims must be 1. */
  d = good;
  d.dims = 1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->ny",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.nz = 2;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->nz",
                 prism_stencil_create(ctx, &d, w, &s));
  d = make_desc(PRISM_F32, 1, 5, 1, 3, 1, PRISM_BORDER_ZERO);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->nz",
                 prism_stencil_create(ctx, &d, w, &s));
  /* Extents whose product with the element size overflows. */
  d = make_desc(PRISM_F32, 1, SIZE_MAX / 4 + 1, 1, 1, 1, PRISM_BORDER_ZERO);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows",
                 prism_stencil_create(ctx, &d, w, &s));
  d = make_desc(PRISM_F32, 2, (size_t)1 << 32, (size_t)1 << 31, 1, 1,
                PRISM_BORDER_ZERO);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->nx * ny * nz",
                 prism_stencil_create(ctx, &d, w, &s));
  d = make_desc(PRISM_F64, 3, (size_t)1 << 20, (size_t)1 << 20, (size_t)1 << 21,
                1, PRISM_BORDER_ZERO);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows",
                 prism_stencil_create(ctx, &d, w, &s));
  d = make_desc(PRISM_F32, 3, SIZE_MAX, SIZE_MAX, SIZE_MAX, 1,
                PRISM_BORDER_ZERO);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "overflows",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.radius = PRISM_STENCIL_MAX_RADIUS + 1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->radius",
                 prism_stencil_create(ctx, &d, w, &s));
  d.radius = UINT_MAX;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->radius",
                 prism_stencil_create(ctx, &d, w, &s));
  d = good;
  d.border = (prism_border)7;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->border",
                 prism_stencil_create(ctx, &d, w, &s));
  d.border = (prism_border)-1;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->border",
                 prism_stencil_create(ctx, &d, w, &s));
  d.border = (prism_border)3;
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->border",
                 prism_stencil_create(ctx, &d, w, &s));
  /* A bad description is found before a NULL weights. */
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "desc->border",
                 prism_stencil_create(ctx, &d, NULL, &s));
  if (!prism_context_supports(ctx, PRISM_F64)) {
    d = good;
    d.type = PRISM_F64;
    HARNESS_EXPECT(ctx, PRISM_UNSUPPORTED, "f64",
                   prism_stencil_create(ctx, &d, w, &s));
  }
  cr_assert_null(s, "a refused creation gave a stencil");
  harness_assert_alive(ctx, "refused stencils");
  prism_context_destroy(ctx);
}

Test(stencil, bad_apply) {
  prism_context *ctx = harness_context();
  const prism_stencil_desc d =
      make_desc(PRISM_F32, 2, 10, 12, 1, 1, PRISM_BORDER_CLAMP);
  const size_t size = 4, n = 120, bytes = n * size;
  float *w = make_weights(PRISM_F32, 2, 1, W_BOX, 5);
  float *host = make_grid(PRISM_F32, n, 6, 0);
  prism_stencil *s = create_stencil(ctx, &d, w, "bad apply");
  prism_buffer *in = harness_upload(ctx, host, bytes);
  prism_buffer *out = harness_poisoned(ctx, bytes);
  prism_buffer *small = harness_poisoned(ctx, bytes - 1);
  prism_buffer *big = harness_poisoned(ctx, 3 * bytes);
  const char *fn = "prism_stencil_apply";

  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "stencil",
                 prism_stencil_apply(ctx, NULL, in, out, 1));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "in",
                 prism_stencil_apply(ctx, s, NULL, out, 1));
  HARNESS_EXPECT(ctx, PRISM_NULL_POINTER, "out",
                 prism_stencil_apply(ctx, s, in, NULL, 1));
  HARNESS_EXPECT(NULL, PRISM_NULL_POINTER, "ctx",
                 prism_stencil_apply(NULL, s, in, out, 1));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "in holds",
                 prism_stencil_apply(ctx, s, small, out, 1));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out holds",
                 prism_stencil_apply(ctx, s, in, small, 1));
  HARNESS_EXPECT(ctx, PRISM_BUFFER_TOO_SMALL, "out holds",
                 prism_stencil_apply(ctx, s, in, small, 0));

  /* In place, overlapping views, and a view off the element grid; every
   * iteration count, 0 (the copy) included. */
  for (size_t it = 0; it < 3; it++) {
    HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                   prism_stencil_apply(ctx, s, in, in, it));
    HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                   prism_stencil_apply(ctx, s, big, big, it));
  }
  prism_buffer *va = NULL, *vb = NULL, *vsame = NULL, *odd = NULL;
  HARNESS_OK(ctx, prism_buffer_view(big, 0, bytes, &va));
  HARNESS_OK(ctx, prism_buffer_view(big, bytes - size, bytes, &vb));
  HARNESS_OK(ctx, prism_buffer_view(big, 0, bytes, &vsame));
  HARNESS_OK(ctx, prism_buffer_view(big, 2, bytes, &odd));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_stencil_apply(ctx, s, va, vb, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_stencil_apply(ctx, s, vb, va, 2));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in and out",
                 prism_stencil_apply(ctx, s, va, vsame, 0));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "element size",
                 prism_stencil_apply(ctx, s, odd, out, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "out is a view",
                 prism_stencil_apply(ctx, s, in, odd, 1));

  /* Destroyed buffers and stencils, and another context's. */
  prism_buffer *dead = harness_poisoned(ctx, bytes);
  prism_buffer_destroy(dead);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "in is not a live prism buffer",
                 prism_stencil_apply(ctx, s, dead, out, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "out is not a live prism buffer",
                 prism_stencil_apply(ctx, s, in, dead, 1));
  prism_stencil *gone = create_stencil(ctx, &d, w, "destroyed");
  prism_stencil_destroy(gone);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "not a live prism stencil",
                 prism_stencil_apply(ctx, gone, in, out, 1));
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, fn,
                 prism_stencil_apply(ctx, gone, in, out, 0));
  prism_context *other = harness_context();
  prism_stencil *foreign = create_stencil(other, &d, w, "foreign");
  prism_buffer *other_in = harness_upload(other, host, bytes);
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "stencil belongs",
                 prism_stencil_apply(ctx, foreign, in, out, 1));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "in belongs",
                 prism_stencil_apply(ctx, s, other_in, out, 1));
  HARNESS_EXPECT(ctx, PRISM_CONTEXT_MISMATCH, "out belongs",
                 prism_stencil_apply(ctx, s, in, other_in, 1));
  HARNESS_EXPECT(other, PRISM_CONTEXT_MISMATCH, "stencil belongs",
                 prism_stencil_apply(other, s, other_in, out, 1));
  prism_stencil_destroy(foreign);
  HARNESS_EXPECT(other, PRISM_INVALID_ARGUMENT, "not a live prism stencil",
                 prism_stencil_apply(other, foreign, other_in, other_in, 1));
  /* A stencil released with its context. */
  prism_stencil *orphan = create_stencil(other, &d, w, "orphan");
  prism_buffer_destroy(other_in);
  prism_context_destroy(other);
  HARNESS_EXPECT(ctx, PRISM_INVALID_ARGUMENT, "not a live prism stencil",
                 prism_stencil_apply(ctx, orphan, in, out, 1));

  /* out untouched by every refusal; then a valid call gives the
   * reference. */
  unsigned char *got = harness_download(out);
  assert_poison(got, 0, bytes, "of out", "a refused application");
  free(got);
  harness_assert_alive(ctx, "refused applications");
  check_apply(ctx, s, &d, w, host, 1, 0, 0, "after refusals");
  check_apply(ctx, s, &d, w, host, 3, 1, 2, "after refusals");

  prism_buffer_destroy(va);
  prism_buffer_destroy(vb);
  prism_buffer_destroy(vsame);
  prism_buffer_destroy(odd);
  prism_buffer_destroy(in);
  prism_buffer_destroy(out);
  prism_buffer_destroy(small);
  prism_buffer_destroy(big);
  prism_stencil_destroy(s);
  free(w);
  free(host);
  prism_context_destroy(ctx);
}
