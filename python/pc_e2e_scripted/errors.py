"""The scripted model's faults: a request the scripts do not cover (a
mismatch, named in its message), and the provider failures a script's
"fail" turn or FAULT=KIND@N plays, one row each in FAULTS.

A fail turn is chosen by what the request holds, like any turn, so a host's
every retry of it gets the same fault. A row gives its KIND in FAULT=, the
HTTP status (200 for a stream cut mid-way, None for no answer at all), the
Retry-After seconds it sends unless the turn says otherwise (None: no
header), the OpenAI error's type and code, the Anthropic error's type, and
the message both carry.
"""

import hashlib
import json
import re
import threading
from collections import namedtuple

Fault = namedtuple("Fault", "kind status retry_after openai_type openai_code anthropic_type message")

FAULTS = {
    "server-error": Fault("500", 500, None, "server_error", "server_error", "api_error",
                          "The scripted model fails this turn with an internal error."),
    "overloaded": Fault("503", 503, None, "server_error", "service_unavailable", "overloaded_error",
                        "The scripted model is overloaded for this turn."),
    "rate-limit": Fault("429", 429, 1, "rate_limit_error", "rate_limit_exceeded", "rate_limit_error",
                        "Rate limit reached for the scripted model: too many requests."),
    "quota-exhausted": Fault("429-quota", 429, None, "insufficient_quota", "insufficient_quota", "rate_limit_error",
                             "You have reached your specified API usage limits: the scripted quota is exhausted."),
    # the stream's first events, then the connection closes without its end
    "cut": Fault("cut", 200, None, None, None, None, "The scripted model's stream is cut mid-way."),
    # not a byte until the client gives up (or STALL_CAP seconds pass)
    "stall": Fault("stall", None, None, None, None, None, "The scripted model does not answer."),
}
STALL_CAP = 900
KINDS = {fault.kind: name for name, fault in FAULTS.items()}


class Injection:
    """FAULT=KIND@N: the Nth agent request this scripted model counts gets
    KIND's fault, and so does every later request whose body is the same
    JSON (the host's retry of it: Codex's turn-level retry resends the same
    JSON in other bytes); every other request is served as the scripts say.
    The count lives in this process: one attempt of a unit."""

    def __init__(self, setting):
        self.name, self.n = parse_fault(setting)
        self.count, self.fired, self.lock = 0, None, threading.Lock()

    def take(self, body):
        """The fault row's name for the request of parsed BODY, counting it,
        or None."""
        digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).digest()
        with self.lock:
            if digest == self.fired:
                return self.name
            self.count += 1
            if self.count != self.n:
                return None
            self.fired = digest
            return self.name


def parse_fault(setting):
    """(fault row name, N) of SETTING "KIND@N"; ValueError naming what is
    wrong."""
    match = re.fullmatch(r"([0-9a-z-]+)@([1-9][0-9]*)", setting)
    if not match or match[1] not in KINDS:
        raise ValueError(f"FAULT={setting}: not KIND@N, KIND one of {', '.join(KINDS)} and N a request number"
                         " from 1")
    return KINDS[match[1]], int(match[2])


class Mismatch(Exception):
    """An HTTP error answer: STATUS and MESSAGE, and the fault row when a
    fail turn plays it."""

    def __init__(self, status, message, headers=None, fault=None):
        super().__init__(message)
        self.status, self.headers, self.fault = status, headers or {}, fault


def failure(name, retry_after=None):
    """The HTTP error answer of fault row NAME (status 4xx or 5xx), with
    RETRY_AFTER seconds when given, else the row's, in the header and the
    message."""
    fault = FAULTS[name]
    seconds = fault.retry_after if retry_after is None else retry_after
    if seconds is None:
        return Mismatch(fault.status, fault.message, {}, fault)
    # the wait in the words too, as OpenAI's own 429 bodies say it: a host
    # that keeps the body but not the header (Bub) still passes it on
    return Mismatch(fault.status, f"{fault.message} Please try again in {seconds}s.",
                    {"Retry-After": str(seconds)}, fault)


def error_body(shape, error):
    """ERROR (a Mismatch) in SHAPE's error body: "openai" or "anthropic"."""
    fault = error.fault
    if shape == "anthropic":
        kind = fault.anthropic_type if fault else (
            "api_error" if error.status >= 500 else "not_found_error" if error.status == 404 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": str(error)}}
    return {"error": {"message": str(error), "type": fault.openai_type if fault else "scripted_model_mismatch",
                      "code": fault.openai_code if fault else None}}
