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
#   CONTRACT_ARGS         more of the harness's options, one argument a line (optional):
#                         --allow-refusal, --only, --skip, --timeout, --config with --env…
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

# Refuses before anything runs, naming the Action's input: exit 2, one annotation, the summary says why.
refuse() {
  echo "::error title=Contract tests not run::$1"
  printf '## Contract tests not run\n\n%s\n' "$1" | summarise
  finish 2
}

[ -n "${CONTRACT_BASE_URL:-}" ] || refuse "the base-url input is empty: give the API's base URL, ending in /v1 (a workflow variable, such as vars.STAGING_BASE_URL)"
# A pull request from a fork gets no secrets: its api-key arrives empty.
[ -n "${CONTRACT_API_KEY:-}" ] || refuse "the api-key input is empty: pass a secret (secrets.ANIMAL_STORE_API_KEY). A workflow run for a pull request from a fork is given no secrets: run the contract tests on push, or on pull requests from this repository's branches"

# The key by the name of its variable: the api-key input wins over a --config environment's own key, and is on no command line.
args=(--base-url "${CONTRACT_BASE_URL}" --api-key-from CONTRACT_API_KEY)
[ -n "${CONTRACT_SEED:-}" ] && args+=(--seed "$CONTRACT_SEED")
[ -n "${CONTRACT_EXAMPLES:-}" ] && args+=(--examples "$CONTRACT_EXAMPLES")
case "${CONTRACT_READ_ONLY:-false}" in
  true) args+=(--read-only) ;;
  false | '') ;;
  *) refuse "the read-only input must be true or false" ;;
esac
# One argument a line, as written: no shell reads them, so nothing in them is expanded or split again.
while IFS= read -r line; do
  [ -n "$line" ] && args+=("$line")
done <<<"${CONTRACT_ARGS:-}"


mkdir -p "$reports"
# A report left by an earlier run in the same folder must not pass for this one's.
rm -f "$reports/junit.xml" "$reports/report.html" "$reports/summary.md"
# The key goes in CONTRACT_API_KEY, which the harness reads; it is never an argument.
# Its standard error is kept too (the harness never writes the key there), to annotate a run that could not start.
errors="$(mktemp)"
node "$harness" "${args[@]}" \
  --reporter github \
  --reporter junit --output "$reports/junit.xml" \
  --reporter html --output "$reports/report.html" \
  --reporter markdown --output "$reports/summary.md" \
  2> >(tee "$errors" >&2)
code=$?
wait

if [ -f "$reports/summary.md" ]; then
  summarise <"$reports/summary.md"
else
  # Not run at all (a bad option, a target that cannot be reached): its reason, as the harness said it, annotates the run.
  reason="$(grep -v '^Run animal-store-contract --help' "$errors" | sed 's/^animal-store-contract: //' | head -n 3)"
  [ -n "$reason" ] || reason="the harness exited with code $code before it judged any rule"
  escaped="${reason//'%'/'%25'}"
  escaped="${escaped//$'\r'/'%0D'}"
  echo "::error title=Contract tests not run::${escaped//$'\n'/'%0A'}"
  printf '## Contract tests not run\n\n```\n%s\n```\n' "$reason" | summarise
fi
rm -f "$errors"
finish "$code"
