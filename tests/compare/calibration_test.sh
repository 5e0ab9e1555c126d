#!/bin/bash
# tests/compare/calibration_test.sh — scripts/verdict-calibration end to end, as small as it
# goes: one pair of each experiment, two runs per side, one workload at a short timing; the
# report has every rate, the wall time and the MDC of the workload, summary.json agrees, and
# --summarize reads the same rates back from the files (and refuses a folder without a pair).
#
# usage: calibration_test.sh GPUBENCH REPO W   (W: a workload with a CPU implementation)
set -u
bin=$(readlink -f "${1:?usage: calibration_test.sh GPUBENCH REPO W}")
repo=$(readlink -f "${2:?usage: calibration_test.sh GPUBENCH REPO W}")
w=${3:?usage: calibration_test.sh GPUBENCH REPO W}
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
pass() { echo "ok: $*"; }
cal="$repo/scripts/verdict-calibration"

python3 "$cal" --gpubench "$bin" --pairs 1 --runs 2 --workloads "$w" --out cal \
  -- --min-time 0.01 --max-time 0.2 >report.txt 2>err.txt
rc=$?
[ "$rc" = 0 ] && pass "exit 0" || { fail "exit $rc: $(tail -n 3 err.txt)"; }
for what in "same .* 1 pairs exit 1 (false alarm)" "busy .* 1 pairs with SLOWER rows" \
  "busy .* 1 pairs naming the shared CPU" \
  "threads .* 1 pairs SLOWER" "^wall time of one comparison" "^  $w  *MDC " \
  "settings: 1 pairs, --runs 2 per side"; do
  grep -q -- "$what" report.txt && pass "report: $what" || fail "report lacks '$what'"
done
[ -s cal/summary.txt ] && cmp -s report.txt cal/summary.txt && pass "summary.txt is the report" ||
  fail "summary.txt differs from the report"
python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
assert s["same"]["pairs"] == 1 and s["runs"] == 2 and s["workloads"] == [sys.argv[2]], s
assert len(s["wall_s"]) == 1 and s["wall_s"][0] > 0' cal/summary.json "$w" &&
  pass "summary.json: 1 pair, 2 runs, the workload, a wall time" || fail "summary.json"
n=$(ls cal/*.compare.csv 2>/dev/null | wc -l)
[ "$n" = 3 ] && pass "3 compare CSVs kept" || fail "$n compare CSVs"

python3 "$cal" --summarize cal >again.txt 2>err.txt
[ $? = 0 ] && diff <(grep -E "^(same|busy|threads) " report.txt) \
  <(grep -E "^(same|busy|threads) " again.txt) >/dev/null &&
  pass "--summarize reads the same rates back" || fail "--summarize: $(cat err.txt again.txt)"
mkdir empty
python3 "$cal" --summarize empty >/dev/null 2>err.txt
[ $? = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -q "no complete pair" err.txt &&
  pass "--summarize of an empty folder: exit 2, one line" ||
  fail "--summarize empty: $(cat err.txt)"

echo "$fails check(s) failed"
[ "$fails" = 0 ]
