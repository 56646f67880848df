/* SPDX-License-Identifier: MIT */
/*
 * prism-bench: times prism's primitives on one or more devices, verifies
 * every result against serial C, and sets each time beside references
 * measured in the same run (the device's copy bandwidth; serial C on CPU
 * devices; CUB on NVIDIA devices). See `prism-bench --help`.
 */
#include "compare.h"
#include "device_info.h"
#include "input.h"
#include "measure.h"
#include "meta.h"
#include "options.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEVICES 16

/* One context to open: from the environment, or from explicit options. */
typedef struct context_spec {
  int from_env;
  prism_context_options options;
  char label[160];
} context_spec;

static int contains_ci(const char *haystack, const char *needle) {
  size_t n = strlen(needle);
  for (; *haystack; haystack++) {
    size_t i = 0;
    while (i < n && tolower((unsigned char)haystack[i]) ==
                        tolower((unsigned char)needle[i]))
      i++;
    if (i == n)
      return 1;
  }
  return 0;
}

static void add_spec(context_spec *specs, int *count, prism_backend backend,
                     int device, const char *platform) {
  if (*count == MAX_DEVICES)
    return;
  context_spec *s = &specs[(*count)++];
  memset(s, 0, sizeof *s);
  prism_context_options_init(&s->options);
  s->options.backend = backend;
  s->options.device = device < 0 ? 0 : device;
  s->options.opencl_platform = platform;
  snprintf(s->label, sizeof s->label, "--backend %s%s%s --device %d",
           prism_backend_name(backend), platform ? " --opencl-platform " : "",
           platform ? platform : "", s->options.device);
}

/* --backend x --opencl-platform; the environment when neither nor --device
 * is given. --opencl-platform alone means OpenCL. */
static int context_specs(const bench_options *opt, context_spec *specs) {
  int count = 0;
  if (opt->backend_count == 0 && opt->platform_count == 0 && opt->device < 0) {
    memset(&specs[0], 0, sizeof specs[0]);
    specs[0].from_env = 1;
    snprintf(specs[0].label, sizeof specs[0].label, "the environment's choice");
    return 1;
  }
  prism_backend only_opencl[] = {PRISM_BACKEND_OPENCL};
  prism_backend only_auto[] = {PRISM_BACKEND_AUTO};
  const prism_backend *backends = opt->backends;
  int backend_count = opt->backend_count;
  if (backend_count == 0) {
    backends = opt->platform_count ? only_opencl : only_auto;
    backend_count = 1;
  }
  for (int b = 0; b < backend_count; b++) {
    if (backends[b] == PRISM_BACKEND_CUDA || opt->platform_count == 0) {
      add_spec(specs, &count, backends[b], opt->device, NULL);
      continue;
    }
    for (int p = 0; p < opt->platform_count; p++)
      add_spec(specs, &count, backends[b], opt->device, opt->platforms[p]);
  }
  return count;
}

static int same_device(const bench_device *a, prism_context *ctx) {
  return prism_context_backend(a->ctx) == prism_context_backend(ctx) &&
         strcmp(a->name, prism_context_device_name(ctx)) == 0 &&
         strcmp(a->platform, prism_context_platform_name(ctx)) == 0;
}

/* The device index a spec's context was opened with. */
static int spec_device(const context_spec *spec) {
  if (!spec->from_env)
    return spec->options.device;
  const char *env = getenv("PRISM_DEVICE");
  return env && *env ? atoi(env) : 0;
}

/* Open every spec's context; a backend or device this machine lacks is a
 * note, any other failure also fails the run. */
static int open_devices(const bench_options *opt, bench_device *devices,
                        int *exit_code) {
  context_spec specs[MAX_DEVICES];
  int spec_count = context_specs(opt, specs);
  int count = 0;
  for (int i = 0; i < spec_count; i++) {
    prism_context *ctx = NULL;
    prism_status st = prism_context_create(
        specs[i].from_env ? NULL : &specs[i].options, &ctx);
    if (st != PRISM_OK) {
      if (st == PRISM_BACKEND_UNAVAILABLE || st == PRISM_DEVICE_NOT_FOUND) {
        report_note("skipped %s: %s", specs[i].label, prism_last_error());
      } else {
        fprintf(stderr, "prism-bench: cannot open %s: %s: %s\n", specs[i].label,
                prism_status_name(st), prism_last_error());
        *exit_code = BENCH_EXIT_FAILED;
      }
      continue;
    }
    int duplicate = 0;
    for (int d = 0; d < count; d++)
      duplicate |= same_device(&devices[d], ctx);
    if (duplicate) {
      report_note("%s opens a device already measured", specs[i].label);
      prism_context_destroy(ctx);
      continue;
    }
    bench_device *dev = &devices[count];
    memset(dev, 0, sizeof *dev);
    dev->ctx = ctx;
    dev->index = count++;
    device_info_fill(ctx, spec_device(&specs[i]), &dev->info);
    dev->backend = prism_backend_name(prism_context_backend(ctx));
    dev->name = prism_context_device_name(ctx);
    dev->platform = prism_context_platform_name(ctx);
    dev->is_cpu = prism_context_is_cpu(ctx);
    dev->is_nvidia = prism_context_backend(ctx) == PRISM_BACKEND_CUDA ||
                     contains_ci(dev->platform, "nvidia");
  }
  return count;
}

/* The parameters a case can vary, outermost first (n is the innermost). */
enum {
  AXIS_TYPE,
  AXIS_OP,
  AXIS_KIND,
  AXIS_ORDER,
  AXIS_VALUES,
  AXIS_BINS,
  AXIS_DIST,
  AXIS_KEEP,
  AXIS_SEGMENT,
  AXIS_N,
  AXIS_COUNT
};

/* Set axis `axis` of c to option entry i. */
static void set_axis(bench_case *c, const bench_options *opt, int axis, int i,
                     const size_t *ns) {
  switch (axis) {
  case AXIS_TYPE:
    c->type = opt->types[i];
    break;
  case AXIS_OP:
    c->op = opt->ops[i];
    break;
  case AXIS_KIND:
    c->kind = opt->kinds[i];
    break;
  case AXIS_ORDER:
    c->order = opt->orders[i];
    break;
  case AXIS_VALUES:
    c->value_size = opt->value_sizes[i];
    break;
  case AXIS_BINS:
    c->bins = opt->bins[i];
    break;
  case AXIS_DIST:
    c->dist = opt->dists[i];
    break;
  case AXIS_KEEP:
    c->keep = opt->keeps[i];
    break;
  case AXIS_SEGMENT:
    c->segment = opt->segments[i];
    c->skew = opt->skews[i];
    break;
  case AXIS_N:
    c->n = ns[i];
    break;
  }
}

/* Every case of one primitive on one device: the product of the options'
 * lists, each axis varied only when the primitive uses it. */
static void run_primitive(bench_run *run, bench_device *dev,
                          const bench_options *opt, const bench_primitive *p) {
  size_t ns[OPTIONS_MAX_ITEMS];
  int counts[AXIS_COUNT];
  counts[AXIS_TYPE] = opt->type_count;
  counts[AXIS_OP] = p->uses & BENCH_USES_OP ? opt->op_count : 1;
  counts[AXIS_KIND] = p->uses & BENCH_USES_KIND ? opt->kind_count : 1;
  counts[AXIS_ORDER] = p->uses & BENCH_USES_ORDER ? opt->order_count : 1;
  counts[AXIS_VALUES] = p->uses & BENCH_USES_VALUES ? opt->value_size_count : 1;
  counts[AXIS_BINS] = p->uses & BENCH_USES_BINS ? opt->bin_count : 1;
  counts[AXIS_DIST] = p->uses & BENCH_USES_DIST ? opt->dist_count : 1;
  counts[AXIS_KEEP] = p->uses & BENCH_USES_KEEP ? opt->keep_count : 1;
  counts[AXIS_SEGMENT] = p->uses & BENCH_USES_SEGMENT ? opt->segment_count : 1;
  counts[AXIS_N] = options_sizes(opt, dev->is_cpu, ns, OPTIONS_MAX_ITEMS);

  for (int a = 0; a < AXIS_COUNT; a++) {
    if (counts[a] == 0)
      return;
  }
  int at[AXIS_COUNT] = {0}; /* an odometer over the axes, n turning fastest */
  for (;;) {
    bench_case c;
    memset(&c, 0, sizeof c);
    for (int a = 0; a < AXIS_COUNT; a++)
      set_axis(&c, opt, a, at[a], ns);
    if (!(p->uses & BENCH_USES_ORDER))
      c.order = PRISM_ASCENDING;
    if (!(p->uses & BENCH_USES_VALUES))
      c.value_size = 0;
    if (p->uses & BENCH_USES_BITS) {
      c.begin_bit = opt->begin_bit;
      c.end_bit = opt->end_bit;
    }
    if (!(p->uses & BENCH_USES_BINS))
      c.bins = 0;
    if (!(p->uses & BENCH_USES_KEEP))
      c.keep = 0;
    if (!(p->uses & BENCH_USES_SEGMENT))
      c.segment = 0, c.skew = 0;
    measure_case(run, dev, p, &c);
    int a = AXIS_COUNT - 1;
    while (a >= 0 && ++at[a] == counts[a])
      at[a--] = 0;
    if (a < 0)
      return;
  }
}

/* The table's primitive column: the widest label the chosen primitives can
 * print ("segmented-scan ex sum 1000"). */
static int label_width(const bench_options *opt) {
  size_t widest_bins = 0, widest_segment = 4; /* "skew" */
  static const char pareto[] = "pareto:";
  char buf[32];
  for (int i = 0; i < opt->bin_count; i++) {
    size_t len = (size_t)snprintf(buf, sizeof buf, "%zu", opt->bins[i]);
    if (len > widest_bins)
      widest_bins = len;
  }
  for (int i = 0; i < opt->segment_count; i++) {
    size_t len = (size_t)snprintf(buf, sizeof buf, "%zu", opt->segments[i]);
    if (opt->skews[i] == INPUT_SEGMENTS_PARETO)
      len += sizeof pareto - 1;
    if (len > widest_segment)
      widest_segment = len;
  }
  size_t widest = 0;
  for (int i = 0; i < opt->primitive_count; i++) {
    const bench_primitive *p = opt->primitives[i];
    unsigned u = p->uses;
    size_t len = strlen(p->name) + (u & BENCH_USES_KIND ? 3 : 0) +
                 (u & BENCH_USES_OP ? 4 : 0) + (u & BENCH_USES_VALUES ? 3 : 0) +
                 (u & BENCH_USES_ORDER ? 5 : 0) +
                 (u & BENCH_USES_BINS ? 1 + widest_bins : 0) +
                 (u & BENCH_USES_DIST ? 5 : 0) + (u & BENCH_USES_KEEP ? 5 : 0) +
                 (u & BENCH_USES_SEGMENT ? 1 + widest_segment : 0);
    if (p->label_width && (size_t)p->label_width(opt) > len)
      len = (size_t)p->label_width(opt);
    if (len > widest)
      widest = len;
  }
  return (int)widest;
}

/* Whether any chosen primitive is timed as the arrays are (the case loop,
 * or a loop of its own with copy_row), and so needs the copy row beside
 * it. */
static int any_array_primitive(const bench_options *opt) {
  for (int i = 0; i < opt->primitive_count; i++) {
    if (!opt->primitives[i]->measure_all || opt->primitives[i]->copy_row)
      return 1;
  }
  return 0;
}

/* --output's file, or stdout; NULL after saying why not. */
static FILE *open_output(const bench_options *opt) {
  if (!opt->output)
    return stdout;
  FILE *out = fopen(opt->output, "w");
  if (!out)
    fprintf(stderr, "prism-bench: --output %s: %s\n", opt->output,
            strerror(errno));
  return out;
}

/* The report's header from the open devices. */
static void begin_report(const bench_options *opt, int argc, char **argv,
                         FILE *out, const bench_device *devices, int count) {
  static device_info header[MAX_DEVICES];
  bench_meta meta;
  meta_collect(argc, argv, &meta);
  meta.reps = any_array_primitive(opt) ? opt->reps : 0;
  for (int i = 0; i < count; i++) {
    header[i] = devices[i].info;
#ifndef PRISM_BENCH_HAVE_CUB
    if (devices[i].is_nvidia)
      report_note("no CUB rows: prism-bench was built without CUDA");
#endif
  }
  report_begin(opt->format, out, &meta, header, count, label_width(opt));
}

/* Every primitive on every device, the report's rows. */
static int run_all(const bench_options *opt, bench_device *devices, int count) {
  bench_run *run = measure_begin(opt);
  if (!run) {
    fprintf(stderr, "prism-bench: out of host memory\n");
    return BENCH_EXIT_FAILED;
  }
  int arrays = any_array_primitive(opt);
  for (int d = 0; arrays && d < count; d++) {
    measure_copy(run, &devices[d]);
    for (int p = 0; p < opt->primitive_count; p++) {
      if (!opt->primitives[p]->measure_all)
        run_primitive(run, &devices[d], opt, opt->primitives[p]);
    }
  }
  /* The others take every device at once: a graph or a matrix is built
   * once for all. */
  for (int p = 0; p < opt->primitive_count; p++) {
    if (opt->primitives[p]->measure_all)
      opt->primitives[p]->measure_all(run, devices, count, opt);
  }
  return measure_end(run);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "compare") == 0)
    return compare_main(argc - 1, argv + 1);
  bench_options opt;
  int rc = options_parse(argc, argv, &opt);
  if (rc >= 0)
    return rc;
  if (opt.list_devices)
    return device_info_list(stdout) > 0 ? BENCH_EXIT_OK : BENCH_EXIT_FAILED;
  FILE *out = open_output(&opt);
  if (!out)
    return BENCH_EXIT_USAGE;

  int exit_code = BENCH_EXIT_OK;
  static bench_device devices[MAX_DEVICES];
  int count = open_devices(&opt, devices, &exit_code);
  if (count == 0) {
    fprintf(stderr, "prism-bench: no device to measure\n");
    if (out != stdout) { /* an empty file would pass for a result */
      fclose(out);
      remove(opt.output);
    }
    return BENCH_EXIT_FAILED;
  }
  begin_report(&opt, argc, argv, out, devices, count);
  if (run_all(&opt, devices, count) != BENCH_EXIT_OK)
    exit_code = BENCH_EXIT_FAILED;
  report_end();
  if (out != stdout && fclose(out) != 0) {
    fprintf(stderr, "prism-bench: --output %s: %s\n", opt.output,
            strerror(errno));
    exit_code = BENCH_EXIT_FAILED;
  }

  for (int d = 0; d < count; d++)
    prism_context_destroy(devices[d].ctx);
  return exit_code;
}
