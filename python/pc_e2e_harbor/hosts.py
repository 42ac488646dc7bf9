"""PowerContext's own Harbor agents for Codex and Claude Code, with only their download replaced.

The release's PowerContextCodexAgent and PowerContextClaudeCodeAgent (its e2e/bub/src, on PYTHONPATH) run
unchanged: their install and run, their plugin commands, their flags. Harbor's installed agent below them
would download the host with npm or curl, which these machines cannot reach. Here the host is the
provisioned PyPI wheel's binary, bound read-only into the sandbox and first on its PATH
(pipelines/pc-powercontext codex|claude-code): _Provisioned sits between the release's agent and Harbor's in
the method order, so the release's `super().install()` lands on a check that the binary's `--version` is the
release's pin, and nothing is installed.
"""

from __future__ import annotations

from typing import Any

from harbor.agents.installed.claude_code import ClaudeCode
from harbor.agents.installed.codex import Codex
from harbor.environments.base import BaseEnvironment
from powercontext_e2e.harbor_claude_code import PowerContextClaudeCodeAgent
from powercontext_e2e.harbor_codex import PowerContextCodexAgent

# The Codex plugin's runtime is synced by the release's own command from uv's cache, offline: a writable
# copy of the provisioned cache (uv cannot lock a read-only one), with no download of Python either.
INSTALLED_UV_CACHE = "/installed-agent/uv-cache"


class _Provisioned:
    """The host is already in the sandbox: its version must be the pin the release's agent asks for."""

    async def install(self, environment: BaseEnvironment) -> None:
        # the version on stdout; the sandbox's exec merges stderr, where Codex warns of its home under /tmp
        result = await environment.exec(command=f"{self.get_version_command()} 2>/dev/null")
        said = (result.stdout or "").strip()
        found = self.parse_version(said) if result.return_code == 0 else None
        if found != self._version:
            raise RuntimeError(
                f"the provisioned {self.name()} is {found or 'not runnable'} ({said or 'no output'}), "
                f"not the {self._version} this PowerContext pins")


class CodexAgent(PowerContextCodexAgent, _Provisioned, Codex):
    """1.4.1's Codex agent on the provisioned wheel; the ON arm's plugin runtime synced offline."""

    def __init__(self, *, uv_cache: str | None = None, **kwargs: Any) -> None:
        self._uv_cache = uv_cache
        super().__init__(**kwargs)

    async def install(self, environment: BaseEnvironment) -> None:
        if not self._powercontext:
            await super().install(environment)
            return
        if not self._uv_cache:
            raise RuntimeError("the ON arm's Codex plugin needs uv_cache: the provisioned uv cache in the sandbox")
        await self.exec_as_root(environment, command=f"cp -a {self._uv_cache} {INSTALLED_UV_CACHE}")
        offline = {"UV_OFFLINE": "1", "UV_PYTHON_DOWNLOADS": "never", "UV_CACHE_DIR": INSTALLED_UV_CACHE}
        with environment.scoped_exec_env(offline):
            await super().install(environment)


class ClaudeCodeAgent(PowerContextClaudeCodeAgent, _Provisioned, ClaudeCode):
    """1.4.1's Claude Code agent on the CLI the provisioned Agent SDK wheel bundles."""
