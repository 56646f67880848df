#include "report.h"

#include "prism.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define REPORT_MAX_NOTES 64
#define REPORT_NOTE_SIZE 512
#define DEVICE_WIDTH 20    /* the table's device column */
#define LABEL_WIDTH_MIN 12 /* the primitive column for reduce, scan, sort */
#define GRAPH_WIDTH 20     /* the bfs table's graph column */

static struct {
  report_format format;
  int label_width;
  int rows;
  int parameter_rows; /* rows with bins, keep or segment: more legend */
  int array_rows;     /* rows of the array primitives' table */
  int graph_rows;     /* rows of the bfs table */
  int section;        /* the table whose header is printed: 0 none, 1 the
                         array primitives', 2 bfs's */
  int note_count;
  char notes[REPORT_MAX_NOTES][REPORT_NOTE_SIZE];
} report;

static const char *const status_names[] = {"ok", "skip", "FAIL", "error"};

/* ---- Formatting helpers -------------------------------------------------- */

/* "NVIDIA H200" stays; "pthread-skylake-avx512-Intel(R) Xeon(R) Processor"
 * (PoCL) becomes "skylake-avx512": trademarks, clock speeds and PoCL's
 * driver prefix and host CPU name go; what is left is cut to the column. */
static void shorten_device(const char *name, char *out, size_t size) {
  static const char *const drop[] = {"(R)", "(TM)", "(tm)"};
  size_t len = 0;
  int pocl = 0;
  if (!name)
    name = "?";
  if (strncmp(name, "pthread-", 8) == 0 || strncmp(name, "cpu-", 4) == 0) {
    name = strchr(name, '-') + 1;
    pocl = 1;
  }
  for (const char *p = name; *p && len + 1 < size; p++) {
    int skipped = 0;
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++) {
      size_t dl = strlen(drop[i]);
      if (strncmp(p, drop[i], dl) == 0) {
        p += dl - 1;
        skipped = 1;
        break;
      }
    }
    if (skipped || (*p == ' ' && (len == 0 || out[len - 1] == ' ')))
      continue;
    if (*p == ' ' && p[1] == '@')
      break;
    if (pocl && *p == '-' && p[1] >= 'A' && p[1] <= 'Z')
      break; /* PoCL appends the host CPU's marketing name */
    out[len++] = *p;
  }
  while (len > 0 && out[len - 1] == ' ')
    len--;
  out[len] = '\0';
  if (len > DEVICE_WIDTH) {
    out[DEVICE_WIDTH - 1] = '~';
    out[DEVICE_WIDTH] = '\0';
  }
}

/* 2^k for powers of two from 2^10, else decimal. */
static void format_n(size_t n, char *buf, size_t size) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int k = 0;
    while (((size_t)1 << k) != n)
      k++;
    snprintf(buf, size, "2^%d", k);
  } else {
    snprintf(buf, size, "%zu", n);
  }
}

/* Three significant digits with a unit: "812 ns", "12.3 us", "1.05 s". */
static void format_time(double s, char *buf, size_t size) {
  static const char *const units[] = {"ns", "us", "ms", "s"};
  double v = s * 1e9;
  int u = 0;
  while (v >= 999.5 && u < 3) {
    v /= 1000;
    u++;
  }
  if (v >= 99.95)
    snprintf(buf, size, "%.0f %s", v, units[u]);
  else if (v >= 9.995)
    snprintf(buf, size, "%.1f %s", v, units[u]);
  else
    snprintf(buf, size, "%.2f %s", v, units[u]);
}

/* A rate with two to four significant digits, no exponent above 1e-5. */
static void format_rate(double v, char *buf, size_t size) {
  if (v >= 99.95)
    snprintf(buf, size, "%.0f", v);
  else if (v >= 9.995)
    snprintf(buf, size, "%.1f", v);
  else if (v >= 0.01 || v == 0)
    snprintf(buf, size, "%.2f", v);
  else
    snprintf(buf, size, "%.2g", v);
}

static void format_ratio(double v, char *buf, size_t size) {
  if (v > 0)
    format_rate(v, buf, size);
  else
    snprintf(buf, size, "-");
}

/* The table's label: "reduce sum", "scan ex max", "sort v4 desc", "copy",
 * "histogram 256 1bin", "select 50%", "segmented-scan ex sum 1000". */
static void format_primitive(const report_row *row, char *buf, size_t size) {
  const char *kind = "";
  char values[16] = "", bins[32] = "", keep[32] = "", segment[32] = "";
  if (row->kind)
    kind = strcmp(row->kind, "exclusive") == 0 ? " ex" : " in";
  if (row->values > 0)
    snprintf(values, sizeof values, " v%d", row->values);
  if (row->bins)
    snprintf(bins, sizeof bins, " %zu", row->bins);
  if (row->keep >= 0)
    snprintf(keep, sizeof keep, " %g%%", 100 * row->keep);
  if (row->skew)
    snprintf(segment, sizeof segment, " skew");
  else if (row->segment)
    snprintf(segment, sizeof segment, " %zu", row->segment);
  snprintf(buf, size, "%s%s%s%s%s%s%s%s%s%s", row->primitive, kind,
           row->op ? " " : "", row->op ? row->op : "", values,
           row->order && strcmp(row->order, "descending") == 0 ? " desc" : "",
           bins, row->dist && strcmp(row->dist, "one-bin") == 0 ? " 1bin" : "",
           keep, segment);
}

static double rate(double amount, double seconds) {
  return seconds > 0 ? amount / seconds : 0;
}

static void json_string(const char *s) {
  if (!s) {
    fputs("null", stdout);
    return;
  }
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

static void json_number(double v) {
  if (v > 0)
    printf("%.6g", v);
  else
    fputs("null", stdout);
}

static void csv_string(const char *s) {
  if (!s)
    return;
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, stdout);
    return;
  }
  putchar('"');
  for (; *s; s++) {
    if (*s == '"')
      putchar('"');
    putchar(*s);
  }
  putchar('"');
}

static void csv_number(double v) {
  if (v > 0)
    printf("%.6g", v);
}

/* ---- Table --------------------------------------------------------------- */

#define TABLE_FORMAT "%-7s %-20s %-*s %-4s %6s %9s %8s %8s %6s %7s %9s\n"

static void table_begin(const report_device *devices, int count, int reps) {
  if (reps > 0)
    printf("prism-bench, prism %s: median of %d samples, each k back-to-back "
           "calls timed on the host\n",
           prism_version(), reps);
  else
    printf("prism-bench, prism %s\n", prism_version());
  for (int i = 0; i < count; i++) {
    printf("device %d: %-6s %s (%s%s)\n", i, devices[i].backend,
           devices[i].name, devices[i].platform,
           devices[i].is_cpu ? ", CPU" : "");
  }
}

#define GRAPH_FORMAT "%-7s %-20s %-9s %-20s %9s %11s %9s %7s %7s %8s %8s\n"

/* Each table's column header, before its first row. */
static void table_section(int section) {
  if (report.section == section)
    return;
  report.section = section;
  putchar('\n');
  if (section == 1)
    printf(TABLE_FORMAT, "backend", "device", report.label_width, "primitive",
           "type", "n", "time", "Gelem/s", "GB/s", "%copy", "vs CUB",
           "vs serial");
  else
    printf(GRAPH_FORMAT, "backend", "device", "primitive", "graph", "vertices",
           "edges", "time", "GTEPS", "hmean", "x naive", "x serial");
}

/* A file graph by its last path component; cut to the column. */
static void shorten_graph(const char *graph, char *out, size_t size) {
  const char *slash = strrchr(graph, '/');
  snprintf(out, size, "%s", slash && slash[1] ? slash + 1 : graph);
  if (strlen(out) > GRAPH_WIDTH && size > GRAPH_WIDTH) {
    out[GRAPH_WIDTH - 1] = '~';
    out[GRAPH_WIDTH] = '\0';
  }
}

/* A row of the bfs table. */
static void table_graph_row(const report_row *row, const char *device) {
  char graph[GRAPH_WIDTH + 8], n[32], edges[32];
  shorten_graph(row->graph, graph, sizeof graph);
  format_n(row->n, n, sizeof n);
  format_n(row->edges, edges, sizeof edges);
  if (row->status != REPORT_OK) {
    printf("%-7s %-20s %-9s %-20s %9s   %s: %s\n", row->backend, device,
           row->primitive, graph, n, status_names[row->status],
           row->note ? row->note : "");
    return;
  }
  char time[32], teps[32], hmean[32], x_naive[32], x_serial[32];
  format_time(row->seconds, time, sizeof time);
  format_rate(row->teps * 1e-9, teps, sizeof teps);
  format_rate(row->teps_hmean * 1e-9, hmean, sizeof hmean);
  format_ratio(row->x_naive, x_naive, sizeof x_naive);
  format_ratio(row->x_serial, x_serial, sizeof x_serial);
  printf(GRAPH_FORMAT, row->backend, device, row->primitive, graph, n, edges,
         time, teps, hmean, x_naive, x_serial);
}

static void table_row(const report_row *row) {
  char device[64], primitive[64], n[32];
  table_section(row->graph ? 2 : 1);
  shorten_device(row->device, device, sizeof device);
  if (row->graph) {
    table_graph_row(row, device);
    return;
  }
  format_primitive(row, primitive, sizeof primitive);
  format_n(row->n, n, sizeof n);
  if (row->status != REPORT_OK) {
    printf("%-7s %-20s %-*s %-4s %6s   %s: %s\n", row->backend, device,
           report.label_width, primitive, row->type ? row->type : "-", n,
           status_names[row->status], row->note ? row->note : "");
    return;
  }
  char time[32], gelem[32], gbs[32], pct[32], vs_cub[32], vs_serial[32];
  format_time(row->seconds, time, sizeof time);
  format_rate(rate((double)row->n, row->seconds) * 1e-9, gelem, sizeof gelem);
  format_rate(rate(row->bytes, row->seconds) * 1e-9, gbs, sizeof gbs);
  if (row->copy_bytes_per_s > 0)
    snprintf(pct, sizeof pct, "%.0f%%",
             100 * rate(row->bytes, row->seconds) / row->copy_bytes_per_s);
  else
    snprintf(pct, sizeof pct, "-");
  format_ratio(row->vs_cub, vs_cub, sizeof vs_cub);
  format_ratio(row->vs_serial, vs_serial, sizeof vs_serial);
  printf(TABLE_FORMAT, row->backend, device, report.label_width, primitive,
         row->type ? row->type : "-", n, time, gelem, gbs, pct, vs_cub,
         vs_serial);
}

static void table_end(void) {
  if (report.rows == 0)
    printf("\n(no rows)\n");
  if (report.array_rows)
    printf("\ntime: median per call. GB/s: the least traffic the primitive "
           "needs (reduce\nreads n elements; scan and copies read n and write "
           "n; sort reads and writes\nthe n keys once, and the n values too, "
           "though a radix sort's passes move\nmore). %%copy: of the same "
           "device's prism_buffer_copy (the copy row). vs CUB:\nCUB time / "
           "prism time (above 1: prism is faster). vs serial: prism time /\n"
           "serial C time on the host (below 1: prism is faster). sort: keys "
           "ascending;\nv4, v8: pairs with 4- or 8-byte values; desc: "
           "descending. Its serial row is\nqsort by key image, timed alone "
           "(not the copy of the input it sorts). gather and\nscatter read "
           "n u32 indices (a random permutation) and n elements and write\n"
           "n elements.\n");
  if (report.parameter_rows)
    printf("histograms read the samples and write the counters (range: and "
           "read the\nedges); the number after the name is the bin count, "
           "1bin: all samples in\none bin. Compaction reads the elements (and "
           "one-byte flags) and writes those\nkept (partition: all) and the "
           "count; the percentage is --keep. Segmented\nreduce reads the "
           "elements and the offsets and writes a result per segment;\n"
           "segmented scan reads the elements and one-byte head flags and "
           "writes n; the\nnumber is the mean segment length, skew: one "
           "segment holds half the data.\n");
  if (report.graph_rows)
    printf("\nbfs: searches from --sources vertices with out-edges, each "
           "timed alone on the\nhost (prism_bfs waits for its result); "
           "time: the median search. edges and\nGTEPS count as Graph500 "
           "does: each undirected input edge once, self loops\nand "
           "duplicates included (a directed graph: its directed edges). "
           "GTEPS: the\nmedian over the searches of the edges in the "
           "component reached / time;\nhmean: their harmonic mean, "
           "Graph500's figure. x naive: prism GTEPS / the\nnaive CUDA BFS's "
           "(a thread per frontier vertex, atomicCAS claims, a launch\nand "
           "a host round trip per level); x serial: prism GTEPS / the serial "
           "C queue\nBFS's (above 1: prism is faster).\n");
  for (int i = 0; i < report.note_count; i++)
    printf("note: %s\n", report.notes[i]);
}

/* ---- CSV ----------------------------------------------------------------- */

static void csv_begin(void) {
  printf("backend,device,platform,primitive,op,kind,order,values,bits,bins,"
         "dist,keep,segment,type,n,seconds,"
         "gelem_per_s,gb_per_s,pct_copy,vs_cub,vs_serial,reps,k,status,"
         "note,graph,edges,gteps,gteps_hmean,x_naive,x_serial\n");
}

static void csv_row(const report_row *row) {
  int ok = row->status == REPORT_OK;
  csv_string(row->backend);
  putchar(',');
  csv_string(row->device);
  putchar(',');
  csv_string(row->platform);
  putchar(',');
  csv_string(row->primitive);
  putchar(',');
  csv_string(row->op);
  putchar(',');
  csv_string(row->kind);
  putchar(',');
  csv_string(row->order);
  putchar(',');
  if (row->values >= 0)
    printf("%d", row->values);
  putchar(',');
  if (row->end_bit)
    printf("%u:%u", row->begin_bit, row->end_bit);
  putchar(',');
  if (row->bins)
    printf("%zu", row->bins);
  putchar(',');
  csv_string(row->dist);
  putchar(',');
  if (row->keep >= 0)
    printf("%g", row->keep);
  putchar(',');
  if (row->skew)
    fputs("skew", stdout);
  else if (row->segment)
    printf("%zu", row->segment);
  putchar(',');
  csv_string(row->type);
  printf(",%zu,", row->n);
  csv_number(ok ? row->seconds : 0);
  putchar(',');
  csv_number(ok && !row->graph ? rate((double)row->n, row->seconds) * 1e-9 : 0);
  putchar(',');
  csv_number(ok ? rate(row->bytes, row->seconds) * 1e-9 : 0);
  putchar(',');
  csv_number(ok && row->copy_bytes_per_s > 0
                 ? 100 * rate(row->bytes, row->seconds) / row->copy_bytes_per_s
                 : 0);
  putchar(',');
  csv_number(row->vs_cub);
  putchar(',');
  csv_number(row->vs_serial);
  printf(",%d,%d,%s,", row->reps, row->k, status_names[row->status]);
  csv_string(row->note);
  putchar(',');
  csv_string(row->graph);
  putchar(',');
  if (row->graph)
    printf("%zu", row->edges);
  putchar(',');
  csv_number(ok ? row->teps * 1e-9 : 0);
  putchar(',');
  csv_number(ok ? row->teps_hmean * 1e-9 : 0);
  putchar(',');
  csv_number(row->x_naive);
  putchar(',');
  csv_number(row->x_serial);
  putchar('\n');
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_begin(const report_device *devices, int count, int reps) {
  printf("{\n  \"prism_version\": ");
  json_string(prism_version());
  printf(",\n  \"reps\": %d,\n  \"devices\": [", reps);
  for (int i = 0; i < count; i++) {
    printf("%s\n    {\"backend\": ", i ? "," : "");
    json_string(devices[i].backend);
    printf(", \"device\": ");
    json_string(devices[i].name);
    printf(", \"platform\": ");
    json_string(devices[i].platform);
    printf(", \"cpu\": %s}", devices[i].is_cpu ? "true" : "false");
  }
  printf("\n  ],\n  \"rows\": [");
}

static void json_field(const char *name, const char *value) {
  printf(", \"%s\": ", name);
  json_string(value);
}

static void json_number_field(const char *name, double value) {
  printf(", \"%s\": ", name);
  json_number(value);
}

static void json_row(const report_row *row) {
  int ok = row->status == REPORT_OK;
  printf("%s\n    {\"backend\": ", report.rows ? "," : "");
  json_string(row->backend);
  json_field("device", row->device);
  json_field("platform", row->platform);
  json_field("primitive", row->primitive);
  json_field("op", row->op);
  json_field("kind", row->kind);
  json_field("order", row->order);
  if (row->values >= 0)
    printf(", \"values\": %d", row->values);
  else
    printf(", \"values\": null");
  if (row->end_bit)
    printf(", \"bits\": \"%u:%u\"", row->begin_bit, row->end_bit);
  else
    printf(", \"bits\": null");
  if (row->bins)
    printf(", \"bins\": %zu", row->bins);
  else
    printf(", \"bins\": null");
  json_field("dist", row->dist);
  if (row->keep >= 0)
    printf(", \"keep\": %g", row->keep);
  else
    printf(", \"keep\": null");
  if (row->segment)
    printf(", \"segment\": %zu, \"skew\": %s", row->segment,
           row->skew ? "true" : "false");
  else
    printf(", \"segment\": null, \"skew\": null");
  json_field("type", row->type);
  printf(", \"n\": %zu", row->n);
  json_number_field("seconds", ok ? row->seconds : 0);
  json_number_field(
      "gelem_per_s",
      ok && !row->graph ? rate((double)row->n, row->seconds) * 1e-9 : 0);
  json_number_field("gb_per_s", ok ? rate(row->bytes, row->seconds) * 1e-9 : 0);
  json_number_field("pct_copy", ok && row->copy_bytes_per_s > 0
                                    ? 100 * rate(row->bytes, row->seconds) /
                                          row->copy_bytes_per_s
                                    : 0);
  json_number_field("vs_cub", row->vs_cub);
  json_number_field("vs_serial", row->vs_serial);
  printf(", \"reps\": %d, \"k\": %d", row->reps, row->k);
  json_field("status", status_names[row->status]);
  json_field("note", row->note);
  if (row->graph) {
    json_field("graph", row->graph);
    printf(", \"edges\": %zu", row->edges);
    json_number_field("gteps", ok ? row->teps * 1e-9 : 0);
    json_number_field("gteps_hmean", ok ? row->teps_hmean * 1e-9 : 0);
    json_number_field("x_naive", row->x_naive);
    json_number_field("x_serial", row->x_serial);
  }
  putchar('}');
}

static void json_end(void) {
  printf("\n  ],\n  \"notes\": [");
  for (int i = 0; i < report.note_count; i++) {
    printf("%s\n    ", i ? "," : "");
    json_string(report.notes[i]);
  }
  printf("\n  ]\n}\n");
}

/* ---- Entry points -------------------------------------------------------- */

void report_begin(report_format format, const report_device *devices,
                  int device_count, int reps, int label_width) {
  report.format = format; /* notes kept before the start stay */
  report.label_width =
      label_width > LABEL_WIDTH_MIN ? label_width : LABEL_WIDTH_MIN;
  report.rows = 0;
  report.parameter_rows = 0;
  report.array_rows = 0;
  report.graph_rows = 0;
  report.section = 0;
  switch (format) {
  case REPORT_TABLE:
    table_begin(devices, device_count, reps);
    break;
  case REPORT_CSV:
    csv_begin();
    break;
  case REPORT_JSON:
    json_begin(devices, device_count, reps);
    break;
  }
  fflush(stdout);
}

void report_row_print(const report_row *row) {
  switch (report.format) {
  case REPORT_TABLE:
    table_row(row);
    break;
  case REPORT_CSV:
    csv_row(row);
    break;
  case REPORT_JSON:
    json_row(row);
    break;
  }
  report.rows++;
  if (row->graph)
    report.graph_rows++;
  else
    report.array_rows++;
  if (row->bins || row->keep >= 0 || row->segment)
    report.parameter_rows++;
  fflush(stdout);
}

void report_note(const char *fmt, ...) {
  char buf[REPORT_NOTE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  for (int i = 0; i < report.note_count; i++) {
    if (strcmp(report.notes[i], buf) == 0)
      return; /* said once is enough */
  }
  if (report.format == REPORT_CSV) {
    fprintf(stderr, "prism-bench: note: %s\n", buf);
  }
  if (report.note_count < REPORT_MAX_NOTES)
    memcpy(report.notes[report.note_count++], buf, sizeof buf);
}

void report_end(void) {
  switch (report.format) {
  case REPORT_TABLE:
    table_end();
    break;
  case REPORT_CSV:
    break;
  case REPORT_JSON:
    json_end();
    break;
  }
  fflush(stdout);
}
