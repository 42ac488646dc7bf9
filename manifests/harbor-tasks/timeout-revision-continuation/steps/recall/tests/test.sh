#!/bin/sh
# The recall step's verifier, which scores the task: grade.py writes 1 when
# /workspace/answer.json holds both expected values and nothing else. The 0
# written first stays if the grader cannot run to its end.
set -eu

echo 0 >/logs/verifier/reward.txt
python3 /tests/grade.py /workspace/answer.json /logs/verifier/reward.txt
