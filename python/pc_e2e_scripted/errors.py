"""The scripted model's HTTP errors: a request the scripts do not cover
(a mismatch, named in its message), and the provider failures a script's
"fail" turn plays, one row each in FAULTS.

A fail turn is chosen by what the request holds, like any turn, so a host's
every retry of it gets the same error. A row gives the HTTP status, the
Retry-After seconds it sends unless the turn says otherwise (None: no
header), the OpenAI error's type and code, the Anthropic error's type, and
the message both carry.
"""

from collections import namedtuple

Fault = namedtuple("Fault", "status retry_after openai_type openai_code anthropic_type message")

FAULTS = {
    "server-error": Fault(500, None, "server_error", "server_error", "api_error",
                          "The scripted model fails this turn with an internal error."),
    "overloaded": Fault(503, None, "server_error", "service_unavailable", "overloaded_error",
                        "The scripted model is overloaded for this turn."),
    "rate-limit": Fault(429, 1, "rate_limit_error", "rate_limit_exceeded", "rate_limit_error",
                        "Rate limit reached for the scripted model: too many requests."),
    "quota-exhausted": Fault(429, None, "insufficient_quota", "insufficient_quota", "rate_limit_error",
                             "You have reached your specified API usage limits: the scripted quota is exhausted."),
}


class Mismatch(Exception):
    """An HTTP error answer: STATUS and MESSAGE, and the fault row when a
    fail turn plays it."""

    def __init__(self, status, message, headers=None, fault=None):
        super().__init__(message)
        self.status, self.headers, self.fault = status, headers or {}, fault


def failure(fail):
    """The answer of a fail turn FAIL ({fault, retry_after?})."""
    fault = FAULTS[fail["fault"]]
    seconds = fail.get("retry_after", fault.retry_after)
    return Mismatch(fault.status, fault.message, {} if seconds is None else {"Retry-After": str(seconds)}, fault)


def error_body(shape, error):
    """ERROR (a Mismatch) in SHAPE's error body: "openai" or "anthropic"."""
    fault = error.fault
    if shape == "anthropic":
        kind = fault.anthropic_type if fault else (
            "api_error" if error.status >= 500 else "not_found_error" if error.status == 404 else "invalid_request_error")
        return {"type": "error", "error": {"type": kind, "message": str(error)}}
    return {"error": {"message": str(error), "type": fault.openai_type if fault else "scripted_model_mismatch",
                      "code": fault.openai_code if fault else None}}
