#!/usr/bin/env bash
# The step of the GitHub Action (action.yml at the repository's root) that
# runs the contract harness. Its inputs come as variables, so that nothing,
# the key least of all, is on a command line another process could read:
#   CONTRACT_BASE_URL     the API's base URL, ending in /v1 (required)
#   CONTRACT_API_KEY      the key; the harness reads it from here and never prints it (required)
#   CONTRACT_SEED         replay a run's generated cases (optional)
#   CONTRACT_EXAMPLES     random cases per operation (optional)
#   CONTRACT_READ_ONLY    true: skip the rules that create animals (default false)
#   CONTRACT_REPORTS_DIR  where the JUnit, HTML and Markdown reports go (default contract-reports)
#   CONTRACT_HARNESS      the harness's built bin (default: the one beside this script)
# and those GitHub sets for every step: GITHUB_STEP_SUMMARY (the job
# summary, Markdown, appended to) and GITHUB_OUTPUT (the step's outputs).
# It exits with the harness's code: 0 passed, 1 a rule failed, 2 not run or not judged.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
harness="${CONTRACT_HARNESS:-$here/../dist/src/contract-tests/bin.js}"
reports="${CONTRACT_REPORTS_DIR:-contract-reports}"

# Appends Markdown to the job summary, when there is one (not when run by hand).
summarise() {
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi
}

finish() {
  [ -n "${GITHUB_OUTPUT:-}" ] && echo "exit-code=$1" >>"$GITHUB_OUTPUT"
  exit "$1"
}

args=(--base-url "${CONTRACT_BASE_URL:-}")
[ -n "${CONTRACT_SEED:-}" ] && args+=(--seed "$CONTRACT_SEED")
[ -n "${CONTRACT_EXAMPLES:-}" ] && args+=(--examples "$CONTRACT_EXAMPLES")
case "${CONTRACT_READ_ONLY:-false}" in
  true) args+=(--read-only) ;;
  false | '') ;;
  *)
    echo "::error title=animal-store-contract::the read-only input must be true or false"
    printf '## Contract tests not run\n\nThe `read-only` input must be `true` or `false`.\n' | summarise
    finish 2
    ;;
esac

mkdir -p "$reports"
# A report left by an earlier run in the same folder must not pass for this one's.
rm -f "$reports/junit.xml" "$reports/report.html" "$reports/summary.md"
# The key goes in CONTRACT_API_KEY, which the harness reads; it is never an argument.
node "$harness" "${args[@]}" \
  --reporter github \
  --reporter junit --output "$reports/junit.xml" \
  --reporter html --output "$reports/report.html" \
  --reporter markdown --output "$reports/summary.md"
code=$?

if [ -f "$reports/summary.md" ]; then
  summarise <"$reports/summary.md"
else
  # Not run at all (a bad input, a target that cannot be reached): the reason is in the step's log.
  printf '## Contract tests not run\n\nThe harness exited with code %s before it judged any rule: the step'"'"'s log says why.\n' "$code" | summarise
fi
finish "$code"
