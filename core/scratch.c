/* The per-context scratch pool: one allocation, grown on demand. */
#include "context.h"

prism_status prism__scratch(prism_context *ctx, size_t bytes, void **native) {
  if (bytes == 0)
    bytes = 1;
  if (bytes > ctx->scratch_bytes) {
    /* Grow geometrically so a sweep of rising sizes reallocates rarely.
     * Queued work may still read the old allocation: drain first. */
    size_t grown = ctx->scratch_bytes + ctx->scratch_bytes / 2;
    size_t want = bytes > grown ? bytes : grown;
    prism_status st;
    if (ctx->scratch) {
      if ((st = ctx->backend->finish(ctx)) != PRISM_OK)
        return st;
      ctx->backend->mem_free(ctx, ctx->scratch);
      ctx->scratch = NULL;
      ctx->scratch_bytes = 0;
    }
    if ((st = ctx->backend->mem_alloc(ctx, want, &ctx->scratch)) != PRISM_OK &&
        want > bytes)
      st = ctx->backend->mem_alloc(ctx, want = bytes, &ctx->scratch);
    if (st != PRISM_OK) {
      ctx->scratch = NULL;
      return st;
    }
    ctx->scratch_bytes = want;
  }
  *native = ctx->scratch;
  return PRISM_OK;
}
