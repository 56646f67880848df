/* SPDX-License-Identifier: MIT */
/*
 * One device's measurements: its copy bandwidth, then each case of each
 * primitive with the references that belong beside it (serial C on CPU
 * devices, CUB on NVIDIA ones). Every row goes straight to the report.
 */
#ifndef PRISM_BENCH_MEASURE_H
#define PRISM_BENCH_MEASURE_H

#include "device_info.h"
#include "options.h"
#include "primitive.h"
#include "report.h"
#include "timing.h"

#define MEASURE_MAX_SEEN 256

/* A context the run measures, and what the run learns about it. */
typedef struct bench_device {
  prism_context *ctx;
  int index;               /* in the report's header */
  device_info info;        /* versions, cache, policy */
  const char *backend;     /* "cuda", "opencl" */
  const char *name;        /* device name */
  const char *platform;    /* platform name */
  int is_cpu;              /* serial C references run beside it */
  int is_nvidia;           /* CUB runs beside it */
  double copy_bytes_per_s; /* prism_buffer_copy, read + write */
  /* Byte sizes whose host memcpy row is already printed. */
  size_t memcpy_seen[MEASURE_MAX_SEEN];
  int memcpy_seen_count;
} bench_device;

/* What holds across devices: options, the timer, CUB's state, the exit
 * code so far. */
typedef struct bench_run bench_run;

bench_run *measure_begin(const bench_options *opt);
/* The exit code the rows so far call for; frees run. */
int measure_end(bench_run *run);

/* The copy row (and the host memcpy row on a CPU device); sets
 * dev->copy_bytes_per_s. */
void measure_copy(bench_run *run, bench_device *dev);

/* Verify, time and report one case of one primitive on dev. */
void measure_case(bench_run *run, bench_device *dev, const bench_primitive *p,
                  const bench_case *c);

/* ---- Rows, for primitives with a loop of their own (bfs.c) ---- */

/* A row of dev's with only the device's fields set. */
report_row measure_device_row(const bench_device *dev, const char *primitive);

/* The run's timer (timing.h), the one every array row is timed with. */
const bench_timer *measure_timer(const bench_run *run);

/* A timed row: status OK, the median and the spread of t, its reps and k. */
void measure_row_timing(report_row *row, const bench_timing *t);

/* Print a row with status and note; a FAIL or an ERROR fails the run. */
void measure_status_row(bench_run *run, report_row row, report_status status,
                        const char *note);

/* The row of a prism call that returned st: a skip for what a machine
 * lacks (device memory, an unsupported call), an error naming the call and
 * the context's message for anything else. */
void measure_failure_row(bench_run *run, const bench_device *dev,
                         report_row row, const char *call, prism_status st);

#endif /* PRISM_BENCH_MEASURE_H */
