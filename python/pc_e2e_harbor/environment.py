"""A Harbor environment that runs every command in a bubblewrap sandbox on this machine.

There is no container image: the sandbox binds from this machine exactly what the local runner's does
(PC_E2E_SANDBOX_BASE, built by pc-run-bub: /usr, /etc and /opt read-only, the provisioned Bub's venvs
and the interpreter they and the Harbor venv link to read-only at their own paths, never the project,
whose catalogs hold every task's tests), and writable directories of the trial at the paths Harbor
expects, /tmp among them: as a container's, it lasts for the trial (Codex keeps its home there from one
exec of a step to the next) and goes with it. It takes the place of the base's tmpfs, before the base's
binds, so that what they bind from under this machine's /tmp still shows. The network is shared, so the agent reaches the Server on loopback. Each
exec gets its own PID namespace, so a timeout takes down everything the command started, and the PATH
pc-run-bub gives the sandbox (PC_E2E_SANDBOX_PATH: a command-line host's directory first).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sys
from pathlib import Path, PurePosixPath

from harbor.environments.base import BaseEnvironment, ExecResult
from harbor.environments.capabilities import EnvironmentCapabilities

# Harbor writes these itself (the agent's launcher and runner, each step's tests), and the agent its
# temporary files, under the trial's sandbox/.
HARBOR_ROOTS = ("/installed-agent", "/tests", "/tmp")
# The base mounts a tmpfs here before its binds, so that one under /tmp (a venv, an interpreter) shows.
TMP = "/tmp"
# The interpreter Harbor's ACP runner expects, with the ACP SDK: the Harbor venv, read-only.
RUNNER_VENV = "/opt/harbor-acp-venv"


class BwrapEnvironment(BaseEnvironment):
    """Harbor's environment contract over bubblewrap; the trial directory holds all its state."""

    @staticmethod
    def type() -> str:
        return "pc-e2e-bwrap"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        # Harbor's log directories are bound, not copied back and forth.
        return EnvironmentCapabilities(mounted=True)

    def _validate_definition(self) -> None:
        project = os.environ.get("PC_E2E_PROJECT")
        if not project or not Path(project, "pipelines", "pc-powercontext").is_file():
            raise RuntimeError("PC_E2E_PROJECT must name the pc-e2e checkout that pc-run-bub runs from")
        for name in ("PC_E2E_SANDBOX_BASE", "PC_E2E_SANDBOX_PATH"):
            if not os.environ.get(name):
                raise RuntimeError(f"{name} must hold the sandbox's base and PATH that pc-run-bub builds")
        if shutil.which("bwrap") is None:
            raise RuntimeError("bwrap (bubblewrap) is not on PATH")

    @property
    def _state_dir(self) -> Path:
        return Path(self.trial_paths.trial_dir).resolve()

    def _trial_binds(self) -> list[tuple[str, Path, bool]]:
        """The trial's own directories: the working directory and what Harbor and the agent write."""
        binds = [("/workspace", self._state_dir / "workspace", False)]
        return binds + [(root, self._sandbox_dir(root), False) for root in HARBOR_ROOTS]

    def _sandbox_dir(self, root: str) -> Path:
        """The trial's directory for one of HARBOR_ROOTS."""
        return self._state_dir / "sandbox" / root.lstrip("/")

    def _binds(self) -> list[tuple[str, Path, bool]]:
        """(path in the sandbox, path here, read-only) for every bound path, longest first."""
        binds = self._trial_binds()
        for mount in self._mounts:
            if mount.get("type", "bind") == "bind" and mount.get("source") and mount.get("target"):
                binds.append((mount["target"], Path(mount["source"]), bool(mount.get("read_only"))))
        return sorted(binds, key=lambda b: len(b[0]), reverse=True)

    def _host_path(self, path: str) -> Path:
        """Where a sandbox path lives here; only the bound paths can be reached from outside, and never past them."""
        target = PurePosixPath(os.path.normpath(path if path.startswith("/") else f"/workspace/{path}"))
        for inside, here, _ in self._binds():
            try:
                rest = target.relative_to(inside)
            except ValueError:
                continue
            return here / rest
        raise RuntimeError(f"{path} is not bound in the pc-e2e sandbox (bound: {', '.join(b[0] for b in self._binds())})")

    async def start(self, force_build: bool) -> None:
        # the mounts' sources exist already (a file or two among them); the trial's directories are made here
        for _, here, _ in self._trial_binds():
            here.mkdir(parents=True, exist_ok=True)

    async def stop(self, delete: bool) -> None:
        # The sandbox is gone with its last process; the trial directory stays as evidence, but for /tmp,
        # which goes as a deleted container's does: what an agent leaves there (Codex's copy of its key,
        # when a step ends before Codex's own cleanup) is no evidence.
        if delete:
            shutil.rmtree(self._sandbox_dir(TMP), ignore_errors=True)

    async def upload_file(self, source_path: Path | str, target_path: str) -> None:
        target = self._host_path(target_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source_path, target)

    async def upload_dir(self, source_dir: Path | str, target_dir: str) -> None:
        shutil.copytree(source_dir, self._host_path(target_dir), dirs_exist_ok=True)

    async def download_file(self, source_path: str, target_path: Path | str) -> None:
        Path(target_path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(self._host_path(source_path), target_path)

    async def download_dir(self, source_dir: str, target_dir: Path | str) -> None:
        shutil.copytree(self._host_path(source_dir), target_dir, dirs_exist_ok=True)

    def _argv(self, command: str, cwd: str | None) -> list[str]:
        harbor_venv = os.environ.get("PC_E2E_HARBOR_VENV", sys.prefix)
        # What the local runner's sandbox binds from this machine, as pc-run-bub's base/sandbox.c builds it.
        base = json.loads(os.environ["PC_E2E_SANDBOX_BASE"])
        argv = ["bwrap", *_trial_tmp(base, self._sandbox_dir(TMP))]
        argv += ["--ro-bind", harbor_venv, RUNNER_VENV]
        for inside, here, read_only in sorted(self._binds(), key=lambda b: len(b[0])):
            if inside != TMP:
                argv += ["--ro-bind" if read_only else "--bind", str(here), inside]
        argv += ["--chdir", cwd or "/workspace", "--", "bash", "-c", command]
        return argv

    async def exec(self, command: str, cwd: str | None = None, env: dict[str, str] | None = None,
                   timeout_sec: int | None = None, user: str | int | None = None) -> ExecResult:
        # One user here: `user` (Harbor asks for root to install and chmod) changes nothing.
        process_env = {"PATH": os.environ["PC_E2E_SANDBOX_PATH"], "HOME": "/tmp", "TMPDIR": "/tmp"}
        for name in ("LANG", "LC_ALL"):
            if os.environ.get(name):
                process_env[name] = os.environ[name]
        process_env.update(self._merge_env(env) or {})
        process = await asyncio.create_subprocess_exec(
            *self._argv(command, cwd), env=process_env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        try:
            output, _ = await asyncio.wait_for(process.communicate(), timeout=timeout_sec)
        except asyncio.TimeoutError:
            raise RuntimeError(f"Command timed out after {timeout_sec} seconds") from None
        finally:
            # a timeout, a cancellation (Harbor's agent deadline) or any other failure ends the sandbox
            if process.returncode is None:
                _kill(process)
                await process.wait()
        return ExecResult(stdout=output.decode("utf-8", "replace"), stderr=None, return_code=process.returncode)


def _trial_tmp(base: list[str], tmp: Path) -> list[str]:
    """The sandbox base with the trial's /tmp bound where the base mounts its tmpfs, before the binds."""
    for i in range(len(base) - 1):
        if base[i:i + 2] == ["--tmpfs", TMP]:
            return [*base[:i], "--bind", str(tmp), TMP, *base[i + 2:]]
    raise RuntimeError(f"PC_E2E_SANDBOX_BASE mounts nothing at {TMP} for the trial's own")


def _kill(process: asyncio.subprocess.Process) -> None:
    # bwrap is the group's leader and its PID 1 the sandbox's init: killing the group ends the sandbox.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
