/* SPDX-License-Identifier: MIT */
/* The registry of live handles and the one-thread-per-context guard. */
#include "handles.h"
#include "error.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#define REGISTRY_FIRST_SLOTS 64 /* a power of two */

/* One live handle. An empty slot has key NULL. */
typedef struct entry {
  const void *key;
  prism_context *ctx; /* the context the handle belongs to (itself for one) */
  prism__handle_kind kind;
} entry;

/* Open addressing with linear probing, at most half full. Every access
 * holds the lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *slots;
static size_t capacity, used;

/* This thread's identity: the address of a thread-local byte. */
static _Thread_local char thread_token;

static uintptr_t self(void) {
  return (uintptr_t)&thread_token;
}

static size_t home(const void *key) {
  uint64_t x = (uint64_t)(uintptr_t)key;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull; /* MurmurHash3's finaliser mixes the bits */
  x ^= x >> 33;
  return (size_t)x & (capacity - 1);
}

static entry *find(const void *key) {
  if (!key || capacity == 0)
    return NULL;
  for (size_t i = home(key);; i = (i + 1) & (capacity - 1)) {
    if (slots[i].key == key)
      return &slots[i];
    if (!slots[i].key)
      return NULL;
  }
}

static void place(entry e) {
  size_t i = home(e.key);
  while (slots[i].key)
    i = (i + 1) & (capacity - 1);
  slots[i] = e;
}

static int grow(void) {
  size_t old_capacity = capacity;
  entry *old = slots;
  size_t want = capacity ? capacity * 2 : REGISTRY_FIRST_SLOTS;
  entry *fresh = calloc(want, sizeof *fresh);
  if (!fresh)
    return 0;
  slots = fresh;
  capacity = want;
  for (size_t i = 0; i < old_capacity; i++)
    if (old[i].key)
      place(old[i]);
  free(old);
  return 1;
}

/* Remove e, shifting back the entries after it that probed past it. */
static void erase(entry *e) {
  size_t hole = (size_t)(e - slots);
  slots[hole].key = NULL;
  used--;
  for (size_t i = (hole + 1) & (capacity - 1); slots[i].key;
       i = (i + 1) & (capacity - 1)) {
    size_t h = home(slots[i].key);
    /* Move it when its home is not in (hole, i], cyclically. */
    int stays = hole < i ? (h > hole && h <= i) : (h > hole || h <= i);
    if (!stays) {
      slots[hole] = slots[i];
      slots[i].key = NULL;
      hole = i;
    }
  }
}

prism_status prism__handle_add(prism_context *ctx, const void *handle,
                               prism__handle_kind kind, const char *fn) {
  pthread_mutex_lock(&lock);
  int ok = 2 * (used + 1) <= capacity || grow();
  if (ok) {
    entry e = {handle, ctx, kind};
    place(e);
    used++;
  }
  pthread_mutex_unlock(&lock);
  if (!ok)
    return prism__fail(kind == PRISM__HANDLE_CONTEXT ? NULL : ctx,
                       PRISM_OUT_OF_MEMORY, "%s: out of host memory", fn);
  return PRISM_OK;
}

int prism__handle_live(const void *handle, prism__handle_kind kind) {
  pthread_mutex_lock(&lock);
  int live = prism__handle_live_locked(handle, kind);
  pthread_mutex_unlock(&lock);
  return live;
}

const prism_context *prism__live_context(const prism_context *ctx) {
  return prism__handle_live(ctx, PRISM__HANDLE_CONTEXT) ? ctx : NULL;
}

prism_context *prism__handle_context(const void *handle,
                                     prism__handle_kind kind) {
  pthread_mutex_lock(&lock);
  const entry *e = find(handle);
  prism_context *ctx = e && e->kind == kind ? e->ctx : NULL;
  pthread_mutex_unlock(&lock);
  return ctx;
}

void prism__handle_lock(void) {
  pthread_mutex_lock(&lock);
}

int prism__handle_live_locked(const void *handle, prism__handle_kind kind) {
  const entry *e = find(handle);
  return e && e->kind == kind;
}

void prism__handle_unlock(void) {
  pthread_mutex_unlock(&lock);
}

void prism__handle_remove(const void *handle) {
  pthread_mutex_lock(&lock);
  entry *e = find(handle);
  if (e)
    erase(e);
  pthread_mutex_unlock(&lock);
}

/* Claim ctx for this thread (the lock held, ctx live): 1 on success. */
static int claim(prism_context *ctx) {
  uintptr_t owner = atomic_load_explicit(&ctx->owner, memory_order_acquire);
  if (owner == self()) {
    ctx->depth++;
    return 1;
  }
  uintptr_t none = 0;
  if (!atomic_compare_exchange_strong_explicit(&ctx->owner, &none, self(),
                                               memory_order_acquire,
                                               memory_order_relaxed))
    return 0;
  ctx->depth = 1;
  return 1;
}

static prism_status busy(const char *fn) {
  return prism__fail(NULL, PRISM_CONTEXT_BUSY,
                     "%s: the context is in use by another thread (a "
                     "context takes one thread at a time)",
                     fn);
}

prism_status prism__enter(prism_context *ctx, const char *fn) {
  if (!ctx)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: ctx is NULL", fn);
  pthread_mutex_lock(&lock);
  const entry *e = find(ctx);
  int live = e && e->kind == PRISM__HANDLE_CONTEXT;
  int claimed = live && claim(ctx);
  pthread_mutex_unlock(&lock);
  if (!live)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: ctx is not a live prism context (destroyed, or "
                       "never created)",
                       fn);
  return claimed ? PRISM_OK : busy(fn);
}

static prism_status enter_handle(const void *handle, prism__handle_kind kind,
                                 const char *noun, const char *fn,
                                 const char *arg, prism_context **ctx) {
  *ctx = NULL;
  if (!handle)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: %s is NULL", fn, arg);
  pthread_mutex_lock(&lock);
  const entry *e = find(handle);
  int live = e && e->kind == kind;
  prism_context *owner = live ? e->ctx : NULL;
  int claimed = live && claim(owner);
  pthread_mutex_unlock(&lock);
  if (!live)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: %s is not a live prism %s (destroyed, or "
                       "never created)",
                       fn, arg, noun);
  if (!claimed)
    return busy(fn);
  *ctx = owner;
  return PRISM_OK;
}

prism_status prism__enter_buffer(const prism_buffer *buf, const char *fn,
                                 const char *arg, prism_context **ctx) {
  return enter_handle(buf, PRISM__HANDLE_BUFFER, "buffer", fn, arg, ctx);
}

prism_status prism__enter_event(const prism_event *event, const char *fn,
                                const char *arg, prism_context **ctx) {
  return enter_handle(event, PRISM__HANDLE_EVENT, "event", fn, arg, ctx);
}

prism_status prism__leave(prism_context *ctx, prism_status st) {
  if (--ctx->depth == 0)
    atomic_store_explicit(&ctx->owner, 0, memory_order_release);
  return st;
}

prism_context *prism__enter_destroy(const void *handle,
                                    prism__handle_kind kind) {
  for (;;) {
    pthread_mutex_lock(&lock);
    entry *e = find(handle);
    if (!e || e->kind != kind) {
      pthread_mutex_unlock(&lock);
      return NULL;
    }
    prism_context *ctx = e->ctx;
    if (claim(ctx)) {
      erase(e);
      pthread_mutex_unlock(&lock);
      return ctx;
    }
    pthread_mutex_unlock(&lock);
    sched_yield(); /* another thread's call is running: wait for it */
  }
}
