#!/usr/bin/env bash
# tests/scripts/advise_proof.sh SOURCE_DIR STREAMSIM: validate/advise-proof.sh report on made-up
# measurements, against rows worked out by hand.
#
# The schematic C2050-like profile (tests/profiles) predicts the seed's V2 order in 9 ms
# and V1 in 6 ms (engines/MODEL.md's schematic table). Schedule "good": as given V2,
# advised V1, measured 9.5 ms and 6.2 ms (the median of three rounds each: 9.5 of
# 9.4/9.5/9.7, 6.2 of 6.1/6.2/6.3). Predicted gain 3/9 = 33.3%, measured 3.3/9.5 = 34.7%;
# the difference, (3.3 - 3) / 9.5 = +3.2% of the original's measured makespan, is within
# 5%: holds. Schedule "slow": the same, measured 9.5 ms and 9.6 ms: the advice measured
# slower (-1.1%), so it does not hold; difference (-0.1 - 3) / 9.5 = -32.6%.
#
# report-run, on tests/profiles/scale-a (no latencies, no call costs): schedule "paced" gives
# four 10-us kernels in one stream and a device sync, advised two; measured 400 and 200 us,
# each run recording a launch cost of 100 us (`# host_calls: kernel_launch=100us`). On the
# profile alone they take 40 and 20 us: gain 50% predicted and measured, but the difference
# is (200 - 20) / 400 = +45.0%: no. With the run's launches (report-run) each kernel starts
# when its 100-us launch returns: the last at 400 and 200 us, ends 410 and 210 us; gain
# 200 / 410 = 48.8%, difference (200 - 200) / 400 = +0.0%: holds. Schedule "bare" has no
# host_calls line: predicted on the profile alone.
#
# report-spread, on tests/profiles/spread (a launch holds the host 0.5 ms on its fast host,
# 2 ms on its slow one; all else free): the same four kernels against two, whose last
# kernel ends 10 us after the last launch: 2010 and 1010 us on the fast host, 8010 and 4010
# us on the slow one; gains 1000 / 2010 = 49.8% and 4000 / 8010 = 49.9%. Schedule "paced"
# measured 4000 and 2000 us, 50.0%: within 5 points of that range, holds; "short" measured
# 4000 and 3500 us, 12.5%: no.
set -euo pipefail
src=${1:?usage: advise_proof.sh SOURCE_DIR STREAMSIM}
streamsim=${2:?usage: advise_proof.sh SOURCE_DIR STREAMSIM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
same () { # MODE GOT WANT
  if [ "$2" != "$3" ]; then
    echo "advise-proof.sh $1 gave:"; echo "$2"; echo "expected:"; echo "$3"
    exit 1
  fi
}
measured () { # FILE MEDIAN_NS
  printf '# source: measured\n# makespan_ns: min 1, median %s, max 99999999999\nop,line\n' "$2" > "$1"
}
for stem in good slow; do
  cp "$src/tests/schedules/schematic-v2.sched" "$work/$stem.sched"
  cp "$src/tests/schedules/schematic-v1.sched" "$work/$stem.advised.sched"
done
measured "$work/good.round1.csv" 9400000
measured "$work/good.round2.csv" 9700000
measured "$work/good.round3.csv" 9500000
measured "$work/good.advised.round1.csv" 6300000
measured "$work/good.advised.round2.csv" 6100000
measured "$work/good.advised.round3.csv" 6200000
measured "$work/slow.measured.csv" 9500000
measured "$work/slow.advised.measured.csv" 9600000
export STREAMSIM_PROFILE_PATH=$src/tests/profiles
got=$(STREAMSIM=$streamsim bash "$src/validate/advise-proof.sh" report schematic-c2050 "$work")
want='| schedule | as given: predicted | measured | advised: predicted | measured | gain predicted | gain measured | difference | holds |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
| good | 9000.0 us | 9500.0 us | 6000.0 us | 6200.0 us | 33.3% | 34.7% | +3.2% | yes |
| slow | 9000.0 us | 9500.0 us | 6000.0 us | 9600.0 us | 33.3% | -1.1% | -32.6% | no |'
same "report" "$got" "$want"
# the median round was kept
grep -q 'median 9500000' "$work/good.measured.csv"
grep -q 'median 6200000' "$work/good.advised.measured.csv"
run=$work/run
mkdir -p "$run"
kernels () { # N
  printf 'stream s1\n'
  for _ in $(seq "$1"); do printf 'kernel s1 grid=1 block=32 time=10us\n'; done
  printf 'sync device\n'
}
for stem in paced bare; do
  kernels 4 > "$run/$stem.sched"
  kernels 2 > "$run/$stem.advised.sched"
done
measured_host () { # FILE MEDIAN_NS
  printf '# source: measured\n# makespan_ns: min 1, median %s, max 99999999999\n# host_calls: kernel_launch=100us memcpy_async=0\nop,line\n' "$2" > "$1"
}
measured_host "$run/paced.measured.csv" 400000
measured_host "$run/paced.advised.measured.csv" 200000
measured "$run/bare.measured.csv" 400000
measured "$run/bare.advised.measured.csv" 200000
head='| schedule | as given: predicted | measured | advised: predicted | measured | gain predicted | gain measured | difference | holds |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |'
got=$(STREAMSIM=$streamsim bash "$src/validate/advise-proof.sh" report scale-a "$run")
want="$head
| bare | 40.0 us | 400.0 us | 20.0 us | 200.0 us | 50.0% | 50.0% | +45.0% | no |
| paced | 40.0 us | 400.0 us | 20.0 us | 200.0 us | 50.0% | 50.0% | +45.0% | no |"
same "report" "$got" "$want"
got=$(STREAMSIM=$streamsim bash "$src/validate/advise-proof.sh" report-run scale-a "$run")
want="$head
| bare | 40.0 us | 400.0 us | 20.0 us | 200.0 us | 50.0% | 50.0% | +45.0% | no |
| paced | 410.0 us | 400.0 us | 210.0 us | 200.0 us | 48.8% | 50.0% | +0.0% | yes |"
same "report-run" "$got" "$want"
spread=$work/spread
mkdir -p "$spread"
for stem in paced short; do
  kernels 4 > "$spread/$stem.sched"
  kernels 2 > "$spread/$stem.advised.sched"
done
measured "$spread/paced.measured.csv" 4000000
measured "$spread/paced.advised.measured.csv" 2000000
measured "$spread/short.measured.csv" 4000000
measured "$spread/short.advised.measured.csv" 3500000
got=$(STREAMSIM=$streamsim bash "$src/validate/advise-proof.sh" report-spread spread "$spread")
want='| schedule | as given: fast host | slow host | measured | advised: fast host | slow host | measured | gain predicted, fast to slow host | gain measured | holds within the spread |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
| paced | 2010.0 us | 8010.0 us | 4000.0 us | 1010.0 us | 4010.0 us | 2000.0 us | 49.8% to 49.9% | 50.0% | yes |
| short | 2010.0 us | 8010.0 us | 4000.0 us | 1010.0 us | 4010.0 us | 3500.0 us | 49.8% to 49.9% | 12.5% | no |'
same "report-spread" "$got" "$want"
if STREAMSIM=$streamsim bash "$src/validate/advise-proof.sh" report-spread scale-a "$spread" > /dev/null 2>&1; then
  echo "advise-proof.sh report-spread accepted a profile without [spread]"
  exit 1
fi
echo "advise-proof.sh report: as worked out by hand"
