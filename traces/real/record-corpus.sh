#!/bin/bash
# record-corpus.sh: records the corpus of traces/real/ on a GPU machine, every program already built.
#
# Usage: traces/real/record-corpus.sh BIN PROGRAMS OUT [SECOND_PASS_S]
#   BIN       streamsim-validate, libstreamsim-record.so and libcupti.so.13
#             (README, "The whole suite, on a GPU machine without GLib")
#   PROGRAMS  cs/NAME: cuda-samples' programs, cls/NAME: CUDALibrarySamples'
#             programs, built for sm_90 (each traces/real/NAME/README.md names
#             its source); py/pytorch-examples and py/cupy-examples: the
#             fetched trees of pytorch/examples and of cupy's examples/ folder,
#             run as they are. Nothing here builds them: the workplace keeps no
#             build recipe for fetched code.
#   OUT       gets rec/NAME.{sched,measured.csv,log,out}, rec/run2/ (a second
#             run of the compiled programs, while the time since the start is
#             under SECOND_PASS_S, default 300) and runs.txt
# Each program is recorded with its defaults (CUDA_MODULE_LOADING and
# CUDA_DEVICE_MAX_CONNECTIONS unset: lazy loading, 8 connections), in a scratch
# folder under /tmp/work, with at most 120 s each.
set -u
D=$(cd "$(dirname "$0")" && pwd)
BIN=$(cd "$1" && pwd); P=$(cd "$2" && pwd); OUT=$3; BUDGET2=${4:-300}
T0=$(date +%s)
V=$BIN/streamsim-validate
export LD_LIBRARY_PATH=$BIN:/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupy-cache
R=$OUT/rec; mkdir -p $R $R/run2
W=/tmp/work; mkdir -p $W
PY=$P/py
: > $OUT/runs.txt

rec() { # rec DIR NAME CWD CMD...
  local dir=$1 name=$2 cwd=$3; shift 3
  local s=$(date +%s.%N)
  ( cd "$cwd" && timeout -k 5 120 "$V" --record "$dir/$name.sched" --csv "$dir/$name.measured.csv" \
      --log "$dir/$name.log" -- "$@" ) > "$dir/$name.out" 2>&1
  local rc=$?
  printf '%s %s rc=%d %ss\n' "$(basename $dir)" "$name" $rc "$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $s}")" | tee -a $OUT/runs.txt
  tail -2 "$dir/$name.out" | sed 's/^/    /'
}

natives() { # natives DIR
  local r=$1
  for p in matrixMul simpleCallback simpleZeroCopy reduction streamOrderedAllocation StreamPriorities \
           globalToShmemAsyncCopy jacobiCudaGraphs simpleCudaGraphs MersenneTwisterGP11213 batchCUBLAS \
           conjugateGradientCudaGraphs simpleCUFFT BlackScholes MonteCarloMultiGPU transpose; do
    rec $r $p $W $P/cs/$p
  done
  for p in LtSgemmSimpleAutoTuning cufft_1d_c2c cublas_gemmStridedBatched; do
    rec $r $p $W $P/cls/$p
  done
}

natives $R

# CuPy's examples, run as they are from the fetched tree
rec $R cupy_map_reduce $PY/cupy-examples/examples/stream python3 map_reduce.py
rec $R cupy_memcpy $PY/cupy-examples/examples/stream python3 cupy_memcpy.py
rec $R cupy_sgemm $PY/cupy-examples/examples/gemm python3 sgemm.py --m 1024 --n 1024 --k 2048

# pytorch/examples. word_language_model's data: the repository's wikitext-2
# valid.txt as the training text (train.txt was missing from the copy fetched
# here; with --dry-run one training batch runs), and the first 60 lines of
# valid.txt and test.txt to evaluate on, which keeps the recording small.
WL=$W/wikitext-2; mkdir -p $WL
cp $PY/pytorch-examples/word_language_model/data/wikitext-2/valid.txt $WL/train.txt
head -n 60 $PY/pytorch-examples/word_language_model/data/wikitext-2/valid.txt > $WL/valid.txt
head -n 60 $PY/pytorch-examples/word_language_model/data/wikitext-2/test.txt > $WL/test.txt
mkdir -p $W/wlm-lstm $W/wlm-tf $W/dcgan $W/imagenet
rec $R word_language_model $W/wlm-lstm python3 $PY/pytorch-examples/word_language_model/main.py \
    --data $WL --epochs 1 --dry-run --accel
rec $R word_language_model_transformer $W/wlm-tf python3 $PY/pytorch-examples/word_language_model/main.py \
    --data $WL --model Transformer --epochs 1 --dry-run --accel
rec $R dcgan $W/dcgan python3 $PY/pytorch-examples/dcgan/main.py --dataset fake --accel --niter 1 --batchSize 250 \
    --workers 2 --manualSeed 1 --outf $W/dcgan
# imagenet: an image folder of random JPEGs (make-images.py beside this script)
python3 $D/make-images.py $W/imagenet/sample 32 16
rec $R imagenet $W/imagenet python3 $PY/pytorch-examples/imagenet/main.py --epochs 1 --gpu 0 -b 16 -j 2 \
    -p 1 $W/imagenet/sample

# a second run of the native programs, for run-to-run spread, while time allows
if [ $(( $(date +%s) - T0 )) -lt $BUDGET2 ]; then natives $R/run2; rm -f $R/run2/*.log; fi

echo "total $(( $(date +%s) - T0 ))s"
