"""pc-e2e's Harbor job plugin for a paired ON arm: the arm's Scope settled after every agent session.

PowerContext 1.4.1's paired command settles the ON arm's Scope in Harbor's agent-end hook: after the agent's
timed phase and before the verifier, so the flush neither uses the agent's time budget nor appears in its
execution time. pc-run-bub's Harbor runner attaches this plugin to such a job (`harbor run --plugin`), and the
hook runs pc-run-bub's own settling (`pc-run-bub --settle SCOPE --session N [--flush]`, the Server's client
settings from the environment), appending the one JSON line it prints to LOG, which pc-run-bub reads once
the job ended. A session that could not be settled is a line too, never an exception: Harbor awaits the hook
where an exception would replace the agent's own, such as its timeout.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from harbor.models.job.plugin import BaseJobPlugin


class SettlePlugin(BaseJobPlugin):
    """Settle `scope` after each agent session, flushing before every session but the scored one."""

    def __init__(self, command: str, scope: str, scored_session: int, log: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._argv = [str(command), "--settle", str(scope)]
        self._scored = int(scored_session)
        self._log = Path(str(log))
        self._sessions = 0

    async def on_job_start(self, job: Any) -> None:
        job.on_agent_ended(self._settle)

    async def on_job_end(self, job_result: Any) -> None:
        del job_result

    async def _settle(self, event: Any) -> None:
        del event
        session = self._sessions
        self._sessions += 1
        argv = [*self._argv, "--session", str(session), *(["--flush"] if session < self._scored else [])]
        try:
            done = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE,
                                                        stderr=asyncio.subprocess.PIPE)
            out, err = await done.communicate()
            line = out.decode().strip()
            if done.returncode != 0 or not line:
                raise RuntimeError(err.decode().strip() or f"pc-run-bub --settle exited {done.returncode}")
        except Exception as error:  # noqa: BLE001 - recorded, never raised (see the module's note)
            line = json.dumps({"session": session, "error": f"{type(error).__name__}: {error}"})
        with self._log.open("a", encoding="utf-8") as log:
            log.write(line + "\n")
