/* SPDX-License-Identifier: MIT */
#include "ref_dense.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TRANSPOSE(T)                                                           \
  static void transpose_##T(const T *in, T *out, size_t rows, size_t cols,     \
                            size_t batch) {                                    \
    for (size_t b = 0; b < batch; b++, in += rows * cols, out += rows * cols)  \
      for (size_t r = 0; r < rows; r++)                                        \
        for (size_t c = 0; c < cols; c++)                                      \
          out[c * rows + r] = in[r * cols + c];                                \
  }
TRANSPOSE(uint8_t)
TRANSPOSE(uint16_t)
TRANSPOSE(uint32_t)
TRANSPOSE(uint64_t)

void ref_transpose(size_t element_size, const void *in, void *out, size_t rows,
                   size_t cols, size_t batch) {
  switch (element_size) {
  case 1:
    transpose_uint8_t(in, out, rows, cols, batch);
    return;
  case 2:
    transpose_uint16_t(in, out, rows, cols, batch);
    return;
  case 4:
    transpose_uint32_t(in, out, rows, cols, batch);
    return;
  case 8:
    transpose_uint64_t(in, out, rows, cols, batch);
    return;
  }
  const unsigned char *src = in;
  unsigned char *dst = out;
  const size_t matrix = rows * cols * element_size;
  for (size_t b = 0; b < batch; b++)
    for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < cols; c++)
        memcpy(dst + b * matrix + (c * rows + r) * element_size,
               src + b * matrix + (r * cols + c) * element_size, element_size);
}

/* Index i (any, far outside included) of an axis of n points under the
 * border mode: the index read, or -1 for a zero read. */
static int64_t border_index(int64_t i, size_t extent, prism_border border) {
  const int64_t n = (int64_t)extent;
  if (i >= 0 && i < n)
    return i;
  switch (border) {
  case PRISM_BORDER_CLAMP:
    return i < 0 ? 0 : n - 1;
  case PRISM_BORDER_PERIODIC:
    return ((i % n) + n) % n;
  case PRISM_BORDER_ZERO:
    break;
  }
  return -1;
}

#define STENCIL(T, FMA)                                                        \
  static void stencil_##T(const prism_stencil_desc *d, const T *w,             \
                          const T *in, T *out) {                               \
    const int64_t r = d->radius, side = 2 * r + 1;                             \
    const int64_t ry = d->dims >= 2 ? r : 0, rz = d->dims >= 3 ? r : 0;        \
    const size_t nx = d->nx, ny = d->ny, nz = d->nz;                           \
    for (size_t z = 0; z < nz; z++)                                            \
      for (size_t y = 0; y < ny; y++)                                          \
        for (size_t x = 0; x < nx; x++) {                                      \
          T acc = 0;                                                           \
          for (int64_t dz = -rz; dz <= rz; dz++) {                             \
            const int64_t iz = border_index((int64_t)z + dz, nz, d->border);   \
            for (int64_t dy = -ry; dy <= ry; dy++) {                           \
              const int64_t iy = border_index((int64_t)y + dy, ny, d->border); \
              const T *row = w + side * ((dy + ry) + side * (dz + rz)) + r;    \
              for (int64_t dx = -r; dx <= r; dx++) {                           \
                const T wv = row[dx];                                          \
                if (wv == 0)                                                   \
                  continue;                                                    \
                const int64_t ix =                                             \
                    border_index((int64_t)x + dx, nx, d->border);              \
                const T v = ix < 0 || iy < 0 || iz < 0                         \
                                ? (T)0                                         \
                                : in[(size_t)ix +                              \
                                     nx * ((size_t)iy + ny * (size_t)iz)];     \
                acc = FMA(wv, v, acc);                                         \
              }                                                                \
            }                                                                  \
          }                                                                    \
          out[x + nx * (y + ny * z)] = acc;                                    \
        }                                                                      \
  }
STENCIL(float, fmaf)
STENCIL(double, fma)

void ref_stencil(const prism_stencil_desc *d, const void *weights,
                 const void *in, void *out) {
  if (d->type == PRISM_F64)
    stencil_double(d, weights, in, out);
  else
    stencil_float(d, weights, in, out);
}

void ref_stencil_iterate(const prism_stencil_desc *d, const void *weights,
                         const void *in, void *out, size_t iterations) {
  const size_t bytes = d->nx * d->ny * d->nz * prism_type_size(d->type);
  if (iterations == 0) {
    memcpy(out, in, bytes);
    return;
  }
  void *tmp = iterations > 1 ? malloc(bytes) : NULL;
  if (iterations > 1 && !tmp)
    abort();
  /* The last application writes out; before it they alternate with tmp. */
  const void *from = in;
  for (size_t i = 0; i < iterations; i++) {
    void *to = (iterations - 1 - i) % 2 == 0 ? out : tmp;
    ref_stencil(d, weights, from, to);
    from = to;
  }
  free(tmp);
}
