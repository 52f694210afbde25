/* record_graph.h: a graph launch's nodes, from the GPU work CUPTI reported for a cudaGraphLaunch.
 *
 * A graph launch's kernels, memsets and copies are CUPTI records of the
 * launch call's correlation. A launch is written as a `graph STREAM` ...
 * `end` block (sim/formats/LANGUAGE.md, Graphs) when each record is a
 * kernel, a memset of device memory (or of memory CUPTI does not name: a
 * graph's memset nodes set device memory), or a copy from host to device,
 * device to host or device to device; nodes that ran side by side are
 * written as branches (record_branches.h). Otherwise it stays a
 * `# not modelled` comment that says why. */
#ifndef RECORD_GRAPH_H
#define RECORD_GRAPH_H

#include <glib.h>
#include "record_log.h"

/* Sorts `nodes` (const RecordWork *, one launch's records) by start, then
 * end; NULL when `graph` can write them, else why not (a static string,
 * for the comment). */
const char *record_graph_nodes (GPtrArray *nodes);

#endif /* RECORD_GRAPH_H */
