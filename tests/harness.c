/* SPDX-License-Identifier: MIT */
/* The shared test main() and helpers. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int harness_open_all(prism_context **out, int max) {
  int n = 0;
  prism_context_options options;
  prism_context_options_init(&options);
  options.backend = PRISM_BACKEND_CUDA;
  if (n < max && prism_context_create(&options, &out[n]) == PRISM_OK)
    n++;
  options.backend = PRISM_BACKEND_OPENCL;
  for (int p = 0; p < 8 && n < max; p++) {
    char index[8];
    snprintf(index, sizeof index, "%d", p);
    options.opencl_platform = index;
    if (prism_context_create(&options, &out[n]) == PRISM_OK)
      n++;
  }
  return n;
}

/* Probe in a child process: the parent must not start a device runtime
 * before Criterion runs tests in their own processes. Returns 1 when a
 * context opens; otherwise writes why into reason. */
static int backend_available(char *reason, size_t size) {
  int fds[2];
  if (pipe(fds) != 0)
    return 1; /* cannot tell: let the tests speak */
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    int ok;
    const char *msg;
    if (harness_needs_backend >= 2) {
      prism_context *all[HARNESS_MAX_CONTEXTS];
      int n = harness_open_all(all, HARNESS_MAX_CONTEXTS);
      ok = n >= harness_needs_backend;
      msg = ok ? ""
               : "fewer than two backends or OpenCL platforms with a "
                 "device here";
      for (int i = 0; i < n; i++)
        prism_context_destroy(all[i]);
    } else {
      prism_context *ctx = NULL;
      ok = prism_context_create(NULL, &ctx) == PRISM_OK;
      msg = ok ? "" : prism_last_error();
      prism_context_destroy(ctx);
    }
    ssize_t w = write(fds[1], msg, strlen(msg));
    (void)w;
    _exit(ok ? 0 : 1);
  }
  close(fds[1]);
  ssize_t got = read(fds[0], reason, size - 1);
  reason[got > 0 ? got : 0] = '\0';
  close(fds[0]);
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) < 0)
    return 1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A run in which every test was skipped is reported to CTest as skipped,
 * not passed. */
static int all_skipped;
static char first_skip[256];

ReportHook(POST_TEST)(struct criterion_test_stats *stats) {
  if (stats->test_status == CR_STATUS_SKIPPED && !first_skip[0] &&
      stats->message)
    snprintf(first_skip, sizeof first_skip, "%s", stats->message);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats) {
  all_skipped = stats->nb_tests > 0 && stats->tests_skipped == stats->nb_tests;
}

int main(int argc, char *argv[]) {
  struct criterion_test_set *tests = criterion_initialize();
  int result = 0;
  if (criterion_handle_args(argc, argv, true)) {
    char reason[1024] = "";
    if (harness_needs_backend && !backend_available(reason, sizeof reason)) {
      const char *env = getenv("PRISM_BACKEND");
      if (harness_needs_backend >= 2)
        printf("SKIPPED: %s\n", reason);
      else
        printf("SKIPPED: backend '%s' cannot run here: %s\n",
               env && *env ? env : "auto", reason);
      criterion_finalize(tests);
      return HARNESS_SKIP_CODE;
    }
    result = !criterion_run_all_tests(tests);
    if (result == 0 && all_skipped) {
      printf("SKIPPED: every test skipped itself: %s\n", first_skip);
      result = HARNESS_SKIP_CODE;
    }
  }
  criterion_finalize(tests);
  return result;
}

prism_context *harness_context(void) {
  prism_context *ctx = NULL;
  prism_status st = prism_context_create(NULL, &ctx);
  cr_assert_eq(st, PRISM_OK, "prism_context_create -> %s: %s",
               prism_status_name(st), prism_last_error());
  return ctx;
}

void harness_require_type(prism_context *ctx, prism_type type) {
  if (!prism_context_supports(ctx, type))
    cr_skip_test("%s is not supported on %s", prism_type_name(type),
                 prism_context_device_name(ctx));
}

size_t harness_max_n(void) {
  const char *env = getenv("PRISM_TEST_MAX_N");
  char *end = NULL;
  unsigned long long v = env && *env ? strtoull(env, &end, 10) : 0;
  if (!env || !*env)
    return SIZE_MAX;
  cr_assert(end && *end == '\0' && v > 0,
            "PRISM_TEST_MAX_N='%s' is not a positive count", env);
  return v > SIZE_MAX ? SIZE_MAX : (size_t)v;
}

void harness_assert_alive(prism_context *ctx, const char *after) {
  uint32_t host[100], sum = 0;
  for (uint32_t i = 0; i < 100; i++)
    host[i] = i + 1;
  prism_buffer *b = harness_upload(ctx, host, sizeof host);
  prism_status st = prism_reduce(ctx, PRISM_U32, PRISM_SUM, b, 100, &sum);
  cr_assert(st == PRISM_OK && sum == 5050,
            "after %s the context no longer works: %s (%s), sum %u", after,
            prism_status_name(st), prism_context_last_error(ctx), sum);
  prism_buffer_destroy(b);
}

void *harness_malloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  cr_assert_not_null(p, "out of host memory (%zu bytes)", bytes);
  return p;
}

prism_buffer *harness_upload(prism_context *ctx, const void *host,
                             size_t bytes) {
  prism_buffer *buf = NULL;
  HARNESS_OK(ctx, prism_buffer_create(ctx, bytes, &buf));
  if (bytes)
    HARNESS_OK(ctx, prism_buffer_write(buf, 0, host, bytes));
  return buf;
}

prism_buffer *harness_poisoned(prism_context *ctx, size_t bytes) {
  prism_buffer *buf = NULL;
  const unsigned char poison = HARNESS_POISON;
  HARNESS_OK(ctx, prism_buffer_create(ctx, bytes, &buf));
  if (bytes)
    HARNESS_OK(ctx, prism_buffer_fill(buf, 0, &poison, 1, bytes));
  return buf;
}

void *harness_download(prism_buffer *buf) {
  size_t bytes = prism_buffer_size(buf);
  void *host = harness_malloc(bytes);
  prism_context *ctx = prism_buffer_context(buf);
  if (bytes)
    HARNESS_OK(ctx, prism_buffer_read(buf, 0, host, bytes));
  return host;
}
