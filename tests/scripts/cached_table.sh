#!/usr/bin/env bash
# tests/scripts/cached_table.sh SOURCE_DIR STREAMSIM VALIDATE: validate/cached-table.sh on a
# made-up recorder log, against what is worked out by hand.
#
# tests/profiles/schematic-cached.ini: a pageable 4 MiB H2D in 2 ms, a cached one in 1 ms +
# 0.25 ms, calls free. The log: a device synchronize, a pageable 4 MiB H2D (2 ms), the
# same buffer's again (1.25 ms: written `cached`), a device synchronize of 10 us. The
# cached H2D's call, issue to the next op's issue: 1.25 ms measured; 1.25 ms predicted
# with the buffer lines (0.0%), 2 ms without (60.0%). The one region, between the two
# synchronizes' ends: 3.26 ms measured; 3.25 ms predicted with (0.31%), 4 ms without
# (22.70%).
set -euo pipefail
src=${1:?usage: cached_table.sh SOURCE_DIR STREAMSIM VALIDATE}
streamsim=${2:?usage: cached_table.sh SOURCE_DIR STREAMSIM VALIDATE}
validate=${3:?usage: cached_table.sh SOURCE_DIR STREAMSIM VALIDATE}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%s\n' 'streamsim-record	1' \
  'call	1	cudaDeviceSynchronize	999990000	1000000000	4	0x0	0x0	0	0	0' \
  'call	1	cudaMemcpyAsync	1000000000	1002000000	1	0x0	0x0	4194304	1	0' \
  'call	1	cudaMemcpyAsync	1002000000	1003250000	2	0x0	0x0	4194304	1	0' \
  'call	1	cudaDeviceSynchronize	1003250000	1003260000	3	0x0	0x0	0	0	0' \
  'buffer	1	0x10000000' 'buffer	2	0x10000000' \
  'copy	1	0	1000000000	1002000000	4194304	1	1	3' \
  'copy	2	0	1002000000	1003250000	4194304	1	1	3' 'end	4	2' > "$work/two.log"
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
got=$(STREAMSIM=$streamsim VALIDATE=$validate bash "$src/validate/cached-table.sh" schematic-cached "$work/two.log")
want='| log | H2Ds cached | their calls: median \|error\| with | without | regions: median \|error\| with | without |
| --- | ---: | ---: | ---: | ---: | ---: |
| two | 1 | 0.0% | 60.0% | 0.31% | 22.70% |'
[ "$got" = "$want" ] || { echo "want:"; echo "$want"; echo "got:"; echo "$got"; exit 1; }
echo ok
