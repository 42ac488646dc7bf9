"""OpenAI chat completions, streamed, as Bub (any-llm) asks them, and the
Server's extractor's plain completions.

Conversation: system messages are context, each assistant message is a
turn. A run or write is a call of Bub's bash tool; text is content.
Usage comes last, in a chunk with no choices, with
prompt_tokens_details.cached_tokens (the leading system prompt)."""

import json

from .extractor import EXTRACTOR, extraction_reply, text_of
from .script import write_command
from .usage import Usage, texts_of

NAMED_EVENTS = False  # data-only SSE, ended by [DONE]


def conversation(body):
    kinds = {"system": "context", "user": "user", "assistant": "assistant"}
    return [(kinds.get(m.get("role"), "other"), text_of(m)) for m in body.get("messages", [])]


def usage_texts(body):
    """(request texts, cached texts): the leading system message is cached."""
    messages = body.get("messages", [])
    cached = messages[:1] if messages and messages[0].get("role") == "system" else []
    request = [t for m in messages[len(cached):] for t in texts_of(m.get("content"))]
    request += [c.get("function", {}).get("arguments") for m in messages for c in m.get("tool_calls") or []]
    return request, [t for m in cached for t in texts_of(m.get("content"))]


def tool(action):
    kind, value = action
    return "bash", {"command": value if kind == "run" else write_command(value)}


def usage_of(usage):
    return {"prompt_tokens": usage.input, "completion_tokens": usage.output,
            "total_tokens": usage.input + usage.output,
            "prompt_tokens_details": {"cached_tokens": usage.cached}}


def render(model, play, text, call, usage):
    """The chunks of one turn: role, content, the tool call, finish, usage."""
    def chunk(delta, finish=None):
        return {"id": f"chatcmpl-{play.digest}", "object": "chat.completion.chunk", "created": 0, "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    chunks = [chunk({"role": "assistant", "content": ""})]
    if text:
        chunks.append(chunk({"content": text}))
    if call:
        chunks.append(chunk({"tool_calls": [{"index": 0, "id": f"call_{play.tag}", "type": "function", "function": {
            "name": call[0], "arguments": json.dumps(call[1], sort_keys=True)}}]}))
    chunks.append(chunk({}, "tool_calls" if call else "stop"))
    return chunks + [{"id": f"chatcmpl-{play.digest}", "object": "chat.completion.chunk", "created": 0,
                      "model": model, "choices": [], "usage": usage_of(usage)}]


def extractor_usage(scripts, body):
    """The extractor's reply text and its usage."""
    content = extraction_reply(scripts, body.get("messages", []))
    return content, Usage(*usage_texts(body), [content])


def extractor_completion(content, usage):
    """The extractor's reply: a plain completion, with usage."""
    return {"id": "chatcmpl-extractor", "object": "chat.completion", "created": 0, "model": EXTRACTOR,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": usage_of(usage)}
