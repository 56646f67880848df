/* SPDX-License-Identifier: MIT */
/*
 * Which handles are live, and which thread is inside a context.
 *
 * Handles (contexts, buffers, graphs, matrices, stencils, events) are pointers
 * to structs that core frees at destroy. Deciding whether a pointer the caller
 * passes is still a live handle must not read it: a process-wide registry of
 * live handles, keyed by address, answers without touching the object. A
 * handle's address can be given to a new object after destroy; a stale handle
 * then names that object (as with any pointer handle), but nothing ever reads
 * freed memory.
 *
 * A context is used by one thread at a time. Every public call that works
 * on a context enters it first: the first thread in owns it until its call
 * returns, nested calls from the owner pass, and another thread is refused
 * with PRISM_CONTEXT_BUSY (its message goes to the thread-local slot, since
 * the context's own belongs to the owner). Destroy calls wait instead:
 * they return nothing, so they cannot report the clash.
 */
#ifndef PRISM_CORE_HANDLES_H
#define PRISM_CORE_HANDLES_H

#include "context.h"

typedef enum prism__handle_kind {
  PRISM__HANDLE_CONTEXT = 1,
  PRISM__HANDLE_BUFFER = 2,
  PRISM__HANDLE_GRAPH = 3,
  PRISM__HANDLE_EVENT = 4,
  PRISM__HANDLE_MATRIX = 5,
  PRISM__HANDLE_STENCIL = 6
} prism__handle_kind;

/** Register a new handle; PRISM_OUT_OF_MEMORY (message on ctx, or
 * thread-local when ctx is NULL) when the registry cannot grow. */
prism_status prism__handle_add(prism_context *ctx, const void *handle,
                               prism__handle_kind kind, const char *fn);

/** 1 when handle is a live handle of that kind. */
int prism__handle_live(const void *handle, prism__handle_kind kind);

/** ctx when it is a live context, else NULL. */
const prism_context *prism__live_context(const prism_context *ctx);

/** The context of a live handle of that kind, or NULL. */
prism_context *prism__handle_context(const void *handle,
                                     prism__handle_kind kind);

/** Hold the registry, so that a live handle stays live while its fields are
 * read (prism__handle_live_locked), then release it. */
void prism__handle_lock(void);
int prism__handle_live_locked(const void *handle, prism__handle_kind kind);
void prism__handle_unlock(void);

/** Enter ctx for a call of fn: NULL, dead and busy contexts are refused
 * with a thread-local message. Pair every PRISM_OK with prism__leave. */
prism_status prism__enter(prism_context *ctx, const char *fn);

/** Enter the context of buffer buf (argument arg of fn), stored in *ctx. */
prism_status prism__enter_buffer(const prism_buffer *buf, const char *fn,
                                 const char *arg, prism_context **ctx);

/** Enter the context of event (argument arg of fn), stored in *ctx. */
prism_status prism__enter_event(const prism_event *event, const char *fn,
                                const char *arg, prism_context **ctx);

/** Leave ctx; returns st, so a call ends `return prism__leave(ctx, st)`. */
prism_status prism__leave(prism_context *ctx, prism_status st);

/** Enter the live handle's context for a destroy, waiting while another
 * thread is inside it, and unregister the handle. Returns the context, or
 * NULL (nothing entered) when the handle is not live. A context's own
 * destroy passes the context as handle. */
prism_context *prism__enter_destroy(const void *handle,
                                    prism__handle_kind kind);

/** Unregister a handle whose context the caller has entered. */
void prism__handle_remove(const void *handle);

/** Enter ctx for a public call, returning its refusal from the caller. */
#define PRISM__ENTER(ctx, fn)                                                  \
  do {                                                                         \
    prism_status enter_st_ = prism__enter((ctx), (fn));                        \
    if (enter_st_ != PRISM_OK)                                                 \
      return enter_st_;                                                        \
  } while (0)

#endif /* PRISM_CORE_HANDLES_H */
