/* test_import_kineto.c: PyTorch profiler (Kineto) Chrome JSON traces imported as schedules.
 *
 * The traces below are written by hand in the form libkineto's
 * ChromeTraceLogger writes (libkineto/src/output_json.cpp): complete events
 * with "cat", "name", "ts" and "dur" in microseconds, "tid", and "args".
 * Every expected statement, time and count is worked out by hand from them
 * in the comments, on tests/profiles/ops.ini (two SMs of two blocks each,
 * kernel_load 0.3 ms) with host gaps under 2 us added up, and with calls
 * charged the profile's costs (untraced_calls) but in test_traced_calls. */
#include <string.h>
#include <gio/gio.h>
#include "sim/formats/profile_file.h"
#include "sim/import/import_file.h"
#include "sim/import/import_kineto.h"
#include "sim/import/import_schedule.h"
#include "support/import_programs.h"
#include "support/schedule_text.h"

/* A trace's events, one a line, inside the object Kineto writes. */
#define TRACE(events) "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n" events "\n  ]\n}\n"

#define CALL(cat, name, ts, dur, corr)                                                          \
  "  {\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 9, \"tid\": 11, "  \
  "\"ts\": " ts ", \"dur\": " dur ", \"args\": {\"cbid\": 1, \"correlation\": " corr "}}"

#define KERNEL(name, ts, dur, stream, corr)                                                     \
  "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" name "\", \"pid\": 0, \"tid\": " stream \
  ", \"ts\": " ts ", \"dur\": " dur ", \"args\": {\"stream\": " stream ", \"correlation\": "    \
  corr ", \"registers per thread\": 32, \"shared memory\": 0, \"grid\": [4, 1, 1], "           \
  "\"block\": [256, 1, 1]}}"

#define COPY(name, ts, dur, stream, corr, bytes)                                                \
  "  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"" name "\", \"pid\": 0, \"tid\": "    \
  stream ", \"ts\": " ts ", \"dur\": " dur ", \"args\": {\"stream\": " stream                  \
  ", \"correlation\": " corr ", \"bytes\": " bytes "}}"

/* record_function ("streamsim_region") from 1000 to 1200 us. */
#define REGION_1000_200                                                                         \
  "  {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"streamsim_region\", \"pid\": 9, "  \
  "\"tid\": 11, \"ts\": 1000.000, \"dur\": 200.000, \"args\": {\"External id\": 1}}"

static GpuProfile ops;

static RecordSchedule *
import_with (const char *text, const ImportScheduleOptions *options, ImportCounts *counts,
             GError **error)
{
  g_autoptr (ImportTrace) trace = import_file_parse ("t.json", (const guint8 *) text,
                                                     strlen (text), error);
  if (trace == NULL)
    return NULL;
  return import_schedule_build (trace, options, counts, error);
}

static RecordSchedule *
import_text (const char *text, const char *region, ImportCounts *counts, GError **error)
{
  ImportScheduleOptions options = { .region = region, .min_host_ns = 2000, .profile = &ops,
                                    .untraced_calls = TRUE };
  return import_with (text, &options, counts, error);
}

/* One stream, inside a region: an H2D of 4 MiB, two launches of one
 * kernel, a D2H of 1 KiB, a stream synchronize and a device synchronize,
 * and a copy before the region. Calls (us; each 1 us but the syncs):
 *   cudaMemcpyAsync        990   corr 1   before the region: left out
 *   cudaMemcpyAsync        1010  corr 2   GPU 1012-1112, stream 7
 *   cudaLaunchKernel       1012  corr 3   GPU 1113-1133
 *   cudaLaunchKernel       1014  corr 4   GPU 1134-1154
 *   cudaMemcpyAsync        1016  corr 5   GPU 1155-1156
 *   cudaStreamSynchronize  1018-1157      corr 6 (no cuda_sync event)
 *   cudaDeviceSynchronize  1160-1161      corr 7
 * The region runs 1000-1200: time 0 is 1000, so 10 us of host time come
 * before the H2D. The gaps of 1 us add up to 2 us before the second
 * launch and before the sync, where the host waits for the GPU; the sync
 * returns at 1157, 3 us before the device sync. The launches are not
 * first loads: each took 1 us, the usual time of cudaLaunchKernel, less
 * than that plus kernel_load. The stream sync's stream is inferred: the
 * only stream whose work ended while it waited (at 1156). The kernel's
 * name is demangled: its label is the function's. */
static const char one_stream[] = TRACE (
  REGION_1000_200 ",\n"
  CALL ("cuda_runtime", "cudaMemcpyAsync", "990.000", "1.000", "1") ",\n"
  COPY ("Memcpy HtoD (Pinned -> Device)", "991.000", "1.000", "7", "1", "64") ",\n"
  CALL ("cuda_runtime", "cudaMemcpyAsync", "1010.000", "1.000", "2") ",\n"
  COPY ("Memcpy HtoD (Pinned -> Device)", "1012.000", "100.000", "7", "2", "4194304") ",\n"
  CALL ("cuda_runtime", "cudaLaunchKernel", "1012.000", "1.000", "3") ",\n"
  KERNEL ("void scale<float>(float*, int)", "1113.000", "20.000", "7", "3") ",\n"
  CALL ("cuda_runtime", "cudaLaunchKernel", "1014.000", "1.000", "4") ",\n"
  KERNEL ("void scale<float>(float*, int)", "1134.000", "20.000", "7", "4") ",\n"
  CALL ("cuda_runtime", "cudaMemcpyAsync", "1016.000", "1.000", "5") ",\n"
  COPY ("Memcpy DtoH (Device -> Pinned)", "1155.000", "1.000", "7", "5", "1024") ",\n"
  CALL ("cuda_runtime", "cudaStreamSynchronize", "1018.000", "139.000", "6") ",\n"
  CALL ("cuda_runtime", "cudaDeviceSynchronize", "1160.000", "1.000", "7") ",\n"
  "  {\"ph\": \"i\", \"s\": \"g\", \"name\": \"Record Window End\", \"pid\": \"\", \"tid\": \"\", "
  "\"ts\": 1300.000}");

static void
test_one_stream (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (one_stream, NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, import_program_one_stream);
  g_assert_cmpuint (counts.n_calls, ==, 7);
  g_assert_cmpuint (counts.n_outside, ==, 1);
  g_assert_cmpuint (counts.n_stream_inferred, ==, 1);
  g_assert_cmpuint (counts.n_event_inferred, ==, 0);
  g_assert_nonnull (strstr (rec->text, "# Region streamsim_region (200 us): the 6 calls that "
                                       "began in it, 1 others left out; time 0 is its start.\n"));
  g_assert_nonnull (strstr (rec->text, "# Streams are the trace's: s1 is stream 7;"));
  /* times from the region's start: the H2D issued at 10 us, run 12-112 */
  g_assert_cmpint (rec->issue[1], ==, 10000);
  g_assert_cmpint (rec->start[1], ==, 12000);
  g_assert_cmpint (rec->end[1], ==, 112000);
  import_counts_clear (&counts);
}

/* Queries stay host time in an imported trace: a trace does not say which
 * stream or event a cudaStreamQuery asked of, so two queries at 1020 and
 * 1140 us, around the kernel's run 1013-1133 in stream 7, are not read as a
 * loop that waited for it (as a recording's would be, record_polls.c), nor
 * as one of the legacy default stream, which waits for stream 7. */
static const char queries[] = TRACE (
  CALL ("cuda_runtime", "cudaLaunchKernel", "1010.000", "1.000", "1") ",\n"
  KERNEL ("void scale<float>(float*, int)", "1013.000", "120.000", "7", "1") ",\n"
  CALL ("cuda_runtime", "cudaStreamQuery", "1020.000", "1.000", "2") ",\n"
  CALL ("cuda_runtime", "cudaStreamQuery", "1140.000", "1.000", "3") ",\n"
  CALL ("cuda_runtime", "cudaDeviceSynchronize", "1150.000", "1.000", "4"));

static void
test_queries (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (queries, NULL, &counts, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rec->n_polls, ==, 0);
  g_assert_null (strstr (rec->text, "poll"));
  /* the host time from the launch's return to the device synchronize */
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_nonnull (strstr (got, "host 139.000us\nsync device\n"));
  import_counts_clear (&counts);
}

/* The same trace gzipped, under the same name: the format is read from
 * the content, so the schedule is the same. */
static void
test_gzip (void)
{
  g_autoptr (GConverter) z = G_CONVERTER (g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 9));
  guint8 packed[4096];
  gsize read = 0, written = 0;
  g_assert_cmpint (g_converter_convert (z, one_stream, strlen (one_stream), packed, sizeof packed,
                                        G_CONVERTER_INPUT_AT_END, &read, &written, NULL),
                   ==, G_CONVERTER_FINISHED);
  g_autoptr (GError) error = NULL;
  g_autoptr (ImportTrace) trace = import_file_parse ("t.json", packed, written, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (trace->calls->len, ==, 7);
  g_assert_cmpuint (trace->works->len, ==, 5);
  /* cut short, it is bad input at a byte of the compressed data */
  g_clear_pointer (&trace, import_trace_free);
  trace = import_file_parse ("t.json.gz", packed, written / 2, &error);
  g_assert_null (trace);
  g_assert_error (error, IMPORT_ERROR, IMPORT_ERROR_PARSE);
  g_assert_true (g_str_has_prefix (error->message, "t.json.gz: at byte "));
  g_assert_nonnull (strstr (error->message, "of the gzip data: the compressed data ends early"));
}

/* Two streams, an event recorded in one and waited for in the other, an
 * event synchronize. Calls (us), each 1 us but the sync:
 *   cudaLaunchKernel      100  corr 1   kernel a on stream 7, GPU 102-202
 *   cudaEventRecord       103  corr 2
 *   cudaStreamWaitEvent   105  corr 3
 *   cudaLaunchKernel      107  corr 4   kernel b on stream 13, GPU 203-303
 *   cudaEventRecord       109  corr 5
 *   cudaEventSynchronize  111-304       corr 6
 * Without cuda_sync events (import_infer.h): the record at 103 is in
 * stream 7, where its thread issued last, and completes when kernel a
 * ends (202); the wait is in stream 13, where its thread issues next, and
 * waits for the record on another stream that completed last by the time
 * kernel b started (203): that one. The record at 109 is in stream 13 and
 * completes at 303; the event sync waits for the record that completed
 * last while it waited (111-304): that one (the first completed at 202,
 * earlier). So 3 streams and 2 events inferred. Gaps: 2 us after the first
 * launch, 1 + 1 before kernel b, 1 + 1 before the sync. */
#define TWO_STREAMS_EVENTS                                                         \
  CALL ("cuda_runtime", "cudaLaunchKernel", "100", "1", "1") ",\n"                  \
  KERNEL ("void a()", "102", "100", "7", "1") ",\n"                                 \
  CALL ("cuda_runtime", "cudaEventRecord", "103", "1", "2") ",\n"                   \
  CALL ("cuda_runtime", "cudaStreamWaitEvent", "105", "1", "3") ",\n"               \
  CALL ("cuda_runtime", "cudaLaunchKernel", "107", "1", "4") ",\n"                  \
  KERNEL ("void b()", "203", "100", "13", "4") ",\n"                                \
  CALL ("cuda_runtime", "cudaEventRecord", "109", "1", "5") ",\n"                   \
  CALL ("cuda_runtime", "cudaEventSynchronize", "111", "193", "6")

static void
test_events_inferred (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (TRACE (TWO_STREAMS_EVENTS), NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, import_program_events);
  g_assert_cmpuint (counts.n_stream_inferred, ==, 3);
  g_assert_cmpuint (counts.n_event_inferred, ==, 2);
  g_assert_nonnull (strstr (rec->text, "# Inferred (the trace does not say them;"));
  import_counts_clear (&counts);
}

/* The same program traced with cuda_sync and cuda_event events (record 2
 * of event 5 in stream 7, record 5 of event 6 in stream 13; the wait and
 * the event sync name them): nothing is inferred, the schedule is the
 * same. Then a cuda_event that puts record 5 in stream 7, which the
 * inference would not: the trace wins. */
#define SYNC_EVENTS                                                                          \
  ",\n  {\"ph\": \"X\", \"cat\": \"cuda_event\", \"name\": \"cudaEvent\", \"pid\": 0, "      \
  "\"tid\": 7, \"ts\": 103, \"dur\": 1, \"args\": {\"event_id\": 5, \"stream\": 7, "          \
  "\"correlation\": 2, \"device\": 0, \"context\": 1}},\n"                                  \
  "  {\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Stream Wait Event\", \"pid\": 0, "   \
  "\"tid\": 13, \"ts\": 105, \"dur\": 1, \"args\": {\"cuda_sync_kind\": \"Stream Wait "       \
  "Event\", \"wait_on_stream\": 7, \"wait_on_cuda_event_record_corr_id\": 2, "                \
  "\"wait_on_cuda_event_id\": 5, \"stream\": 13, \"correlation\": 3, \"device\": 0}},\n"     \
  "  {\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Event Sync\", \"pid\": 0, "          \
  "\"tid\": 0, \"ts\": 111, \"dur\": 193, \"args\": {\"cuda_sync_kind\": \"Event Sync\", "    \
  "\"wait_on_stream\": 13, \"wait_on_cuda_event_record_corr_id\": 5, "                        \
  "\"wait_on_cuda_event_id\": 6, \"stream\": -1, \"correlation\": 6, \"device\": 0}}"

static void
test_events_traced (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (TRACE (TWO_STREAMS_EVENTS SYNC_EVENTS), NULL,
                                                &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, import_program_events);
  /* record 5's stream comes from the sync that names it: nothing inferred */
  g_assert_cmpuint (counts.n_stream_inferred, ==, 0);
  g_assert_cmpuint (counts.n_event_inferred, ==, 0);
  import_counts_clear (&counts);

  const char *moved = TRACE (TWO_STREAMS_EVENTS SYNC_EVENTS ",\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_event\", \"name\": \"cudaEvent\", \"pid\": 0, \"tid\": 7, "
    "\"ts\": 109, \"dur\": 1, \"args\": {\"event_id\": 6, \"stream\": 7, \"correlation\": 5}}");
  g_autoptr (RecordSchedule) other = import_text (moved, NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *statements = schedule_text_statements (other->text);
  g_assert_nonnull (strstr (statements, "kernel s2 grid=4 block=256 regs=32 time=100.000us "
                                        "label=b\nrecord e2 s1\n"));
  import_counts_clear (&counts);

  /* Kineto of 2023 wrote the event sync's stream -1 as 4294967295 (CUPTI's
   * 32-bit -1, printed unsigned): the same schedule */
  g_autofree char *sync_events = g_strdup (SYNC_EVENTS);
  char *at = strstr (sync_events, "\"stream\": -1, \"correlation\": 6");
  g_assert_nonnull (at);
  g_autofree char *unsigned_sync = g_strdup_printf (
    "%.*s\"stream\": 4294967295%s", (int) (at - sync_events), sync_events,
    at + strlen ("\"stream\": -1"));
  g_autofree char *text = g_strdup_printf (TRACE ("%s%s"), TWO_STREAMS_EVENTS, unsigned_sync);
  g_autoptr (RecordSchedule) same = import_text (text, NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *same_statements = schedule_text_statements (same->text);
  g_assert_cmpstr (same_statements, ==, import_program_events);
  import_counts_clear (&counts);
}

/* A wait with no record before it (a trace that began after the record,
 * say): its stream is where its thread issues next (stream 7, kernel k at
 * 104-114 us), its event one never recorded, which the schedule declares
 * after the ops (the wait does nothing, as in CUDA). The 1 us between the
 * wait and the launch never adds up to 2 us: no host statement. The launch
 * is the first of its kernel and alone in its group, so it `loads`
 * (record_loads.h: nothing to compare its time with). */
static void
test_wait_unrecorded (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (TRACE (
    CALL ("cuda_runtime", "cudaStreamWaitEvent", "100", "1", "1") ",\n"
    CALL ("cuda_runtime", "cudaLaunchKernel", "102", "1", "2") ",\n"
    KERNEL ("void k()", "104", "10", "7", "2")), NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "wait s1 e1\n"
                            "kernel s1 grid=4 block=256 regs=32 time=10.000us loads label=k\n"
                            "event e1\n");
  g_assert_cmpuint (counts.n_stream_inferred, ==, 1);
  g_assert_cmpuint (counts.n_event_inferred, ==, 1);
  import_counts_clear (&counts);
}

/* A trace with no cudaEventRecord at all (some Kineto versions leave it
 * out): the wait gets a record of its own right before it. Calls (us),
 * each 1 us:
 *   cudaLaunchKernel      100  corr 1   kernel a on stream 7, GPU 102-202
 *   cudaLaunchKernel      103  corr 2   kernel c on stream 9, GPU 104-250
 *   cudaStreamWaitEvent   105  corr 3
 *   cudaLaunchKernel      107  corr 4   kernel b on stream 13, GPU 203-303
 * The wait's stream is 13 (its thread issues there next); kernel b started
 * at 203, so what it waited for had ended by then: of the other streams'
 * work issued before the wait, stream 7's ended at 202, stream 9's only at
 * 250 (later than 203: not what held b, though it ended last). So `record
 * e1 s1` (stream 7) right before `wait s3 e1`, at the wait's time: the 1
 * us gaps before the wait and before b add up to 2 us before b. */
static void
test_record_added (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (TRACE (
    CALL ("cuda_runtime", "cudaLaunchKernel", "100", "1", "1") ",\n"
    KERNEL ("void a()", "102", "100", "7", "1") ",\n"
    CALL ("cuda_runtime", "cudaLaunchKernel", "103", "1", "2") ",\n"
    KERNEL ("void c()", "104", "146", "9", "2") ",\n"
    CALL ("cuda_runtime", "cudaStreamWaitEvent", "105", "1", "3") ",\n"
    CALL ("cuda_runtime", "cudaLaunchKernel", "107", "1", "4") ",\n"
    KERNEL ("void b()", "203", "100", "13", "4")), NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_nonnull (strstr (got, "label=c\nrecord e1 s1\nwait s3 e1\nhost 2.000us\n"
                            "kernel s3 "));
  g_assert_null (strstr (got, "event e1"));
  g_assert_cmpuint (counts.n_record_added, ==, 1);
  g_assert_cmpuint (counts.n_event_inferred, ==, 1);
  g_assert_nonnull (strstr (rec->text, "# Event records added: 1, each right before a wait"));
  import_counts_clear (&counts);
}

/* The GPU idle while submitted work waited (import_idle.h). Calls (us):
 *   cudaLaunchKernel 100-101  kernel a on stream 7, GPU 102-202
 *   cudaLaunchKernel 103-104  kernel b on stream 9, GPU 5000-5100
 * Nothing ran from 202 to 5000 though b's call had returned at 104: one
 * stretch of 4.798 ms. With b's call at 4900-4901 instead (submitted
 * during the stretch), none. */
static void
test_idle_held (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (TRACE (
    CALL ("cuda_runtime", "cudaLaunchKernel", "100", "1", "1") ",\n"
    KERNEL ("void a()", "102", "100", "7", "1") ",\n"
    CALL ("cuda_runtime", "cudaLaunchKernel", "103", "1", "2") ",\n"
    KERNEL ("void b()", "5000", "100", "9", "2")), NULL, &counts, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (counts.n_idle, ==, 1);
  g_assert_cmpuint (counts.idle_ns, ==, 4798000);
  g_assert_nonnull (strstr (rec->text, "# Held by what the trace does not show: the GPU sat idle "
                                       "4.798 ms in 1 stretch of 1 ms or more"));
  import_counts_clear (&counts);

  g_autoptr (RecordSchedule) late = import_text (TRACE (
    CALL ("cuda_runtime", "cudaLaunchKernel", "100", "1", "1") ",\n"
    KERNEL ("void a()", "102", "100", "7", "1") ",\n"
    CALL ("cuda_runtime", "cudaLaunchKernel", "4900", "1", "2") ",\n"
    KERNEL ("void b()", "5000", "100", "9", "2")), NULL, &counts, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (counts.n_idle, ==, 0);
  g_assert_null (strstr (late->text, "Held by what the trace does not show"));
  import_counts_clear (&counts);
}

/* What a launch inside a runtime call, a driver launch of its own, a peer
 * copy, a memset, a blocking copy and a launch without a kernel become.
 * Calls (us), each 1 us:
 *   cudaLaunchKernel  100      corr 1, and inside it cuLaunchKernel
 *                     100.2-100.8, corr 50, whose kernel c (GPU 111-121,
 *                     stream 7) is the runtime call's
 *   cuLaunchKernel    102      corr 2, kernel d (GPU 122-132, stream 7)
 *   cudaMemcpyAsync   104      corr 3, a PtoP copy: not modelled, host time
 *   cudaMemsetAsync   106      corr 4, 64 bytes of device memory in stream 7
 *   cudaMemcpy        108      corr 5, DtoD of 256 bytes in stream 7: the
 *                              runtime runs it in the legacy default stream,
 *                              so stream 7 is `default`, and a device-to-
 *                              device cudaMemcpy is an async copy there
 *   cudaLaunchKernel  110      corr 6, no kernel in the trace: left out
 *   cudaLaunchKernel  112      corr 7, kernel c again (GPU 140-150)
 * Host gaps, from the last op's return: 1 us before d; 3 us before the
 * memset (the copy between is not an op); 1 us before the d2d, which adds
 * up to 2 with the first; 3 us before the last launch. The runtime
 * launches took 1 us each, their usual time: no `loads`. */
static void
test_calls (void)
{
  const char *trace = TRACE (
    CALL ("cuda_runtime", "cudaLaunchKernel", "100", "1", "1") ",\n"
    CALL ("cuda_driver", "cuLaunchKernel", "100.200", "0.600", "50") ",\n"
    KERNEL ("void c()", "111", "10", "7", "50") ",\n"
    CALL ("cuda_driver", "cuLaunchKernel", "102", "1", "2") ",\n"
    KERNEL ("void d()", "122", "10", "7", "2") ",\n"
    CALL ("cuda_runtime", "cudaMemcpyAsync", "104", "1", "3") ",\n"
    COPY ("Memcpy PtoP (Device -> Device)", "133", "1", "7", "3", "100") ",\n"
    CALL ("cuda_runtime", "cudaMemsetAsync", "106", "1", "4") ",\n"
    "  {\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset (Device)\", \"pid\": 0, "
    "\"tid\": 7, \"ts\": 135, \"dur\": 1, \"args\": {\"stream\": 7, \"correlation\": 4, "
    "\"bytes\": 64}},\n"
    CALL ("cuda_runtime", "cudaMemcpy", "108", "1", "5") ",\n"
    COPY ("Memcpy DtoD (Device -> Device)", "137", "1", "7", "5", "256") ",\n"
    CALL ("cuda_runtime", "cudaLaunchKernel", "110", "1", "6") ",\n"
    CALL ("cuda_runtime", "cudaLaunchKernel", "112", "1", "7") ",\n"
    KERNEL ("void c()", "140", "10", "7", "7"));
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (trace, NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, import_program_calls);
  g_assert_nonnull (strstr (rec->text, "# not modelled: cudaMemcpyAsync (PtoP copy) (its GPU "
                                       "work is missing from predictions), 1.000us on the GPU"));
  g_assert_nonnull (strstr (rec->text, "default is stream 7 (blocking copies or memsets ran "
                                       "there)"));
  g_assert_nonnull (strstr (rec->text, "# Left out: 1 launches, copies or memsets"));
  g_assert_cmpuint (rec->n_not_modelled, ==, 1);
  g_assert_cmpuint (counts.n_linked, ==, 1);
  g_assert_cmpuint (counts.n_no_work, ==, 1);
  g_assert_cmpint (counts.legacy, ==, 7);
  import_counts_clear (&counts);
}

/* A region named on the command line that the trace does not have is an
 * error; the default one missing means the whole trace. */
static void
test_region (void)
{
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (one_stream, "step", &counts, &error);
  g_assert_null (rec);
  g_assert_error (error, IMPORT_ERROR, IMPORT_ERROR_PARSE);
  g_assert_cmpstr (error->message, ==, "t.json: no user annotation or NVTX range named step "
                                       "(the region to import)");
  import_counts_clear (&counts);
  g_clear_error (&error);
  g_autoptr (RecordSchedule) all = import_text (TRACE (TWO_STREAMS_EVENTS), NULL, &counts, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (counts.n_outside, ==, 0);
  g_assert_null (strstr (all->text, "# Region"));
  import_counts_clear (&counts);
}

/* Malformed traces: each an error at the event's opening brace (or
 * json-glib's place), "t.json:LINE:COLUMN: ". The events are on line 4
 * of TRACE, their brace at column 3. */
static void
test_errors (void)
{
  const struct
  {
    const char *text;
    const char *message;
  } cases[] = {
    { "{\n  \"traceEvents\": [\n    {\"ph\": \"X\", \"cat\": \"kernel\",",
      "t.json:3:" },
    { TRACE ("  {\"ph\": \"X\", \"cat\": \"kernal\", \"name\": \"k\", \"ts\": 1, \"dur\": 1}"),
      "t.json:4:3: unknown event category \"kernal\": not one Kineto writes" },
    { TRACE ("  {\"ph\": \"Q\", \"name\": \"k\"}"), "t.json:4:3: unknown event phase \"Q\"" },
    { TRACE ("  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 1}"),
      "t.json:4:3: a kernel needs \"args\"" },
    { TRACE ("  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaFree\", \"ts\": \"1\", "
             "\"dur\": 1, \"args\": {\"correlation\": 1}}"),
      "t.json:4:3: an event's \"ts\" is a string, not a time in microseconds" },
    { TRACE ("  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaFree\", \"ts\": 1, "
             "\"dur\": 1, \"args\": {}}"),
      "t.json:4:85: a CUDA call needs \"correlation\"" },
    { TRACE (KERNEL ("k", "1", "1", "7", "1") ",\n"
             "  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Copy\", \"ts\": 1, \"dur\": 1, "
             "\"args\": {\"stream\": 7, \"correlation\": 2, \"bytes\": 1}}"),
      "t.json:5:3: a gpu_memcpy's name is \"Memcpy KIND (SOURCE -> DESTINATION)\"" },
    { TRACE ("  {\"ph\": \"X\", \"cat\": \"cuda_sync\", \"name\": \"Context Sync\", \"ts\": 1, "
             "\"dur\": 1, \"args\": {\"stream\": 4294967294, \"correlation\": 1}}"),
      "t.json:4:86: a cuda_sync event's \"stream\" is 4294967294, not a number from -1 to "
      "1073741823" },
    { "{\"traceEvents\": 3}", "t.json:1:1: a Chrome JSON trace has an array \"traceEvents\"" },
    { "[1]", "t.json:1:1: event 1 of \"traceEvents\" is a number, not an object" },
    { "hello", "t.json: at byte 0: not a trace streamsim reads" },
    { "", "t.json: at byte 0: not a trace streamsim reads" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (ImportTrace) trace = import_file_parse ("t.json", (const guint8 *) cases[i].text,
                                                         strlen (cases[i].text), &error);
      g_assert_null (trace);
      g_assert_error (error, IMPORT_ERROR, IMPORT_ERROR_PARSE);
      if (!g_str_has_prefix (error->message, cases[i].message))
        g_error ("case %u: %s", i, error->message);
    }
}

/* A graph launch in a trace (no region: time 0 is the first op's call).
 * Calls (us): cudaGraphLaunch 1010-1012 (corr 2), its two kernels on
 * stream 7 at 1020-1030 and 1031-1041, one after the other: a `graph`
 * block of the two in the launch's stream, issued at 0 (record_graph.h);
 * cudaStreamSynchronize 1013-1045 (corr 3), its stream inferred (the only
 * one whose work ended while it waited); the 1 us gap before it is left
 * out (it waits). Worked out by hand; ops.ini has no trace_extra, so the
 * kernels keep the trace's 10 us. */
static void
test_graph_launch (void)
{
  static const char trace[] = TRACE (
    CALL ("cuda_runtime", "cudaGraphLaunch", "1010.000", "2.000", "2") ",\n"
    KERNEL ("k", "1020.000", "10.000", "7", "2") ",\n"
    KERNEL ("k", "1031.000", "10.000", "7", "2") ",\n"
    CALL ("cuda_runtime", "cudaStreamSynchronize", "1013.000", "32.000", "3"));
  g_autoptr (GError) error = NULL;
  ImportCounts counts = { 0 };
  g_autoptr (RecordSchedule) rec = import_text (trace, NULL, &counts, &error);
  g_assert_no_error (error);
  g_autofree char *got = schedule_text_statements (rec->text);
  g_assert_cmpstr (got, ==, "stream s1\n"
                            "graph s1\n"
                            "  kernel s1 grid=4 block=256 regs=32 time=10.000us label=k\n"
                            "  kernel s1 grid=4 block=256 regs=32 time=10.000us label=k\n"
                            "end\n"
                            "sync s1\n");
  g_assert_cmpint (rec->issue[1], ==, 0);
  g_assert_cmpint (rec->start[1], ==, 21000);
  g_assert_cmpint (rec->end[1], ==, 31000);
  import_counts_clear (&counts);
}

/* Four launches of one kernel under a profiler that slowed every call
 * (us; the region runs 1000-1200, time 0 is 1000):
 *   cudaLaunchKernel       1010  took 6    corr 1   GPU 1020-1040
 *   cudaLaunchKernel       1020  took 6    corr 2   GPU 1041-1061
 *   cudaLaunchKernel       1030  took 4    corr 3   GPU 1062-1082
 *   cudaLaunchKernel       1036  took 1.5  corr 4   GPU 1083-1103
 *   cudaStreamSynchronize  1039-1104                corr 5
 * on ops.ini with kernel_launch set to 1 us. The launches' usual time is
 * the lower median of 1.5, 4, 6 and 6: 4 us; none took twice that, so
 * none is unusual. Traced (the default), each is charged what it took up
 * to 4 us: the profile's 1 us, and 3, 3, 3 and 0.5 us of the tracer's cost
 * after it. 3 us is over the 2 us minimum: a `host` statement each; the
 * last 0.5 us is under it and added up with the 1.5 us gap to the sync
 * (1037.5-1039): 2 us, which reaches the minimum. The gaps between the
 * other calls, 4, 4 and 2 us, are host time as they are. Untraced, the
 * tracer's cost is left out and the last gap of 1.5 us alone stays under
 * the minimum, dropped before the sync, which waits for the GPU. */
static const char traced_calls[] = TRACE (
  REGION_1000_200 ",\n"
  CALL ("cuda_runtime", "cudaLaunchKernel", "1010.000", "6.000", "1") ",\n"
  KERNEL ("void scale<float>(float*, int)", "1020.000", "20.000", "7", "1") ",\n"
  CALL ("cuda_runtime", "cudaLaunchKernel", "1020.000", "6.000", "2") ",\n"
  KERNEL ("void scale<float>(float*, int)", "1041.000", "20.000", "7", "2") ",\n"
  CALL ("cuda_runtime", "cudaLaunchKernel", "1030.000", "4.000", "3") ",\n"
  KERNEL ("void scale<float>(float*, int)", "1062.000", "20.000", "7", "3") ",\n"
  CALL ("cuda_runtime", "cudaLaunchKernel", "1036.000", "1.500", "4") ",\n"
  KERNEL ("void scale<float>(float*, int)", "1083.000", "20.000", "7", "4") ",\n"
  CALL ("cuda_runtime", "cudaStreamSynchronize", "1039.000", "65.000", "5"));

static void
test_traced_calls (void)
{
  GpuProfile profile = ops; /* a shallow copy, not cleared */
  profile.host_kernel_launch = 1000;
  const char *kernel = "kernel s1 grid=4 block=256 regs=32 time=20.000us label=scale\n";
  for (int untraced = 0; untraced <= 1; untraced++)
    {
      g_autoptr (GError) error = NULL;
      ImportCounts counts = { 0 };
      ImportScheduleOptions options = { .min_host_ns = 2000, .profile = &profile,
                                        .untraced_calls = untraced };
      g_autoptr (RecordSchedule) rec = import_with (traced_calls, &options, &counts, &error);
      g_assert_no_error (error);
      g_autofree char *got = schedule_text_statements (rec->text);
      g_autofree char *want
        = untraced ? g_strconcat ("stream s1\nhost 10.000us\n", kernel, "host 4.000us\n", kernel,
                                  "host 4.000us\n", kernel, "host 2.000us\n", kernel,
                                  "sync s1\n", NULL)
                   : g_strconcat ("stream s1\nhost 10.000us\n", kernel, "host 3.000us\nhost 4.000us\n",
                                  kernel, "host 3.000us\nhost 4.000us\n", kernel,
                                  "host 3.000us\nhost 2.000us\n", kernel, "host 2.000us\nsync s1\n",
                                  NULL);
      g_assert_cmpstr (got, ==, want);
      g_assert_true ((strstr (rec->text, "host 3.000us   # inside cudaLaunchKernel, which took "
                                         "6.000us: the tracer's cost, 3.000us beyond the "
                                         "profile's\n") != NULL) == !untraced);
      import_counts_clear (&counts);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autoptr (GError) error = NULL;
  if (!profile_load ("ops", &ops, &error))
    g_error ("%s", error->message);
  g_test_add_func ("/import/kineto/queries", test_queries);
  g_test_add_func ("/import/kineto/one-stream", test_one_stream);
  g_test_add_func ("/import/kineto/gzip", test_gzip);
  g_test_add_func ("/import/kineto/events-inferred", test_events_inferred);
  g_test_add_func ("/import/kineto/events-traced", test_events_traced);
  g_test_add_func ("/import/kineto/wait-unrecorded", test_wait_unrecorded);
  g_test_add_func ("/import/kineto/record-added", test_record_added);
  g_test_add_func ("/import/kineto/idle-held", test_idle_held);
  g_test_add_func ("/import/kineto/calls", test_calls);
  g_test_add_func ("/import/kineto/region", test_region);
  g_test_add_func ("/import/kineto/errors", test_errors);
  g_test_add_func ("/import/kineto/graph-launch", test_graph_launch);
  g_test_add_func ("/import/kineto/traced-calls", test_traced_calls);
  int status = g_test_run ();
  gpu_profile_clear (&ops);
  return status;
}
