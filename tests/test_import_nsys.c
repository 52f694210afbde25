/* test_import_nsys.c: Nsight Systems SQLite exports imported as schedules.
 *
 * Nsight Systems is not installed here: the databases below are built with
 * SQLite from the tables and columns of NVIDIA's SQLite export schema
 * reference (the exporter's documentation; sim/import/import_nsys.h lists
 * what is read), in two versions: the ENUM tables with both a name and a
 * label, numbered as recent exporters number them, and with a name only,
 * numbered otherwise, which must give the same schedule since kinds are
 * read from the names. The programs are test_import_kineto.c's, so the
 * expected schedules, worked out by hand there, are the same; times are
 * in ns. Converted on tests/profiles/ops.ini with host gaps under 2 us
 * added up and calls charged the profile's costs (untraced_calls), as
 * there. */
#include <string.h>
#include <sqlite3.h>
#include "sim/formats/profile_file.h"
#include "sim/import/import_file.h"
#include "sim/import/import_schedule.h"
#include "support/cli_run.h"
#include "support/import_programs.h"
#include "support/schedule_text.h"
#include "support/temp_dir.h"

static GpuProfile ops;

/* The tables every report with a CUDA trace has, as the exporter makes them. */
static const char schema[] =
  "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);\n"
  "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, "
  "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, "
  "returnValue INTEGER NOT NULL, callchainId INTEGER);\n"
  "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, "
  "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
  "correlationId INTEGER, globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER "
  "NOT NULL, mangledName INTEGER, launchType INTEGER, cacheConfig INTEGER, registersPerThread "
  "INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, "
  "blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory "
  "INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL, localMemoryPerThread INTEGER, "
  "localMemoryTotal INTEGER, gridId INTEGER, sharedMemoryExecuted INTEGER, graphNodeId INTEGER);\n"
  "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, "
  "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
  "correlationId INTEGER, globalPid INTEGER, bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, "
  "deprecatedSrcId INTEGER, srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, "
  "srcContextId INTEGER, dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, "
  "graphNodeId INTEGER);\n"
  "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT "
  "NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
  "correlationId INTEGER, globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);\n"
  "CREATE TABLE CUPTI_ACTIVITY_KIND_DRIVER (start INTEGER NOT NULL, end INTEGER NOT NULL, "
  "eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, "
  "returnValue INTEGER NOT NULL, callchainId INTEGER);\n"
  "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, "
  "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
  "correlationId INTEGER, globalPid INTEGER, value INTEGER NOT NULL, bytes INTEGER NOT NULL, "
  "graphNodeId INTEGER, memKind INTEGER);\n"
  "CREATE TABLE CUPTI_ACTIVITY_KIND_CUDA_EVENT (start INTEGER NOT NULL, end INTEGER NOT NULL, "
  "deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, "
  "correlationId INTEGER, globalPid INTEGER, eventId INTEGER NOT NULL);\n"
  "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, "
  "rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, "
  "endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER, "
  "int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER, "
  "floatValue REAL, jsonTextId INTEGER, jsonText TEXT);\n";

/* ENUM tables as recent exporters write them: id, name and label. */
static const char enums_labelled[] =
  "CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
  "label TEXT NOT NULL);\n"
  "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (0, 'CUDA_MEMCPY_OPER_UNKNOWN', 'Unknown'), "
  "(1, 'CUDA_MEMCPY_OPER_HTOD', 'Host-to-Device'), (2, 'CUDA_MEMCPY_OPER_DTOH', "
  "'Device-to-Host'), (8, 'CUDA_MEMCPY_OPER_DTOD', 'Device-to-Device'), "
  "(10, 'CUDA_MEMCPY_OPER_PTOP', 'Peer-to-Peer');\n"
  "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
  "label TEXT NOT NULL);\n"
  "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_UNKNOWN', 'Unknown'), "
  "(1, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'), (2, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', "
  "'Pinned'), (3, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');\n"
  "CREATE TABLE ENUM_CUPTI_SYNC_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL, "
  "label TEXT NOT NULL);\n"
  "INSERT INTO ENUM_CUPTI_SYNC_TYPE VALUES (0, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN', "
  "'Unknown'), (1, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE', 'Event sync'), "
  "(2, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT', 'Stream wait event'), "
  "(3, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE', 'Stream sync'), "
  "(4, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE', 'Context sync');\n";

/* The same kinds under other numbers, named only: an exporter whose ids
 * differ. The rows below use ids through these macros. */
static const char enums_named[] =
  "CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL);\n"
  "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (20, 'CUDA_MEMCPY_OPER_DTOH'), "
  "(21, 'CUDA_MEMCPY_OPER_HTOD'), (22, 'CUDA_MEMCPY_OPER_DTOD'), (23, 'CUDA_MEMCPY_OPER_PTOP');\n"
  "CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL);\n"
  "INSERT INTO ENUM_CUDA_MEM_KIND VALUES (30, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE'), "
  "(31, 'CUDA_MEMOPR_MEMORY_KIND_PINNED'), (32, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE');\n"
  "CREATE TABLE ENUM_CUPTI_SYNC_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT NOT NULL);\n"
  "INSERT INTO ENUM_CUPTI_SYNC_TYPE VALUES (40, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_"
  "SYNCHRONIZE'), (41, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT'), "
  "(42, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE');\n";

/* test_import_kineto.c's one-stream program, in ns. Strings: 1
 * cudaMemcpyAsync_v3020, 2 cudaLaunchKernel_v7000, 3
 * cudaStreamSynchronize_v3020, 4 cudaDeviceSynchronize_v3020, 5 the
 * kernel's demangled name, 6 its short name, 7 the region's name. HTOD
 * and DTOH, PINNED and DEVICE are the ENUM ids of each version. */
static char *
one_stream (gboolean labelled)
{
  int htod = labelled ? 1 : 21, dtoh = labelled ? 2 : 20;
  int pinned = labelled ? 2 : 31, device = labelled ? 3 : 30;
  return g_strdup_printf (
    "%s%s"
    "INSERT INTO StringIds VALUES (1, 'cudaMemcpyAsync_v3020'), (2, 'cudaLaunchKernel_v7000'), "
    "(3, 'cudaStreamSynchronize_v3020'), (4, 'cudaDeviceSynchronize_v3020'), "
    "(5, 'void scale<float>(float*, int)'), (6, 'scale'), (7, 'streamsim_region');\n"
    "INSERT INTO NVTX_EVENTS (start, end, eventType, textId, globalTid) VALUES "
    "(1000000, 1200000, 59, 7, 77);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue) VALUES (990000, 991000, 0, 77, 1, 1, 0), (1010000, 1011000, 0, 77, 2, "
    "1, 0), (1012000, 1013000, 0, 77, 3, 2, 0), (1014000, 1015000, 0, 77, 4, 2, 0), (1016000, "
    "1017000, 0, 77, 5, 1, 0), (1018000, 1157000, 0, 77, 6, 3, 0), (1160000, 1161000, 0, 77, 7, "
    "4, 0);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, "
    "correlationId, bytes, copyKind, srcKind, dstKind) VALUES (991000, 992000, 0, 1, 7, 1, 64, "
    "%d, %d, %d), (1012000, 1112000, 0, 1, 7, 2, 4194304, %d, %d, %d), (1155000, 1156000, 0, 1, "
    "7, 5, 1024, %d, %d, %d);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
    "correlationId, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, "
    "blockY, blockZ, staticSharedMemory, dynamicSharedMemory) VALUES (1113000, 1133000, 0, 1, 7, "
    "3, 5, 6, 32, 4, 1, 1, 256, 1, 1, 0, 0), (1134000, 1154000, 0, 1, 7, 4, 5, 6, 32, 2, 2, 1, "
    "128, 2, 1, 0, 0);\n",
    schema, labelled ? enums_labelled : enums_named, htod, pinned, device, htod, pinned, device,
    dtoh, device, pinned);
}

/* A database made from `sql` in `dir`; its path. */
static char *
database (const char *dir, const char *name, const char *sql)
{
  char *path = g_build_filename (dir, name, NULL);
  sqlite3 *db = NULL;
  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  char *why = NULL;
  if (sqlite3_exec (db, sql, NULL, NULL, &why) != SQLITE_OK)
    g_error ("%s", why);
  sqlite3_close (db);
  return path;
}

static RecordSchedule *
import_path (const char *path, const char *region, ImportCounts *counts, GError **error)
{
  g_autoptr (ImportTrace) trace = import_file_read (path, error);
  if (trace == NULL)
    return NULL;
  ImportScheduleOptions options = { .region = region, .min_host_ns = 2000, .profile = &ops,
                                    .untraced_calls = TRUE };
  return import_schedule_build (trace, &options, counts, error);
}

/* test_import_kineto.c's one-stream schedule; the second kernel's grid
 * and block (4 and 256 threads) are given as 2 x 2 and 128 x 2, which
 * multiply to the same. */
static void
test_one_stream (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-nsys");
  for (int labelled = 0; labelled < 2; labelled++)
    {
      g_autofree char *sql = one_stream (labelled);
      g_autofree char *path = database (dir, labelled ? "labelled.sqlite" : "named.sqlite", sql);
      g_autoptr (GError) error = NULL;
      ImportCounts counts = { 0 };
      g_autoptr (RecordSchedule) rec = import_path (path, NULL, &counts, &error);
      g_assert_no_error (error);
      g_autofree char *got = schedule_text_statements (rec->text);
      g_assert_cmpstr (got, ==, import_program_one_stream);
      g_assert_nonnull (strstr (rec->text, "(Nsight Systems SQLite export).\n"));
      g_assert_cmpuint (counts.n_outside, ==, 1);
      import_counts_clear (&counts);
    }
  temp_dir_remove (dir);
}

/* test_syncs' program: its calls, kernels and synchronization records,
 * then `more` rows. */
static char *
syncs_program (const char *more)
{
  return g_strdup_printf (
    "%s%s"
    "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaEventRecord_v3020'), "
    "(3, 'cudaStreamWaitEvent_v3020'), (4, 'cudaEventSynchronize_v3020'), (5, 'void a()'), "
    "(6, 'a'), (7, 'void b()'), (8, 'b');\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue) VALUES (100000, 101000, 0, 77, 1, 1, 0), (103000, 104000, 0, 77, 2, 2, "
    "0), (105000, 106000, 0, 77, 3, 3, 0), (107000, 108000, 0, 77, 4, 1, 0), (109000, 110000, 0, "
    "77, 5, 2, 0), (111000, 304000, 0, 77, 6, 4, 0);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
    "correlationId, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, "
    "blockY, blockZ, staticSharedMemory, dynamicSharedMemory) VALUES (102000, 202000, 0, 1, 7, "
    "1, 5, 6, 32, 4, 1, 1, 256, 1, 1, 0, 0), (203000, 303000, 0, 1, 13, 4, 7, 8, 32, 4, 1, 1, "
    "256, 1, 1, 0, 0);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start, end, deviceId, contextId, streamId, "
    "correlationId, syncType, eventId) VALUES (105000, 106000, 0, 1, 13, 3, 2, 5), (111000, "
    "304000, 0, 1, 4294967295, 6, 1, 6);\n%s",
    schema, enums_labelled, more);
}

/* test_import_kineto.c's two streams with an event, with the exporter's
 * synchronization records: the wait names its stream (13) and its event
 * (id 5), the event sync its event (id 6), the stream of its records
 * neither. Without a CUDA_EVENT table the records' streams are inferred
 * (2), and the wait's and the event sync's events too (2: no record is
 * known to have recorded ids 5 and 6), as there. With the exporter's
 * CUDA_EVENT records (corr 2 of event 5 in stream 7, corr 5 of event 6 in
 * stream 13), the records' streams come from them and the events from the
 * records of those ids before them: nothing is inferred. The schedule is
 * the same either way. */
static void
test_syncs (void)
{
  const struct
  {
    const char *more;
    guint streams_inferred, events_inferred;
  } cases[] = {
    { "", 2, 2 },
    { "INSERT INTO CUPTI_ACTIVITY_KIND_CUDA_EVENT (start, end, deviceId, contextId, streamId, "
      "correlationId, eventId) VALUES (103000, 103000, 0, 1, 7, 2, 5), (109000, 109000, 0, 1, "
      "13, 5, 6);\n", 0, 0 },
  };
  g_autofree char *dir = temp_dir_new ("streamsim-nsys");
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *sql = syncs_program (cases[i].more);
      g_autofree char *name = g_strdup_printf ("syncs%u.sqlite", i);
      g_autofree char *path = database (dir, name, sql);
      g_autoptr (GError) error = NULL;
      ImportCounts counts = { 0 };
      g_autoptr (RecordSchedule) rec = import_path (path, NULL, &counts, &error);
      g_assert_no_error (error);
      g_autofree char *got = schedule_text_statements (rec->text);
      g_assert_cmpstr (got, ==, import_program_events);
      g_assert_cmpuint (counts.n_stream_inferred, ==, cases[i].streams_inferred);
      g_assert_cmpuint (counts.n_event_inferred, ==, cases[i].events_inferred);
      import_counts_clear (&counts);
    }
  temp_dir_remove (dir);
}

/* test_import_kineto.c's calls (a launch made inside a runtime call, a
 * driver launch of its own, a peer copy, a memset, a blocking copy, a
 * launch without a kernel), the driver calls in CUPTI_ACTIVITY_KIND_DRIVER
 * and the memset in _MEMSET, inside an NVTX range "step" (text, not
 * textId) from 90 us, so 10 us of host time come first; after that the
 * schedule is the Kineto test's, worked out by hand there. */
static void
test_calls (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-nsys");
  g_autofree char *sql = g_strdup_printf (
    "%s%s"
    "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cuLaunchKernel'), "
    "(3, 'cudaMemcpyAsync_v3020'), (4, 'cudaMemsetAsync_v3020'), (5, 'cudaMemcpy_v3020'), "
    "(6, 'void c()'), (7, 'c'), (8, 'void d()'), (9, 'd');\n"
    "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid) VALUES "
    "(90000, 200000, 59, 'step', 77);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue) VALUES (100000, 101000, 0, 77, 1, 1, 0), (104000, 105000, 0, 77, 3, 3, "
    "0), (106000, 107000, 0, 77, 4, 4, 0), (108000, 109000, 0, 77, 5, 5, 0), (110000, 111000, 0, "
    "77, 6, 1, 0), (112000, 113000, 0, 77, 7, 1, 0);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_DRIVER (start, end, eventClass, globalTid, correlationId, "
    "nameId, returnValue) VALUES (100200, 100800, 0, 77, 50, 2, 0), (102000, 103000, 0, 77, 2, 2, "
    "0);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, "
    "correlationId, demangledName, shortName, registersPerThread, gridX, gridY, gridZ, blockX, "
    "blockY, blockZ, staticSharedMemory, dynamicSharedMemory) VALUES (111000, 121000, 0, 1, 7, "
    "50, 6, 7, 32, 4, 1, 1, 256, 1, 1, 0, 0), (122000, 132000, 0, 1, 7, 2, 8, 9, 32, 4, 1, 1, "
    "256, 1, 1, 0, 0), (140000, 150000, 0, 1, 7, 7, 6, 7, 32, 4, 1, 1, 256, 1, 1, 0, 0);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, "
    "correlationId, bytes, copyKind, srcKind, dstKind) VALUES (133000, 134000, 0, 1, 7, 3, 100, "
    "10, 3, 3), (137000, 138000, 0, 1, 7, 5, 256, 8, 3, 3);\n"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, "
    "correlationId, value, bytes, memKind) VALUES (135000, 136000, 0, 1, 7, 4, 0, 64, 3);\n",
    schema, enums_labelled);
  g_autofree char *path = database (dir, "calls.sqlite", sql);
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_path (path, "step", &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_autofree char *expected = g_strconcat ("host 10.000us\n", import_program_calls, NULL);
  g_assert_cmpstr (got, ==, expected);
  g_assert_nonnull (strstr (rec->text, "# not modelled: cudaMemcpyAsync (PtoP copy) (its GPU "
                                       "work is missing from predictions), 1.000us on the GPU"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 1);
  g_assert_cmpuint (counts.n_calls, ==, 8);
  g_assert_cmpuint (counts.n_linked, ==, 1);
  g_assert_cmpuint (counts.n_no_work, ==, 1);
  g_assert_cmpint (counts.legacy, ==, 7);
  import_counts_clear (&counts);
  temp_dir_remove (dir);
}

/* Malformed databases: each an error naming the file, and the table and
 * row at fault where there is one. The base is the one-stream program;
 * each case changes it with a statement. */
static void
test_errors (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-nsys");
  g_autofree char *base = one_stream (TRUE);
  const struct
  {
    const char *change;
    const char *message;
  } cases[] = {
    { "DROP TABLE CUPTI_ACTIVITY_KIND_RUNTIME;",
      ": no table CUPTI_ACTIVITY_KIND_RUNTIME: the report has no CUDA API trace" },
    { "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = NULL WHERE start = 1012000;",
      ": table CUPTI_ACTIVITY_KIND_RUNTIME row 3: correlationId is NULL" },
    { "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET nameId = 99 WHERE correlationId = 4;",
      ": table CUPTI_ACTIVITY_KIND_RUNTIME row 4: nameId is 99, which table StringIds does not "
      "have" },
    { "UPDATE CUPTI_ACTIVITY_KIND_MEMCPY SET copyKind = 99 WHERE correlationId = 2;",
      ": table CUPTI_ACTIVITY_KIND_MEMCPY row 2: copyKind is 99, which table "
      "ENUM_CUDA_MEMCPY_OPER does not have" },
    { "DROP TABLE ENUM_CUDA_MEMCPY_OPER;",
      ": no table ENUM_CUDA_MEMCPY_OPER, which names the kinds of what the report holds" },
    { "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL DROP COLUMN gridY;",
      ": table CUPTI_ACTIVITY_KIND_KERNEL has no column gridY" },
    { "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 1 WHERE correlationId = 3;",
      ": table CUPTI_ACTIVITY_KIND_KERNEL row 1: it ends (1) before it starts (1113000)" },
    { "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET blockX = 'x' WHERE correlationId = 4;",
      ": table CUPTI_ACTIVITY_KIND_KERNEL row 2: blockX is not a whole number" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("bad%u.sqlite", i);
      g_autofree char *sql = g_strconcat (base, cases[i].change, NULL);
      g_autofree char *path = database (dir, name, sql);
      g_autoptr (GError) error = NULL;
      ImportCounts counts = { 0 };
      g_autoptr (RecordSchedule) rec = import_path (path, NULL, &counts, &error);
      g_assert_null (rec);
      g_assert_error (error, IMPORT_ERROR, IMPORT_ERROR_PARSE);
      g_autofree char *expected = g_strconcat (path, cases[i].message, NULL);
      if (!g_str_has_prefix (error->message, expected))
        g_error ("case %u: %s", i, error->message);
      import_counts_clear (&counts);
    }
  temp_dir_remove (dir);
}

/* The command line on a bad database: exit 2 with the table and row, and
 * the schedule already at -o left as it was (outputs are renamed into
 * place only when whole); a good one writes it. */
static void
test_cli (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-nsys");
  g_autofree char *base = one_stream (TRUE);
  g_autofree char *bad_sql = g_strconcat (base, "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET blockX = "
                                          "'x' WHERE correlationId = 4;", NULL);
  g_free (database (dir, "bad.sqlite", bad_sql));
  g_free (database (dir, "good.sqlite", base));
  temp_dir_write (dir, "app.sched", "stream s\n");
  const char *args[] = { "import", "bad.sqlite", "-o", "app.sched", NULL };
  g_autofree char *err = NULL;
  g_assert_cmpint (cli_run (dir, args, NULL, NULL, &err), ==, 2);
  g_assert_cmpstr (err, ==, "streamsim: bad.sqlite: table CUPTI_ACTIVITY_KIND_KERNEL row 2: "
                            "blockX is not a whole number\n");
  g_autofree char *app = g_build_filename (dir, "app.sched", NULL);
  g_autofree char *kept = NULL;
  g_assert_true (g_file_get_contents (app, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "stream s\n");

  const char *ok[] = { "import", "good.sqlite", "-o", "app.sched", "-q", NULL };
  g_assert_cmpint (cli_run (dir, ok, NULL, NULL, NULL), ==, 0);
  g_autofree char *written = NULL;
  g_assert_true (g_file_get_contents (app, &written, NULL, NULL));
  g_assert_nonnull (strstr (written, "\nh2d s1 4MiB   # cudaMemcpyAsync, 100.000us on the GPU\n"));
  temp_dir_remove (dir);
}

/* Damaged files: the header of a database with garbage after it, and a
 * database cut in half: errors naming the file, never a crash. */
static void
test_corrupt (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-nsys");
  g_autofree char *sql = one_stream (TRUE);
  g_autofree char *path = database (dir, "whole.sqlite", sql);
  g_autofree char *bytes = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (path, &bytes, &length, NULL));
  g_assert_cmpuint (length, >, 8192);

  guint8 garbage[4096];
  memcpy (garbage, "SQLite format 3", 16);
  for (gsize i = 16; i < sizeof garbage; i++)
    garbage[i] = (guint8) (i * 7);
  const struct
  {
    const guint8 *data;
    gsize length;
  } cases[] = { { garbage, sizeof garbage }, { (const guint8 *) bytes, length / 2 } };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ImportTrace) trace = import_file_parse ("d.sqlite", cases[i].data,
                                                         cases[i].length, &error);
      g_assert_null (trace);
      g_assert_error (error, IMPORT_ERROR, IMPORT_ERROR_PARSE);
      g_assert_true (g_str_has_prefix (error->message, "d.sqlite: "));
    }
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GError) error = NULL;
  if (!profile_load ("ops", &ops, &error))
    g_error ("%s", error->message);
  g_test_add_func ("/import/nsys/one-stream", test_one_stream);
  g_test_add_func ("/import/nsys/syncs", test_syncs);
  g_test_add_func ("/import/nsys/calls", test_calls);
  g_test_add_func ("/import/nsys/errors", test_errors);
  g_test_add_func ("/import/nsys/cli", test_cli);
  g_test_add_func ("/import/nsys/corrupt", test_corrupt);
  int status = g_test_run ();
  gpu_profile_clear (&ops);
  return status;
}
