"""The OpenAI Responses API, streamed, as Codex asks it (POST /v1/responses).

Conversation: `instructions` and developer (or system) messages are
context, where Codex's UserPromptSubmit hook puts what it recalled; a user
message's input_text is the user's; a maximal run of function_call and
assistant message items is one turn. A run or write is a function_call of
exec_command {"cmd"} (Codex has no apply_patch tool: a write is a quoted
heredoc); text is an output_text message. Usage is in response.completed,
input_tokens counting the cached instructions (input_tokens_details)."""

import json

from .script import write_command
from .usage import texts_of

NAMED_EVENTS = True  # "event: <type>" before each data line
ASSISTANT_ITEMS = ("function_call", "custom_tool_call", "local_shell_call", "reasoning")


def conversation(body):
    entries = [("context", body.get("instructions") or "")]
    for item in body.get("input") or []:
        kind = item.get("type", "message")
        role = item.get("role")
        if kind in ASSISTANT_ITEMS or (kind == "message" and role == "assistant"):
            if entries[-1][0] != "assistant":
                entries.append(("assistant", ""))
        elif kind == "message":
            text = "\n".join(texts_of(item.get("content")))
            entries.append(("user" if role == "user" else "context", text))
        else:
            entries.append(("other", "\n".join(texts_of([item]))))
    return entries


def usage_texts(body):
    """(request texts, cached texts): the instructions are cached."""
    request = [t for item in body.get("input") or [] for t in texts_of(item.get("content")) + texts_of([item])]
    return request, [body.get("instructions") or ""]


def tool(action):
    kind, value = action
    return "exec_command", {"cmd": value if kind == "run" else write_command(value)}


def usage_of(usage):
    return {"input_tokens": usage.input, "input_tokens_details": {"cached_tokens": usage.cached},
            "output_tokens": usage.output, "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": usage.input + usage.output}


def render(model, play, text, call, usage):
    """The events of one response: created, each output item's added, its
    deltas and done, then completed with the usage."""
    events, output = [], []
    response = {"id": f"resp_{play.digest}", "object": "response", "created_at": 0, "model": model,
                "status": "in_progress", "output": output}

    def event(kind, **fields):
        events.append({"type": kind, "sequence_number": len(events), **fields})

    event("response.created", response={**response, "output": []})
    if text:
        item_id, index = f"msg_{play.digest}", len(output)
        part = {"type": "output_text", "text": text, "annotations": []}
        item = {"type": "message", "id": item_id, "role": "assistant", "status": "completed", "content": [part]}
        event("response.output_item.added", output_index=index, item={**item, "status": "in_progress", "content": []})
        where = {"item_id": item_id, "output_index": index, "content_index": 0}
        event("response.content_part.added", **where, part={**part, "text": ""})
        event("response.output_text.delta", **where, delta=text)
        event("response.output_text.done", **where, text=text)
        event("response.content_part.done", **where, part=part)
        event("response.output_item.done", output_index=index, item=item)
        output.append(item)
    if call:
        arguments = json.dumps(call[1], sort_keys=True)
        item_id, index = f"fc_{play.digest}", len(output)
        item = {"type": "function_call", "id": item_id, "call_id": f"call_{play.tag}", "name": call[0],
                "arguments": arguments, "status": "completed"}
        event("response.output_item.added", output_index=index, item={**item, "arguments": "", "status": "in_progress"})
        event("response.function_call_arguments.delta", item_id=item_id, output_index=index, delta=arguments)
        event("response.function_call_arguments.done", item_id=item_id, output_index=index, arguments=arguments)
        event("response.output_item.done", output_index=index, item=item)
        output.append(item)
    event("response.completed", response={**response, "status": "completed", "usage": usage_of(usage)})
    return events
