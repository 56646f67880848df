/* SPDX-License-Identifier: MIT */
/*
 * The bfs row's statistics: each search's time and TEPS, and the row they
 * make (the median time and TEPS, and Graph500's harmonic mean of the
 * TEPS).
 */
#ifndef PRISM_BENCH_BFS_STATS_H
#define PRISM_BENCH_BFS_STATS_H

#include "report.h"

#include <stddef.h>

/* One row's searches: each one's time and TEPS. */
typedef struct bfs_searches {
  double *seconds, *teps;
  int count;
} bfs_searches;

/* Room for capacity searches; 0 when out of memory (free it anyway). */
int bfs_searches_init(bfs_searches *s, int capacity);
void bfs_searches_free(bfs_searches *s);

/* One search of seconds that traversed edges (graph500_search_edges). */
void bfs_searches_add(bfs_searches *s, double seconds, size_t edges);

/* The median TEPS (sorts the TEPS; count > 0). */
double bfs_searches_median_teps(bfs_searches *s);

/* Fill row's time and TEPS from the searches (sorts them). The median is
 * the headline, robust to a slow outlier on a shared machine; Graph500
 * reports the harmonic mean of the TEPS, which goes beside it. The spread
 * of the times is the searches' (they start from different vertices). */
void bfs_searches_row(bfs_searches *s, report_row *row);

#endif /* PRISM_BENCH_BFS_STATS_H */
