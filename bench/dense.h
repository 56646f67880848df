/* SPDX-License-Identifier: MIT */
/*
 * What the dense rows share (dense_transpose.c: transpose; dense_stencil.c:
 * stencil and conv2d): the references measured beside prism (serial C on
 * CPU devices, the CUDA kernels and cuDNN of dense_ref.h on NVIDIA ones),
 * kept until the row of the first device they stand beside is printed,
 * and prism's call on one device, checked once and then timed as the
 * array rows are (timing.h), set against its reference.
 */
#ifndef PRISM_BENCH_DENSE_H
#define PRISM_BENCH_DENSE_H

#include "measure.h"
#include "options.h"
#include "report.h"
#include "timing.h"

#include <stddef.h>

#define DENSE_NOTE_SIZE 512
#define DENSE_NAME_SIZE 256

/* A reference: measured, or why not. */
typedef struct dense_reference {
  const char *backend;          /* "serial", "naive", "cudnn" */
  char device[DENSE_NAME_SIZE]; /* a CUDA reference's device; "": none */
  int used;                     /* tried for the job */
  report_status status;
  char note[DENSE_NOTE_SIZE];
  bench_timing t; /* status REPORT_OK */
} dense_reference;

/* Whether a result is right, else 0 with a message (job: the caller's). */
typedef int (*dense_check_fn)(const void *job, const void *result, char *msg,
                              size_t msg_size);

/* r not tried yet, named backend. */
void dense_reference_init(dense_reference *r, const char *backend);

/* r tried, and not measured: status and note say why. */
void dense_reference_fail(dense_reference *r, report_status status,
                          const char *note);

/* r when it was measured, else NULL. */
const dense_reference *dense_reference_timed(const dense_reference *r);

/* r's row: the job's row for the device it stands beside, with r's
 * backend, device and time, or its status. */
void dense_reference_row(bench_run *run, report_row row,
                         const dense_reference *r);

/* The serial reference: call(arg) writes result; one call checked, then
 * timed. */
void dense_measure_serial(bench_run *run, dense_reference *r, bench_fn call,
                          void *arg, dense_check_fn check, const void *job,
                          void *result);

/* The first NVIDIA device of the run, or NULL; whether a GPU is measured;
 * the CUDA device the references run on (--device, else 0). */
const bench_device *dense_first_nvidia(const bench_device *devices, int count);
int dense_any_gpu(const bench_device *devices, int count);
int dense_cuda_device(const bench_options *opt);

/* A note where a CUDA reference ran on another device than the NVIDIA
 * one measured (a CUDA and an OpenCL numbering can differ). */
void dense_note_cuda_device(const char *what, int device, const char *name,
                            const bench_device *nvidia);

/* prism's call on one device, made ready by the caller. */
typedef struct dense_prism {
  prism_context *ctx;
  const char *name; /* the call, for an error row */
  bench_fn call;    /* one call as a user makes it: a prism_status */
  void *arg;
  const prism_buffer *out; /* what the call writes: result_bytes of it */
  void *result;            /* host memory for them */
  size_t result_bytes;
  dense_check_fn check;
  const void *job;
} dense_prism;

/* One call, read back and checked, then the calls timed; prints the row,
 * with the ratio to ref where ref is not NULL. */
void dense_measure_prism(bench_run *run, const bench_device *dev,
                         report_row row, const dense_prism *p,
                         const dense_reference *ref);

#endif /* PRISM_BENCH_DENSE_H */
