/* SPDX-License-Identifier: MIT */
/*
 * What every suite shares: a main() that reports the whole binary as
 * skipped (exit code 77, CTest's SKIP_RETURN_CODE) when the backend named by
 * PRISM_BACKEND has no device here, and helpers to open contexts and move
 * host arrays through device buffers.
 */
#ifndef PRISM_TESTS_HARNESS_H
#define PRISM_TESTS_HARNESS_H

#include "prism.h"

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stddef.h>
#include <string.h>

#define HARNESS_SKIP_CODE 77

/** What the suite needs before it runs: 0 nothing (environment tests), 1 a
 * context from the environment, 2 two or more devices to compare. Each
 * suite defines it. When unmet, the binary exits with HARNESS_SKIP_CODE
 * and says why. */
extern int harness_needs_backend;

#define HARNESS_MAX_CONTEXTS 8

/** Open every backend and OpenCL platform that has a device (device 0 of
 * each), ignoring the environment. Returns how many were opened. */
int harness_open_all(prism_context **out, int max);

/** A context from the environment (PRISM_BACKEND etc.); fails the test if
 * none can be made. */
prism_context *harness_context(void);

/** Skip the current test when the device lacks the type. */
void harness_require_type(prism_context *ctx, prism_type type);

/** A device buffer holding bytes copied from host (bytes may be 0). */
prism_buffer *harness_upload(prism_context *ctx, const void *host,
                             size_t bytes);

/** A device buffer of bytes filled with a poison byte pattern, so elements
 * a primitive fails to write show up. */
prism_buffer *harness_poisoned(prism_context *ctx, size_t bytes);

/** Read a whole buffer back into a new malloc'd host array. */
void *harness_download(prism_buffer *buf);

/** The largest element count a suite's size sweep goes to: PRISM_TEST_MAX_N
 * when set (for instrumented runs such as compute-sanitizer's racecheck,
 * where every launch costs seconds), otherwise no limit. Sizes above it are
 * left out of the sweep, not shortened. */
size_t harness_max_n(void);

/** The context still computes correctly (a sum of 1..100), after what
 * (e.g. a refused call); fails the test naming it otherwise. */
void harness_assert_alive(prism_context *ctx, const char *after);

/** malloc that fails the test instead of returning NULL. */
void *harness_malloc(size_t bytes);

/** Assert that a call returned PRISM_OK, naming the context's message. */
#define HARNESS_OK(ctx, call)                                                  \
  do {                                                                         \
    prism_status st_ = (call);                                                 \
    cr_assert_eq(st_, PRISM_OK, "%s -> %s: %s", #call, prism_status_name(st_), \
                 prism_context_last_error(ctx));                               \
  } while (0)

/** Assert that a call failed with status want and a message (the
 * context's, or the thread's when ctx is NULL) containing needle. */
#define HARNESS_EXPECT(ctx, want, needle, call)                                \
  do {                                                                         \
    prism_status st_ = (call);                                                 \
    const char *msg_ =                                                         \
        (ctx) ? prism_context_last_error(ctx) : prism_last_error();            \
    cr_assert_eq(st_, want, "%s: want %s, got %s (%s)", #call,                 \
                 prism_status_name(want), prism_status_name(st_), msg_);       \
    cr_assert(strstr(msg_, needle), "%s: message '%s' lacks '%s'", #call,      \
              msg_, needle);                                                   \
  } while (0)

/** The poison byte (0xA5) repeated over one element. */
#define HARNESS_POISON 0xA5

#endif /* PRISM_TESTS_HARNESS_H */
