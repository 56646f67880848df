/* SPDX-License-Identifier: MIT */
/* Events: markers on a context's queue, for the host to wait on and for
 * other contexts to order their work after. */
#include "check.h"
#include "error.h"
#include "handles.h"
#include "interop.h"

#include <stdlib.h>

static void link_event(prism_context *ctx, prism_event *ev) {
  ev->next = ctx->events;
  if (ctx->events)
    ctx->events->prev = ev;
  ctx->events = ev;
}

static void unlink_event(prism_event *ev) {
  if (ev->prev)
    ev->prev->next = ev->next;
  else
    ev->ctx->events = ev->next;
  if (ev->next)
    ev->next->prev = ev->prev;
}

static void release(prism_event *ev) {
  ev->ctx->backend->event_release(ev->ctx, ev->native);
  free(ev);
}

static prism_status record(prism_context *ctx, prism_event **out) {
  static const char fn[] = "prism_event_record";
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  if (!ctx->backend->event_record)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: not implemented by the %s backend", fn,
                       ctx->backend->name);
  prism_event *ev = calloc(1, sizeof *ev);
  if (!ev)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "%s: out of host memory", fn);
  ev->ctx = ctx;
  prism_status st = ctx->backend->event_record(ctx, &ev->native);
  if (st != PRISM_OK) {
    free(ev);
    return st;
  }
  if ((st = prism__handle_add(ctx, ev, PRISM__HANDLE_EVENT, fn)) != PRISM_OK) {
    release(ev);
    return st;
  }
  link_event(ctx, ev);
  *out = ev;
  return PRISM_OK;
}

prism_status prism_event_record(prism_context *ctx, prism_event **out) {
  PRISM__ENTER(ctx, "prism_event_record");
  return prism__leave(ctx, record(ctx, out));
}

prism_status prism_event_wait(prism_event *event) {
  prism_context *ctx = NULL;
  prism_status st =
      prism__enter_event(event, "prism_event_wait", "event", &ctx);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, ctx->backend->event_wait(ctx, event->native));
}

static prism_status query(prism_context *ctx, prism_event *event, int *done) {
  if (!done)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "prism_event_query: done is NULL");
  *done = 0;
  return ctx->backend->event_query(ctx, event->native, done);
}

prism_status prism_event_query(prism_event *event, int *done) {
  prism_context *ctx = NULL;
  prism_status st =
      prism__enter_event(event, "prism_event_query", "event", &ctx);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, query(ctx, event, done));
}

/* The event's native handle and backend, read under the registry's lock:
 * its context may be another one, entered by nobody here. */
static prism_status event_of(const prism_event *event, const char *fn,
                             prism_context *ctx, const prism__backend **b,
                             void **native) {
  if (!event)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: event is NULL", fn);
  prism__handle_lock();
  int live = prism__handle_live_locked(event, PRISM__HANDLE_EVENT);
  *b = live ? event->ctx->backend : NULL;
  *native = live ? event->native : NULL;
  prism__handle_unlock();
  if (!live)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: event is not a live prism event (destroyed, or "
                       "never created)",
                       fn);
  return PRISM_OK;
}

static prism_status wait_event(prism_context *ctx, const prism_event *event) {
  static const char fn[] = "prism_context_wait_event";
  const prism__backend *b = NULL;
  void *native = NULL;
  prism_status st = event_of(event, fn, ctx, &b, &native);
  if (st != PRISM_OK)
    return st;
  if (b != ctx->backend)
    return prism__fail(ctx, PRISM_CONTEXT_MISMATCH,
                       "%s: event is a %s event; ctx is a %s context", fn,
                       b->name, ctx->backend->name);
  return ctx->backend->queue_wait(ctx, native);
}

prism_status prism_context_wait_event(prism_context *ctx,
                                      const prism_event *event) {
  PRISM__ENTER(ctx, "prism_context_wait_event");
  return prism__leave(ctx, wait_event(ctx, event));
}

void prism_event_destroy(prism_event *event) {
  prism_context *ctx = prism__enter_destroy(event, PRISM__HANDLE_EVENT);
  if (!ctx)
    return;
  unlink_event(event);
  release(event);
  prism__leave(ctx, PRISM_OK);
}

void prism__events_release_all(prism_context *ctx) {
  while (ctx->events) {
    prism_event *ev = ctx->events;
    ctx->events = ev->next;
    prism__handle_remove(ev);
    release(ev);
  }
}

prism_status prism__event_native_of(const prism_event *event,
                                    const prism__backend *b, const char *fn,
                                    void **native) {
  const prism__backend *owner = NULL;
  prism_status st = event_of(event, fn, NULL, &owner, native);
  if (st == PRISM_OK && owner != b)
    st = prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                     "%s: event belongs to a %s context, not %s", fn,
                     owner->name, b->name);
  return st;
}
