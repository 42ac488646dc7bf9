"""PowerContext's generation, played by rule from every script's
"extraction" rules: the readiness probe, extraction candidates, and from 1.x
the reconciliation of a candidate with related Memory."""

import json

from .errors import Mismatch
from .script import PREFIX

EXTRACTOR = PREFIX + "extractor"
READINESS_PROBE = "Reply with one token."


def text_of(message):
    content = message.get("content")
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


def extraction_reply(scripts, messages):
    """The readiness probe's token, extraction candidates (from every
    script's rules, in the shape the request's own schema asks for: 0.x
    releases take an intent) or a reconciliation decision."""
    users = [text_of(m) for m in messages if m.get("role") == "user"]
    if any(READINESS_PROBE in u for u in users):
        return "ok"
    schema = "\n".join(text_of(m) for m in messages if m.get("role") == "system")
    try:
        request = json.loads(users[0])
        evidence = request["evidence"]
        if "proposal" in request:
            return json.dumps(reconciliation(scripts, request["proposal"], request.get("related", [])))
        current = {e.get("text") for e in request.get("current_entries", []) if isinstance(e, dict)}
    except (IndexError, ValueError, KeyError, TypeError) as exc:
        raise Mismatch(422, f"not a generation request the scripts know ({exc!r})") from None
    candidates = []
    for script in scripts.values():
        for rule in script.get("extraction", []):
            if rule["text"] in current or any(c["text"] == rule["text"] for c in candidates):
                continue
            cited = [e["evidence_id"] for e in evidence if rule["evidence"] in json.dumps(e.get("content"))]
            if cited:
                intent = {"intent": "add"} if '"intent"' in schema else {}
                candidates.append({**intent, "kind": rule["kind"], "text": rule["text"], "evidence_ids": cited})
    return json.dumps({"candidates": candidates})


def reconciliation(scripts, proposal, related):
    """A proposal the same as a related item changes nothing. A proposal whose
    rule "revises" a related published item's text replaces it (an updated
    guideline, as the Server revises one identity). Any other is an
    independent fact of its own."""
    compared = [item["item_id"] for item in related]
    same = [item["item_id"] for item in related if item.get("text") == proposal["text"]]
    if same:
        return {"action": "noop", "compared_ids": compared, "target_ids": same[:1], "content": None,
                "evidence_ids": [], "reason": "The related item already states this fact."}
    revised = {rule["revises"] for script in scripts.values() for rule in script.get("extraction", [])
               if rule["text"] == proposal["text"] and "revises" in rule}
    targets = [item["item_id"] for item in related if item.get("text") in revised and item.get("original_refs")]
    content = {"kind": proposal["kind"], "text": proposal["text"]}
    if targets:
        return {"action": "revise", "compared_ids": compared, "target_ids": targets[:1], "content": content,
                "evidence_ids": proposal["evidence_ids"], "reason": "The proposal updates the related guideline."}
    return {"action": "create", "compared_ids": compared, "target_ids": [], "content": content,
            "evidence_ids": proposal["evidence_ids"], "reason": "An independent fact."}
