"""pc-e2e's PowerContext plugin for Bub.

Three Bub tools backed by the official PowerContext client
(``powercontext.client.PowerContextClient``), registered in Bub's tool
registry when Bub loads this module through the ``bub`` entry point group:

``powercontext.remember``  text (required), kind (default ``agent-note``),
                           reason (optional) -> ``Remembered <kind>: <text>``
                           as the server stored it, or
                           ``(PowerContext accepted the memory without an
                           entry receipt)`` when it returned no entry.
``powercontext.search``    query (required), limit (default 5, 1..20) ->
                           ``(no matching PowerContext memory)`` or a JSON
                           array of ``{"matched_by", "score", "text"}``
                           (keys sorted, ASCII-escaped).
``powercontext.context``   query (required) -> the server's prepared context,
                           or ``(no relevant PowerContext context)``.

These are the replies of PowerContext's own Bub plugin (powercontext-bub), so
a replay cannot tell the two apart by their text; pc-e2e's stand-in agent
(pipelines/standin_agent.py) gives the same texts. Remember and search take
their arguments as a pydantic model and context as a plain validated
function, as PowerContext's plugin does, so Bub's comma-command path treats
them alike: a positional argument to remember/search is a TypeError, unknown
keywords are ignored there, and an unknown keyword to context is a
ValidationError. Bub calls comma-command tools directly, so any error here
fails the turn with Bub's own error text.

Settings (Bub's config section ``powercontext``, overridden by the
environment; empty variables are ignored):

``POWERCONTEXT_BUB_BASE_URL``  server URL (default ``http://127.0.0.1:8000``;
                               a trailing "/" is dropped)
``POWERCONTEXT_BUB_SCOPE_ID``  memory scope (default ``bub:`` + the first 20
                               hex digits of sha256 of Bub's resolved
                               workspace path)
``POWERCONTEXT_BUB_TIMEOUT``   seconds per request (> 0, default 10)

Unlike PowerContext's plugin it also sends ``POWERCONTEXT_CLIENT_API_TOKEN``,
when set, as a bearer token (as the stand-in does), injects no context before
model calls and captures no events: it exists for deterministic comma-command
workloads.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from bub import Settings, config, ensure_config, hookimpl, tool
from pydantic import BaseModel, Field, HttpUrl
from pydantic_settings import SettingsConfigDict

from powercontext.client import PowerContextClient
from powercontext.http import PrepareContextRequest, RememberMemoryRequest, SearchMemoryRequest

__version__ = "0.1.0"
__all__ = ["PowerContextTools", "PowerContextToolSettings"]

_STATE_KEY = "pc_e2e_powercontext"
_TOKEN_VARIABLE = "POWERCONTEXT_CLIENT_API_TOKEN"


@config(name="powercontext")
class PowerContextToolSettings(Settings):
    """Where the tools find PowerContext and which memory scope they use."""

    model_config = SettingsConfigDict(env_prefix="POWERCONTEXT_BUB_", env_ignore_empty=True, extra="ignore")

    base_url: HttpUrl = HttpUrl("http://127.0.0.1:8000")
    scope_id: str | None = Field(default=None, min_length=1)
    timeout: float = Field(default=10.0, gt=0)


def workspace_scope(workspace: Path) -> str:
    """The scope PowerContext's plugin uses for a workspace without a configured one."""
    return "bub:" + hashlib.sha256(str(workspace.resolve()).encode()).hexdigest()[:20]


class PowerContextTools:
    """The Bub plugin object: resolves the settings once and hands them to
    every turn's state, where the tools read them."""

    def __init__(self, framework: Any) -> None:
        settings = ensure_config(PowerContextToolSettings)
        self._connection = {
            "base_url": str(settings.base_url).rstrip("/"),
            "scope_id": settings.scope_id or workspace_scope(Path(framework.workspace)),
            "timeout": settings.timeout,
        }

    @hookimpl
    def load_state(self, message: Any, session_id: str) -> dict[str, Any]:
        del message, session_id
        return {_STATE_KEY: dict(self._connection)}


def _connection(context: Any) -> dict[str, Any]:
    state = getattr(context, "state", None) or {}
    try:
        return state[_STATE_KEY]
    except KeyError:
        raise RuntimeError(
            "the pc-e2e PowerContext plugin is not active (its settings failed to load; see Bub's log)"
        ) from None


def _client(connection: dict[str, Any]) -> PowerContextClient:
    token = os.environ.get(_TOKEN_VARIABLE) or None
    return PowerContextClient(connection["base_url"], token=token, timeout=connection["timeout"])


class RememberInput(BaseModel):
    """Store one durable memory (a decision, preference, constraint or procedure) for later sessions."""

    text: str = Field(description="What to remember, stated so it stands on its own.")
    kind: str = Field("agent-note", description="Category of the memory, e.g. project-decision.")
    reason: str | None = Field(None, description="Why it should outlive this session.")


class SearchInput(BaseModel):
    """Look up durable PowerContext memory for a question or topic."""

    query: str = Field(description="Question or topic to look up.")
    limit: int = Field(5, ge=1, le=20, description="Most entries to return (1 to 20).")


@tool(name="powercontext.remember", model=RememberInput, context=True)
async def remember(args: RememberInput, *, context: Any) -> str:
    connection = _connection(context)
    request = RememberMemoryRequest(
        scope_id=connection["scope_id"], kind=args.kind, text=args.text, reason=args.reason
    )
    async with _client(connection) as client:
        response = await client.remember_memory(request)
    entry = response.entry
    if entry is None:
        return "(PowerContext accepted the memory without an entry receipt)"
    return f"Remembered {entry.kind}: {entry.text}"


@tool(name="powercontext.search", model=SearchInput, context=True)
async def search(args: SearchInput, *, context: Any) -> str:
    connection = _connection(context)
    request = SearchMemoryRequest(scope_id=connection["scope_id"], query=args.query, limit=args.limit)
    async with _client(connection) as client:
        response = await client.search_memory(request)
    if not response.hits:
        return "(no matching PowerContext memory)"
    found = []
    for hit in response.hits:
        matched_by = [getattr(way, "value", way) for way in hit.matched_by]
        found.append({"matched_by": matched_by, "score": hit.score, "text": hit.text})
    return json.dumps(found, ensure_ascii=True, sort_keys=True)


@tool(name="powercontext.context", context=True)
async def prepare_context(query: str, *, context: Any) -> str:
    """Prepare PowerContext's bounded, cited context for a new question."""
    connection = _connection(context)
    async with _client(connection) as client:
        response = await client.prepare_context(
            PrepareContextRequest(scope_id=connection["scope_id"], query=query)
        )
    return response.content or "(no relevant PowerContext context)"
