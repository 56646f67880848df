/* Histograms: placeholder until the primitive lands. */
#include "check.h"
#include "error.h"

prism_status prism_histogram_even(prism_context *ctx, prism_type sample_type,
                                  const prism_buffer *samples, size_t n,
                                  size_t bins, double lower, double upper,
                                  prism_type counter_type,
                                  prism_buffer *counts) {
  (void)sample_type, (void)samples, (void)n, (void)bins, (void)lower,
      (void)upper, (void)counter_type, (void)counts;
  return prism__fail(ctx, PRISM_UNSUPPORTED, "prism_histogram_even: not built");
}

prism_status prism_histogram_range(prism_context *ctx, prism_type sample_type,
                                   const prism_buffer *samples, size_t n,
                                   size_t bins, const void *edges,
                                   prism_type counter_type,
                                   prism_buffer *counts) {
  (void)sample_type, (void)samples, (void)n, (void)bins, (void)edges,
      (void)counter_type, (void)counts;
  return prism__fail(ctx, PRISM_UNSUPPORTED,
                     "prism_histogram_range: not built");
}
