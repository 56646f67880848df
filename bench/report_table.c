/* SPDX-License-Identifier: MIT */
/* The report as a fixed-width table for people (report_format.h). */
#include "report_format.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define DEVICE_WIDTH 20    /* the device column */
#define LABEL_WIDTH_MIN 12 /* the primitive column for reduce, scan, sort */
#define GRAPH_WIDTH 20     /* the bfs table's graph column */
#define MIB (1024.0 * 1024.0)

static struct {
  int label_width;
  int rows;
  int array_rows;     /* rows of the array primitives' table */
  int parameter_rows; /* rows with bins, keep or segment: more legend */
  int graph_rows;     /* rows of the bfs table */
  int section;        /* the table whose header is printed: 0 none, 1 the
                         array primitives', 2 bfs's */
} table;

/* Print a formatted line without the blanks an empty last column leaves. */
static void line(FILE *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void line(FILE *out, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  size_t len = strlen(buf);
  while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
    buf[--len] = '\0';
  fprintf(out, "%s\n", buf);
}

/* ---- Header -------------------------------------------------------------- */

/* "NVIDIA H200" stays; "pthread-skylake-avx512-Intel(R) Xeon(R) Processor"
 * (PoCL) becomes "skylake-avx512": trademarks, clock speeds and PoCL's
 * driver prefix and host CPU name go (the header names the CPU); what is
 * left is cut to the column. */
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

/* The driver facts of one device, on the line under its name. */
static void device_details(FILE *out, const device_info *d) {
  fprintf(out, "          ");
  if (strcmp(d->full_name, d->name) != 0)
    fprintf(out, "%s; ", d->full_name);
  if (d->platform_version[0])
    fprintf(out, "%s; ", d->platform_version);
  if (d->device_version[0] && !d->platform_version[0])
    fprintf(out, "%s; ", d->device_version);
  if (d->runtime_version[0])
    fprintf(out, "%s, ", d->runtime_version);
  if (d->driver_version[0])
    fprintf(out, "driver %s; ", d->driver_version);
  if (d->compute_units)
    fprintf(out, "%u compute units; ", d->compute_units);
  if (d->cache_bytes)
    fprintf(out, "%.0f MiB last-level cache (%s); ",
            (double)d->cache_bytes / MIB, d->cache_source);
  else
    fprintf(out, "last-level cache unknown; ");
  fprintf(out, "policy %s (%s)\n", d->policy, d->policy_source);
}

void table_begin(FILE *out, const bench_meta *meta, const device_info *devs,
                 int count, int label_width) {
  memset(&table, 0, sizeof table);
  table.label_width =
      label_width > LABEL_WIDTH_MIN ? label_width : LABEL_WIDTH_MIN;
  fprintf(out, "prism-bench: prism %s, commit %s, host %s, %s\n", meta->version,
          meta->commit, meta->host, meta->date);
  fprintf(out, "command: %s\n", meta->command);
  if (meta->reps > 0)
    fprintf(out,
            "timing: median of %d samples, each k back-to-back calls timed "
            "on the host\n",
            meta->reps);
  fprintf(out, "ratio: reference time / prism time (above 1: prism is "
               "better), against ref, measured in the same run\n");
  for (int i = 0; i < count; i++) {
    fprintf(out, "device %d: %-6s %s (%s%s)\n", i, devs[i].backend,
            devs[i].name, devs[i].platform, devs[i].is_cpu ? ", CPU" : "");
    device_details(out, &devs[i]);
  }
}

/* ---- Rows ---------------------------------------------------------------- */

#define TABLE_FORMAT "%-8s %-20s %-*s %-4s %6s %9s%c %6s %8s %8s %6s %6s %s\n"
#define GRAPH_FORMAT "%-8s %-20s %-9s %-20s %9s %11s %9s %7s %7s %6s %s\n"

/* Each table's column header, before its first row. */
static void table_section(FILE *out, int section) {
  if (table.section == section)
    return;
  table.section = section;
  fputc('\n', out);
  if (section == 1)
    line(out, TABLE_FORMAT, "backend", "device", table.label_width, "primitive",
         "type", "n", "time", ' ', "spread", "Gelem/s", "GB/s", "%copy",
         "ratio", "ref");
  else
    line(out, GRAPH_FORMAT, "backend", "device", "primitive", "graph",
         "vertices", "edges", "time", "GTEPS", "hmean", "ratio", "ref");
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

static void format_ratio(const report_row *row, char *buf, size_t size) {
  if (row->ratio > 0)
    report_format_rate(row->ratio, buf, size);
  else
    snprintf(buf, size, "-");
}

/* A row of the bfs table. */
static void graph_row(FILE *out, const report_row *row, const char *device) {
  char graph[GRAPH_WIDTH + 8], n[32], edges[32];
  shorten_graph(row->graph, graph, sizeof graph);
  report_format_n(row->n, n, sizeof n);
  report_format_n(row->edges, edges, sizeof edges);
  if (row->status != REPORT_OK) {
    fprintf(out, "%-8s %-20s %-9s %-20s %9s   %s: %s\n", row->backend, device,
            row->primitive, graph, n, report_status_name(row->status),
            row->note ? row->note : "");
    return;
  }
  char time[32], teps[32], hmean[32], ratio[32];
  report_format_time(row->seconds, time, sizeof time);
  report_format_rate(row->teps * 1e-9, teps, sizeof teps);
  report_format_rate(row->teps_hmean * 1e-9, hmean, sizeof hmean);
  format_ratio(row, ratio, sizeof ratio);
  line(out, GRAPH_FORMAT, row->backend, device, row->primitive, graph, n, edges,
       time, teps, hmean, ratio,
       row->reference && row->ratio > 0 ? row->reference : "");
}

/* A row of the array primitives' table. */
static void array_row(FILE *out, const report_row *row, const char *device) {
  char label[160], variant[128], n[32];
  report_variant(row, variant, sizeof variant);
  snprintf(label, sizeof label, "%s%s%s", row->primitive, variant[0] ? " " : "",
           variant);
  report_format_n(row->n, n, sizeof n);
  if (row->status != REPORT_OK) {
    fprintf(out, "%-8s %-20s %-*s %-4s %6s   %s: %s\n", row->backend, device,
            table.label_width, label, row->type ? row->type : "-", n,
            report_status_name(row->status), row->note ? row->note : "");
    return;
  }
  char time[32], spread[32], gelem[32], gbs[32], pct[32], ratio[32];
  int wide = report_spread_wide(row);
  report_format_time(row->seconds, time, sizeof time);
  snprintf(spread, sizeof spread, "%.0f%%", 100 * report_spread(row));
  report_format_rate(report_gelem_per_s(row), gelem, sizeof gelem);
  report_format_rate(report_gb_per_s(row), gbs, sizeof gbs);
  double pct_copy = report_pct_copy(row);
  if (pct_copy >= 0)
    snprintf(pct, sizeof pct, "%.0f%%", pct_copy);
  else
    snprintf(pct, sizeof pct, "-");
  format_ratio(row, ratio, sizeof ratio);
  line(out, TABLE_FORMAT, row->backend, device, table.label_width, label,
       row->type ? row->type : "-", n, time, wide ? '~' : ' ', spread, gelem,
       gbs, pct, ratio, row->reference && row->ratio > 0 ? row->reference : "");
}

void table_row(FILE *out, const report_row *row) {
  char device[64];
  table_section(out, row->graph ? 2 : 1);
  shorten_device(row->device, device, sizeof device);
  table.rows++;
  if (row->graph) {
    table.graph_rows++;
    graph_row(out, row, device);
    return;
  }
  table.array_rows++;
  if (row->bins || row->keep >= 0 || row->segment)
    table.parameter_rows++;
  array_row(out, row, device);
}

/* ---- Legend -------------------------------------------------------------- */

static void array_legend(FILE *out) {
  fprintf(out,
          "\ntime: median per call. spread: (max - min) / median of the "
          "samples; ~ after\nthe time: a spread above %.0f%%, so the median "
          "is less certain (a busy or\nthrottling machine). GB/s: the least "
          "traffic the primitive needs (reduce\nreads n elements; scan and "
          "copies read n and write n; sort reads and writes\nthe n keys "
          "once, and the n values too, though a radix sort's passes move\n"
          "more). %%copy: GB/s as a share of the same device's copy row "
          "(prism_buffer_copy,\nread + write), shown only where the row "
          "moves more than %dx the device's\nlast-level cache (its header "
          "line): smaller data can be served from the cache,\nwhere the "
          "copy rate is no bound. ratio: ref's time / prism's time (above "
          "1:\nprism is faster). ref: cub (CUB on the same GPU), serial "
          "(serial C on the\nhost; sort: qsort by key image, timed alone, "
          "not the copy of the input it\nsorts). Reference rows carry the "
          "reference's own name as backend. sort: keys\nascending; v4, v8: "
          "pairs with 4- or 8-byte values; desc: descending. gather and\n"
          "scatter read n u32 indices (a random permutation) and n elements "
          "and write\nn elements; their reference is the copy row.\n",
          100 * REPORT_SPREAD_MARK, REPORT_COPY_CACHE_MULTIPLE);
}

static void parameter_legend(FILE *out) {
  fprintf(out,
          "histograms read the samples and write the counters (range: and "
          "read the\nedges); the number after the name is the bin count, "
          "1bin: all samples in\none bin. Compaction reads the elements (and "
          "one-byte flags) and writes those\nkept (partition: all) and the "
          "count; the percentage is --keep. Segmented\nreduce reads the "
          "elements and the offsets and writes a result per segment;\n"
          "segmented scan reads the elements and one-byte head flags and "
          "writes n; segmented\nsort reads and writes the keys (and "
          "values) and reads the offsets. The\nnumber is the mean segment "
          "length, skew: one segment holds half the data,\npareto:MEAN: "
          "power-law lengths of that mean.\n");
}

static void graph_legend(FILE *out) {
  fprintf(out, "\nbfs: searches from --sources vertices with out-edges, each "
               "timed alone on the\nhost (prism_bfs waits for its result); "
               "time: the median search. edges and\nGTEPS count as Graph500 "
               "does: each undirected input edge once, self loops\nand "
               "duplicates included (a directed graph: its directed edges). "
               "GTEPS: the\nmedian over the searches of the edges in the "
               "component reached / time;\nhmean: their harmonic mean, "
               "Graph500's figure. ratio: prism GTEPS / ref's\n(above 1: prism "
               "is faster); ref: naive (a CUDA thread per frontier vertex,\n"
               "atomicCAS claims, a launch and a host round trip per level) or "
               "serial (a\nserial C queue BFS).\n");
}

void table_end(FILE *out, const char (*notes)[REPORT_NOTE_SIZE], int count) {
  if (table.rows == 0)
    fprintf(out, "\n(no rows)\n");
  if (table.array_rows)
    array_legend(out);
  if (table.parameter_rows)
    parameter_legend(out);
  if (table.graph_rows)
    graph_legend(out);
  for (int i = 0; i < count; i++)
    fprintf(out, "note: %s\n", notes[i]);
}
