#!/usr/bin/env bash
# Long fuzzing pass of the Jazzer fuzz tests (docs/testing.md#fuzzing).
#
#   scripts/fuzz.sh [--runs N] [--duration D] [--heap SIZE] [--max-len BYTES] [target...]
#
# Targets (default: all): wire, ltl-text, ltl-packed, pg-decoder, pg-lexer, pg-scram, rcl, where.
# Each target is one @FuzzTest run in fuzzing mode (JAZZER_FUZZ=1) in its own test JVM, with a
# small heap (default -Xmx256m, so an input that makes a decoder allocate without bound fails
# with OutOfMemoryError), inputs of at most --max-len bytes (default 16384, above the limits the
# targets are configured with), at most --runs inputs (default 10000000) and at most --duration
# (default 25m). libFuzzer's -timeout=10 makes one input that runs longer than 10 s a finding
# (an endless loop). Crashing inputs land in the target's inputs directory under
# src/test/resources as crash-<sha1>, where `mvn test` replays them from then on.
# Per target it prints inputs executed, exec/s, findings and the peak heap after any GC, and
# keeps the whole log in target/fuzz/<target>.log of the module.
# Extra Maven options can be passed in MAVEN_ARGS (e.g. MAVEN_ARGS="-o -Dmaven.repo.local=...").
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
RUNS=10000000
DURATION=25m
HEAP=256m
MAX_LEN=16384

declare -A TARGETS=(
  [wire]="wire io.openrs.wire.FrameDecoderFuzzTest#framesDecodeCanonicallyOrAreRefusedWithWireProtocolException"
  [ltl-text]="ltl io.openrs.ltl.text.LtlParserFuzzTest#textParsesToCommandsThatRoundTripOrIsRefusedWithAPosition"
  [ltl-packed]="ltl io.openrs.ltl.text.LtlParserFuzzTest#packedBytesDecodeToCommandsThatRoundTripOrAreRefusedWithAnOffset"
  [pg-decoder]="pgwire io.openrs.pgwire.PgProtocolFuzzTest#frameDecoderEmitsMessagesOrOneViolationAndNeverThrows"
  [pg-lexer]="pgwire io.openrs.pgwire.PgProtocolFuzzTest#lexerSplitsIntoFaithfulSpansOrRefusesWithAPosition"
  [pg-scram]="pgwire io.openrs.pgwire.PgProtocolFuzzTest#scramRefusesMalformedAndForgedMessagesAndNeverLogsInWithoutThePassword"
  [rcl]="repserver io.openrs.repserver.admin.rcl.RclParserFuzzTest#commandsParseToCanonicalTextOrAreRefusedWithAPosition"
  [where]="repserver io.openrs.repserver.dist.WhereClauseFuzzTest#clausesParseOrAreRefusedWithAPosition"
)
ORDER=(wire ltl-text ltl-packed pg-decoder pg-lexer pg-scram rcl where)

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }

selected=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --duration) DURATION=$2; shift 2 ;;
    --heap) HEAP=$2; shift 2 ;;
    --max-len) MAX_LEN=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    -*) echo "unknown option $1" >&2; usage 2 ;;
    *) [[ -n "${TARGETS[$1]:-}" ]] || { echo "unknown target $1 (one of: ${ORDER[*]})" >&2; exit 2; }
       selected+=("$1"); shift ;;
  esac
done
[[ ${#selected[@]} -gt 0 ]] || selected=("${ORDER[@]}")

cd "$ROOT"

status=0
for target in "${selected[@]}"; do
  read -r module test <<<"${TARGETS[$target]}"
  out="$ROOT/$module/target/fuzz"
  mkdir -p "$out"
  log="$out/$target.log"
  gclog="$out/$target-gc.log"
  before=$(find "$ROOT/$module/src/test/resources" -name 'crash-*' | sort)
  echo "== $target: $test (at most $RUNS inputs, $DURATION, -Xmx$HEAP, inputs up to $MAX_LEN bytes)"
  # Only the default Surefire execution runs (a module's extra executions, such as pgwire's
  # small-heap one, would pick the same -Dtest up).
  # JUnit's own timeout (junit-platform.properties) would end the whole fuzzing run: it is
  # disabled here, and its per-method default becomes libFuzzer's per-input -timeout.
  set +e
  # shellcheck disable=SC2086
  JAZZER_FUZZ=1 JAZZER_MAX_EXECUTIONS="$RUNS" JAZZER_MAX_DURATION="$DURATION" \
    mvn -B ${MAVEN_ARGS:-} test-compile surefire:test@default-test -pl "$module" -am -Dtest="$test" \
    -Dsurefire.failIfNoSpecifiedTests=false -DtrimStackTrace=false \
    -DargLine="-ea -Xmx$HEAP -Xlog:gc:file=$gclog -XX:+HeapDumpOnOutOfMemoryError -XX:HeapDumpPath=$out \
-Djunit.jupiter.execution.timeout.mode=disabled \
-Djunit.jupiter.execution.timeout.testtemplate.method.default=10s \
-Djazzer.internal.arg.0=fuzz -Djazzer.internal.arg.1=-max_len=$MAX_LEN" \
    >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -aoE 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)
  execs=$(grep -aoE '#[0-9]+.*exec/s: [0-9]+' "$log" | tail -1 | grep -oE 'exec/s: [0-9]+' || true)
  peak=$(grep -oE '[0-9]+M->[0-9]+M' "$gclog" 2>/dev/null | cut -dM -f1 | sort -n | tail -1 || true)
  live=$(grep -oE '[0-9]+M->[0-9]+M' "$gclog" 2>/dev/null | cut -d'>' -f2 | tr -d M | sort -n | tail -1 || true)
  last=$(grep -oE '[0-9]+M->[0-9]+M' "$gclog" 2>/dev/null | tail -1 | cut -d'>' -f2 | tr -d M || true)
  after=$(find "$ROOT/$module/src/test/resources" -name 'crash-*' | sort)
  found=$(comm -13 <(echo "$before") <(echo "$after") | sed '/^$/d')
  echo "   ${runs:-no 'Done' line (see $log)}; ${execs:-exec/s unknown}; heap used at most ${peak:-?} MiB before a GC, at most ${live:-?} MiB after one (Jazzer's start-up included), ${last:-?} MiB after the last (of $HEAP)"
  if [[ -n "$found" ]]; then
    echo "   findings:"; echo "$found" | sed 's/^/     /'
  fi
  if [[ $rc -ne 0 ]]; then
    echo "   FAILED (exit $rc): $(grep -aE 'FuzzTestFindingException|Caused by|AssertionError' "$log" | head -3 | tr '\n' ' ')"
    status=1
  fi
done
exit $status
