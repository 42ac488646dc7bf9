"""Token figures, derived from the request and the reply alone, so a
repeated request gets the same figures: a token is a whitespace-separated
word of a text field (never of an id, a time or a number the host varies).
The cached part is the prefix a host resends unchanged on every request
(the system prompt or instructions), as a provider's prompt cache would
hold it."""

import json


def words(*texts):
    return sum(len(t.split()) for t in texts if isinstance(t, str))


def texts_of(value):
    """Every text of a message's content: a string, or the "text" (and
    tool input, output or result) of each part."""
    if isinstance(value, str):
        return [value]
    out = []
    for part in value if isinstance(value, list) else []:
        if not isinstance(part, dict):
            continue
        for key in ("text", "output", "arguments"):
            if isinstance(part.get(key), str):
                out.append(part[key])
        if isinstance(part.get("input"), dict):
            out.append(json.dumps(part["input"], sort_keys=True))
        if "content" in part and part.get("type") == "tool_result":
            out.extend(texts_of(part["content"]))
    return out


class Usage:
    """input (the cached part included), cached, output."""

    def __init__(self, request_texts, cached_texts, reply_texts):
        self.cached = words(*cached_texts)
        self.input = max(1, self.cached + words(*request_texts))
        self.output = max(1, words(*reply_texts))
