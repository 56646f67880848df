/* SPDX-License-Identifier: MIT */
/* Backend choice from the environment and from explicit options. Runs
 * whether or not any device is present. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"

#include <stdlib.h>
#include <string.h>

int harness_needs_backend = 0;

static void clear_env(void) {
  unsetenv("PRISM_BACKEND");
  unsetenv("PRISM_DEVICE");
  unsetenv("PRISM_OPENCL_PLATFORM");
  unsetenv("PRISM_OPENCL_POLICY");
}

static void expect_failure(prism_status want, const char *needle) {
  prism_context *ctx = (prism_context *)1;
  prism_status st = prism_context_create(NULL, &ctx);
  cr_assert_eq(st, want, "want %s, got %s: %s", prism_status_name(want),
               prism_status_name(st), prism_last_error());
  cr_assert_null(ctx, "a failed create leaves *out NULL");
  cr_assert(strstr(prism_last_error(), needle), "message '%s' lacks '%s'",
            prism_last_error(), needle);
}

Test(env, unknown_backend_lists_valid_values) {
  clear_env();
  setenv("PRISM_BACKEND", "vulkan", 1);
  expect_failure(PRISM_INVALID_ENVIRONMENT, "cuda, opencl, auto");
  expect_failure(PRISM_INVALID_ENVIRONMENT, "vulkan");
}

Test(env, backend_names_ignore_case) {
  clear_env();
  setenv("PRISM_BACKEND", "OpenCL", 1);
  prism_context *ctx = NULL;
  prism_status st = prism_context_create(NULL, &ctx);
  /* Valid name: whatever happens next is not an environment error. */
  cr_assert_neq(st, PRISM_INVALID_ENVIRONMENT, "%s", prism_last_error());
  prism_context_destroy(ctx);
}

Test(env, bad_device_values) {
  static const char *const bad[] = {"abc", "-1", "1x", " 1", "99999999999"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    clear_env();
    setenv("PRISM_DEVICE", bad[i], 1);
    expect_failure(PRISM_INVALID_ENVIRONMENT, "PRISM_DEVICE");
  }
}

Test(env, device_out_of_range_says_how_many) {
  clear_env();
  setenv("PRISM_BACKEND", "opencl", 1);
  setenv("PRISM_DEVICE", "4096", 1);
  prism_context *ctx = NULL;
  prism_status st = prism_context_create(NULL, &ctx);
  if (st == PRISM_BACKEND_UNAVAILABLE)
    cr_skip_test("no OpenCL here: %s", prism_last_error());
  cr_assert_eq(st, PRISM_DEVICE_NOT_FOUND, "%s", prism_last_error());
  cr_assert(strstr(prism_last_error(), "4096"), "%s", prism_last_error());
}

Test(env, unknown_platform_lists_platforms) {
  clear_env();
  setenv("PRISM_BACKEND", "opencl", 1);
  setenv("PRISM_OPENCL_PLATFORM", "no-such-vendor", 1);
  prism_context *ctx = NULL;
  prism_status st = prism_context_create(NULL, &ctx);
  if (st == PRISM_BACKEND_UNAVAILABLE)
    cr_skip_test("no OpenCL here: %s", prism_last_error());
  cr_assert_eq(st, PRISM_DEVICE_NOT_FOUND, "%s", prism_last_error());
  cr_assert(strstr(prism_last_error(), "no-such-vendor"), "%s",
            prism_last_error());
  cr_assert(strstr(prism_last_error(), "0:"), "lists platforms: %s",
            prism_last_error());
}

Test(env, explicit_backend_that_cannot_run_says_why) {
  /* Whichever backend has no device here must say so; one that works must
   * open. */
  static const prism_backend all[] = {PRISM_BACKEND_CUDA, PRISM_BACKEND_OPENCL};
  for (size_t i = 0; i < 2; i++) {
    clear_env();
    setenv("PRISM_BACKEND", prism_backend_name(all[i]), 1);
    int count = 0;
    char reason[256];
    prism_status probe =
        prism_backend_probe(all[i], &count, reason, sizeof reason);
    prism_context *ctx = NULL;
    prism_status st = prism_context_create(NULL, &ctx);
    if (probe == PRISM_OK && count > 0) {
      cr_assert_eq(st, PRISM_OK, "%s", prism_last_error());
      cr_assert_eq(prism_context_backend(ctx), all[i]);
      prism_context_destroy(ctx);
    } else {
      cr_assert(st == PRISM_BACKEND_UNAVAILABLE || st == PRISM_DEVICE_NOT_FOUND,
                "%s: %s", prism_status_name(st), prism_last_error());
      cr_assert(strstr(prism_last_error(), prism_backend_name(all[i])),
                "names the backend: %s", prism_last_error());
      cr_assert_gt(strlen(prism_last_error()), 20, "says why: %s",
                   prism_last_error());
    }
  }
}

Test(env, options_override_environment) {
  clear_env();
  setenv("PRISM_BACKEND", "nonsense", 1);
  setenv("PRISM_DEVICE", "nonsense", 1);
  prism_context_options options;
  prism_context_options_init(&options);
  prism_context *ctx = NULL;
  prism_status st = prism_context_create(&options, &ctx);
  cr_assert_neq(st, PRISM_INVALID_ENVIRONMENT, "%s", prism_last_error());
  prism_context_destroy(ctx);
}

Test(env, bad_options) {
  clear_env();
  prism_context_options options;
  prism_context_options_init(&options);
  prism_context *ctx = NULL;
  options.device = -3;
  cr_assert_eq(prism_context_create(&options, &ctx), PRISM_INVALID_ARGUMENT);
  cr_assert(strstr(prism_last_error(), "device"));
  options.device = 0;
  options.backend = (prism_backend)42;
  cr_assert_eq(prism_context_create(&options, &ctx), PRISM_INVALID_ARGUMENT);
  cr_assert(strstr(prism_last_error(), "backend"));
  cr_assert_eq(prism_context_create(&options, NULL), PRISM_NULL_POINTER);
}

Test(env, probe_reports) {
  int count = -1;
  cr_assert_eq(prism_backend_probe(PRISM_BACKEND_AUTO, &count, NULL, 0),
               PRISM_INVALID_ARGUMENT);
  cr_assert_eq(prism_backend_probe(PRISM_BACKEND_OPENCL, NULL, NULL, 0),
               PRISM_NULL_POINTER);
  char reason[256];
  prism_status st =
      prism_backend_probe(PRISM_BACKEND_CUDA, &count, reason, sizeof reason);
  if (!prism_backend_built(PRISM_BACKEND_CUDA)) {
    cr_assert_eq(st, PRISM_BACKEND_UNAVAILABLE);
    cr_assert(strstr(reason, "not built"), "%s", reason);
  } else if (st != PRISM_OK || count == 0) {
    cr_assert_gt(strlen(reason), 10, "explains: '%s'", reason);
  }
}

/* A small reason buffer truncates only the caller's copy: the thread's
 * last error keeps the whole reason. */
Test(env, probe_keeps_the_whole_reason) {
  static const prism_backend all[] = {PRISM_BACKEND_CUDA, PRISM_BACKEND_OPENCL};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    char full[512], small[8];
    int count = 0;
    if (prism_backend_probe(all[i], &count, full, sizeof full) == PRISM_OK)
      continue;
    prism_status st = prism_backend_probe(all[i], &count, small, sizeof small);
    cr_assert_neq(st, PRISM_OK);
    cr_assert_eq(strlen(small), sizeof small - 1, "'%s'", small);
    cr_assert(strncmp(small, full, sizeof small - 1) == 0);
    cr_assert(strstr(prism_last_error(), full), "'%s' lacks '%s'",
              prism_last_error(), full);
    return;
  }
  cr_skip_test("every backend probes fine here: no failure reason to keep");
}

Test(status, every_status_has_a_name_and_text) {
#define CHECK_STATUS_(name, value, text)                                       \
  cr_assert_str_eq(prism_status_name(PRISM_##name), #name);                    \
  cr_assert_str_eq(prism_status_string(PRISM_##name), text);
  PRISM_STATUS_MAP(CHECK_STATUS_)
#undef CHECK_STATUS_
  cr_assert_str_eq(prism_status_string((prism_status)999), "unknown");
  cr_assert_str_eq(prism_status_name((prism_status)-1), "UNKNOWN");
  cr_assert_eq(PRISM_OK, 0);
}

Test(status, names_and_version) {
  cr_assert_str_eq(prism_type_name(PRISM_F64), "f64");
  cr_assert_str_eq(prism_type_name((prism_type)77), "unknown");
  cr_assert_eq(prism_type_size(PRISM_U64), 8);
  cr_assert_eq(prism_type_size((prism_type)77), 0);
  cr_assert_str_eq(prism_op_name(PRISM_MAX), "max");
  cr_assert_str_eq(prism_backend_name(PRISM_BACKEND_OPENCL), "opencl");
  cr_assert_eq(prism_version_number(), PRISM_VERSION_NUMBER);
  cr_assert(strchr(prism_version(), '.'));
}

Test(env, bad_opencl_policy) {
  clear_env();
  setenv("PRISM_BACKEND", "opencl", 1);
  setenv("PRISM_OPENCL_POLICY", "fast", 1);
  prism_context *ctx = NULL;
  prism_status st = prism_context_create(NULL, &ctx);
  if (st == PRISM_BACKEND_UNAVAILABLE || st == PRISM_DEVICE_NOT_FOUND)
    cr_skip_test("no OpenCL device here: %s", prism_last_error());
  cr_assert_eq(st, PRISM_INVALID_ENVIRONMENT, "%s", prism_last_error());
  cr_assert(strstr(prism_last_error(), "gpu, cpu"), "%s", prism_last_error());
  unsetenv("PRISM_OPENCL_POLICY");
}

Test(env, opencl_policy_ignores_case) {
  /* As PRISM_BACKEND's values do: GPU and Cpu name the policies. */
  static const char *const names[] = {"GPU", "Cpu"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    clear_env();
    setenv("PRISM_BACKEND", "opencl", 1);
    setenv("PRISM_OPENCL_POLICY", names[i], 1);
    prism_context *ctx = NULL;
    prism_status st = prism_context_create(NULL, &ctx);
    if (st == PRISM_BACKEND_UNAVAILABLE || st == PRISM_DEVICE_NOT_FOUND)
      cr_skip_test("no OpenCL device here: %s", prism_last_error());
    cr_assert_eq(st, PRISM_OK, "PRISM_OPENCL_POLICY=%s: %s", names[i],
                 prism_last_error());
    cr_assert_str_eq(prism_context_policy(ctx), i == 0 ? "gpu" : "cpu",
                     "the context takes the policy asked for");
    prism_context_destroy(ctx);
  }
  setenv("PRISM_OPENCL_POLICY", "GPUs", 1);
  expect_failure(PRISM_INVALID_ENVIRONMENT, "gpu, cpu");
  unsetenv("PRISM_OPENCL_POLICY");
}
