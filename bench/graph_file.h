/* SPDX-License-Identifier: MIT */
/*
 * --graph files: checked when the options are read (a path that cannot be
 * read fails before any device work), and gzip-compressed ones (as SNAP
 * and SuiteSparse ship them; told by the magic bytes, not the name)
 * decompressed into a temporary file for prism_csr_load, which reads paths
 * only. Without zlib at build time a compressed file is refused, saying so.
 */
#ifndef PRISM_BENCH_GRAPH_FILE_H
#define PRISM_BENCH_GRAPH_FILE_H

#include <stddef.h>

#define GRAPH_FILE_TEMP_SIZE 4096

/* Whether path names a regular file that can be read and loaded; 0 with
 * the reason (naming the path) in msg otherwise. */
int graph_file_check(const char *path, char *msg, size_t msg_size);

/* The file to load for path: path itself, or a decompressed copy whose
 * name goes to temp (else temp is ""). Returns 1, or 0 with the reason in
 * msg. Pass temp to graph_file_done afterwards. */
int graph_file_prepare(const char *path, char temp[GRAPH_FILE_TEMP_SIZE],
                       char *msg, size_t msg_size);

/* Remove the decompressed copy, if any. */
void graph_file_done(char temp[GRAPH_FILE_TEMP_SIZE]);

#endif /* PRISM_BENCH_GRAPH_FILE_H */
