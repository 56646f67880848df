/*
 * The context and buffer objects, private to core.
 *
 * Backends never see these structs: they keep their own state behind
 * prism__impl(ctx) and receive buffers as native handles.
 */
#ifndef PRISM_CORE_CONTEXT_H
#define PRISM_CORE_CONTEXT_H

#include "backend.h"

#include <stddef.h>

#define PRISM__ERROR_MAX 1024

/* Distinguishes a live buffer from freed or foreign memory in checks. */
#define PRISM__BUFFER_MAGIC 0x70726973u /* "pris" */

struct prism_buffer_s {
  unsigned magic;
  prism_context *ctx;
  void *native;
  size_t bytes;
  prism_buffer *prev, *next; /* the context's live buffers */
};

struct prism_context_s {
  const prism__backend *backend;
  void *impl;
  prism__device_info info;

  prism_buffer *buffers; /* released at destroy if the caller did not */

  /* The scratch pool (core/scratch.c). */
  void *scratch;
  size_t scratch_bytes;

  /* The last failure. */
  prism_status last_status;
  long long last_native;
  char last_error[PRISM__ERROR_MAX];
  char *build_log;
};

/* Release every buffer the caller left on the context (at destroy). */
void prism__buffers_release_all(prism_context *ctx);

#endif /* PRISM_CORE_CONTEXT_H */
