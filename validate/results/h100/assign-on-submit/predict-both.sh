#!/bin/bash
# predict-both.sh GPU [FOLDER]: predicts every round measured in validate/results/GPU/FOLDER/
# (default assign-on-submit; connections-more and connections-more/helper-only also hold
# rounds) with the shipped profile (assign_on_submit = true) into
# S.roundN.submit.predicted.csv and with assign_on_submit = false (creation order) into
# S.roundN.create.predicted.csv, and prints the errors (validate/predict-rounds.sh).
# Run from the repository root.
exec "$(dirname "$0")/../../../predict-rounds.sh" "${1:?usage: predict-both.sh GPU [FOLDER]}" \
  "${2:-assign-on-submit}" submit create '[queues]\nassign_on_submit = false'
