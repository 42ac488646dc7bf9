#!/bin/sh
set -eu
# Always rewards 1: the finding is judged where it matters, in the next session and on Memory.
echo 1 > /logs/verifier/reward.txt
