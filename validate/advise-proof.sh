#!/usr/bin/env bash
# validate/advise-proof.sh: does the advice hold on the GPU? The schedules advised for a GPU, and the table of their measured gains against the predicted ones.
#
#   validate/advise-proof.sh prepare GPU DIR SCHEDULE...
#       for each SCHEDULE: DIR/STEM.sched (a copy) and DIR/STEM.advised.sched
#       (`streamsim advise SCHEDULE -d GPU -o ...`), and DIR/advice.txt, the
#       advice printed. Run where streamsim is built; carry DIR to the GPU.
#       ADVISE_ARGS adds options to advise (e.g. --pinned, to take the
#       pinned-memory hint).
#   validate/advise-proof.sh run GPU DIR [ROUNDS]
#       on the GPU machine: every DIR/*.sched through streamsim-validate
#       (STREAMSIM_VALIDATE, default build-gpu/validate/streamsim-validate),
#       ROUNDS (default 3) times each in a new process, the original and the
#       advised alternating; writes DIR/STEM[.advised].roundK.csv.
#   validate/advise-proof.sh report GPU DIR
#       keeps each schedule's round with the median measured makespan as
#       STEM[.advised].measured.csv, and prints the table: makespans as
#       given and advised, predicted (streamsim predict -d GPU) and measured
#       (the median over the run's repetitions, `# makespan_ns`), each gain
#       as a share of the original's makespan, and whether the advice holds:
#       measured faster, and the measured gain within 5% of the original's
#       measured makespan of the predicted gain (issue 40).
#   validate/advise-proof.sh report-spread GPU DIR
#       the gains predicted at the fast and the slow end of the profile's
#       host ([spread], sim/front/host_spread.h) beside the measured one, and
#       whether the advised schedule measured faster with a gain no further
#       than 5% of the original's measured makespan outside the two ends
#       (the rounds as `report` kept them; run `report` first).
#   validate/advise-proof.sh report-run GPU DIR
#       the same table with each schedule predicted on the profile with the
#       host call costs and pageable links its own measured run recorded
#       (`# host_calls:`, validate/run-profile.sh), as the suite's makespan
#       column is (validate/README.md): the model given the host that ran it.
#       A run that recorded none is predicted on the profile alone. The
#       profile file is GPU.ini in STREAMSIM_PROFILE_PATH's first folder
#       that has it, else in engines/profiles.
#
# STREAMSIM (default build/bin/streamsim) is the binary used here.
set -euo pipefail
cd "$(dirname "$0")/.."
streamsim=${STREAMSIM:-build/bin/streamsim}

usage () {
  echo "usage: $0 prepare GPU DIR SCHEDULE... | run GPU DIR [ROUNDS] | report GPU DIR | report-spread GPU DIR | report-run GPU DIR" >&2
  exit 2
}

# the median `# makespan_ns` of a measured CSV
measured () {
  sed -n 's/^# makespan_ns: .*median \([0-9]*\).*/\1/p' "$1"
}

# predicted makespan of SCHEDULE on GPU, in ns
predicted () {
  "$streamsim" predict "$1" -d "$2" --json - -q | sed -n 's/.*"makespan_ns" *: *\([0-9]*\).*/\1/p' | head -1
}

# the file of profile GPU, as report-run looks for it
profile_file () {
  local IFS=:
  for d in ${STREAMSIM_PROFILE_PATH:-} engines/profiles; do
    if [ -n "$d" ] && [ -f "$d/$1.ini" ]; then echo "$d/$1.ini"; return; fi
  done
  echo "$0: no profile $1.ini in STREAMSIM_PROFILE_PATH or engines/profiles" >&2
  return 2
}

# predicted makespans of SCHEDULE on GPU at the fast and the slow end of
# its host ([spread]), in ns: "FAST SLOW"; nothing where GPU has no spread
predicted_ends () {
  "$streamsim" predict "$1" -d "$2" --json - -q | awk '
    /"makespan_fast_host_ns"/ { gsub(/[^0-9]/, ""); fast = $0 }
    /"makespan_slow_host_ns"/ { gsub(/[^0-9]/, ""); slow = $0 }
    END { if (fast != "" && slow != "") print fast, slow }'
}

# predicted makespan of SCHEDULE on GPU with the host its run MEASURED.csv
# recorded (validate/run-profile.sh), in ns; on GPU alone where it has none
predicted_run () {
  local tmp profile status=0
  tmp=$(mktemp -d)
  profile=$(validate/run-profile.sh "$3" host_calls "$2" "$(profile_file "$2")") || status=$?
  if [ "$status" -eq 0 ] && [ -n "$profile" ]; then
    printf '%s\n' "$profile" > "$tmp/$2-run.ini"
    STREAMSIM_PROFILE_PATH="$tmp${STREAMSIM_PROFILE_PATH:+:$STREAMSIM_PROFILE_PATH}" \
      predicted "$1" "$2-run" || status=$?
  elif [ "$status" -eq 0 ]; then
    predicted "$1" "$2" || status=$?
  fi
  rm -rf "$tmp"
  return "$status"
}

[ $# -ge 3 ] || usage
mode=$1 gpu=$2 dir=$3
shift 3
case $mode in
  prepare)
    [ $# -ge 1 ] || usage
    mkdir -p "$dir"
    : > "$dir/advice.txt"
    for sched in "$@"; do
      stem=$(basename "$sched" .sched)
      cp "$sched" "$dir/$stem.sched"
      { echo "== $stem"; "$streamsim" advise "$dir/$stem.sched" -d "$gpu" -j 1 ${ADVISE_ARGS:-} -o "$dir/$stem.advised.sched"; } >> "$dir/advice.txt"
    done
    ;;
  run)
    rounds=${1:-3}
    bin=${STREAMSIM_VALIDATE:-build-gpu/validate/streamsim-validate}
    for round in $(seq 1 "$rounds"); do
      for sched in "$dir"/*.sched; do
        out=${sched%.sched}.round$round.csv
        timeout 120 "$bin" "$sched" --reps 10 --warmup 2 --device "$gpu" --csv "$out" \
          > "${out%.csv}.log" 2>&1 || echo "$sched round $round: exit $?" >&2
      done
    done
    ;;
  report|report-run)
    printf '| schedule | as given: predicted | measured | advised: predicted | measured | gain predicted | gain measured | difference | holds |\n'
    printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n'
    for sched in "$dir"/*.sched; do
      case $sched in *.advised.sched) continue ;; esac
      stem=$(basename "$sched" .sched)
      for which in "$stem" "$stem.advised"; do
        # the round whose makespan is the median of the rounds
        keep=$(for f in "$dir/$which".round*.csv; do
                 if [ -f "$f" ]; then echo "$(measured "$f") $f"; fi
               done \
                 | sort -n | awk '{ a[NR] = $2 } END { if (NR) print a[int ((NR + 1) / 2)] }')
        if [ -n "$keep" ]; then cp "$keep" "$dir/$which.measured.csv"; fi
      done
      if [ ! -f "$dir/$stem.measured.csv" ] || [ ! -f "$dir/$stem.advised.measured.csv" ]; then
        echo "| $stem | not measured | | | | | | | |"
        continue
      fi
      if [ "$mode" = report ]; then
        pg=$(predicted "$dir/$stem.sched" "$gpu") pa=$(predicted "$dir/$stem.advised.sched" "$gpu")
      else
        pg=$(predicted_run "$dir/$stem.sched" "$gpu" "$dir/$stem.measured.csv")
        pa=$(predicted_run "$dir/$stem.advised.sched" "$gpu" "$dir/$stem.advised.measured.csv")
      fi
      mg=$(measured "$dir/$stem.measured.csv") ma=$(measured "$dir/$stem.advised.measured.csv")
      awk -v s="$stem" -v pg="$pg" -v pa="$pa" -v mg="$mg" -v ma="$ma" 'BEGIN {
        gp = 100 * (pg - pa) / pg; gm = 100 * (mg - ma) / mg
        d = 100 * ((mg - ma) - (pg - pa)) / mg
        ok = (ma < mg && d <= 5 && d >= -5) ? "yes" : "no"
        printf "| %s | %.1f us | %.1f us | %.1f us | %.1f us | %.1f%% | %.1f%% | %+.1f%% | %s |\n",
               s, pg / 1000, mg / 1000, pa / 1000, ma / 1000, gp, gm, d, ok }'
    done
    ;;
  report-spread)
    printf '| schedule | as given: fast host | slow host | measured | advised: fast host | slow host | measured | gain predicted, fast to slow host | gain measured | holds within the spread |\n'
    printf '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n'
    for sched in "$dir"/*.sched; do
      case $sched in *.advised.sched) continue ;; esac
      stem=$(basename "$sched" .sched)
      if [ ! -f "$dir/$stem.measured.csv" ] || [ ! -f "$dir/$stem.advised.measured.csv" ]; then
        echo "| $stem | not measured | | | | | | | | |"
        continue
      fi
      given=$(predicted_ends "$dir/$stem.sched" "$gpu") advised=$(predicted_ends "$dir/$stem.advised.sched" "$gpu")
      if [ -z "$given" ] || [ -z "$advised" ]; then
        echo "$0: profile $gpu gives no [spread]" >&2
        exit 2
      fi
      mg=$(measured "$dir/$stem.measured.csv") ma=$(measured "$dir/$stem.advised.measured.csv")
      awk -v s="$stem" -v given="$given" -v advised="$advised" -v mg="$mg" -v ma="$ma" 'BEGIN {
        split(given, g, " "); split(advised, a, " ")
        gf = 100 * (g[1] - a[1]) / g[1]; gs = 100 * (g[2] - a[2]) / g[2]
        lo = gf < gs ? gf : gs; hi = gf < gs ? gs : gf
        gm = 100 * (mg - ma) / mg
        ok = (ma < mg && gm >= lo - 5 && gm <= hi + 5) ? "yes" : "no"
        printf "| %s | %.1f us | %.1f us | %.1f us | %.1f us | %.1f us | %.1f us | %.1f%% to %.1f%% | %.1f%% | %s |\n",
               s, g[1] / 1000, g[2] / 1000, mg / 1000, a[1] / 1000, a[2] / 1000, ma / 1000, gf, gs, gm, ok }'
    done
    ;;
  *)
    usage
    ;;
esac
