"""The Anthropic Messages API, streamed, as Claude Code asks it
(POST /v1/messages?beta=true).

Conversation: the top-level `system` and role "system" messages (Claude
Code's mid-conversation system messages, where its UserPromptSubmit hook's
context lands) are context and no turn; a user message's text blocks are
the user's; each assistant message is a turn. A run is a Bash tool_use, a
write a Write tool_use (Claude Code's Write is for new files: change an
existing one with run); text is a text block. Usage: input_tokens without
the cached system prompt, which is cache_read_input_tokens."""

import json

from .usage import texts_of

NAMED_EVENTS = True
RUN_DESCRIPTION = "Run the scripted command"


def conversation(body):
    system = body.get("system")
    entries = [("context", "\n".join(texts_of(system)))]
    for message in body.get("messages", []):
        role, content = message.get("role"), message.get("content")
        if role == "assistant":
            entries.append(("assistant", ""))
        elif role == "user":
            blocks = [content] if isinstance(content, str) else [
                b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"]
            entries.append(("user", "\n".join(blocks)))
        else:
            entries.append(("context", "\n".join(texts_of(content))))
    return entries


def usage_texts(body):
    """(request texts, cached texts): the top-level system is cached."""
    request = [t for m in body.get("messages", []) for t in texts_of(m.get("content"))]
    return request, texts_of(body.get("system"))


def tool(action):
    kind, value = action
    if kind == "run":
        return "Bash", {"command": value, "description": RUN_DESCRIPTION}
    return "Write", {"file_path": value["path"], "content": value["content"]}


def usage_of(usage):
    return {"input_tokens": usage.input - usage.cached, "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": usage.cached, "output_tokens": usage.output}


def render(model, play, text, call, usage):
    """message_start, one content block each for the text and the tool_use,
    message_delta with the stop reason, message_stop. Both usage objects
    hold the final figures, so any reader of either gets them."""
    figures = usage_of(usage)
    events = [{"type": "message_start", "message": {
        "id": f"msg_{play.digest}", "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": figures}}]
    blocks = []
    if text:
        blocks.append(({"type": "text", "text": ""}, {"type": "text_delta", "text": text}))
    if call:
        blocks.append(({"type": "tool_use", "id": f"toolu_{play.tag}", "name": call[0], "input": {}},
                       {"type": "input_json_delta", "partial_json": json.dumps(call[1], sort_keys=True)}))
    for index, (start, delta) in enumerate(blocks):
        events += [{"type": "content_block_start", "index": index, "content_block": start},
                   {"type": "content_block_delta", "index": index, "delta": delta},
                   {"type": "content_block_stop", "index": index}]
    events += [{"type": "message_delta", "delta": {"stop_reason": "tool_use" if call else "end_turn",
                                                     "stop_sequence": None}, "usage": figures},
               {"type": "message_stop"}]
    return events
