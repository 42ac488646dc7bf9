#!/bin/sh
set -eu
# Rewards 1 when the plan respects the freeze window and names the replicas.
if grep -q '23:30 UTC' /workspace/release-plan.txt 2>/dev/null && grep -q '3 database replicas' /workspace/release-plan.txt; then r=1; else r=0; fi
echo "$r" > /logs/verifier/reward.txt
