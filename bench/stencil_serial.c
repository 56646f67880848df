/* SPDX-License-Identifier: MIT */
/* The serial C stencil and its checks (stencil_serial.h). */
#include "stencil_serial.h"

#include "input.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void stencil_plan_make(stencil_plan *p, const prism_stencil_desc *desc,
                       const void *weights) {
  const int r = (int)desc->radius;
  const int ry = desc->dims >= 2 ? r : 0, rz = desc->dims >= 3 ? r : 0;
  const ptrdiff_t nx = (ptrdiff_t)desc->nx, ny = (ptrdiff_t)desc->ny;
  size_t i = 0;
  p->desc = *desc;
  p->taps = 0;
  for (int z = -rz; z <= rz; z++) {
    for (int y = -ry; y <= ry; y++) {
      for (int x = -r; x <= r; x++, i++) {
        double w = desc->type == PRISM_F64 ? ((const double *)weights)[i]
                                           : ((const float *)weights)[i];
        if (w == 0) /* +-0.0 takes no part */
          continue;
        p->dx[p->taps] = x;
        p->dy[p->taps] = y;
        p->dz[p->taps] = z;
        p->offset[p->taps] = x + nx * (y + ny * z);
        p->w32[p->taps] = (float)w; /* exact: w is a float for f32 */
        p->w64[p->taps] = w;
        p->taps++;
      }
    }
  }
}

size_t stencil_points(const stencil_plan *p) {
  return p->desc.nx * p->desc.ny * p->desc.nz;
}

/* Coordinate c + d of an axis of extent n under border: 1 with its index
 * in *at, or 0 where the zero border reads 0.0. */
static int resolve(size_t c, int d, size_t n, prism_border border, size_t *at) {
  long long v = (long long)c + d, extent = (long long)n;
  if (v >= 0 && v < extent) {
    *at = (size_t)v;
    return 1;
  }
  if (border == PRISM_BORDER_ZERO)
    return 0;
  if (border == PRISM_BORDER_CLAMP)
    *at = v < 0 ? 0 : n - 1;
  else
    *at = (size_t)((v % extent + extent) % extent);
  return 1;
}

/* The input element tap k of point (x, y, z) reads: 1 with its index, or
 * 0 for 0.0. */
static int tap_index(const stencil_plan *p, size_t x, size_t y, size_t z,
                     size_t k, size_t *i) {
  const prism_stencil_desc *d = &p->desc;
  size_t xx, yy, zz;
  if (!resolve(x, p->dx[k], d->nx, d->border, &xx) ||
      !resolve(y, p->dy[k], d->ny, d->border, &yy) ||
      !resolve(z, p->dz[k], d->nz, d->border, &zz))
    return 0;
  *i = xx + d->nx * (yy + d->ny * zz);
  return 1;
}

/* The interior of a row goes in chunks of this many points, each tap
 * over the whole chunk: the points' sums are apart, so the compiler can
 * take several points at a time, each still summed in prism's order. */
#define STENCIL_CHUNK 64

/* x86 compilers call libm for fma unless the target has it: the serial
 * loop then takes a copy built for FMA hardware where the CPU has it (the
 * same bits: both round once). */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define STENCIL_FMA_COPY 1
#define STENCIL_FMA_TARGET __attribute__((target("fma")))
#else
#define STENCIL_FMA_COPY 0
#define STENCIL_FMA_TARGET
#endif

/* One point by the border's rule, and the whole grid: the taps' offsets
 * for the points whose box lies inside the grid, the rule for the rest. */
#define STENCIL_TYPED(SUFFIX, T, FMA, W, TARGET)                               \
  TARGET static T point_##SUFFIX(const stencil_plan *p, const T *in, size_t x, \
                                 size_t y, size_t z) {                         \
    T acc = 0;                                                                 \
    size_t i = 0;                                                              \
    for (size_t k = 0; k < p->taps; k++)                                       \
      acc = FMA(p->W[k], tap_index(p, x, y, z, k, &i) ? in[i] : (T)0, acc);    \
    return acc;                                                                \
  }                                                                            \
  TARGET static void serial_##SUFFIX(const stencil_plan *p, const T *in,       \
                                     T *out) {                                 \
    const size_t nx = p->desc.nx, ny = p->desc.ny, nz = p->desc.nz;            \
    const size_t r = p->desc.radius;                                           \
    const unsigned dims = p->desc.dims;                                        \
    const size_t hi = nx - r; /* [r, hi): the interior of a row */             \
    for (size_t z = 0; z < nz; z++) {                                          \
      const int z_inside = dims < 3 || (z >= r && z + r < nz);                 \
      for (size_t y = 0; y < ny; y++) {                                        \
        const int inside =                                                     \
            z_inside && (dims < 2 || (y >= r && y + r < ny)) && nx > 2 * r;    \
        const size_t row = nx * (y + ny * z);                                  \
        size_t x = 0;                                                          \
        if (inside) {                                                          \
          for (; x < r; x++)                                                   \
            out[row + x] = point_##SUFFIX(p, in, x, y, z);                     \
          for (; x < hi; x += STENCIL_CHUNK) {                                 \
            const size_t len =                                                 \
                hi - x < STENCIL_CHUNK ? hi - x : STENCIL_CHUNK;               \
            T acc[STENCIL_CHUNK];                                              \
            for (size_t j = 0; j < len; j++)                                   \
              acc[j] = 0;                                                      \
            for (size_t k = 0; k < p->taps; k++) {                             \
              const T w = p->W[k], *c = in + row + x + p->offset[k];           \
              for (size_t j = 0; j < len; j++)                                 \
                acc[j] = FMA(w, c[j], acc[j]);                                 \
            }                                                                  \
            memcpy(out + row + x, acc, len * sizeof acc[0]);                   \
          }                                                                    \
          x = hi;                                                              \
        }                                                                      \
        for (; x < nx; x++)                                                    \
          out[row + x] = point_##SUFFIX(p, in, x, y, z);                       \
      }                                                                        \
    }                                                                          \
  }
STENCIL_TYPED(f32, float, fmaf, w32, )
STENCIL_TYPED(f64, double, fma, w64, )
#if STENCIL_FMA_COPY
STENCIL_TYPED(f32_fma, float, fmaf, w32, STENCIL_FMA_TARGET)
STENCIL_TYPED(f64_fma, double, fma, w64, STENCIL_FMA_TARGET)
#endif
#undef STENCIL_TYPED

void stencil_serial(const stencil_plan *p, const void *in, void *out) {
  const int f64 = p->desc.type == PRISM_F64;
#if STENCIL_FMA_COPY
  if (__builtin_cpu_supports("fma")) {
    if (f64)
      serial_f64_fma(p, in, out);
    else
      serial_f32_fma(p, in, out);
    return;
  }
#endif
  if (f64)
    serial_f64(p, in, out);
  else
    serial_f32(p, in, out);
}

/* ---- Checks -------------------------------------------------------------- */

typedef struct checker {
  const stencil_plan *p;
  const void *in, *result;
  int close;    /* stencil_check_close's test, else bits */
  double slack; /* close */
  char *msg;
  size_t msg_size;
} checker;

/* Whether point (x, y, z) of the result passes; else the message. */
static int check_point(const checker *c, size_t x, size_t y, size_t z) {
  const stencil_plan *p = c->p;
  const size_t i = x + p->desc.nx * (y + p->desc.ny * z);
  const int f64 = p->desc.type == PRISM_F64;
  const double got =
      f64 ? ((const double *)c->result)[i] : ((const float *)c->result)[i];
  if (!c->close) {
    double want;
    int same;
    if (f64) {
      double w = point_f64(p, c->in, x, y, z);
      same = memcmp(&w, (const double *)c->result + i, sizeof w) == 0;
      want = w;
    } else {
      float w = point_f32(p, c->in, x, y, z);
      same = memcmp(&w, (const float *)c->result + i, sizeof w) == 0;
      want = w;
    }
    if (!same)
      snprintf(c->msg, c->msg_size,
               "point (%zu, %zu, %zu): %.17g, want %.17g (the serial loop's "
               "bits)",
               x, y, z, got, want);
    return same;
  }
  double sum = 0, size = 0;
  size_t at = 0;
  for (size_t k = 0; k < p->taps; k++) {
    double v = 0;
    if (tap_index(p, x, y, z, k, &at))
      v = f64 ? ((const double *)c->in)[at] : ((const float *)c->in)[at];
    sum += p->w64[k] * v;
    size += fabs(p->w64[k] * v);
  }
  const double eps = f64 ? DBL_EPSILON : FLT_EPSILON;
  const double tolerance = c->slack * (double)(p->taps + 2) * eps * size;
  if (!(fabs(got - sum) <= tolerance)) {
    snprintf(c->msg, c->msg_size,
             "point (%zu, %zu, %zu): %.9g, want %.17g within %.3g", x, y, z,
             got, sum, tolerance);
    return 0;
  }
  return 1;
}

static int near_face(size_t c, size_t n, size_t band) {
  return c < band || c + band >= n;
}

/* Every point, or those near a face and a sample (stencil_serial.h). */
static int check_points(const checker *c, uint64_t seed) {
  const prism_stencil_desc *d = &c->p->desc;
  const size_t nx = d->nx, ny = d->ny, nz = d->nz, band = d->radius + 1;
  const size_t taps = c->p->taps ? c->p->taps : 1;
  const int all = (double)stencil_points(c->p) * (double)taps <=
                  (double)STENCIL_CHECK_ALL_WORK;
  for (size_t z = 0; z < nz; z++) {
    for (size_t y = 0; y < ny; y++) {
      const int row = all || (d->dims >= 3 && near_face(z, nz, band)) ||
                      (d->dims >= 2 && near_face(y, ny, band));
      for (size_t x = 0; x < nx; x++) {
        if (!row && x == band && nx > 2 * band)
          x = nx - band; /* the interior is sampled below */
        if (!check_point(c, x, y, z))
          return 0;
      }
    }
  }
  if (all)
    return 1;
  uint64_t state = seed;
  for (size_t s = 0; s < STENCIL_CHECK_SAMPLE; s++) {
    size_t x = (size_t)(input_random(&state) % nx);
    size_t y = (size_t)(input_random(&state) % ny);
    size_t z = (size_t)(input_random(&state) % nz);
    if (!check_point(c, x, y, z))
      return 0;
  }
  return 1;
}

int stencil_check_bits(const stencil_plan *p, const void *in,
                       const void *result, const void *serial, uint64_t seed,
                       char *msg, size_t msg_size) {
  checker c = {p, in, result, 0, 0, msg, msg_size};
  if (!serial)
    return check_points(&c, seed);
  const size_t size = prism_type_size(p->desc.type), n = stencil_points(p);
  if (memcmp(result, serial, n * size) == 0)
    return 1;
  for (size_t i = 0; i < n; i++) {
    if (memcmp((const char *)result + i * size, (const char *)serial + i * size,
               size) != 0) {
      const size_t x = i % p->desc.nx, y = i / p->desc.nx % p->desc.ny,
                   z = i / (p->desc.nx * p->desc.ny);
      if (!check_point(&c, x, y, z))
        return 0;
    }
  }
  return 1;
}

int stencil_check_close(const stencil_plan *p, const void *in,
                        const void *result, double slack, uint64_t seed,
                        char *msg, size_t msg_size) {
  checker c = {p, in, result, 1, slack, msg, msg_size};
  return check_points(&c, seed);
}
