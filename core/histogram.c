/* SPDX-License-Identifier: MIT */
/*
 * Histograms: validate, precompute the bin mapping (prism__histogram_args),
 * answer n = 0 by zeroing the counters, route to the backend.
 *
 * Checks run in this order: context, sample type, counter type, bins, n
 * against the counter type, bounds or edges, then the buffers, so that a
 * call whose n is too large for u32 counters says so before any buffer is
 * looked at.
 */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The most bins a histogram may have: counters are indexed with 32 bits. */
#define MAX_BINS ((size_t)1 << 31)

static int is_float(prism_type t) {
  return t == PRISM_F32 || t == PRISM_F64;
}

static prism_status check_types(prism_context *ctx, prism_type sample_type,
                                size_t n, size_t bins, prism_type counter_type,
                                const char *fn) {
  prism_status st;
  if ((unsigned)sample_type >= PRISM_TYPE_COUNT)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: sample_type %d is not a prism_type", fn,
                       (int)sample_type);
  if ((st = prism__check_type(ctx, sample_type, fn)) != PRISM_OK)
    return st;
  if (counter_type != PRISM_U32 && counter_type != PRISM_U64)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: counter_type %d (%s) must be u32 or u64", fn,
                       (int)counter_type, prism_type_name(counter_type));
  if (bins == 0 || bins > MAX_BINS)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: bins = %zu; must be 1 .. 2^31", fn, bins);
  if (counter_type == PRISM_U32 && (uint64_t)n > UINT32_MAX)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: n = %zu samples could overflow u32 counters "
                       "(at most %lu); use counter_type u64",
                       fn, n, (unsigned long)UINT32_MAX);
  return PRISM_OK;
}

static prism_status check_buffers(prism_context *ctx, prism_type sample_type,
                                  const prism_buffer *samples, size_t n,
                                  size_t bins, prism_type counter_type,
                                  const prism_buffer *counts, const char *fn) {
  size_t sample_bytes = 0;
  const size_t counter_size = prism_type_size(counter_type);
  prism_status st = prism__check_count(ctx, sample_type, n, fn, &sample_bytes);
  if (st != PRISM_OK)
    return st;
  if (bins > SIZE_MAX / counter_size)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: bins = %zu counters overflow the address space", fn,
                       bins);
  if ((st = prism__check_view(ctx, samples, prism_type_size(sample_type),
                              sample_bytes, fn, "samples")) != PRISM_OK ||
      (st = prism__check_view(ctx, counts, counter_size, bins * counter_size,
                              fn, "counts")) != PRISM_OK)
    return st;
  /* The counters are cleared and counted into while samples are read. */
  return prism__check_apart(ctx, fn, samples, 0, sample_bytes, "samples",
                            counts, 0, bins * counter_size, "counts");
}

/* The integer sample types' bounds as doubles: lower in [lo, hi), upper in
 * (lo, hi], hi being the type's maximum + 1 (exact powers of two). */
static void int_limits(prism_type t, double *lo, double *hi) {
  switch (t) {
  case PRISM_U8:
    *lo = 0.0, *hi = 256.0;
    break;
  case PRISM_I32:
    *lo = -2147483648.0, *hi = 2147483648.0;
    break;
  case PRISM_U32:
    *lo = 0.0, *hi = 4294967296.0;
    break;
  case PRISM_I64:
    *lo = -9223372036854775808.0, *hi = 9223372036854775808.0;
    break;
  default: /* PRISM_U64 */
    *lo = 0.0, *hi = 18446744073709551616.0;
    break;
  }
}

/* Integer samples: lower as the sample type, span = (upper - lower) - 1
 * and width = (span + 1) / bins when that divides evenly, else 0. The
 * bounds are whole and inside the type (checked), so the conversions are
 * exact; upper = 2^63 or 2^64 is the type's end and has no integer image,
 * hence the last value, upper - 1, stands in for it. */
static void int_mapping(prism_type t, double lower, double upper, size_t bins,
                        prism__histogram_args *a) {
  uint64_t lo_bits, last_bits; /* lower and upper - 1, two's complement */
  switch (t) {
  case PRISM_I64: {
    const int64_t lo = (int64_t)lower;
    const int64_t last =
        upper >= 9223372036854775808.0 ? INT64_MAX : (int64_t)upper - 1;
    a->lower.i64 = lo;
    lo_bits = (uint64_t)lo, last_bits = (uint64_t)last;
    break;
  }
  case PRISM_U64: {
    const uint64_t lo = (uint64_t)lower;
    const uint64_t last =
        upper >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)upper - 1;
    a->lower.u64 = lo;
    lo_bits = lo, last_bits = last;
    break;
  }
  default: { /* 8- and 32-bit samples: exact in int64_t */
    const int64_t lo = (int64_t)lower, last = (int64_t)upper - 1;
    if (t == PRISM_U8)
      a->lower.u8 = (uint8_t)lo;
    else if (t == PRISM_I32)
      a->lower.i32 = (int32_t)lo;
    else
      a->lower.u32 = (uint32_t)lo;
    lo_bits = (uint64_t)lo, last_bits = (uint64_t)last;
    break;
  }
  }
  a->span = last_bits - lo_bits;
  if (a->span == UINT64_MAX) /* span + 1 = 2^64 divides evenly by powers of
                                two; 2^64 / 1 has no 64-bit width */
    a->width = bins > 1 && (bins & (bins - 1)) == 0 ? UINT64_MAX / bins + 1 : 0;
  else
    a->width = (a->span + 1) % bins == 0 ? (a->span + 1) / bins : 0;
}

/* Float samples: the bounds converted to the sample type, and scale =
 * bins / (upper - lower), each operation rounded to the sample type. */
static prism_status float_mapping(prism_context *ctx, prism_type t,
                                  double lower, double upper, size_t bins,
                                  prism__histogram_args *a, const char *fn) {
  const char *name = prism_type_name(t);
  double width, scale;
  if (t == PRISM_F32) {
    const float lo = (float)lower, hi = (float)upper;
    if (!isfinite(lo) || !isfinite(hi))
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: lower = %.17g or upper = %.17g is outside the "
                         "f32 range",
                         fn, lower, upper);
    if (!(lo < hi))
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: lower = %.17g and upper = %.17g are equal as "
                         "f32 (lower must be below upper)",
                         fn, lower, upper);
    const float w = hi - lo;
    const float s = (float)bins / w;
    a->lower.f32 = lo, a->upper.f32 = hi, a->scale.f32 = s;
    width = w, scale = s;
  } else {
    const double w = upper - lower;
    const double s = (double)bins / w;
    a->lower.f64 = lower, a->upper.f64 = upper, a->scale.f64 = s;
    width = w, scale = s;
  }
  if (!isfinite(width))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: upper - lower overflows %s (lower = %.17g, upper "
                       "= %.17g)",
                       fn, name, lower, upper);
  if (!isfinite(scale))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: bins / (upper - lower) overflows %s: the range "
                       "[%.17g, %.17g) is too narrow for %zu bins",
                       fn, name, lower, upper, bins);
  return PRISM_OK;
}

static prism_status check_bounds(prism_context *ctx, prism_type t, double lower,
                                 double upper, size_t bins,
                                 prism__histogram_args *a, const char *fn) {
  if (!isfinite(lower))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: lower = %g is not finite", fn, lower);
  if (!isfinite(upper))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: upper = %g is not finite", fn, upper);
  if (!(lower < upper))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: lower = %.17g must be below upper = %.17g", fn,
                       lower, upper);
  if (is_float(t))
    return float_mapping(ctx, t, lower, upper, bins, a, fn);
  double lo, hi;
  int_limits(t, &lo, &hi);
  const char *name = prism_type_name(t);
  if (lower != floor(lower))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: lower = %.17g is not a whole number (samples are "
                       "%s)",
                       fn, lower, name);
  if (upper != floor(upper))
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: upper = %.17g is not a whole number (samples are "
                       "%s)",
                       fn, upper, name);
  if (lower < lo || lower >= hi)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: lower = %.17g is outside the %s range [%.17g, "
                       "%.17g]",
                       fn, lower, name, lo, hi - 1);
  if (upper > hi)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: upper = %.17g is past the %s range (at most the "
                       "largest value + 1, %.17g)",
                       fn, upper, name, hi);
  int_mapping(t, lower, upper, bins, a);
  return PRISM_OK;
}

/* Edge i of a host array of sample_type, ordered as the type orders. */
static int edge_below(prism_type t, const void *edges, size_t i) {
  switch (t) {
  case PRISM_U8:
    return ((const uint8_t *)edges)[i] < ((const uint8_t *)edges)[i + 1];
  case PRISM_I32:
    return ((const int32_t *)edges)[i] < ((const int32_t *)edges)[i + 1];
  case PRISM_U32:
    return ((const uint32_t *)edges)[i] < ((const uint32_t *)edges)[i + 1];
  case PRISM_F32: /* false when either is NaN */
    return ((const float *)edges)[i] < ((const float *)edges)[i + 1];
  case PRISM_I64:
    return ((const int64_t *)edges)[i] < ((const int64_t *)edges)[i + 1];
  case PRISM_U64:
    return ((const uint64_t *)edges)[i] < ((const uint64_t *)edges)[i + 1];
  case PRISM_F64:
    return ((const double *)edges)[i] < ((const double *)edges)[i + 1];
  }
  return 0;
}

static int edge_is_nan(prism_type t, const void *edges, size_t i) {
  if (t == PRISM_F32)
    return isnan(((const float *)edges)[i]);
  if (t == PRISM_F64)
    return isnan(((const double *)edges)[i]);
  return 0;
}

static prism_status check_edges(prism_context *ctx, prism_type t,
                                const void *edges, size_t bins,
                                const char *fn) {
  if (!edges)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: edges is NULL", fn);
  for (size_t i = 0; i <= bins; i++)
    if (edge_is_nan(t, edges, i))
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT, "%s: edges[%zu] is NaN",
                         fn, i);
  for (size_t i = 0; i < bins; i++)
    if (!edge_below(t, edges, i))
      return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                         "%s: edges are not strictly ascending: edges[%zu] "
                         ">= edges[%zu]",
                         fn, i, i + 1);
  return PRISM_OK;
}

/* n = 0 writes zeros; otherwise the backend counts. */
static prism_status run_histogram(prism_context *ctx,
                                  const prism__histogram_args *a,
                                  const char *fn) {
  if (a->n == 0) {
    const uint32_t zero = 0;
    return ctx->backend->mem_fill(ctx, a->counts.native, a->counts.offset,
                                  &zero, sizeof zero,
                                  a->bins * prism_type_size(a->counter_type));
  }
  if (!ctx->backend->histogram)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  return ctx->backend->histogram(ctx, a);
}

static prism_status histogram_even(prism_context *ctx, prism_type sample_type,
                                   const prism_buffer *samples, size_t n,
                                   size_t bins, double lower, double upper,
                                   prism_type counter_type,
                                   prism_buffer *counts) {
  static const char fn[] = "prism_histogram_even";
  prism__histogram_args a;
  memset(&a, 0, sizeof a);
  prism_status st = check_types(ctx, sample_type, n, bins, counter_type, fn);
  if (st == PRISM_OK)
    st = check_bounds(ctx, sample_type, lower, upper, bins, &a, fn);
  if (st == PRISM_OK)
    st = check_buffers(ctx, sample_type, samples, n, bins, counter_type, counts,
                       fn);
  if (st != PRISM_OK)
    return st;
  a.sample_type = sample_type;
  a.samples = prism__mem_of(samples);
  a.n = n;
  a.bins = bins;
  a.ranged = 0;
  a.counter_type = counter_type;
  a.counts = prism__mem_of(counts);
  return run_histogram(ctx, &a, fn);
}

static prism_status histogram_range(prism_context *ctx, prism_type sample_type,
                                    const prism_buffer *samples, size_t n,
                                    size_t bins, const void *edges,
                                    prism_type counter_type,
                                    prism_buffer *counts) {
  static const char fn[] = "prism_histogram_range";
  prism_status st = check_types(ctx, sample_type, n, bins, counter_type, fn);
  if (st == PRISM_OK)
    st = check_edges(ctx, sample_type, edges, bins, fn);
  if (st == PRISM_OK)
    st = check_buffers(ctx, sample_type, samples, n, bins, counter_type, counts,
                       fn);
  if (st != PRISM_OK)
    return st;
  prism__histogram_args a;
  memset(&a, 0, sizeof a);
  a.sample_type = sample_type;
  a.samples = prism__mem_of(samples);
  a.n = n;
  a.bins = bins;
  a.ranged = 1;
  a.edges = edges;
  a.counter_type = counter_type;
  a.counts = prism__mem_of(counts);
  return run_histogram(ctx, &a, fn);
}

prism_status prism_histogram_even(prism_context *ctx, prism_type sample_type,
                                  const prism_buffer *samples, size_t n,
                                  size_t bins, double lower, double upper,
                                  prism_type counter_type,
                                  prism_buffer *counts) {
  PRISM__ENTER(ctx, "prism_histogram_even");
  return prism__leave(ctx, histogram_even(ctx, sample_type, samples, n, bins,
                                          lower, upper, counter_type, counts));
}

prism_status prism_histogram_range(prism_context *ctx, prism_type sample_type,
                                   const prism_buffer *samples, size_t n,
                                   size_t bins, const void *edges,
                                   prism_type counter_type,
                                   prism_buffer *counts) {
  PRISM__ENTER(ctx, "prism_histogram_range");
  return prism__leave(ctx, histogram_range(ctx, sample_type, samples, n, bins,
                                           edges, counter_type, counts));
}
