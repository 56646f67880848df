/* SPDX-License-Identifier: MIT */
/* Failure messages: per context, or thread-local before a context exists. */
#include "context.h"
#include "error.h"
#include "handles.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local char global_error[PRISM__ERROR_MAX];

static prism_status record(prism_context *ctx, prism_status status,
                           long long native, const char *fmt, va_list ap) {
  char *dst = ctx ? ctx->last_error : global_error;
  vsnprintf(dst, PRISM__ERROR_MAX, fmt, ap);
  if (ctx) {
    ctx->last_status = status;
    ctx->last_native = native;
  }
  return status;
}

prism_status prism__fail(prism_context *ctx, prism_status status,
                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(ctx, status, 0, fmt, ap);
  va_end(ap);
  return status;
}

prism_status prism__fail_native(prism_context *ctx, prism_status status,
                                long long native, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(ctx, status, native, fmt, ap);
  va_end(ap);
  return status;
}

void prism__set_build_log(prism_context *ctx, const char *log) {
  if (!ctx)
    return;
  free(ctx->build_log);
  ctx->build_log = NULL;
  if (log) {
    size_t len = strlen(log) + 1;
    ctx->build_log = malloc(len);
    if (ctx->build_log)
      memcpy(ctx->build_log, log, len);
  }
}

void prism__clear_global_error(void) {
  global_error[0] = '\0';
}

const char *prism_last_error(void) {
  return global_error;
}

/* A context that is not live (NULL, destroyed) has no message of its own:
 * the thread's last one is the refusal of the call that named it. */

const char *prism_context_last_error(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->last_error : global_error;
}

prism_status prism_context_last_status(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->last_status : PRISM_NULL_POINTER;
}

long long prism_context_last_native_error(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->last_native : 0;
}

const char *prism_context_build_log(const prism_context *ctx) {
  return prism__live_context(ctx) && ctx->build_log ? ctx->build_log : "";
}
