#!/bin/sh
# The capture step's verifier. Its reward is diagnostic only: the task is
# scored by its last step (multi_step_reward_strategy "final"), the recall.
set -eu

readme=/workspace/README.md
if [ -f "$readme" ] && grep -q 'tracked' "$readme" && ! grep -q 'traked' "$readme"; then
	echo 1 >/logs/verifier/reward.txt
else
	echo 0 >/logs/verifier/reward.txt
fi

# The recall session shares this workspace. Leave it nothing of this session
# but the corrected README, so that a note the agent wrote here cannot stand
# in for what it remembers of the conversation. The reward is already
# written; whatever cannot be removed is named in the verifier's output.
find /workspace -mindepth 1 -delete || echo 'could not empty /workspace' >&2
printf '%s\n' '# Shipment tracker' '' "Every parcel is tracked from the loading dock to the customer's door." >"$readme"
