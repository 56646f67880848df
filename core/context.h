/* SPDX-License-Identifier: MIT */
/*
 * The context and buffer objects, private to core.
 *
 * Backends never see these structs: they keep their own state behind
 * prism__impl(ctx) and receive buffers as native handles.
 */
#ifndef PRISM_CORE_CONTEXT_H
#define PRISM_CORE_CONTEXT_H

#include "backend.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define PRISM__ERROR_MAX 1024

/* The memory behind buffer handles: one allocation (or one wrapped native
 * object), shared by a buffer and its views and freed with the last of
 * them. space and base are its identity for overlap checks (the backend's
 * mem_identity); owned: prism allocated it (mem_free), else the caller did
 * (mem_unwrap). */
typedef struct prism__storage {
  void *native; /* NULL for an empty buffer */
  size_t bytes;
  const void *space;
  uint64_t base;
  int owned;
  unsigned handles; /* buffer handles on it */
} prism__storage;

/* Whether a handle is live is the registry's to say (core/handles.h), never
 * a field of the possibly freed object. A handle names bytes [offset,
 * offset + bytes) of its storage: a whole buffer from 0, a view anywhere. */
struct prism_buffer_s {
  prism_context *ctx;
  prism__storage *storage;
  size_t offset;
  size_t bytes;
  prism_buffer *prev, *next; /* the context's live buffers */
};

/* A marker on the context's queue (core/event.c). */
struct prism_event_s {
  prism_context *ctx;
  void *native;
  prism_event *prev, *next; /* the context's live events */
};

/* The argument a backend receives for buf (from its first byte), or the
 * absent argument for NULL. */
static inline prism__mem prism__mem_of(const prism_buffer *buf) {
  prism__mem m = {NULL, 0};
  if (buf) {
    m.native = buf->storage->native;
    m.offset = buf->offset;
  }
  return m;
}

struct prism_context_s {
  const prism__backend *backend;
  void *impl;
  prism__device_info info;

  prism_buffer *buffers;   /* released at destroy if the caller did not */
  prism_graph *graphs;     /* likewise */
  prism_matrix *matrices;  /* likewise */
  prism_stencil *stencils; /* likewise */
  prism_event *events;     /* likewise */

  /* The thread inside a call on the context (core/handles.h), 0 if none,
   * and how deeply it has entered (calls that make other calls). */
  _Atomic uintptr_t owner;
  unsigned depth;

  /* The scratch pool (core/scratch.c) and its limit (SIZE_MAX: none). */
  void *scratch;
  size_t scratch_bytes;
  size_t scratch_limit;

  /* The last failure. */
  prism_status last_status;
  long long last_native;
  char last_error[PRISM__ERROR_MAX];
  char *build_log;
};

/* Release every buffer the caller left on the context (at destroy). */
void prism__buffers_release_all(prism_context *ctx);

/* Free the scratch pool now (the caller has finished the queue). */
void prism__scratch_free(prism_context *ctx);

/* Release every graph the caller left on the context (at destroy, before
 * the buffers). */
void prism__graphs_release_all(prism_context *ctx);

/* Release every matrix the caller left on the context (at destroy, before
 * the buffers). */
void prism__matrices_release_all(prism_context *ctx);

/* Release every stencil the caller left on the context (at destroy, before
 * the buffers). */
void prism__stencils_release_all(prism_context *ctx);

/* Release every event the caller left on the context (at destroy). */
void prism__events_release_all(prism_context *ctx);

#endif /* PRISM_CORE_CONTEXT_H */
