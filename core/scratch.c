/* SPDX-License-Identifier: MIT */
/* The per-context scratch pool: one allocation, grown on demand, within
 * the context's limit; and the calls that show, cap and release it. */
#include "context.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>

void prism__scratch_free(prism_context *ctx) {
  if (ctx->scratch)
    ctx->backend->mem_free(ctx, ctx->scratch);
  ctx->scratch = NULL;
  ctx->scratch_bytes = 0;
}

prism_status prism__scratch(prism_context *ctx, size_t bytes, void **native) {
  if (bytes == 0)
    bytes = 1;
  if (bytes > ctx->scratch_limit)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "the call needs %zu bytes of scratch memory, over the "
                       "context's scratch limit of %zu bytes "
                       "(prism_context_set_scratch_limit)",
                       bytes, ctx->scratch_limit);
  if (bytes > ctx->scratch_bytes) {
    /* Grow geometrically so a sweep of rising sizes reallocates rarely.
     * Queued work may still read the old allocation: drain first. */
    size_t grown = ctx->scratch_bytes + ctx->scratch_bytes / 2;
    size_t want = bytes > grown ? bytes : grown;
    if (want > ctx->scratch_limit)
      want = ctx->scratch_limit;
    prism_status st;
    if (ctx->scratch) {
      if ((st = ctx->backend->finish(ctx)) != PRISM_OK)
        return st;
      prism__scratch_free(ctx);
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

size_t prism_context_scratch_size(const prism_context *ctx) {
  prism__handle_lock();
  size_t bytes = prism__handle_live_locked(ctx, PRISM__HANDLE_CONTEXT)
                     ? ctx->scratch_bytes
                     : 0;
  prism__handle_unlock();
  return bytes;
}

/* Finish the queued work that may use the pool, then free it. */
static prism_status release(prism_context *ctx) {
  if (!ctx->scratch)
    return PRISM_OK;
  prism_status st = ctx->backend->finish(ctx);
  if (st == PRISM_OK)
    prism__scratch_free(ctx);
  return st;
}

prism_status prism_context_set_scratch_limit(prism_context *ctx,
                                             size_t max_bytes) {
  PRISM__ENTER(ctx, "prism_context_set_scratch_limit");
  ctx->scratch_limit = max_bytes;
  prism_status st = PRISM_OK;
  if (ctx->scratch_bytes > max_bytes)
    st = release(ctx);
  return prism__leave(ctx, st);
}

prism_status prism_context_release_scratch(prism_context *ctx) {
  PRISM__ENTER(ctx, "prism_context_release_scratch");
  return prism__leave(ctx, release(ctx));
}
