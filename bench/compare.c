/* SPDX-License-Identifier: MIT */
#include "compare.h"

#include "compare_data.h"
#include "json_read.h"
#include "options.h"
#include "report_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: prism-bench compare A.json B.json ... [--svg FILE] "
    "[--output FILE] [--base LABEL]\n"
    "\n"
    "Reads results written by prism-bench --json and prints each row's\n"
    "throughput (G elements/s; bfs: GTEPS) per series side by side: a\n"
    "series is one device and backend of one file, references (CUB, serial\n"
    "C) included. Rows match by primitive, variant, type and n. xA: the\n"
    "series' throughput over the base series' (A, or --base): above 1, "
    "faster.\n"
    "  --svg FILE     also draw throughput against n, one chart per "
    "primitive,\n"
    "                 variant and type, one line per series\n"
    "  --output FILE  the text to FILE instead of standard output\n"
    "  --base LABEL   the series the ratios divide by (default A)\n";

typedef struct compare_args {
  const char *files[CMP_MAX_FILES];
  int file_count;
  const char *svg, *output;
  char base;
} compare_args;

static int usage_error(const char *what, const char *arg) {
  fprintf(stderr,
          "prism-bench compare: %s%s%s (see prism-bench compare "
          "--help)\n",
          what, arg ? ": " : "", arg ? arg : "");
  return BENCH_EXIT_USAGE;
}

/* -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, compare_args *a) {
  memset(a, 0, sizeof *a);
  a->base = 'A';
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      fputs(usage, stdout);
      return BENCH_EXIT_OK;
    }
    const char **value = strcmp(arg, "--svg") == 0      ? &a->svg
                         : strcmp(arg, "--output") == 0 ? &a->output
                                                        : NULL;
    if (value || strcmp(arg, "--base") == 0) {
      if (i + 1 >= argc)
        return usage_error("needs a value", arg);
      if (value) {
        *value = argv[++i];
      } else {
        arg = argv[++i];
        if (strlen(arg) != 1 || arg[0] < 'A' || arg[0] > 'Z')
          return usage_error("--base takes a series' letter", arg);
        a->base = arg[0];
      }
    } else if (arg[0] == '-' && arg[1]) {
      return usage_error("unknown option", arg);
    } else if (a->file_count == CMP_MAX_FILES) {
      return usage_error("too many files", arg);
    } else {
      a->files[a->file_count++] = arg;
    }
  }
  if (a->file_count == 0)
    return usage_error("no result files given", NULL);
  return -1;
}

/* ---- Reading ------------------------------------------------------------- */

/* The whole file, NUL-terminated; NULL after saying why. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *text = NULL;
  size_t used = 0, cap = 0;
  if (!f) {
    fprintf(stderr, "prism-bench compare: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  for (;;) {
    if (cap - used < 65536) {
      char *more = realloc(text, cap = 2 * cap + 65536);
      if (!more) {
        fprintf(stderr, "prism-bench compare: %s: out of host memory\n", path);
        free(text);
        fclose(f);
        return NULL;
      }
      text = more;
    }
    size_t got = fread(text + used, 1, cap - used - 1, f);
    used += got;
    if (got == 0)
      break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "prism-bench compare: %s: read error\n", path);
    free(text);
    return NULL;
  }
  text[used] = '\0';
  *len = used;
  return text;
}

static const char *or_empty(const char *s) {
  return s ? s : "";
}

/* The device object of the file's meta that a row names, or NULL. */
static const json_value *meta_device(const json_value *doc,
                                     const json_value *row) {
  const json_value *devices = json_get(json_get(doc, "meta"), "devices");
  double index = json_get_number(row, "device_index", -1);
  if (!devices || devices->kind != JSON_ARRAY || index < 0 ||
      index >= (double)devices->count)
    return NULL;
  return &devices->items[(size_t)index];
}

/* A series' name for people: the backend, the OpenCL platform, the device
 * by its full name (PoCL's by the CPU model). */
static void series_label(cmp_series *s, const json_value *doc,
                         const json_value *row, int files) {
  const json_value *dev = meta_device(doc, row);
  const char *full = json_get_string(dev, "full_name");
  const char *backend = or_empty(json_get_string(row, "backend"));
  const char *platform = or_empty(json_get_string(row, "platform"));
  int prism = strcmp(backend, "cuda") == 0 || strcmp(backend, "opencl") == 0;
  if (!(full && *full && (prism || strcmp(backend, "serial") == 0)))
    full = or_empty(json_get_string(row, "device"));
  char where[CMP_TEXT + 8] = "", file[32] = ""; /* label has room for all */
  if (strcmp(backend, "opencl") == 0)
    snprintf(where, sizeof where, " (%s)",
             strstr(platform, "Portable Computing Language") ? "PoCL"
                                                             : platform);
  if (files > 1)
    snprintf(file, sizeof file, " [file %d]", s->file + 1);
  snprintf(s->label, sizeof s->label, "%s%.*s%s: %.*s%s", prism ? "prism " : "",
           (int)sizeof s->backend, backend, where, CMP_TEXT, full, file);
}

/* The series of a row of file `file`, added if new; -1 when full. */
static int series_of(cmp_set *set, int file, const json_value *doc,
                     const json_value *row, int files) {
  const char *backend = or_empty(json_get_string(row, "backend"));
  const char *platform = or_empty(json_get_string(row, "platform"));
  const char *device = or_empty(json_get_string(row, "device"));
  for (int i = 0; i < set->series_count; i++) {
    const cmp_series *s = &set->series[i];
    if (s->file == file && strcmp(s->backend, backend) == 0 &&
        strcmp(s->platform, platform) == 0 && strcmp(s->device, device) == 0)
      return i;
  }
  if (set->series_count == CMP_MAX_SERIES)
    return -1;
  cmp_series *s = &set->series[set->series_count];
  memset(s, 0, sizeof *s);
  s->file = file;
  snprintf(s->backend, sizeof s->backend, "%s", backend);
  snprintf(s->platform, sizeof s->platform, "%s", platform);
  snprintf(s->device, sizeof s->device, "%s", device);
  s->reference = strcmp(backend, "cuda") != 0 && strcmp(backend, "opencl") != 0;
  series_label(s, doc, row, files);
  return set->series_count++;
}

/* The matched row for a file's row, added if new; NULL when out of memory. */
static cmp_row *row_of(cmp_set *set, const json_value *row) {
  const char *primitive = or_empty(json_get_string(row, "primitive"));
  const char *variant = or_empty(json_get_string(row, "variant"));
  const char *type = or_empty(json_get_string(row, "type"));
  size_t n = (size_t)json_get_number(row, "n", 0);
  for (size_t i = 0; i < set->row_count; i++) {
    cmp_row *r = &set->rows[i];
    if (r->n == n && strcmp(r->primitive, primitive) == 0 &&
        strcmp(r->variant, variant) == 0 && strcmp(r->type, type) == 0)
      return r;
  }
  if (set->row_count == set->row_capacity) {
    size_t cap = set->row_capacity ? 2 * set->row_capacity : 64;
    cmp_row *rows = realloc(set->rows, cap * sizeof *rows);
    if (!rows)
      return NULL;
    set->rows = rows;
    set->row_capacity = cap;
  }
  cmp_row *r = &set->rows[set->row_count++];
  memset(r, 0, sizeof *r);
  snprintf(r->primitive, sizeof r->primitive, "%s", primitive);
  snprintf(r->variant, sizeof r->variant, "%s", variant);
  snprintf(r->type, sizeof r->type, "%s", type);
  r->n = n;
  r->bfs = json_get(row, "graph") != NULL;
  return r;
}

/* The line about a file: where and when it was measured, with what. */
static void describe_file(cmp_set *set, int file, const char *path,
                          const json_value *doc) {
  const json_value *meta = json_get(doc, "meta");
  snprintf(set->files[file], sizeof set->files[file],
           "file %d: %s: host %s, %s, prism %s (%s)", file + 1, path,
           or_empty(json_get_string(meta, "host")),
           or_empty(json_get_string(meta, "date")),
           or_empty(json_get_string(meta, "prism_version")),
           or_empty(json_get_string(meta, "commit")));
}

/* Each verified row of doc into set; 0 after saying why not. */
static int add_rows(cmp_set *set, int file, const char *path,
                    const json_value *doc, int files) {
  const json_value *rows = json_get(doc, "rows");
  if (!rows || rows->kind != JSON_ARRAY) {
    fprintf(stderr,
            "prism-bench compare: %s: not a prism-bench --json "
            "result (no \"rows\" array)\n",
            path);
    return 0;
  }
  describe_file(set, file, path, doc);
  for (size_t i = 0; i < rows->count; i++) {
    const json_value *row = &rows->items[i];
    const char *status = json_get_string(row, "status");
    int bfs = json_get(row, "graph") != NULL;
    double v = json_get_number(row, bfs ? "gteps" : "gelem_per_s", 0);
    if (!status || strcmp(status, "ok") != 0 || !(v > 0))
      continue;
    int s = series_of(set, file, doc, row, files);
    if (s < 0) {
      fprintf(stderr, "prism-bench compare: more than %d series\n",
              CMP_MAX_SERIES);
      return 0;
    }
    cmp_row *r = row_of(set, row);
    if (!r) {
      fprintf(stderr, "prism-bench compare: out of host memory\n");
      return 0;
    }
    if (r->value[s] == 0) /* the first of duplicates */
      r->value[s] = v;
  }
  return 1;
}

static int load(cmp_set *set, const compare_args *a) {
  for (int f = 0; f < a->file_count; f++) {
    char err[320];
    size_t len = 0;
    char *text = read_file(a->files[f], &len);
    if (!text)
      return 0;
    json_value *doc = json_parse(text, len, err, sizeof err);
    free(text);
    if (!doc) {
      fprintf(stderr, "prism-bench compare: %s: not JSON: %s\n", a->files[f],
              err);
      return 0;
    }
    int ok = add_rows(set, f, a->files[f], doc, a->file_count);
    json_free(doc);
    if (!ok)
      return 0;
    set->file_count = f + 1;
  }
  return 1;
}

/* Rows in the order of their first appearance by primitive, variant and
 * type, then by n: a later file's extra sizes join their group. */
static int group_of(const cmp_set *set, const cmp_row *r) {
  for (size_t i = 0;; i++) {
    const cmp_row *q = &set->rows[i];
    if (strcmp(q->primitive, r->primitive) == 0 &&
        strcmp(q->variant, r->variant) == 0 && strcmp(q->type, r->type) == 0)
      return (int)i;
  }
}

static int by_group_then_n(const void *a, const void *b) {
  const cmp_row *p = a, *q = b;
  if (p->group != q->group)
    return p->group < q->group ? -1 : 1;
  return (p->n > q->n) - (p->n < q->n);
}

static void sort_rows(cmp_set *set) {
  for (size_t i = 0; i < set->row_count; i++)
    set->rows[i].group = group_of(set, &set->rows[i]);
  qsort(set->rows, set->row_count, sizeof *set->rows, by_group_then_n);
}

/* ---- Printing ------------------------------------------------------------ */

static void print_header(FILE *out, const cmp_set *set) {
  char base = (char)('A' + set->base);
  fprintf(out,
          "prism-bench compare: G elements/s per series (bfs: GTEPS); x%c: "
          "the series over %c (above 1: faster than %c)\n",
          base, base, base);
  for (int f = 0; f < set->file_count; f++)
    fprintf(out, "%s\n", set->files[f]);
  for (int s = 0; s < set->series_count; s++)
    fprintf(out, "  %c  %s\n", 'A' + s, set->series[s].label);
}

static void print_rows(FILE *out, const cmp_set *set) {
  int pw = 9, vw = 7; /* "primitive", "variant" */
  for (size_t i = 0; i < set->row_count; i++) {
    int p = (int)strlen(set->rows[i].primitive);
    int v = (int)strlen(set->rows[i].variant);
    pw = p > pw ? p : pw;
    vw = v > vw ? v : vw;
  }
  char ratio[3] = {'x', (char)('A' + set->base), '\0'};
  fprintf(out, "\n%-*s %-*s %-4s %6s", pw, "primitive", vw, "variant", "type",
          "n");
  for (int s = 0; s < set->series_count; s++) {
    fprintf(out, " %8c", 'A' + s);
    if (s != set->base)
      fprintf(out, " %6s", ratio);
  }
  fputc('\n', out);
  for (size_t i = 0; i < set->row_count; i++) {
    const cmp_row *r = &set->rows[i];
    char n[32], cell[32];
    double base = r->value[set->base];
    report_format_n(r->n, n, sizeof n);
    fprintf(out, "%-*s %-*s %-4s %6s", pw, r->primitive, vw, r->variant,
            r->type, n);
    for (int s = 0; s < set->series_count; s++) {
      if (r->value[s] > 0)
        report_format_rate(r->value[s], cell, sizeof cell);
      else
        snprintf(cell, sizeof cell, "-");
      fprintf(out, " %8s", cell);
      if (s == set->base)
        continue;
      if (r->value[s] > 0 && base > 0)
        report_format_rate(r->value[s] / base, cell, sizeof cell);
      else
        snprintf(cell, sizeof cell, "-");
      fprintf(out, " %6s", cell);
    }
    fputc('\n', out);
  }
}

int compare_main(int argc, char **argv) {
  compare_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc >= 0)
    return rc;
  static cmp_set set;
  memset(&set, 0, sizeof set);
  if (!load(&set, &a)) {
    free(set.rows);
    return BENCH_EXIT_FAILED;
  }
  sort_rows(&set);
  set.base = a.base - 'A';
  if (set.series_count == 0 || set.base >= set.series_count) {
    char label[2] = {a.base, '\0'};
    free(set.rows);
    if (set.series_count == 0) {
      fprintf(stderr, "prism-bench compare: no verified rows in the files\n");
      return BENCH_EXIT_FAILED;
    }
    return usage_error("--base names no series", label);
  }
  FILE *out = a.output ? fopen(a.output, "w") : stdout;
  if (!out) {
    fprintf(stderr, "prism-bench compare: --output %s: %s\n", a.output,
            strerror(errno));
    free(set.rows);
    return BENCH_EXIT_FAILED;
  }
  print_header(out, &set);
  print_rows(out, &set);
  rc = BENCH_EXIT_OK;
  if (out != stdout && fclose(out) != 0)
    rc = BENCH_EXIT_FAILED;
  if (a.svg && compare_plot(&set, a.svg) != 0)
    rc = BENCH_EXIT_FAILED;
  free(set.rows);
  return rc;
}
