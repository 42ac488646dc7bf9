"""pc-e2e's agents for Harbor's ACP runner.

Harbor's own ACP runner drives them inside the environment, as it drives any ACP agent; only the install
step is pc-e2e's. The agent's environment is the one pc-run-bub builds for its local runner (no secret the
agent does not need): pc-run-bub hands it over in PC_E2E_HARBOR_AGENT_ENV (a JSON object) rather than in the
JobConfig, because Harbor writes the JobConfig to disk. For the one trial of a merged batch, each agent
invocation also gets its member's Scope (and model) from PC_E2E_HARBOR_INVOCATIONS, a JSON list in step order.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

from harbor.agents.installed import acp as harbor_acp
from harbor.environments.base import BaseEnvironment
from harbor.models.agent.context import AgentContext

AGENT_ID = "pc-e2e-bub"
REMOTE_VENV = "/installed-agent/bub"
# PowerContext 1.4.1's verifiers score 0 while this file exists; it is made before each session and removed only
# when the session succeeded (filters/lib/harbor_layout.h names it for the local runner).
STEP_FAILURE_MARKER = "/logs/agent/powercontext-step-failed"
# Bub keeps each session's messages under its home; a session must not find an earlier step's.
BUB_TAPES = '"${BUB_HOME:?}/tapes"'
# Harbor uploads each step's tests here before its verifier and leaves them for the next step's agent to read.
STEP_TESTS_DIR = "/tests"


def _registry_entry(version: str, package: str) -> dict[str, Any]:
    return {
        "id": AGENT_ID,
        "name": "Bub with the PowerContext plugin, as pc-e2e runs it",
        "version": version,
        "description": "Bub and the release's own PowerContext plugin (pipelines/pc-powercontext bub)",
        "distribution": {"uvx": {"package": package}},
    }


async def _checked(result: Any, what: str) -> None:
    """Harbor's environments return a failed command instead of raising: raise it, so the step fails."""
    done = await result
    if done is not None and done.return_code != 0:
        raise RuntimeError(f"{what} failed with exit code {done.return_code}: {done.stderr or done.stdout}")


class _PcE2eAgent(harbor_acp.AcpAgent):
    """Uploads Harbor's runner and a launcher for `command`; runs each step in pc-run-bub's agent environment."""

    def __init__(self, version: str, **kwargs: Any) -> None:
        super().__init__(registry_entry=_registry_entry(version, "bub"), distribution_preference=["uvx"],
                         auth_policy="disabled", permission_mode="allow", **kwargs)
        self._invocations_run = 0

    def _invocation_env(self) -> dict[str, str]:
        """pc-run-bub's agent environment, with this invocation's member Scope in a merged batch's trial."""
        env = json.loads(os.environ["PC_E2E_HARBOR_AGENT_ENV"])
        invocations = os.environ.get("PC_E2E_HARBOR_INVOCATIONS")
        if invocations is not None:
            listed = json.loads(invocations)
            if self._invocations_run >= len(listed):
                raise RuntimeError(f"the merged task has no scope for agent invocation {self._invocations_run + 1}")
            env.update(listed[self._invocations_run])
        self._invocations_run += 1
        return env

    def _launch_command(self) -> str:
        raise NotImplementedError

    async def _upload_runner(self, environment: BaseEnvironment) -> None:
        launcher = self.logs_dir / "acp-launch.sh"
        launcher.write_text(f"#!/usr/bin/env sh\nset -eu\nexec {self._launch_command()} \"$@\"\n", encoding="utf-8")
        await environment.upload_file(source_path=launcher, target_path=self._LAUNCHER_REMOTE_PATH)
        runner = Path(harbor_acp.__file__).with_name("acp_runner.py")
        await environment.upload_file(source_path=runner, target_path=self._RUNNER_REMOTE_PATH)
        await environment.exec(command=f"chmod +x {self._LAUNCHER_REMOTE_PATH} {self._RUNNER_REMOTE_PATH}", user="root")

    async def run(self, instruction: str, environment: BaseEnvironment, context: AgentContext) -> None:
        # The marker first: any failure after this line, a failed reset included, must leave it in place.
        await _checked(environment.exec(command=f"touch {STEP_FAILURE_MARKER}"), "creating the step-failure marker")
        # pc-run-bub always sets it: running without the agent's environment would test something else
        with environment.scoped_exec_env(self._invocation_env()):
            await _checked(environment.exec(command=f"rm -rf {BUB_TAPES}"), "removing Bub's earlier tapes")
            await _checked(environment.empty_dirs([STEP_TESTS_DIR], chmod=False), f"emptying {STEP_TESTS_DIR}")
            await super().run(instruction, environment, context)
        await _checked(environment.exec(command=f"rm -f {STEP_FAILURE_MARKER}"), "removing the step-failure marker")


class CommandAgent(_PcE2eAgent):
    """The agent command pc-run-bub resolved (shell words), already installed and visible in the sandbox."""

    def __init__(self, command: str, version: str = "unknown", **kwargs: Any) -> None:
        self._command = command
        super().__init__(version, **kwargs)

    def _launch_command(self) -> str:
        return self._command

    async def install(self, environment: BaseEnvironment) -> None:
        await self._upload_runner(environment)


class InstalledBubAgent(_PcE2eAgent):
    """For a remote sandbox: installs, inside it, what `bub` (a provisioned Bub venv) was built from.

    The venv's pc-e2e-adapter.json names the requirements, the plugin's source directory and the constraints
    its provisioning used; the sandbox needs Python >= 3.12 and PyPI, and gets Harbor's ACP runner venv the way
    Harbor's own ACP agent makes it.
    """

    def __init__(self, bub: str, **kwargs: Any) -> None:
        self._identity = json.loads(Path(bub, "pc-e2e-adapter.json").read_text(encoding="utf-8"))
        self._bub = Path(bub)
        super().__init__(self._identity["adapter_version"], **kwargs)

    def _launch_command(self) -> str:
        command = self._identity["command"]
        return shlex.join([f"{REMOTE_VENV}/{command[0]}", *command[1:]])

    async def install(self, environment: BaseEnvironment) -> None:
        await self.exec_as_root(environment, command=self._build_dependencies_command("uvx"))
        await environment.upload_dir(source_dir=self._identity["plugin"], target_dir="/installed-agent/plugin")
        await environment.upload_file(source_path=self._bub / ".pc-e2e-constraints.txt",
                                      target_path="/installed-agent/constraints.txt")
        requirements = " ".join(shlex.quote(r) for r in self._identity["requirements"])
        await self.exec_as_root(environment, command=(
            f"python3 -m venv {REMOTE_VENV} && PIP_CONSTRAINT=/installed-agent/constraints.txt "
            f"{REMOTE_VENV}/bin/pip install {requirements} /installed-agent/plugin"))
        await self._upload_runner(environment)
