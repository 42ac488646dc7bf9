#!/bin/sh
set -eu
# Rewards 1 only when this session named the library the earlier session found:
# nothing in this session's workspace or instruction holds it.
if grep -q 'libsettle.so.4' /workspace/root-cause.txt 2>/dev/null; then r=1; else r=0; fi
echo "$r" > /logs/verifier/reward.txt
