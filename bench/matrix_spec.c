/* SPDX-License-Identifier: MIT */
/* The spmv rows' matrices: parsed, named, built (matrix_spec.h). */
#include "matrix_spec.h"

#include "graph_file.h"
#include "graph_spec.h"
#include "input.h"
#include "report_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS ((size_t)UINT32_MAX) /* column indices are 32-bit */
#define MAX_SIDE_2D 65535             /* 65535^2 < 2^32 rows */
#define MAX_SIDE_3D 1625              /* 1625^3 < 2^32 rows */
#define LAPLACE2D_DIAGONAL 4.0
#define LAPLACE3D27_DIAGONAL 26.0
#define LAPLACE_OFF_DIAGONAL (-1.0)
#define NAME_CUT 32 /* a file's name in the rows, at most */
/* What the seeds of the values and of hugerow's columns add to --seed
 * (RMAT's structure takes --seed itself: bfs's rmat graph, the same). */
#define SEED_VALUES 0x5350u
#define SEED_COLUMNS 0x434fu

/* Write what is wrong with the entry; returns 0 (the entry is refused). */
#define REFUSE(msg, msg_size, ...) (snprintf(msg, msg_size, __VA_ARGS__), 0)

/* The size after "name:" in entry, from 1 to max; 0 if it is not one. */
static int parse_size(const char *entry, size_t prefix, size_t max,
                      size_t *out) {
  unsigned long long v;
  const char *s = entry + prefix;
  if (!graph_spec_parse_count(s, strlen(s), max, &v))
    return 0;
  *out = (size_t)v;
  return 1;
}

int matrix_spec_parse(const char *entry, int is_file, matrix_spec *spec,
                      char *msg, size_t msg_size) {
  static const char *const names[] = {"laplace2d", "laplace3d27", "rmat",
                                      "hugerow"};
  memset(spec, 0, sizeof *spec);
  spec->kind = MATRIX_FILE;
  spec->path = entry;
  if (is_file)
    return 1;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(entry, names[i]) == 0)
      return REFUSE(msg, msg_size,
                    "'%s' needs its size (laplace2d:N, laplace3d27:N, "
                    "rmat:SCALE[:EDGEFACTOR], hugerow:N)",
                    entry);
  }
  if (strncmp(entry, "laplace2d:", 10) == 0) {
    if (!parse_size(entry, 10, MAX_SIDE_2D, &spec->side))
      return REFUSE(msg, msg_size,
                    "'%s': N must be 1 to %d (N^2 rows; e.g. laplace2d:4096)",
                    entry, MAX_SIDE_2D);
    spec->kind = MATRIX_LAPLACE2D;
    return 1;
  }
  if (strncmp(entry, "laplace3d27:", 12) == 0) {
    if (!parse_size(entry, 12, MAX_SIDE_3D, &spec->side))
      return REFUSE(msg, msg_size,
                    "'%s': N must be 1 to %d (N^3 rows; e.g. laplace3d27:128)",
                    entry, MAX_SIDE_3D);
    spec->kind = MATRIX_LAPLACE3D27;
    return 1;
  }
  if (strncmp(entry, "hugerow:", 8) == 0) {
    if (!parse_size(entry, 8, MAX_ROWS, &spec->rows))
      return REFUSE(msg, msg_size,
                    "'%s': N must be 1 to 2^32 - 1 rows (e.g. hugerow:2^22)",
                    entry);
    spec->kind = MATRIX_HUGEROW;
    return 1;
  }
  if (strncmp(entry, "rmat:", 5) == 0) {
    bfs_graph_spec graph; /* the same entry as --graph takes */
    if (!bfs_graph_parse(entry, &graph, msg, msg_size))
      return 0;
    spec->kind = MATRIX_RMAT;
    spec->scale = graph.scale;
    spec->edge_factor = graph.edge_factor;
    return 1;
  }
  return 1;
}

void matrix_spec_name(const matrix_spec *spec, char *buf, size_t size) {
  char n[32];
  switch (spec->kind) {
  case MATRIX_LAPLACE2D:
    snprintf(buf, size, "laplace2d:%zu", spec->side);
    break;
  case MATRIX_LAPLACE3D27:
    snprintf(buf, size, "laplace3d27:%zu", spec->side);
    break;
  case MATRIX_RMAT: {
    bfs_graph_spec graph;
    memset(&graph, 0, sizeof graph);
    graph.kind = BFS_GRAPH_RMAT;
    graph.scale = spec->scale;
    graph.edge_factor = spec->edge_factor;
    bfs_graph_name(&graph, buf, size);
    break;
  }
  case MATRIX_HUGEROW:
    report_format_n(spec->rows, n, sizeof n);
    snprintf(buf, size, "hugerow:%s", n);
    break;
  case MATRIX_FILE: {
    const char *slash = strrchr(spec->path, '/');
    snprintf(buf, size, "%s", slash && slash[1] ? slash + 1 : spec->path);
    if (strlen(buf) > NAME_CUT && size > NAME_CUT) {
      buf[NAME_CUT - 1] = '~';
      buf[NAME_CUT] = '\0';
    }
    break;
  }
  }
}

void matrix_free(matrix_host *host) {
  if (host->loaded) {
    prism_csr_matrix_free(&host->m);
  } else {
    if (host->prism_made) {
      prism_csr_free(&host->m.csr);
    } else {
      free(host->m.csr.row_offsets);
      free(host->m.csr.col_indices);
    }
    free(host->m.values);
  }
  memset(host, 0, sizeof *host);
}

/* ---- Structures ---------------------------------------------------------- */

/* Room for rows + 1 offsets and entries column indices; 0 when the host is
 * out of memory. */
static int alloc_structure(prism_csr *csr, size_t rows, size_t entries) {
  csr->num_vertices = rows;
  csr->num_edges = entries;
  csr->row_offsets = malloc((rows + 1) * sizeof *csr->row_offsets);
  csr->col_indices = malloc((entries ? entries : 1) * sizeof *csr->col_indices);
  csr->directed = 1;
  return csr->row_offsets && csr->col_indices;
}

/* Whether x + d stays in [0, n). */
static int inside(size_t x, int d, size_t n) {
  return d < 0 ? x > 0 : d == 0 || x + 1 < n;
}

/* The 5-point stencil of a side x side grid, row y * side + x, each row's
 * columns ascending. */
static int laplace2d(size_t side, prism_csr *csr) {
  static const int dy[] = {-1, 0, 0, 0, 1}, dx[] = {0, -1, 0, 1, 0};
  size_t rows = side * side;
  if (!alloc_structure(csr, rows, 5 * rows - 4 * side))
    return 0;
  size_t e = 0;
  for (size_t y = 0; y < side; y++) {
    for (size_t x = 0; x < side; x++) {
      size_t r = y * side + x;
      csr->row_offsets[r] = e;
      for (int p = 0; p < 5; p++) {
        if (inside(y, dy[p], side) && inside(x, dx[p], side))
          csr->col_indices[e++] =
              (uint32_t)((ptrdiff_t)r + dy[p] * (ptrdiff_t)side + dx[p]);
      }
    }
  }
  csr->row_offsets[rows] = e;
  return 1;
}

/* The 27-point stencil of a side^3 grid, row (z * side + y) * side + x;
 * the neighbours in (dz, dy, dx) order, so each row's columns ascend. */
static int laplace3d27(size_t side, prism_csr *csr) {
  size_t rows = side * side * side, per_axis = 3 * side - 2;
  if (!alloc_structure(csr, rows, per_axis * per_axis * per_axis))
    return 0;
  ptrdiff_t plane = (ptrdiff_t)(side * side), line = (ptrdiff_t)side;
  size_t e = 0, r = 0;
  for (size_t z = 0; z < side; z++) {
    for (size_t y = 0; y < side; y++) {
      for (size_t x = 0; x < side; x++, r++) {
        csr->row_offsets[r] = e;
        for (int dz = -1; dz <= 1; dz++) {
          if (!inside(z, dz, side))
            continue;
          for (int dy = -1; dy <= 1; dy++) {
            if (!inside(y, dy, side))
              continue;
            for (int dx = -1; dx <= 1; dx++) {
              if (inside(x, dx, side))
                csr->col_indices[e++] =
                    (uint32_t)((ptrdiff_t)r + dz * plane + dy * line + dx);
            }
          }
        }
      }
    }
  }
  csr->row_offsets[rows] = e;
  return 1;
}

/* A column in [0, n) from the generator. */
static uint32_t random_column(uint64_t *state, size_t n) {
  return (uint32_t)(((input_random(state) >> 32) * (uint64_t)n) >> 32);
}

/* hugerow:rows: rows 1 .. rows - 1 with MATRIX_HUGEROW_ROW_ENTRIES random
 * columns each, row 0 with as many as all of them; every row's columns
 * ascending (row 0's laid out by counting, repeats kept). */
static int hugerow(size_t rows, uint64_t seed, prism_csr *csr) {
  const size_t k = MATRIX_HUGEROW_ROW_ENTRIES, head = k * (rows - 1);
  uint64_t state = seed;
  uint32_t *count = calloc(rows, sizeof *count);
  if (!count || !alloc_structure(csr, rows, 2 * head)) {
    free(count);
    return 0;
  }
  for (size_t i = 0; i < head; i++)
    count[random_column(&state, rows)]++;
  size_t e = 0;
  csr->row_offsets[0] = 0;
  for (size_t c = 0; c < rows; c++) {
    for (uint32_t j = 0; j < count[c]; j++)
      csr->col_indices[e++] = (uint32_t)c;
  }
  free(count);
  for (size_t r = 1; r < rows; r++) {
    uint32_t *row = csr->col_indices + e;
    csr->row_offsets[r] = e;
    for (size_t j = 0; j < k; j++) { /* insertion: k is small */
      uint32_t c = random_column(&state, rows);
      size_t at = j;
      for (; at > 0 && row[at - 1] > c; at--)
        row[at] = row[at - 1];
      row[at] = c;
    }
    e += k;
  }
  csr->row_offsets[rows] = e;
  return 1;
}

/* The structure of a generated matrix into host->m.csr; its columns. */
static prism_status build_structure(const matrix_spec *spec, uint64_t seed,
                                    matrix_host *host, char *msg,
                                    size_t msg_size) {
  prism_csr *csr = &host->m.csr;
  int ok = 0;
  switch (spec->kind) {
  case MATRIX_LAPLACE2D:
    ok = laplace2d(spec->side, csr);
    break;
  case MATRIX_LAPLACE3D27:
    ok = laplace3d27(spec->side, csr);
    break;
  case MATRIX_HUGEROW:
    ok = hugerow(spec->rows, seed + SEED_COLUMNS, csr);
    break;
  case MATRIX_RMAT: {
    prism_status st = prism_csr_rmat(spec->scale, spec->edge_factor, seed, csr);
    if (st != PRISM_OK) {
      snprintf(msg, msg_size, "prism_csr_rmat: %s: %s", prism_status_name(st),
               prism_last_error());
      return st;
    }
    host->prism_made = 1;
    ok = 1;
    break;
  }
  case MATRIX_FILE:
    break;
  }
  if (!ok) {
    snprintf(msg, msg_size, "host out of memory for the matrix");
    return PRISM_OUT_OF_MEMORY;
  }
  host->m.num_cols = csr->num_vertices; /* square */
  return PRISM_OK;
}

/* ---- Values -------------------------------------------------------------- */

static void store(prism_type type, void *values, size_t e, double v) {
  if (type == PRISM_F32)
    ((float *)values)[e] = (float)v;
  else
    ((double *)values)[e] = v;
}

/* A Laplacian's: diagonal on the diagonal, -1 elsewhere. */
static void laplace_values(const prism_csr *csr, prism_type type,
                           double diagonal, void *values) {
  for (size_t r = 0; r < csr->num_vertices; r++) {
    for (uint64_t e = csr->row_offsets[r]; e < csr->row_offsets[r + 1]; e++)
      store(type, values, (size_t)e,
            csr->col_indices[e] == r ? diagonal : LAPLACE_OFF_DIAGONAL);
  }
}

/* The values of a generated matrix of type, replacing any it had. */
static prism_status build_values(const matrix_spec *spec, prism_type type,
                                 uint64_t seed, matrix_host *host, char *msg,
                                 size_t msg_size) {
  prism_csr_matrix *m = &host->m;
  size_t entries = m->csr.num_edges;
  free(m->values);
  m->value_type = type;
  m->values = malloc((entries ? entries : 1) * prism_type_size(type));
  if (!m->values) {
    snprintf(msg, msg_size, "host out of memory for the matrix's values");
    return PRISM_OUT_OF_MEMORY;
  }
  if (spec->kind == MATRIX_LAPLACE2D)
    laplace_values(&m->csr, type, LAPLACE2D_DIAGONAL, m->values);
  else if (spec->kind == MATRIX_LAPLACE3D27)
    laplace_values(&m->csr, type, LAPLACE3D27_DIAGONAL, m->values);
  else
    input_fill_random(type, m->values, entries, seed + SEED_VALUES);
  return PRISM_OK;
}

/* Load the file with values of type, through a decompressed copy if it is
 * gzip'd. */
static prism_status load(const char *path, prism_type type, matrix_host *host,
                         char *msg, size_t msg_size) {
  char temp[GRAPH_FILE_TEMP_SIZE];
  prism_load_options options;
  if (!graph_file_prepare(path, temp, msg, msg_size))
    return PRISM_INVALID_ARGUMENT; /* the file: msg says why */
  prism_load_options_init(&options);
  prism_status st =
      prism_csr_matrix_load(temp[0] ? temp : path, &options, type, &host->m);
  if (st != PRISM_OK)
    snprintf(msg, msg_size, "prism_csr_matrix_load: %s: %s%s%s%s",
             prism_status_name(st), prism_last_error(),
             temp[0] ? " (decompressed from " : "", temp[0] ? path : "",
             temp[0] ? ")" : "");
  else
    host->loaded = 1;
  graph_file_done(temp);
  return st;
}

prism_status matrix_build(const matrix_spec *spec, prism_type type,
                          uint64_t seed, matrix_host *host, char *msg,
                          size_t msg_size) {
  prism_status st = PRISM_OK;
  if (spec->kind == MATRIX_FILE) {
    matrix_free(host);
    st = load(spec->path, type, host, msg, msg_size);
  } else {
    if (!host->m.csr.row_offsets)
      st = build_structure(spec, seed, host, msg, msg_size);
    if (st == PRISM_OK)
      st = build_values(spec, type, seed, host, msg, msg_size);
  }
  if (st != PRISM_OK)
    matrix_free(host);
  return st;
}
