#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.cpp) in build-fuzz with clang-19 + ASan +
# UBSan and runs each for a bounded time, printing executions per target.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]     default 60
#
# FUZZ_RUNS=N stops each target after N executions instead (SECONDS_PER_TARGET is then only the
# upper bound on time), so that a run can show "at least N executions per target, no crash".
#
# Environment: FUZZ_TARGETS="dockerfile cmake_eval" (default: all), FUZZ_BUILD_DIR (build-fuzz),
# FUZZ_JOBS (targets run at once, default 1), FUZZ_BUILD_JOBS (ninja -j, default 2),
# FUZZ_SKIP_BUILD=1 (use the existing build), FUZZ_SANITIZERS (a new build dir's sanitizers; e.g.
# FUZZ_SANITIZERS=undefined FUZZ_BUILD_DIR=build-fuzz-ub for 3-5x more executions per second in
# long campaigns on the slow targets, memory errors then showing only as crashes).
# Seeds come from the fixtures (scripts/fuzz-corpus.py); inputs libFuzzer finds go to
# <build>/fuzz-work/<target>/, crashes to <build>/fuzz-artifacts/<target>/. A crash, leak, hang
# (-timeout) or OOM fails the script; save the input under tests/fuzz/regressions/<target>/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
build=${FUZZ_BUILD_DIR:-build-fuzz}
if [[ ${FUZZ_SKIP_BUILD:-0} != 1 ]]; then
  if [[ ! -f $build/build.ninja ]]; then
    cmake -S . -B "$build" -G Ninja -DCUDALINT_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 \
      -DCUDALINT_FUZZ_SANITIZERS="${FUZZ_SANITIZERS:-address,undefined}" >/dev/null
  fi
  ninja -C "$build" -j "${FUZZ_BUILD_JOBS:-2}" fuzz
fi
targets=()
if [[ -n ${FUZZ_TARGETS:-} ]]; then
  read -r -a targets <<<"$FUZZ_TARGETS"
else
  for f in tests/fuzz/fuzz_*.cpp; do n=$(basename "$f" .cpp); targets+=("${n#fuzz_}"); done
fi
rm -rf "$build/fuzz-corpus"
python3 scripts/fuzz-corpus.py "$build/fuzz-corpus" >/dev/null
mkdir -p "$build/fuzz-logs"

run_one() {
  local t=$1 bin="$build/fuzz/fuzz_$1"
  local work="$build/fuzz-work/$t" art="$build/fuzz-artifacts/$t/" seeds="$build/fuzz-corpus/$t"
  mkdir -p "$work" "$art" "$seeds"
  # Inputs found earlier are kept between runs (fuzz-work); the seeds are read-only.
  # UBSan aborts on the first report (-fno-sanitize-recover); detect_leaks stays on.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$bin" -max_total_time="$secs" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -timeout=20 -rss_limit_mb=2560 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$art" "$work" "$seeds" >"$build/fuzz-logs/$t.log" 2>&1
}

status=0
declare -A rc
i=0
pids=()
for t in "${targets[@]}"; do
  [[ -x $build/fuzz/fuzz_$t ]] || { echo "cudalint fuzz: no target fuzz_$t in $build/fuzz" >&2; exit 2; }
  ( run_one "$t" ) &
  pids+=("$!:$t")
  if (( ${#pids[@]} >= ${FUZZ_JOBS:-1} )); then
    p=${pids[0]}; pids=("${pids[@]:1}")
    wait "${p%%:*}" && rc[${p#*:}]=0 || rc[${p#*:}]=$?
  fi
done
for p in "${pids[@]}"; do wait "${p%%:*}" && rc[${p#*:}]=0 || rc[${p#*:}]=$?; done

printf '%-16s %14s %10s %8s  %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
  log="$build/fuzz-logs/$t.log"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  per=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  corp=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  if [[ ${rc[$t]} == 0 ]]; then res=ok; else res="FAILED (exit ${rc[$t]}; see $log)"; status=1; fi
  printf '%-16s %14s %10s %8s  %s\n' "$t" "${execs:-?}" "${per:-?}" "${corp:-?}" "$res"
done
if ((status)); then
  for t in "${targets[@]}"; do
    [[ ${rc[$t]} == 0 ]] && continue
    echo "---- $t ----"
    grep -E 'ERROR|SUMMARY|fuzz check failed|runtime error|Test unit written|timeout' "$build/fuzz-logs/$t.log" | head -20
  done
fi
exit $status
