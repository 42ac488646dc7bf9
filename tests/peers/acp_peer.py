"""Independent ACP peer agent for the tests of pc-e2e's C ACP client.

Run through the sh wrapper ``tests/peers/acp-peer``. Built on the official ACP
Python SDK (``acp``); the misbehaving modes bypass it with raw writes or exits.
``initialize`` echoes ``protocolVersion`` with agentInfo name
``pc-e2e-acp-peer``; ``session/new`` returns a uuid4-hex id; unknown session
ids are accepted. The behaviour of ``session/prompt`` is chosen by PEER_MODE:

  echo          (default) one agent_message_chunk per prompt text block, same
                text; then stopReason end_turn.
  permission    sends session/request_permission (toolCallId "peer-call-1";
                options "ok" allow_once, "no" reject_once) and replies
                "permission: selected <optionId>" then end_turn; when the
                outcome is cancelled, "permission: cancelled" and stopReason
                cancelled; when the client answers with an error,
                "permission: error <code>" and end_turn.
  client-methods calls fs/read_text_file, then terminal/create twice: "true"
                without args, and sh -c "printf 'hi\\n'; touch
                pc-e2e-peer-terminal-ran; exit 3" in the session's cwd, whose
                output and exit it reads (terminal/output, wait_for_exit) before
                terminal/release; replies one line per call, "<method>: error
                <code>" or "<method>: ok …", joined by "\\n"; then end_turn.
  crash         sends the chunk "peer crashing", then exits with status 3
                without answering.
  hang          never answers the prompt (nor reacts to session/cancel); the
                process still ends when its stdin closes, or after PEER_SLEEP.
  garbage       writes the line "this is not json" to stdout and exits with
                status 1.
  close         closes its stdout, then sleeps PEER_SLEEP seconds (ignoring
                stdin) and exits 0.
  error         answers the prompt with JSON-RPC error -32603 "Internal error",
                data {"details": "boom"}.
  stderr-flood  writes PEER_FLOOD_BYTES (default 1 MiB, 1048576) bytes to
                stderr, then behaves as echo.
  remember      remembers PEER_REMEMBER (default 60) facts "peer fact <n>" of
                kind "fact" in the scope the harness handed it
                (POWERCONTEXT_BUB_SCOPE_ID) through POST /v1/memory/remember
                at POWERCONTEXT_BUB_BASE_URL, then replies "remembered <n>".

  read-scope    reads the Memory of the Scope PEER_OTHER_SCOPE, which is not
                its own, through POST /v1/memory/entries/list at
                POWERCONTEXT_BUB_BASE_URL with the token it was handed
                (POWERCONTEXT_BUB_API_TOKEN), as an agent misusing its
                credential would, and replies "read <n> entries of another
                Scope"; without PowerContext settings (a paired OFF arm)
                it replies "no PowerContext here".

PEER_SAY_ENV=1 makes the peer, in any mode, first say its whole environment
as an agent message chunk, NAME=VALUE lines: an agent whose transcript holds
every secret it was handed.

PEER_DELAY_ON=TEXT makes the peer, in any mode, wait PEER_DELAY seconds
(default 5) before it handles a prompt whose text contains TEXT: a slow
agent for one workload and a quick one for another.

PEER_SAY=TEXT makes the peer, in any mode, first say TEXT as an agent message
chunk: an agent that prints what it was given.

PEER_TESTS_SEEN=FILE makes the peer, in any mode, write to FILE what it finds
under /tests when a prompt arrives: one path a line, sorted, nothing when
/tests is empty or absent (what a step's agent may read of the verifier's
tests).

PEER_ENV_SEEN=FILE makes the peer, in any mode, write to FILE the Scope and
the model it was started with: POWERCONTEXT_BUB_SCOPE_ID=... and BUB_MODEL=...
lines (what each agent invocation of a merged batch is bound to).

PEER_SLEEP (seconds, default 300) bounds hang and close so a forgotten peer
does not outlive a test run. Only ACP frames (and garbage's line) reach stdout;
logs go to stderr. stdin and stdout must be pipes or sockets (the SDK's asyncio
streams refuse regular files), as they are under a real ACP client; the end of
stdin ends the peer, and the SDK drops requests still unanswered then.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import select
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import acp
from acp import RequestError
from acp.schema import (
    AgentCapabilities,
    Implementation,
    InitializeResponse,
    NewSessionResponse,
    PermissionOption,
    PromptResponse,
    ToolCallUpdate,
)

MODES = ("echo", "permission", "client-methods", "crash", "hang", "garbage", "close", "error", "stderr-flood", "remember",
         "read-scope")
FLOOD_BYTES = int(os.environ.get("PEER_FLOOD_BYTES") or 1024 * 1024)

log = logging.getLogger("acp-peer")


def write_all(fd: int, data: bytes) -> None:
    """Write everything, waiting whenever the descriptor is non-blocking and full."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            select.select([], [fd], [])


def remember_facts(count: int) -> None:
    """POST /v1/memory/remember count times, as an agent's tool would."""
    url = os.environ["POWERCONTEXT_BUB_BASE_URL"].rstrip("/") + "/v1/memory/remember"
    scope = os.environ["POWERCONTEXT_BUB_SCOPE_ID"]
    for n in range(1, count + 1):
        body = json.dumps({"scope_id": scope, "kind": "fact", "text": f"peer fact {n}"}).encode()
        request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            response.read()


def read_other_scope() -> str:
    """List another Scope's Memory with the token the harness handed this agent."""
    base = os.environ.get("POWERCONTEXT_BUB_BASE_URL")
    if not base:
        return "no PowerContext here"
    body = json.dumps({"scope_id": os.environ["PEER_OTHER_SCOPE"]}).encode()
    headers = {"Content-Type": "application/json",
               "Authorization": "Bearer " + os.environ.get("POWERCONTEXT_BUB_API_TOKEN", "")}
    request = urllib.request.Request(base.rstrip("/") + "/v1/memory/entries/list", data=body, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        entries = json.loads(response.read()).get("entries") or []
    return f"read {len(entries)} entries of another Scope"


def record_tests_seen(path: str) -> None:
    found = sorted(str(p) for p in Path("/tests").rglob("*")) if Path("/tests").is_dir() else []
    Path(path).write_text("".join(f"{p}\n" for p in found), encoding="utf-8")


def record_env_seen(path: str) -> None:
    names = ("POWERCONTEXT_BUB_SCOPE_ID", "BUB_MODEL")
    Path(path).write_text("".join(f"{n}={os.environ.get(n, '')}\n" for n in names), encoding="utf-8")


class Peer:
    def __init__(self, mode: str, acp_fd: int, sleep_seconds: float) -> None:
        self._mode = mode
        self._acp_fd = acp_fd
        self._sleep = sleep_seconds
        self._conn: Any = None
        self._cwd: dict[str, str] = {}

    def on_connect(self, conn: Any) -> None:
        self._conn = conn

    async def initialize(self, protocol_version: int, **kwargs: Any) -> InitializeResponse:
        del kwargs
        return InitializeResponse(
            protocol_version=protocol_version,
            agent_capabilities=AgentCapabilities(),
            agent_info=Implementation(
                name="pc-e2e-acp-peer", title=f"pc-e2e ACP test peer ({self._mode})", version="0.1.0"
            ),
        )

    async def new_session(self, cwd: str, **kwargs: Any) -> NewSessionResponse:
        del kwargs
        session_id = uuid.uuid4().hex
        self._cwd[session_id] = cwd
        return NewSessionResponse(session_id=session_id)

    async def cancel(self, session_id: str, **kwargs: Any) -> None:
        del kwargs
        log.info("session/cancel for %s (ignored)", session_id)

    async def prompt(self, session_id: str, prompt: list[Any], **kwargs: Any) -> PromptResponse:
        del kwargs
        texts = [block.text for block in prompt if getattr(block, "type", None) == "text"]
        mode = self._mode
        log.info("session/prompt in mode %s", mode)
        if os.environ.get("PEER_SAY"):
            await self._say(session_id, os.environ["PEER_SAY"])
        if os.environ.get("PEER_SAY_ENV") == "1":
            await self._say(session_id, "".join(f"{k}={v}\n" for k, v in sorted(os.environ.items())))
        seen = os.environ.get("PEER_TESTS_SEEN")
        if seen:
            record_tests_seen(seen)
        if os.environ.get("PEER_ENV_SEEN"):
            record_env_seen(os.environ["PEER_ENV_SEEN"])
        delay_on = os.environ.get("PEER_DELAY_ON")
        if delay_on and any(delay_on in text for text in texts):
            await asyncio.sleep(float(os.environ.get("PEER_DELAY") or 5))
        if mode == "stderr-flood":
            write_all(2, b"x" * (FLOOD_BYTES - 1) + b"\n")
            mode = "echo"
        if mode == "echo":
            for text in texts:
                await self._say(session_id, text)
            return PromptResponse(stop_reason="end_turn")
        if mode == "permission":
            return await self._permission(session_id)
        if mode == "client-methods":
            await self._say(session_id, await self._client_methods(session_id))
            return PromptResponse(stop_reason="end_turn")
        if mode == "crash":
            await self._say(session_id, "peer crashing")
            sys.stderr.flush()
            os._exit(3)
        if mode == "hang":
            await asyncio.sleep(self._sleep)
            log.info("hang: PEER_SLEEP elapsed; exiting without an answer")
            os._exit(0)
        if mode == "garbage":
            write_all(self._acp_fd, b"this is not json\n")
            os._exit(1)
        if mode == "close":
            os.close(self._acp_fd)
            time.sleep(self._sleep)  # blocks the event loop: stdin is ignored too
            os._exit(0)
        if mode == "error":
            raise RequestError.internal_error({"details": "boom"})
        if mode == "read-scope":
            await self._say(session_id, await asyncio.to_thread(read_other_scope))
            return PromptResponse(stop_reason="end_turn")
        if mode == "remember":
            count = int(os.environ.get("PEER_REMEMBER", "60"))
            await asyncio.to_thread(remember_facts, count)
            await self._say(session_id, f"remembered {count}")
            return PromptResponse(stop_reason="end_turn")
        raise AssertionError(mode)

    async def _say(self, session_id: str, text: str) -> None:
        await self._conn.session_update(session_id=session_id, update=acp.update_agent_message_text(text))

    async def _permission(self, session_id: str) -> PromptResponse:
        try:
            response = await self._conn.request_permission(
                session_id=session_id,
                tool_call=ToolCallUpdate(
                    tool_call_id="peer-call-1", title="pc-e2e peer permission check", kind="other", status="pending"
                ),
                options=[
                    PermissionOption(option_id="ok", name="Allow", kind="allow_once"),
                    PermissionOption(option_id="no", name="Deny", kind="reject_once"),
                ],
            )
        except RequestError as exc:
            await self._say(session_id, f"permission: error {exc.code}")
            return PromptResponse(stop_reason="end_turn")
        outcome = response.outcome
        if getattr(outcome, "outcome", None) == "selected":
            await self._say(session_id, f"permission: selected {outcome.option_id}")
            return PromptResponse(stop_reason="end_turn")
        await self._say(session_id, "permission: cancelled")
        return PromptResponse(stop_reason="cancelled")

    async def _client_methods(self, session_id: str) -> str:
        cwd = self._cwd.get(session_id) or os.getcwd()
        lines = []
        try:
            await self._conn.read_text_file(session_id=session_id, path=os.path.join(cwd, "pc-e2e-peer-probe.txt"))
            lines.append("fs/read_text_file: ok")
        except RequestError as exc:
            lines.append(f"fs/read_text_file: error {exc.code}")
        try:
            await self._conn.create_terminal(session_id=session_id, command="true")
            lines.append("terminal/create true: ok")
        except RequestError as exc:
            lines.append(f"terminal/create true: error {exc.code}")
        try:
            terminal = await self._conn.create_terminal(
                session_id=session_id,
                command="sh",
                args=["-c", "printf 'hi\\n'; touch pc-e2e-peer-terminal-ran; exit 3"],
                cwd=cwd,
            )
            tid = terminal.terminal_id
            output = await self._conn.terminal_output(session_id=session_id, terminal_id=tid)
            status = await self._conn.wait_for_terminal_exit(session_id=session_id, terminal_id=tid)
            await self._conn.release_terminal(session_id=session_id, terminal_id=tid)
            lines.append(f"terminal/create sh: ok, output {output.output!r}, exit {status.exit_code}")
        except RequestError as exc:
            lines.append(f"terminal/create sh: error {exc.code}")
        return "\n".join(lines)


async def serve(peer: Peer, acp_stdout: Any) -> None:
    sys.stdout = acp_stdout
    try:
        reader, writer = await acp.stdio_streams()
    finally:
        sys.stdout = sys.stderr
    await acp.run_agent(peer, writer, reader)


def main() -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="acp-peer: %(message)s")
    mode = os.environ.get("PEER_MODE") or "echo"
    if mode not in MODES:
        print(f"acp-peer: unknown PEER_MODE {mode!r}; expected one of {', '.join(MODES)}", file=sys.stderr)
        return 2
    try:
        sleep_seconds = float(os.environ.get("PEER_SLEEP") or 300)
    except ValueError:
        print("acp-peer: PEER_SLEEP must be a number of seconds", file=sys.stderr)
        return 2
    # Keep the real stdout for ACP only; anything else written to descriptor 1
    # (or sys.stdout) lands on stderr.
    acp_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    log.info("mode %s", mode)
    asyncio.run(serve(Peer(mode, acp_fd, sleep_seconds), os.fdopen(acp_fd, "wb", buffering=0, closefd=False)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
