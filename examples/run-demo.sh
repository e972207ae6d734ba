#!/bin/sh
# writ's main job, end to end: a plan a model might have written is checked, imported, frozen,
# rendered for the operator, approved at the digest the operator read, and run against the demo
# MCP tools on a SQLite store. Run it from the repository root: sh examples/run-demo.sh
set -eu

cargo build --release -q -p writ-cli -p writ-demo-tools
writ=target/release/writ
plan=examples/plans/q3-review.json

# The demo tools serve a scratch copy of examples/demo-root, so the run's writes (the summary,
# the outbox, the queues) land there and the repository stays as it is.
work=$(mktemp -d "${TMPDIR:-/tmp}/writ-demo.XXXXXX")
cp -R examples/demo-root "$work/root"
cat > "$work/tools.json" <<JSON
{"mcpServers": {"demo": {"command": "$PWD/target/release/writ-demo-tools", "args": ["--root", "$work/root"]}}}
JSON
store="$work/writ.db"

echo "== check: every freeze check, with the tools the demo server lists"
$writ plan check "$plan" --tools "$work/tools.json"
echo
echo "== import and freeze"
$writ plan import "$plan" --store "$store"
$writ plan freeze q3-review --tools "$work/tools.json" --store "$store"
echo
echo "== what the operator reads before approving"
$writ plan render "$plan" --format prose
digest=$($writ plan digest "$plan")
echo
echo "== approve at digest $digest"
$writ plan approve q3-review --digest "$digest" --by operator --store "$store"
echo
echo "== run it"
$writ run start q3-review --input '{"folder": "q3"}' --run-id q3-review-1 \
  --tools "$work/tools.json" --model examples/model.json --store "$store"
echo
echo "== what the run did to the demo files"
echo "outbox:  $(cat "$work/root/outbox.jsonl")"
echo "summary: $(cat "$work/root/reports/q3/summary.txt")"
echo
echo "(store and files kept in $work)"
