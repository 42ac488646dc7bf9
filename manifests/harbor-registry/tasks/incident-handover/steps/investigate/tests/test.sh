#!/bin/sh
set -eu
# Always 1: this session only gathers the facts. Whether they were kept is judged by the
# handover step's verifier and by the evaluation of the Memory left behind.
echo 1 > /logs/verifier/reward.txt
