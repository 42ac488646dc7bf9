"""pc-e2e comma-command stand-in agent (not Bub).

Run through the sh wrapper ``pipelines/pc-standin-agent``, which makes sure the
project virtualenv exists and starts this file with its interpreter.

Bub needs Python >= 3.12; where it is missing, deterministic (``model: false``)
workloads run on this agent instead. It speaks ACP on stdin/stdout through the
official ACP Python SDK (``acp``, PyPI ``agent-client-protocol``) and calls
PowerContext through the official client (``powercontext.client``), and it
reproduces what ``bub-acp-server`` with the PowerContext Bub plugin does for
*comma commands* (docs/DESIGN.md §5.7):

* ``initialize`` echoes ``protocolVersion`` and names itself in ``agentInfo``
  (``pc-e2e-standin``), so a replay never claims Bub ran; no ``authMethods``.
* ``session/new`` returns a uuid4-hex ``sessionId``; unknown session ids in
  ``session/prompt`` are adopted, as Bub does. ``session/cancel`` is ignored
  (Bub ignores it too); other optional methods answer -32601.
* ``session/prompt``: text blocks joined with "\\n" and stripped (other blocks
  become bracketed labels, as in bub-acp-server, so a leading non-text block
  keeps the prompt off the comma path). A prompt starting with "," is parsed
  like Bub (``shlex.split``; first word = tool name; ``key=value`` split at the
  first "="; a positional word after a keyword is an error) and dispatched to
  ``powercontext.remember`` / ``powercontext.search`` / ``powercontext.context``
  with the plugin's argument models and reply texts.
* Success: one ``agent_message_chunk`` with the reply (none when it is empty),
  then ``stopReason: end_turn``. Failure: one ``agent_message_chunk``
  ``An error occurred at stage 'turn': <str(exc)>``, then a JSON-RPC error:
  -32602 "Invalid params" ``{"errors": [...]}`` for a pydantic ValidationError,
  else -32603 "Internal error" ``{"details": str(exc)}``.

Deliberate differences from Bub, decided here:

* Non-comma prompts (Bub's model loop) fail the turn with -32603: the stand-in
  has no model.
* Bub runs an unknown comma name as a shell line through the client's
  ``terminal/*`` methods. The stand-in does the same only as far as Bub's
  observable behaviour goes: if the client did not advertise ``terminal`` it
  fails exactly like Bub ("ACP client does not support terminal methods");
  if it did, the line runs through the client's terminal as
  ``bash -lc <line>`` (30 s limit, killed and released afterwards), a non-zero
  exit failing the turn with "command exited with code N\\noutput:\\n…".
  Bub's own built-in commands (``,help``, ``,tape.*``, ``,fs.*``, ``,bash``…)
  do not exist here and therefore take that same shell path, except
  ``,tape.info``: the catalog's failure-policy follow-up runs it as a step that
  needs neither PowerContext nor the client's terminal, so the stand-in
  answers it, with its session id in place of a tape it does not keep.
* The PowerContext client sends ``POWERCONTEXT_CLIENT_API_TOKEN`` (when set) as
  a bearer token; the Bub plugin sends none.
* Validation errors are always sent as JSON: where pydantic's error list holds
  values JSON cannot carry (e.g. ``,powercontext.context`` with no argument),
  the list is taken from ``ValidationError.json()`` instead.
* Settings are read at start-up; invalid ones end the process (exit 1) with a
  message on stderr, before any ACP traffic.

Settings (environment, empty values ignored): ``POWERCONTEXT_BUB_BASE_URL``
(default ``http://127.0.0.1:8000``, trailing "/" stripped),
``POWERCONTEXT_BUB_SCOPE_ID`` (default ``bub:`` + the first 20 hex digits of
sha256 of the resolved working directory, as the plugin does),
``POWERCONTEXT_BUB_TIMEOUT`` (seconds, > 0, default 10),
``POWERCONTEXT_CLIENT_API_TOKEN`` (optional bearer token).

Only ACP frames reach stdout: the original stdout descriptor is kept for the
SDK and descriptor 1 is pointed at stderr, where all logging goes.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import select
import shlex
import stat
import sys
import threading
import uuid
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator, validate_call
from pydantic_settings import BaseSettings, SettingsConfigDict

import acp
from acp import RequestError
from acp.schema import (
    AgentCapabilities,
    ClientCapabilities,
    Implementation,
    InitializeResponse,
    NewSessionResponse,
    PromptResponse,
)
from powercontext.client import PowerContextClient
from powercontext.http import PrepareContextRequest, RememberMemoryRequest, SearchMemoryRequest

AGENT_NAME = "pc-e2e-standin"
AGENT_TITLE = "pc-e2e comma-command stand-in (not Bub)"
AGENT_VERSION = "0.1.0"
SHELL_TIMEOUT_SECONDS = 30

log = logging.getLogger("pc-standin-agent")


class Settings(BaseSettings):
    """The Bub plugin's connection settings (prefix POWERCONTEXT_BUB_)."""

    model_config = SettingsConfigDict(env_prefix="POWERCONTEXT_BUB_", env_ignore_empty=True, extra="ignore")

    base_url: str = "http://127.0.0.1:8000"
    scope_id: str = Field(default_factory=lambda: default_scope_id(Path.cwd()), min_length=1)
    timeout: float = Field(default=10.0, gt=0)

    @field_validator("base_url")
    @classmethod
    def _strip_base_url(cls, value: str) -> str:
        return value.strip().rstrip("/")


def default_scope_id(workspace: Path) -> str:
    digest = hashlib.sha256(str(workspace.resolve()).encode()).hexdigest()
    return "bub:" + digest[:20]


# Argument models, named like the plugin's so validation messages read the same.
class SearchInput(BaseModel):
    query: str = Field(description="Question or topic to recall from durable project memory.")
    limit: int = Field(5, ge=1, le=20, description="Maximum number of memory entries to return.")


class RememberInput(BaseModel):
    text: str = Field(description="Durable decision, preference, constraint, or procedure to remember.")
    kind: str = Field("agent-note", description="Stable category for the memory entry.")
    reason: str | None = Field(None, description="Why this information should remain available across sessions.")


@validate_call
def prepare_context(query: str) -> str:
    """Validates ``powercontext.context`` arguments the way Bub's function tools do."""
    return query


def parse_command(line: str) -> tuple[str, list[str]]:
    """Split a comma command (without the comma) into its name and argument tokens."""
    words = shlex.split(line.strip())
    if not words:
        return "", []
    return words[0], words[1:]


def parse_args(tokens: list[str]) -> tuple[list[str], dict[str, str]]:
    positional: list[str] = []
    kwargs: dict[str, str] = {}
    seen_keyword = False
    for token in tokens:
        if "=" in token:
            key, value = token.split("=", 1)
            kwargs[key] = value
            seen_keyword = True
        elif seen_keyword:
            raise ValueError(f"positional argument '{token}' cannot appear after keyword arguments")
        else:
            positional.append(token)
    return positional, kwargs


def prompt_text(blocks: list[Any]) -> str:
    """Flatten ACP prompt blocks into one string, as bub-acp-server does."""
    parts: list[str] = []
    for block in blocks:
        kind = getattr(block, "type", None)
        if kind == "text":
            parts.append(block.text)
        elif kind == "resource_link":
            parts.append(f"[resource: {block.name}] {block.uri}")
        elif kind == "resource":
            resource = block.resource
            text = getattr(resource, "text", None)
            parts.append(text if isinstance(text, str) else f"[resource: {resource.uri}]")
        elif kind == "image":
            parts.append(f"[image: {block.uri}]" if getattr(block, "uri", None) else "[image]")
        elif kind == "audio":
            parts.append("[audio]")
        else:
            parts.append(f"[unsupported ACP content: {kind}]")
    return "\n".join(parts).strip() or "[ACP prompt attachment]"


def to_request_error(exc: BaseException) -> RequestError:
    if isinstance(exc, ValidationError):
        errors: Any = exc.errors()
        try:
            json.dumps(errors)
        except (TypeError, ValueError):
            errors = json.loads(exc.json())
        return RequestError.invalid_params({"errors": errors})
    return RequestError.internal_error({"details": str(exc)})


class StandinAgent:
    """ACP agent methods; the SDK routes requests to them by name."""

    def __init__(self, settings: Settings, token: str | None) -> None:
        self._settings = settings
        self._token = token
        self._conn: Any = None
        self._client_capabilities: ClientCapabilities | None = None
        self._session_cwd: dict[str, str] = {}

    def on_connect(self, conn: Any) -> None:
        self._conn = conn

    async def initialize(
        self,
        protocol_version: int,
        client_capabilities: ClientCapabilities | None = None,
        client_info: Any = None,
        **kwargs: Any,
    ) -> InitializeResponse:
        del client_info, kwargs
        self._client_capabilities = client_capabilities
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(),
            agent_info=Implementation(name=AGENT_NAME, title=AGENT_TITLE, version=AGENT_VERSION),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        del kwargs
        session_id = uuid.uuid4().hex
        self._session_cwd[session_id] = cwd
        log.info("session %s (cwd %s)", session_id, cwd)
        return NewSessionResponse(session_id=session_id)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        del kwargs
        log.info("session/cancel for %s ignored (comma commands run to completion)", session_id)

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        del kwargs
        self._session_cwd.setdefault(session_id, os.getcwd())
        text = prompt_text(prompt)
        try:
            reply = await self._turn(session_id, text)
        except Exception as exc:
            log.info("turn failed: %s: %s", type(exc).__name__, exc)
            await self._say(session_id, f"An error occurred at stage 'turn': {exc}")
            raise to_request_error(exc) from None
        if reply:
            await self._say(session_id, reply)
        return PromptResponse(stop_reason="end_turn")

    async def _say(self, session_id: str, text: str) -> None:
        await self._conn.session_update(session_id=session_id, update=acp.update_agent_message_text(text))

    async def _turn(self, session_id: str, text: str) -> str:
        if not text.startswith(","):
            raise RuntimeError(
                "the pc-e2e stand-in agent has no model: it runs only comma commands "
                "(,powercontext.remember / ,powercontext.search / ,powercontext.context)"
            )
        line = text[1:].strip()
        if not line:
            raise ValueError("empty command")
        name, tokens = parse_command(line)
        tools = {
            "powercontext.remember": self._remember,
            "powercontext.search": self._search,
            "powercontext.context": self._context,
        }
        if name == "tape.info":
            return f"tape: pc-e2e stand-in session {session_id} (no tape is kept)"
        if name not in tools:
            log.info("unknown command %r: shell path", name)
            return await self._shell(session_id, line)
        positional, kwargs = parse_args(tokens)
        log.info("command %s", name)
        return await tools[name](positional, kwargs)

    def _client(self) -> PowerContextClient:
        return PowerContextClient(self._settings.base_url, token=self._token, timeout=self._settings.timeout)

    async def _remember(self, positional: list[str], kwargs: dict[str, str]) -> str:
        param = RememberInput(*positional, **kwargs)
        request = RememberMemoryRequest(
            scope_id=self._settings.scope_id, kind=param.kind, text=param.text, reason=param.reason
        )
        async with self._client() as client:
            response = await client.remember_memory(request)
        if response.entry is None:
            return "(PowerContext accepted the memory without an entry receipt)"
        return f"Remembered {response.entry.kind}: {response.entry.text}"

    async def _search(self, positional: list[str], kwargs: dict[str, str]) -> str:
        param = SearchInput(*positional, **kwargs)
        request = SearchMemoryRequest(scope_id=self._settings.scope_id, query=param.query, limit=param.limit)
        async with self._client() as client:
            response = await client.search_memory(request)
        if not response.hits:
            return "(no matching PowerContext memory)"
        hits = [
            {
                "matched_by": [getattr(value, "value", value) for value in hit.matched_by],
                "score": hit.score,
                "text": hit.text,
            }
            for hit in response.hits
        ]
        return json.dumps(hits, ensure_ascii=True, sort_keys=True, separators=(", ", ": "))

    async def _context(self, positional: list[str], kwargs: dict[str, str]) -> str:
        # Bub passes its tool context as the keyword "context", replacing any
        # user-supplied context=... before validation; the value never counts.
        kwargs.pop("context", None)
        query = prepare_context(*positional, **kwargs)
        request = PrepareContextRequest(scope_id=self._settings.scope_id, query=query)
        async with self._client() as client:
            response = await client.prepare_context(request)
        return response.content or "(no relevant PowerContext context)"

    async def _shell(self, session_id: str, line: str) -> str:
        capabilities = self._client_capabilities
        if capabilities is None or not capabilities.terminal:
            raise RuntimeError("ACP client does not support terminal methods")
        conn = self._conn
        terminal = await conn.create_terminal(
            command="bash", args=["-lc", line], cwd=self._session_cwd[session_id], session_id=session_id
        )
        terminal_id = terminal.terminal_id
        try:
            try:
                async with asyncio.timeout(SHELL_TIMEOUT_SECONDS):
                    status = await conn.wait_for_terminal_exit(session_id=session_id, terminal_id=terminal_id)
            except TimeoutError:
                await conn.kill_terminal(session_id=session_id, terminal_id=terminal_id)
                return f"command timed out after {SHELL_TIMEOUT_SECONDS} seconds and was terminated"
            output = await conn.terminal_output(session_id=session_id, terminal_id=terminal_id)
        finally:
            try:
                await conn.release_terminal(session_id=session_id, terminal_id=terminal_id)
            except Exception as exc:  # the turn's outcome matters more than the release
                log.warning("terminal/release failed: %s", exc)
        body = output.output.strip() or "(no output)"
        if status.signal is not None:
            raise RuntimeError(f"command exited with signal {status.signal}\noutput:\n{body}")
        if status.exit_code not in (None, 0):
            raise RuntimeError(f"command exited with code {status.exit_code}\noutput:\n{body}")
        return body


def _is_stream(fd: int) -> bool:
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


def _copy(src: int, dst: int) -> None:
    while chunk := os.read(src, 65536):
        view = memoryview(chunk)
        while view:
            try:
                view = view[os.write(dst, view) :]
            except BlockingIOError:
                select.select([], [dst], [])


def stdio_as_pipes(acp_in: int, acp_out: int) -> tuple[int, int, list[threading.Thread]]:
    """asyncio (and so the SDK) can only watch pipes, sockets and terminals;
    when stdin or stdout is a regular file (``agent < frames > replies``),
    put a pipe in between, fed or drained by a thread. As with a pipe, the end
    of stdin ends the agent and the SDK drops requests still unanswered then,
    so a file of frames suits only requests answered before it is read through."""
    threads: list[threading.Thread] = []
    if not _is_stream(acp_in):
        r, w = os.pipe()

        def feed(src: int = acp_in, dst: int = w) -> None:
            try:
                _copy(src, dst)
            finally:
                os.close(dst)

        threads.append(threading.Thread(target=feed, name="stdin-feeder", daemon=True))
        acp_in = r
    if not _is_stream(acp_out):
        r, w = os.pipe()

        def drain(src: int = r, dst: int = acp_out) -> None:
            _copy(src, dst)

        threads.append(threading.Thread(target=drain, name="stdout-drainer"))
        acp_out = w
    for thread in threads:
        thread.start()
    return acp_in, acp_out, threads


async def serve(agent: StandinAgent, acp_in: Any, acp_out: Any) -> None:
    # The SDK binds its streams to sys.stdin / sys.stdout when they are made;
    # hand it the ACP files, then send every later sys.stdout write to stderr.
    sys.stdin = acp_in
    sys.stdout = acp_out
    try:
        reader, writer = await acp.stdio_streams()
    finally:
        sys.stdout = sys.stderr
    await acp.run_agent(agent, writer, reader)


def main() -> int:
    logging.basicConfig(
        stream=sys.stderr, level=logging.INFO, format="pc-standin-agent: %(levelname)s %(name)s: %(message)s"
    )
    try:
        settings = Settings()
    except ValidationError as exc:
        print(f"pc-standin-agent: invalid POWERCONTEXT_BUB_* settings: {exc}", file=sys.stderr)
        return 1
    token = os.environ.get("POWERCONTEXT_CLIENT_API_TOKEN") or None
    log.info(
        "serving ACP on stdio; PowerContext %s scope %s timeout %ss%s",
        settings.base_url,
        settings.scope_id,
        settings.timeout,
        " with bearer token" if token else "",
    )
    in_fd, out_fd, threads = stdio_as_pipes(0, os.dup(1))
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    acp_in = os.fdopen(in_fd, "rb", buffering=0)
    acp_out = os.fdopen(out_fd, "wb", buffering=0)
    try:
        asyncio.run(serve(StandinAgent(settings, token), acp_in, acp_out))
    finally:
        acp_out.close()  # lets a stdout-drainer thread see the end
        for thread in threads:
            if thread.name == "stdout-drainer":
                thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main())
