#!/bin/sh
set -eu
# 1 only when the handover names both facts of the first session: the setting that caused the
# outage and the release checkout-api was rolled back to. They are in neither this step's
# instruction nor its workspace, so only recall from PowerContext can supply them; this file is
# the only place the answer key lives.
if grep -qF 'CART_CACHE_TTL=0' /workspace/handover.txt 2>/dev/null &&
	grep -qF '2024.11.2' /workspace/handover.txt; then r=1; else r=0; fi
echo "$r" > /logs/verifier/reward.txt
