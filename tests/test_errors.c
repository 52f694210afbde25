/* test_errors.c: malformed inputs of every kind through the real command line: one line naming file:line:column, exit 2, no output file.
 *
 * Each case writes its files (a schedule in.sched, a profile dev.ini, a
 * timeline in.csv) into a fresh folder, runs STREAMSIM_BIN there and checks
 * the exit status, that stderr is exactly one line, that the line starts
 * with the expected "streamsim: FILE:LINE:COLUMN: " (or the option's name),
 * and that it contains a phrase saying what is allowed. The expected
 * positions were read off the inputs by hand: line numbers count from 1,
 * columns are characters from 1. */
/* symlink is POSIX, which -std=c11 hides. */
#define _DEFAULT_SOURCE
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>
#include "support/cli_run.h"
#include "support/temp_dir.h"

#define OK_SCHED "device k20\nstream s\nh2d s 1MiB\nkernel s grid=1 block=32 time=1ms\n"
#define CSV_HEADER "op,line,stream,kind,engine,issue_ns,start_ns,end_ns\n"

typedef struct
{
  const char *name;
  const char *sched;   /* in.sched, or NULL */
  const char *profile; /* dev.ini, or NULL */
  const char *csv;     /* in.csv, or NULL */
  const char *args;    /* after `streamsim`, split on spaces */
  int status;
  const char *prefix;  /* what stderr starts with */
  const char *phrase;  /* and contains: what is allowed */
} ErrorCase;

static const ErrorCase cases[] = {
  /* ---- schedules: text ---- */
  { "sched/control-character", "device k20\nhost 1us\x01\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:6: bad time", "ns, us, ms or s" },
  { "sched/invalid-utf8", "device k20\n# caf\xc3\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:6: invalid UTF-8", "UTF-8 text" },
  /* The text is checked as UTF-8 at once, but its error is the line's: an
   * error on an earlier line comes first, one on a later line after it. */
  { "sched/invalid-utf8-after-an-error", "device k20\nend\nhost 1us # caf\xc3\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:2:1: `end` without a `repeat`", "one `end`" },
  { "sched/invalid-utf8-before-an-error", "device k20\nhost 1us # caf\xc3\nend\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:2:15: invalid UTF-8", "UTF-8 text" },
  { "sched/long-line", NULL, NULL, NULL, "predict long.sched", 2,
    "streamsim: long.sched:2:4097: the line is 5000 bytes long", "at most 4096" },
  { "sched/unknown-statement", "device k20\nfoo s 1\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:1: unknown statement 'foo'", "expected one of" },
  /* Control bytes quoted from the file are shown as \xNN, not sent raw to
   * the terminal (located_error.c). */
  { "sched/control-character-shown", "device k20\nkern\x01" "el s\n", NULL, NULL, "predict in.sched",
    2, "streamsim: in.sched:2:1: unknown statement 'kern\\x01el'", "expected one of" },
  /* ---- schedules: values ---- */
  { "sched/size-unit", "device k20\nstream s\nh2d s 4XB\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:3:7: bad size '4XB'", "KiB" },
  { "sched/size-negative", "device k20\nstream s\nh2d s -4MiB\n", NULL, NULL, "predict in.sched",
    2, "streamsim: in.sched:3:7: bad size '-4MiB'", "negative" },
  { "sched/size-64-bits", "device k20\nstream s\nh2d s 99999999999999999999\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:7: bad size", "2^64" },
  { "sched/time-no-unit", "device k20\nhost 1.08\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:6: bad time '1.08'", "ns, us, ms or s" },
  { "sched/grid-zero", "device k20\nstream s\nkernel s grid=0 block=32 time=1ms\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:10: grid=0 is out of range", "1 to 2147483647" },
  { "sched/block-too-big-for-device", "device c1060\nstream s\nkernel s grid=1 block=1024 time=1ms\n",
    NULL, NULL, "predict in.sched", 2, "streamsim: in.sched:3:1: block=1024", "512 threads" },
  { "sched/time-and-block-time",
    "device k20\nstream s\nkernel s grid=1 block=32 time=1ms block_time=1ms\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:35: ", "exactly one of time= or block_time=" },
  { "sched/no-time-for-device", "device k20\nstream s\nkernel s grid=1 block=32 time=gtx480:1ms\n",
    NULL, NULL, "predict in.sched", 2, "streamsim: in.sched:3:1: kernel has no time= for device 'k20'",
    "fallback" },
  { "sched/connections-range", "device k20\nconnections 33\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:13: connections 33 is out of range", "1 to 32" },
  { "sched/priority-range", "device k20\nstream s priority=1\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:10: priority=1 is out of range", "-5" },
  /* ---- schedules: names ---- */
  { "sched/undefined-stream", "device k20\nh2d t 1MiB\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:5: undefined stream 't'", "stream t" },
  { "sched/duplicate-stream", "device k20\nstream s\nstream s\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:3:8: stream 's' is declared twice", "line 2" },
  { "sched/event-is-stream", "device k20\nstream s\nrecord s s\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:3:8: 's' is a stream, not an event", "different names" },
  { "sched/undefined-parameter", "device k20\nhost $y\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:6: undefined parameter 'y'", "let y" },
  /* Event names a wait or sync uses, checked once the whole file is read;
   * the whole message, ending the line. */
  { "sched/wait-typo", "device k20\nstream s1\nstream s2\nrecord done s1\nwait s2 dnoe\n", NULL,
    NULL, "predict in.sched", 2,
    "streamsim: in.sched:5:9: event 'dnoe' is never recorded; record it, or write `event dnoe` "
    "if the wait is meant to do nothing (as in CUDA, for an event never recorded); did you mean "
    "'done'?\n", NULL },
  { "sched/sync-typo", "device k20\nstream s1\nsync nothere\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:3:6: no stream or recorded event is named 'nothere'; declare the stream "
    "with `stream nothere` before the sync, or write `event nothere` if it is an event never "
    "recorded (the sync does nothing)\n", NULL },
  { "sched/device-twice", "device k20\ndevice c2050\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:1: `device` is given twice", "line 1" },
  { "sched/unknown-device", "device k2o\nhost 1us\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:1:8: no device profile 'k2o'", "known:" },
  /* The `device` line names a profile even where --device overrides it. */
  { "sched/unknown-device-with-option", "device k2o\nhost 1us\n", NULL, NULL,
    "predict in.sched --device k20", 2, "streamsim: in.sched:1:8: no device profile 'k2o'",
    "; did you mean 'k20'?\n" },
  { "sched/no-device", "host 1us\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:1:1: no device", "--device" },
  /* ---- schedules: structure and limits ---- */
  { "sched/repeat-without-end", "device k20\nrepeat i 1..2\nhost 1us\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:2:1: `repeat` without a matching `end`", "`end`" },
  { "sched/if-without-end", "device k20\nif 1\nhost 1us\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:2:1: `if` without a matching `end`", "`end`" },
  { "sched/grid-for-another-device", "device k20\nkernel default grid=h100:4 block=32 time=1ms\n", NULL,
    NULL, "predict in.sched", 2, "streamsim: in.sched:2:1: kernel has no grid= for device 'k20' "
    "(the list has: h100)", NULL },
  { "sched/modulo-by-zero", "device k20\nlet n = 0\nif 4 % n == 0\nhost 1us\nend\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:6: '4 % n == 0': modulo by zero", NULL },
  { "sched/max-ops", "device k20\nrepeat i 1..1000000000000000\nhost 1us\nend\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:2:1: the schedule expands to 1000000000000000 ops",
    "--max-ops" },
  { "sched/arithmetic-overflow", "device k20\nlet a = 9223372036854775807\nhost ${a*2}us\n", NULL,
    NULL, "predict in.sched", 2, "streamsim: in.sched:3:9: '${a*2}': the result does not fit 64 bits", NULL },
  { "sched/division-by-zero", "device k20\nhost ${1/0}us\n", NULL, NULL, "predict in.sched", 2,
    "streamsim: in.sched:2:9: '${1/0}': division by zero", NULL },
  { "sched/simulated-time-overflow",
    "device k20\nstream s\nkernel s grid=2147483647 block=32 block_time=100000s\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:1: this kernel", "146 years" },
  /* Two ops the device refuses for different reasons: the first in the file
   * is the one reported, whichever check finds it. */
  { "sched/first-refused-op-reported",
    "device k20\nstream s\nkernel s grid=2147483647 block=32 block_time=100000s\n"
    "kernel s grid=1 block=32 time=c1060:1ms\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:1: this kernel", "146 years" },
  { "sched/first-refused-op-reported-2",
    "device k20\nstream s\nkernel s grid=1 block=32 time=gtx480:1ms\n"
    "kernel s grid=2147483647 block=32 block_time=100000s\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:1: kernel has no time= for device 'k20'", NULL },
  /* `untouched` says how pageable memory stands; pinned memory and d2d have
   * no such state. */
  { "sched/untouched-pinned", "device k20\nstream s\nh2d s 1MiB untouched\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:12: untouched needs pageable", "pageable untouched" },
  { "sched/untouched-d2d", "device k20\nstream s\nd2d s 1MiB pageable untouched\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:21: untouched describes host memory",
    "a d2d copy touches none" },
  /* `cached` says a pageable buffer is in the CPU's caches. */
  { "sched/cached-pinned", "device k20\nstream s\nh2d s 1MiB cached\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:12: cached needs pageable", "pageable cached" },
  { "sched/cached-d2d", "device k20\nstream s\nd2d s 1MiB pageable cached\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:21: cached describes host memory", NULL },
  { "sched/cached-untouched", "device k20\nstream s\nh2d s 1MiB pageable untouched cached\n", NULL,
    NULL, "predict in.sched", 2, "streamsim: in.sched:3:31: cached and untouched contradict", NULL },
  { "sched/cached-twice", "device k20\nstream s\nh2d s 1MiB pageable cached cached\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:28: cached is given twice", NULL },
  { "sched/untouched-more", "device k20\nstream s\nd2h s 1MiB pageable untouched=2MiB\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:21: untouched=2MiB is more than the copy's", NULL },
  { "sched/untouched-size", "device k20\nstream s\nd2h s 1MiB pageable untouched=lots\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:21: bad untouched= 'lots'", NULL },
  /* a memset is of device memory or `pinned` host memory */
  { "sched/memset-pageable", "device h100\nstream s\nmemset s 8B pageable\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:13: unexpected 'pageable'; expected `memset STREAM "
    "SIZE [pinned] [label=NAME]`", NULL },
  { "sched/memset-pinned-twice", "device h100\nstream s\nmemset s 8B pinned pinned\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:20: pinned is given twice", NULL },
  /* rows= splits a copy into rows of one width */
  { "sched/rows-split", "device k20\nstream s\nh2d s 1MiB rows=3\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:12: the copy's 1048576 bytes do not split into 3 rows", NULL },
  { "sched/rows-zero", "device k20\nstream s\nd2d s 1MiB rows=0\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:12: rows=0 is out of range; rows= takes 1 to 4294967295", NULL },
  { "sched/rows-word", "device k20\nstream s\nd2h s 1MiB pageable rows=many\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:21: rows=many:", NULL },
  { "sched/rows-twice", "device k20\nmemcpy h2d 1MiB rows=2 rows=2\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:2:24: rows= is given twice", NULL },
  { "sched/untouched-twice", "device k20\nstream s\nd2h s 1MiB pageable untouched untouched\n", NULL,
    NULL, "predict in.sched", 2, "streamsim: in.sched:3:31: untouched is given twice", NULL },
  /* `huge` says how untouched pages fault in */
  { "sched/huge-alone", "device k20\nstream s\nh2d s 1MiB pageable huge\n", NULL, NULL,
    "predict in.sched", 2, "streamsim: in.sched:3:21: huge says how an untouched buffer's pages",
    "pageable untouched huge" },
  { "sched/huge-twice", "device k20\nstream s\nd2h s 1MiB pageable untouched huge huge\n", NULL,
    NULL, "predict in.sched", 2, "streamsim: in.sched:3:36: huge is given twice", NULL },
  /* huge=SIZE is a part of the untouched bytes */
  { "sched/huge-over", "device k20\nstream s\nd2h s 4MiB pageable untouched=2MiB huge=3MiB\n", NULL,
    NULL, "predict in.sched", 2, "streamsim: in.sched:3:36: huge=3MiB is more than the 2097152 "
    "untouched bytes", NULL },
  { "sched/huge-bad", "device k20\nstream s\nd2h s 4MiB pageable untouched huge=lots\n", NULL,
    NULL, "predict in.sched", 2, "streamsim: in.sched:3:31: bad huge= 'lots'", NULL },
  /* ---- -D ---- */
  { "define/no-equals", OK_SCHED, NULL, NULL, "predict in.sched -D chunk", 2,
    "streamsim: -D chunk: expected -D NAME=VALUE", NULL },
  { "define/bad-name", OK_SCHED, NULL, NULL, "predict in.sched -D 1x=3", 2,
    "streamsim: -D 1x=3: '1x' is not a parameter name", "letters" },
  { "define/empty-value", "device k20\nhost $t\n", NULL, NULL, "predict in.sched -D t=", 2,
    "streamsim: -D t=...: the value must be non-empty", NULL },
  { "define/unused", "device k20\nlet chunk = 1MiB\nstream s\nh2d s $chunk\n", NULL, NULL,
    "predict in.sched -D chunck=8MiB", 2, "streamsim: -D chunck=8MiB: in.sched has no `let chunck`",
    "its parameters: chunk" },
  { "define/bad-value", "device k20\nlet chunk = 1MiB\nstream s\nh2d s $chunk\n", NULL, NULL,
    "predict in.sched -D chunk=lots", 2, "streamsim: in.sched:4:7: bad size 'lots'", "KiB" },
  /* ---- options ---- */
  { "option/connections-zero", OK_SCHED, NULL, NULL, "predict in.sched --connections 0", 2,
    "streamsim predict: --connections 0: allowed a whole number from 1 to 32", NULL },
  { "option/connections-text", OK_SCHED, NULL, NULL, "predict in.sched --connections abc", 2,
    "streamsim predict: --connections abc: allowed", NULL },
  { "option/max-ops-zero", OK_SCHED, NULL, NULL, "predict in.sched --max-ops 0", 2,
    "streamsim predict: --max-ops 0: allowed a whole number from 1", NULL },
  { "option/max-ops-exceeded", OK_SCHED, NULL, NULL, "predict in.sched --max-ops 1", 2,
    "streamsim: in.sched:4:1: the schedule expands to 2 ops, more than --max-ops 1", NULL },
  { "option/device-unknown", OK_SCHED, NULL, NULL, "predict in.sched --device nosuch", 2,
    "streamsim: --device nosuch: no device profile 'nosuch'", "known:" },
  { "option/plot-type", OK_SCHED, NULL, NULL, "predict in.sched --csv out.csv --plot t.jpg", 2,
    "streamsim predict: --plot t.jpg: unknown picture type", ".png or .svg" },
  /* An output's kind follows its extension: no CSV inside a .png. */
  { "option/csv-into-png", OK_SCHED, NULL, NULL, "predict in.sched --csv out.png", 2,
    "streamsim predict: --csv out.png: the name ends in .png", "name it .csv" },
  { "option/output-unknown-kind", OK_SCHED, NULL, NULL, "predict in.sched -o out.txt", 2,
    "streamsim predict: -o out.txt: the name ends in .txt", "FILE.csv" },
  { "option/device-typo", OK_SCHED, NULL, NULL, "predict in.sched --device k2O", 2,
    "streamsim: --device k2O: ", "did you mean 'k20'?" },
  { "option/unknown-command", NULL, NULL, NULL, "predcit in.sched", 2,
    "streamsim: unknown command 'predcit'; did you mean 'predict'?", NULL },
  { "option/devices-argument", NULL, NULL, NULL, "devices extra", 2,
    "streamsim devices: unexpected argument 'extra'", "no arguments" },
  /* ---- profiles ---- */
  { "profile/unknown-key", OK_SCHED, "[device]\ninherits = k20\n[copy]\nengine = 2\n", NULL,
    "predict in.sched --device ./dev.ini", 2, "streamsim: ./dev.ini:4:1: unknown key 'engine' in [copy]",
    "allowed: engines" },
  { "profile/key-twice", OK_SCHED, "[device]\ninherits = k20\n[copy]\nengines = 2\nengines = 1\n",
    NULL, "predict in.sched --device ./dev.ini", 2,
    "streamsim: ./dev.ini:5:1: key 'engines' in [copy] is set twice, first at line 4", "once" },
  { "profile/hex-fraction", OK_SCHED, "[device]\ninherits = k20\n[copy]\nduplex_factor = 0x1p-1\n",
    NULL, "predict in.sched --device ./dev.ini", 2,
    "streamsim: ./dev.ini:4:17: bad value '0x1p-1' for duplex_factor", "above 0 and at most 1" },
  { "profile/out-of-range", OK_SCHED, "[device]\ninherits = k20\n[kernel]\nsm_count = 0\n", NULL,
    "predict in.sched --device ./dev.ini", 2, "streamsim: ./dev.ini:4:12: sm_count = 0 is out of range",
    "1 to 1024" },
  /* The optional untouched link comes whole or not at all. */
  { "profile/untouched-half", OK_SCHED,
    "[device]\ninherits = k20\n[copy]\nd2h_untouched_latency = 20us\n", NULL,
    "predict in.sched --device ./dev.ini", 2,
    "streamsim: ./dev.ini:4:25: d2h_untouched_latency needs d2h_untouched_bandwidth", "both or neither" },
  { "profile/missing-key", OK_SCHED, "[copy]\nengines = 2\n", NULL,
    "predict in.sched --device ./dev.ini", 2, "streamsim: ./dev.ini:1:1: missing key", "must be set" },
  { "profile/inherits-loop", OK_SCHED, "[device]\ninherits = ./dev.ini\n", NULL,
    "predict in.sched --device ./dev.ini", 2, "streamsim: ./dev.ini:2:12: inherits makes a loop", NULL },
  { "profile/control-character", OK_SCHED, "[device]\ninherits = k20\x01\n", NULL,
    "predict in.sched --device ./dev.ini", 2, "streamsim: ./dev.ini:2:12: bad profile name 'k20\\x01'",
    "a-z" },
  /* ---- timelines (compare and plot read them) ---- */
  { "csv/no-header", NULL, NULL, "", "compare in.csv in.csv", 2,
    "streamsim: in.csv:1:1: no header row", "op, line, stream" },
  { "csv/missing-column", NULL, NULL, "op,line,stream,kind,issue_ns,start_ns,end_ns\n",
    "compare in.csv in.csv", 2, "streamsim: in.csv:1:1: the header has no column 'engine'", NULL },
  { "csv/field-count", NULL, NULL, CSV_HEADER "0,1,s,h2d,h2d,0,0\n", "compare in.csv in.csv", 2,
    "streamsim: in.csv:2:18: this row has 7 fields, the header has 8", NULL },
  { "csv/unclosed-quote", NULL, NULL, CSV_HEADER "0,1,\"s,h2d,h2d,0,0,1\n", "compare in.csv in.csv",
    2, "streamsim: in.csv:2:5: a quoted field is not closed", NULL },
  { "csv/negative", NULL, NULL, CSV_HEADER "0,1,s,h2d,h2d,0,-5,1\n", "compare in.csv in.csv", 2,
    "streamsim: in.csv:2:17: bad start_ns '-5'", "non-negative integer" },
  { "csv/end-before-start", NULL, NULL, CSV_HEADER "0,1,s,h2d,h2d,0,5,1\n", "compare in.csv in.csv",
    2, "streamsim: in.csv:2:19: end_ns 1 is before start_ns 5", NULL },
  { "csv/duplicate-op", NULL, NULL, CSV_HEADER "0,1,s,h2d,h2d,0,0,1\n0,1,s,h2d,h2d,0,0,1\n",
    "compare in.csv in.csv", 2, "streamsim: in.csv:3:1: op 0 appears twice", "unique" },
  { "csv/invalid-utf8", NULL, NULL, CSV_HEADER "0,1,s\xff,h2d,h2d,0,0,1\n", "compare in.csv in.csv",
    2, "streamsim: in.csv:2:6: invalid UTF-8", NULL },
  /* Columns by hand: "0,1,s," is six characters, so kind starts at 7. */
  { "csv/unknown-kind", NULL, NULL, CSV_HEADER "0,1,s,xyz,h2d,0,0,1\n", "compare in.csv in.csv", 2,
    "streamsim: in.csv:2:7: unknown kind 'xyz'", "memcpy, kernel, record" },
  /* A quoted field may hold a line break; the message stays one line. */
  { "csv/line-break-in-field", NULL, NULL, CSV_HEADER "0,1,s,\"h\n2d\",h2d,0,0,1\n",
    "compare in.csv in.csv", 2, "streamsim: in.csv:2:7: unknown kind 'h\\n2d'", NULL },
  { "csv/dev-zero", NULL, NULL, CSV_HEADER, "compare /dev/zero in.csv", 2,
    "streamsim: /dev/zero:1:1: a NUL byte", "UTF-8" },
  { "sched/dev-zero", NULL, NULL, NULL, "predict /dev/zero --device k20", 2,
    "streamsim: /dev/zero:1:", "at most 4096" },
  /* What was typed on the command line is shown the same way (cli_error):
   * a path, a profile name, a -D name. */
  { "cli/control-character-in-path", NULL, NULL, NULL, "predict no\x01such.sched", 3,
    "streamsim: cannot read no\\x01such.sched: ", "No such file" },
  { "cli/control-character-in-device", OK_SCHED, NULL, NULL, "predict in.sched --device k2\x01" "0",
    2, "streamsim: --device k2\\x010: bad profile name 'k2\\x010'", "a-z" },
  { "cli/control-character-in-define", OK_SCHED, NULL, NULL, "predict in.sched -D x\x02=1", 2,
    "streamsim: -D x\\x02=1: 'x\\x02' is not a parameter name", NULL },
  /* Standard output carries one file at most. */
  { "cli/two-outputs-on-stdout", OK_SCHED, NULL, NULL, "predict in.sched --csv - --json -", 2,
    "streamsim predict: only one of --csv, --json and --chrome can be -", NULL },
  /* --explain-only takes causes by their names in the CSV's cause column. */
  { "cli/explain-only-unknown-cause", OK_SCHED, NULL, NULL,
    "predict in.sched --explain-only queue,slot", 2,
    "streamsim predict: --explain-only queue,slot: 'slot' is not a cause; the causes: stream, event,",
    "slots, deferred, sync" },
  /* Standard input holds one timeline, not two. */
  { "cli/compare-stdin-twice", NULL, NULL, NULL, "compare - -", 2,
    "streamsim: compare can read only one of its timelines from -", NULL },
  { "cli/plot-stdin-twice", NULL, NULL, NULL, "plot - --vs - -o out.png", 2,
    "streamsim: plot can read only one of TIMELINE and --vs from -", NULL },
  { "csv/plot-bad-row", NULL, NULL, CSV_HEADER "x,1,s,h2d,h2d,0,0,1\n", "plot in.csv -o out.png", 2,
    "streamsim: in.csv:2:1: bad op 'x'", "non-negative integer" },
};

/* Runs streamsim in `dir` with `args` split on spaces; returns its exit
 * status and stderr. */
static int
run_in (const char *dir, const char *args, char **err)
{
  g_auto (GStrv) words = g_strsplit (args, " ", -1);
  return cli_run (dir, (const char *const *) words, NULL, NULL, err);
}

static void
test_error_case (gconstpointer data)
{
  const ErrorCase *c = data;
  g_autofree char *dir = temp_dir_new ("streamsim-errors");
  if (c->sched != NULL)
    temp_dir_write (dir, "in.sched", c->sched);
  if (c->profile != NULL)
    temp_dir_write (dir, "dev.ini", c->profile);
  if (c->csv != NULL)
    temp_dir_write (dir, "in.csv", c->csv);
  /* 5000 bytes on line 2 (comments count: the limit is on the line). */
  g_autofree char *xs = g_strnfill (4998, 'x');
  g_autofree char *long_text = g_strdup_printf ("device k20\n# %s\n", xs);
  temp_dir_write (dir, "long.sched", long_text);

  g_autofree char *err = NULL;
  int status = run_in (dir, c->args, &err);
  g_test_message ("%s", err);
  g_assert_cmpint (status, ==, c->status);
  /* One line, ending in a newline. */
  guint lines = 0;
  for (const char *c = err; *c != '\0'; c++)
    lines += *c == '\n';
  g_assert_cmpuint (lines, ==, 1);
  g_assert_true (g_str_has_suffix (err, "\n"));
  if (!g_str_has_prefix (err, c->prefix))
    g_error ("expected a message starting with \"%s\", got \"%s\"", c->prefix, err);
  if (c->phrase != NULL && strstr (err, c->phrase) == NULL)
    g_error ("message \"%s\" lacks \"%s\"", err, c->phrase);
  /* A failed run leaves no output behind. */
  g_autofree char *out_csv = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *out_png = g_build_filename (dir, "out.png", NULL);
  g_assert_false (g_file_test (out_csv, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (out_png, G_FILE_TEST_EXISTS));
  temp_dir_remove (dir);
}

/* What the checks of names let through: an event never recorded that
 * `event NAME` declares (after its use, here), and a `device` line that
 * names a profile in another case, with --device given or not. */
static void
test_errors_names_accepted (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-errors");
  temp_dir_write (dir, "in.sched", "device K20\nstream s1\nstream s2\n"
                                   "kernel s1 grid=1 block=32 time=1ms\nwait s2 spare\n"
                                   "kernel s2 grid=1 block=32 time=1ms\nevent spare\n");
  g_autofree char *err = NULL;
  g_assert_cmpint (run_in (dir, "predict in.sched -q", &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_in (dir, "predict in.sched -q --device c2050", &err), ==, 0);
  g_assert_cmpstr (err, ==, "");
  temp_dir_remove (dir);
}

/* A failing run must not touch an existing output: out.csv and out.json keep
 * their old contents when the schedule is bad, and no temporary file stays. */
static void
test_errors_keep_existing_output (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-errors");
  temp_dir_write (dir, "in.sched", "device k20\nstream s\nh2d s 4XB\n");
  temp_dir_write (dir, "out.csv", "old\n");
  temp_dir_write (dir, "out.json", "old\n");
  g_autofree char *err = NULL;
  g_assert_cmpint (run_in (dir, "predict in.sched --csv out.csv --chrome out.json", &err), ==, 2);
  g_autofree char *csv = NULL, *json = NULL;
  g_autofree char *csv_path = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *json_path = g_build_filename (dir, "out.json", NULL);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_true (g_file_get_contents (json_path, &json, NULL, NULL));
  g_assert_cmpstr (csv, ==, "old\n");
  g_assert_cmpstr (json, ==, "old\n");
  /* in.sched, out.csv, out.json and nothing else */
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (g_dir_read_name (d) != NULL)
    n++;
  g_assert_cmpuint (n, ==, 3);
  temp_dir_remove (dir);
}

/* Outputs named through a link are written where the link points, and the
 * link stays (a rename would replace it; for /dev/null, as root, it would
 * turn the device into a plain file). A folder that does not exist is an
 * I/O failure (exit 3) naming the file asked for. */
static void
test_errors_outputs_through_links (void)
{
  g_autofree char *dir = temp_dir_new ("streamsim-errors");
  temp_dir_write (dir, "in.sched", OK_SCHED);
  temp_dir_write (dir, "real.csv", "old\n");
  temp_dir_write (dir, "real.json", "old\n");
  g_autofree char *csv_link = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *json_link = g_build_filename (dir, "out.json", NULL);
  g_assert_cmpint (symlink ("real.csv", csv_link), ==, 0);
  g_assert_cmpint (symlink ("real.json", json_link), ==, 0);
  g_autofree char *err = NULL;
  g_assert_cmpint (run_in (dir, "predict in.sched --csv out.csv --chrome out.json --quiet", &err),
                   ==, 0);
  g_assert_true (g_file_test (csv_link, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (json_link, G_FILE_TEST_IS_SYMLINK));
  g_autofree char *csv = NULL, *json = NULL;
  g_assert_true (g_file_get_contents (csv_link, &csv, NULL, NULL));
  g_assert_true (g_file_get_contents (json_link, &json, NULL, NULL));
  g_assert_true (g_str_has_prefix (csv, "# source: predicted by streamsim"));
  g_assert_true (g_str_has_prefix (json, "{"));
  g_unlink (csv_link);
  g_unlink (json_link);

  g_free (err);
  err = NULL;
  g_assert_cmpint (run_in (dir, "predict in.sched --chrome nodir/t.json --quiet", &err), ==, 3);
  g_assert_true (g_str_has_prefix (err, "streamsim: cannot write nodir/t.json: "));
  temp_dir_remove (dir);
}

/* A schedule read from standard input ("-") is named <stdin> in messages
 * and in the summary; sweep, which parses its schedule once per value, refuses
 * it rather than reading an empty second copy. */
static void
test_errors_schedule_from_stdin (void)
{
  static const char *const predict[] = { "predict", "-", NULL };
  static const char *const sweep[] = { "sweep", "-", "-D", "x=1..2", NULL };
  g_autofree char *dir = temp_dir_new ("streamsim-errors");
  temp_dir_write (dir, "in.sched", "device k20\nhost 1us\x01\n");
  g_autofree char *out = NULL, *err = NULL;
  g_assert_cmpint (cli_run (dir, predict, "in.sched", &out, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "streamsim: <stdin>:2:6: bad time"));

  temp_dir_write (dir, "in.sched", OK_SCHED);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (dir, predict, "in.sched", &out, &err), ==, 0);
  g_assert_true (g_str_has_prefix (out, "schedule     <stdin>\n"));
  g_assert_cmpstr (err, ==, "");

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (cli_run (dir, sweep, "in.sched", &out, &err), ==, 2);
  g_assert_true (g_str_has_prefix (err, "streamsim: sweep reads SCHEDULE once per value"));
  temp_dir_remove (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strconcat ("/errors/", cases[i].name, NULL);
      g_test_add_data_func (path, &cases[i], test_error_case);
    }
  g_test_add_func ("/errors/names-accepted", test_errors_names_accepted);
  g_test_add_func ("/errors/keep-existing-output", test_errors_keep_existing_output);
  g_test_add_func ("/errors/outputs-through-links", test_errors_outputs_through_links);
  g_test_add_func ("/errors/schedule-from-stdin", test_errors_schedule_from_stdin);
  return g_test_run ();
}
