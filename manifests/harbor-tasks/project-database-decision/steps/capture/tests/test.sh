#!/bin/sh
set -eu
# Always rewards 1: acceptance is judged on Memory (pc-evaluate's probes), not here.
echo 1 > /logs/verifier/reward.txt
