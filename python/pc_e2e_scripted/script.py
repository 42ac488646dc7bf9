"""Scripts (pc-e2e.model-script/v2): loading, checking, and the turn a
conversation is at.

A dialect turns its request into a conversation: a list of (kind, text)
entries, kind being "user" (a user message's text), "assistant" (one
assistant turn), "context" (text the model's context holds besides the
conversation: system or developer messages, instructions) or "other". The
session is the one whose prompt the latest matching user entry contains; the
turn is the count of assistant entries after it.
"""

import hashlib
import json
import re
from pathlib import Path

from .errors import FAULTS, Mismatch

SCHEMA = "pc-e2e.model-script/v2"
PREFIX = "pc-e2e-scripted/"
ACTIONS = ("run", "write", "answer", "fail")


def load_scripts(directory):
    """{model name: script} of every DIRECTORY/*.json; SystemExit naming the
    file and field of the first bad one."""
    scripts = {}
    for path in sorted(Path(directory).glob("*.json")):
        data = path.read_bytes()
        try:
            script = json.loads(data)
        except ValueError as exc:
            raise SystemExit(f"{path}: not JSON: {exc}") from None
        if not isinstance(script, dict) or script.get("schema") != SCHEMA or script.get("workload") != path.stem:
            raise SystemExit(f"{path}: not a {SCHEMA} for workload {path.stem} (schema {script.get('schema')!r})"
                             if isinstance(script, dict) else f"{path}: not a {SCHEMA} object")
        for i, session in enumerate(script.get("sessions", [])):
            for j, turn in enumerate(session.get("turns", [])):
                problem = turn_problem(turn, f"sessions[{i}].turns[{j}]")
                if problem:
                    raise SystemExit(f"{path}: {problem}")
        scripts[f"{PREFIX}{path.stem}@{hashlib.sha256(data).hexdigest()[:12]}"] = script
    texts = {rule["text"] for script in scripts.values() for rule in script.get("extraction", [])}
    for script in scripts.values():
        for rule in script.get("extraction", []):
            if "revises" in rule and rule["revises"] not in texts:
                raise SystemExit(f"{directory}/{script['workload']}.json: a rule revises {rule['revises']!r}, which no rule's text is")
    return scripts


def turn_problem(turn, where):
    """What is wrong with TURN (at WHERE), or None."""
    if not isinstance(turn, dict):
        return f"{where}: a turn is an object"
    actions = [a for a in ACTIONS if a in turn]
    if len(actions) != 1:
        return f"{where}: a turn has exactly one of {', '.join(ACTIONS)}, this one {actions or 'none'}"
    unknown = set(turn) - {*ACTIONS, "say", "requires_context", "otherwise"}
    if unknown:
        return f"{where}: unknown field {sorted(unknown)[0]!r}"
    action, value = actions[0], turn[actions[0]]
    if "say" in turn and (action not in ("run", "write") or not isinstance(turn["say"], str)):
        return f"{where}.say: a text, beside run or write only"
    if action in ("run", "answer") and not (isinstance(value, str) and value):
        return f"{where}.{action}: a non-empty text"
    if action == "write" and not (isinstance(value, dict) and set(value) == {"path", "content"}
                                  and isinstance(value["path"], str) and value["path"].startswith("/")
                                  and isinstance(value["content"], str) and value["content"].endswith("\n")):
        return f"{where}.write: {{path, content}}, an absolute path and a text ending in a newline"
    if action == "fail" and not (isinstance(value, dict) and value.get("fault") in FAULTS
                                 and set(value) <= {"fault", "retry_after"}
                                 and (isinstance(value.get("retry_after", 0), int) and value.get("retry_after", 0) >= 0)):
        return f"{where}.fail: {{fault, retry_after?}}, fault one of {', '.join(FAULTS)}, retry_after whole seconds"
    needles = turn.get("requires_context", [])
    if not (isinstance(needles, list) and all(isinstance(n, str) and n for n in needles)):
        return f"{where}.requires_context: a list of texts"
    if "otherwise" in turn:
        if not needles:
            return f"{where}.otherwise: only beside requires_context"
        return turn_problem(turn["otherwise"], f"{where}.otherwise")
    return None


class Play:
    """The turn a conversation is at: its session, position (0-based), the
    turn to play (an "otherwise" one when the context lacks what the turn
    requires) and how many otherwise steps led to it."""

    def __init__(self, model, session, position, turn, depth):
        self.session, self.position, self.turn = session, position, turn
        name = re.sub(r"[^A-Za-z0-9]+", "-", session["name"])
        self.tag = f"{name}_{position + 1}"  # call ids: unique within a conversation
        self.digest = hashlib.sha256(f"{model}|{session['name']}|{position}|{depth}".encode()).hexdigest()[:24]


def play(model, script, conversation):
    """The Play of CONVERSATION ([(kind, text)]) in SCRIPT; Mismatch 409
    naming what does not match."""
    context = "\n".join(text for kind, text in conversation if kind == "context")
    for start in range(len(conversation) - 1, -1, -1):
        kind, text = conversation[start]
        if kind != "user":
            continue
        for session in script["sessions"]:
            if session["prompt"] in text:
                position = sum(1 for k, _ in conversation[start + 1:] if k == "assistant")
                if position >= len(session["turns"]):
                    raise Mismatch(409, f"session {session['name']!r} has {len(session['turns'])} turns; the conversation is at turn {position + 1}")
                turn, depth = with_context(session, position, context)
                return Play(model, session, position, turn, depth)
    raise Mismatch(409, "no session of the script matches the conversation's user prompts")


def with_context(session, position, context):
    """The turn to play and its otherwise depth: the turn when every string
    it requires is in CONTEXT, else its "otherwise" turn (checked the same
    way), else a 409 naming what is missing."""
    turn, depth = session["turns"][position], 0
    while True:
        missing = [needle for needle in turn.get("requires_context", []) if needle not in context]
        if not missing:
            return turn, depth
        if "otherwise" not in turn:
            raise Mismatch(409, f"session {session['name']!r} turn {position + 1} requires context holding {missing}; the request's context does not")
        turn, depth = turn["otherwise"], depth + 1


def write_command(write):
    """A shell command writing WRITE's content to its path exactly: a quoted
    heredoc, whose delimiter no line of the content is."""
    delimiter = "PC_E2E_EOF"
    while delimiter in write["content"].split("\n"):
        delimiter += "_"
    path = "'" + write["path"].replace("'", "'\\''") + "'"
    return f"cat > {path} <<'{delimiter}'\n{write['content']}{delimiter}"


def reply_of(turn):
    """What TURN says, host-neutral: its text (say or answer, or None) and
    its action, ("run", command), ("write", {path, content}) or None."""
    text = turn.get("say", turn.get("answer"))
    return text, next(((a, turn[a]) for a in ("run", "write") if a in turn), None)
