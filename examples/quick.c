/* SPDX-License-Identifier: MIT */
/*
 * quick.c: the example in README.md ("Using it" shows this file from its
 * first #include on; the test example.readme keeps the two the same). An
 * exclusive scan in place and a max-reduce of five integers on the backend
 * the environment picks. Every status is checked: a failure prints the
 * status and the context's message (which names the call) and exits 1.
 * The test example.quick compares what it prints with quick.expected.
 */
#include <prism.h>
#include <stdio.h>

int main(void) {
  prism_context *ctx; /* backend from PRISM_BACKEND etc.: CUDA, else OpenCL */
  if (prism_context_create(NULL, &ctx) != PRISM_OK) {
    fprintf(stderr, "prism: %s\n", prism_last_error());
    return 1;
  }
  int data[5] = {3, 1, 4, 1, 5};
  int max = 0;
  prism_buffer *buf = NULL;
  prism_status st = prism_buffer_create(ctx, sizeof data, &buf);
  if (st == PRISM_OK)
    st = prism_buffer_write(buf, 0, data, sizeof data);
  if (st == PRISM_OK) /* in place: in and out are the same buffer */
    st = prism_scan(ctx, PRISM_I32, PRISM_SUM, PRISM_EXCLUSIVE, buf, buf, 5);
  if (st == PRISM_OK)
    st = prism_buffer_read(buf, 0, data, sizeof data);
  if (st == PRISM_OK)
    st = prism_reduce(ctx, PRISM_I32, PRISM_MAX, buf, 5, &max);

  if (st == PRISM_OK) {
    printf("scan: %d %d %d %d %d\n", data[0], data[1], data[2], data[3],
           data[4]);          /* scan: 0 3 4 8 9 */
    printf("max: %d\n", max); /* max: 9 */
    printf("%s on %s\n", prism_backend_name(prism_context_backend(ctx)),
           prism_context_device_name(ctx)); /* e.g. opencl on pthread-... */
  } else {
    fprintf(stderr, "%s: %s\n", prism_status_name(st),
            prism_context_last_error(ctx));
  }
  prism_buffer_destroy(buf);
  prism_context_destroy(ctx);
  return st == PRISM_OK ? 0 : 1;
}
