#!/bin/bash
# predict.sh GPU: predicts every round measured in validate/results/GPU/copy-queues/ with
# the profile as shipped (copy queues as measured) into S.roundN.shared.predicted.csv and
# with default_copy_connections = 8 (a copy queue per connection, the model before) into
# S.roundN.own.predicted.csv, and prints the errors (validate/predict-rounds.sh).
# Run from the repository root.
exec "$(dirname "$0")/../../../predict-rounds.sh" "${1:?usage: predict.sh GPU}" copy-queues \
  shared own '[queues]\ndefault_copy_connections = 8'
