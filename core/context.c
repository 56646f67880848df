/* SPDX-License-Identifier: MIT */
/* Context creation (backend choice), destruction and accessors. */
#include "context.h"
#include "env.h"
#include "error.h"
#include "handles.h"
#include "interop.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void prism_context_options_init(prism_context_options *options) {
  if (!options)
    return;
  memset(options, 0, sizeof *options);
  options->backend = PRISM_BACKEND_AUTO;
  options->device = 0;
  options->opencl_platform = NULL;
}

void *prism__impl(const prism_context *ctx) {
  return ctx->impl;
}

void prism__set_impl(prism_context *ctx, void *impl) {
  ctx->impl = impl;
}

/* Open one backend on the requested device. Errors go to the thread-local
 * slot, prefixed with the backend's name. */
static prism_status open_request(const prism__backend *b,
                                 const prism__device_request *request,
                                 prism_context **out) {
  prism_context *ctx = calloc(1, sizeof *ctx);
  if (!ctx)
    return prism__fail(NULL, PRISM_OUT_OF_MEMORY,
                       "prism_context_create: out of host memory");
  ctx->backend = b;
  ctx->scratch_limit = SIZE_MAX;
  prism_status st = b->context_init(ctx, request, &ctx->info);
  if (st != PRISM_OK) {
    prism__fail(NULL, st, "%s backend: %s", b->name, ctx->last_error);
    free(ctx->build_log);
    free(ctx);
    return st;
  }
  if ((st = prism__handle_add(ctx, ctx, PRISM__HANDLE_CONTEXT,
                              "prism_context_create")) != PRISM_OK) {
    b->context_fini(ctx);
    free(ctx->build_log);
    free(ctx);
    return st;
  }
  *out = ctx;
  return PRISM_OK;
}

static prism_status open_backend(const prism__backend *b,
                                 const prism_context_options *options,
                                 prism_context **out) {
  prism__device_request request = {options->device, options->opencl_platform,
                                   NULL};
  return open_request(b, &request, out);
}

prism_status prism__context_create_native(const prism__backend *b,
                                          const void *native, const char *fn,
                                          prism_context **out) {
  prism__clear_global_error();
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  prism__device_request request = {0, NULL, native};
  prism_status st = open_request(b, &request, out);
  if (st != PRISM_OK) {
    /* open_request's message names the backend; say which call it was. */
    char msg[PRISM__ERROR_MAX];
    snprintf(msg, sizeof msg, "%s", prism_last_error());
    prism__fail(NULL, st, "%s: %s", fn, msg);
  }
  return st;
}

prism_status prism__enter_backend(prism_context *ctx, const prism__backend *b,
                                  const char *fn) {
  PRISM__ENTER(ctx, fn);
  if (ctx->backend == b)
    return PRISM_OK;
  return prism__leave(ctx, prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                                       "%s: ctx is a %s context, not %s", fn,
                                       ctx->backend->name, b->name));
}

/* An explicitly named backend: say why it cannot run, if it cannot. */
static prism_status open_named(prism_backend kind,
                               const prism_context_options *options,
                               prism_context **out) {
  const prism__backend *b = prism__find_backend(kind);
  if (!b)
    return prism__fail(NULL, PRISM_BACKEND_UNAVAILABLE,
                       "the %s backend is not built into this library "
                       "(configure with PRISM_WITH_%s=ON)",
                       prism_backend_name(kind),
                       kind == PRISM_BACKEND_CUDA ? "CUDA" : "OPENCL");
  char reason[256] = "";
  int count = 0;
  prism_status st = b->probe(&count, reason, sizeof reason);
  if (st != PRISM_OK)
    return prism__fail(NULL, st, "%s backend unavailable: %s", b->name, reason);
  if (count == 0)
    return prism__fail(NULL, PRISM_DEVICE_NOT_FOUND,
                       "%s backend has no device: %s", b->name, reason);
  return open_backend(b, options, out);
}

/* AUTO: CUDA when it has a device, else OpenCL. Naming an OpenCL platform
 * is a request for OpenCL. */
static prism_status open_auto(const prism_context_options *options,
                              prism_context **out) {
  char why_cuda[256] = "not built into this library";
  const prism__backend *cuda = prism__find_backend(PRISM_BACKEND_CUDA);
  if (cuda && !options->opencl_platform) {
    int count = 0;
    if (cuda->probe(&count, why_cuda, sizeof why_cuda) == PRISM_OK && count > 0)
      return open_backend(cuda, options, out);
  }
  const prism__backend *opencl = prism__find_backend(PRISM_BACKEND_OPENCL);
  if (!opencl)
    return prism__fail(NULL, PRISM_BACKEND_UNAVAILABLE,
                       "no backend can run: cuda: %s; opencl: not built into "
                       "this library",
                       why_cuda);
  char why_opencl[256] = "";
  int count = 0;
  prism_status st = opencl->probe(&count, why_opencl, sizeof why_opencl);
  if (st != PRISM_OK || count == 0)
    return prism__fail(NULL, st != PRISM_OK ? st : PRISM_DEVICE_NOT_FOUND,
                       "no backend can run: cuda: %s; opencl: %s", why_cuda,
                       why_opencl);
  return open_backend(opencl, options, out);
}

prism_status prism_context_create(const prism_context_options *options,
                                  prism_context **out) {
  prism__clear_global_error();
  if (!out)
    return prism__fail(NULL, PRISM_NULL_POINTER,
                       "prism_context_create: out is NULL");
  *out = NULL;
  prism_context_options env;
  if (!options) {
    prism_context_options_init(&env);
    prism_status st = prism__options_from_env(&env);
    if (st != PRISM_OK)
      return st;
    options = &env;
  }
  if (options->device < 0)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "prism_context_create: options->device is %d; must be "
                       ">= 0",
                       options->device);
  switch (options->backend) {
  case PRISM_BACKEND_AUTO:
    return open_auto(options, out);
  case PRISM_BACKEND_CUDA:
  case PRISM_BACKEND_OPENCL:
    return open_named(options->backend, options, out);
  }
  return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                     "prism_context_create: options->backend is %d; valid: "
                     "PRISM_BACKEND_AUTO, _CUDA, _OPENCL",
                     (int)options->backend);
}

void prism_context_destroy(prism_context *ctx) {
  /* From here no other call can enter it: it is no longer live. */
  if (!prism__enter_destroy(ctx, PRISM__HANDLE_CONTEXT))
    return;
  ctx->backend->finish(ctx);
  prism__events_release_all(ctx);
  prism__graphs_release_all(ctx);
  prism__matrices_release_all(ctx);
  prism__stencils_release_all(ctx);
  prism__buffers_release_all(ctx);
  prism__scratch_free(ctx);
  ctx->backend->context_fini(ctx);
  free(ctx->build_log);
  free(ctx);
}

/* The accessors answer a dead handle as they answer NULL. */

prism_backend prism_context_backend(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->backend->kind : PRISM_BACKEND_AUTO;
}

const char *prism_context_device_name(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->info.device_name : "";
}

const char *prism_context_platform_name(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->info.platform_name : "";
}

const char *prism_context_policy(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->info.policy : "";
}

int prism_context_is_cpu(const prism_context *ctx) {
  return prism__live_context(ctx) ? ctx->info.is_cpu : 0;
}

int prism_context_supports(const prism_context *ctx, prism_type type) {
  if (!prism__live_context(ctx) || (unsigned)type >= PRISM_TYPE_COUNT)
    return 0;
  return (ctx->info.type_mask >> type) & 1u;
}

prism_status prism_context_finish(prism_context *ctx) {
  PRISM__ENTER(ctx, "prism_context_finish");
  return prism__leave(ctx, ctx->backend->finish(ctx));
}
