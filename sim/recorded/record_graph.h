/* record_graph.h: a graph launch's nodes, from the GPU work CUPTI reported for a cudaGraphLaunch.
 *
 * A graph launch's kernels, memsets and copies are CUPTI records of the
 * launch call's correlation. The language's `graph STREAM` ... `end` is a
 * chain of nodes in the launch's stream (sim/formats/LANGUAGE.md, Graphs),
 * so a launch is written as one when its records, in the order they
 * started, each start once the one before has ended, and each is a kernel,
 * a memset of device memory (or of memory CUPTI does not name: a graph's
 * memset nodes set device memory), or a copy from host to device, device
 * to host or device to device. Otherwise it stays a `# not modelled` comment that
 * says why: nodes that ran side by side are a graph's branches, which the
 * language cannot say. */
#ifndef RECORD_GRAPH_H
#define RECORD_GRAPH_H

#include <glib.h>
#include "record_log.h"

/* Sorts `nodes` (const RecordWork *, one launch's records) by start, then
 * end; NULL when they form a chain `graph` can write, else why not (a
 * static string, for the comment). */
const char *record_graph_chain (GPtrArray *nodes);

#endif /* RECORD_GRAPH_H */
