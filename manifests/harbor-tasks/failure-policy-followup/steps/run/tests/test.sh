#!/bin/sh
set -eu
# Rewards 1 only when the agent really ran the step: its answer is in the
# ACP session updates the runner records under /logs/agent.
if grep -q '"sessionUpdate": *"agent_message_chunk"' /logs/agent/acp-events.jsonl 2>/dev/null; then
	echo 1 > /logs/verifier/reward.txt
else
	echo 0 > /logs/verifier/reward.txt
fi
