"""The scripted model's HTTP side: routes, the agent's turn in each
dialect, the log, and main (pipelines/scripted-model's usage)."""

import json
import select
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from . import chat, messages, responses
from .errors import FAULTS, STALL_CAP, Injection, Mismatch, error_body, failure, parse_fault
from .extractor import EXTRACTOR
from .script import PREFIX, Play, load_scripts, play, reply_of
from .usage import Usage

USAGE = """usage: pipelines/scripted-model SCRIPTS_DIR URL_FILE LOG_FILE [--fault KIND@N]
       pipelines/scripted-model --check-fault KIND@N
Listens on 127.0.0.1 on a free port, writes http://127.0.0.1:PORT/v1 to
URL_FILE once it accepts connections, and serves until SIGTERM; with
--fault, the Nth agent request and the host's retries of it get KIND's
fault. --check-fault only checks KIND@N: exit 64 naming what is wrong."""
STALL = object()  # the answer of a stall: none

# POST path: (dialect, its model name for a script's PREFIX<workload>@<sha12>)
DIALECTS = {
    "/v1/chat/completions": (chat, lambda name: name),
    "/v1/responses": (responses, lambda name: name[len(PREFIX):]),  # Harbor strips up to the last "/"
    "/v1/messages": (messages, lambda name: name),
}
# Requests a host may make beyond the agent's turns, refused by name.
REFUSED = {
    ("POST", "/v1/messages/count_tokens"): "token counting",
    ("GET", "/v1/models"): "a model listing",
    ("GET", "/v1/responses"): "a Responses websocket (websocket refused: use HTTPS)",
}
REFUSED_STATUS = {("GET", "/v1/responses"): 426}  # Codex falls back to HTTPS at once on a 426


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def do_HEAD(self):
        if self.route() == "/api/hello":  # Claude Code's connectivity probe
            return self.answer({}, {})
        self.answer({}, self.refusal("HEAD"))

    def do_GET(self):
        self.answer({}, self.refusal("GET"))

    def parse_request(self):
        self.fault = {}  # the log's fault fields of this request
        self.usage = {}  # the log's usage of a 200 reply, as its dialect reports it
        return super().parse_request()

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw)
        except ValueError:
            return self.answer({"body": raw.decode("utf-8", "replace")}, Mismatch(400, "the body is not JSON"))
        try:
            result = self.reply(body)
        except Mismatch as exc:
            result = exc
        except Exception as exc:  # noqa: BLE001 (any other shape is drift too, and must be logged)
            result = Mismatch(500, f"cannot answer this request: {exc!r}")
        self.answer({"body": body}, result)

    def route(self):
        return self.path.partition("?")[0]

    def refusal(self, method):
        what = REFUSED.get((method, self.route()))
        if what is None:
            return Mismatch(404, f"unknown path {method} {self.path}")
        status = REFUSED_STATUS.get((method, self.route()), 404)
        return Mismatch(status, f"the scripted model does not serve {what} ({method} {self.route()})")

    def reply(self, body):
        if self.route() not in DIALECTS:
            raise self.refusal("POST")
        dialect, spoken = DIALECTS[self.route()]
        model, scripts = body.get("model"), self.server.scripts
        if dialect is chat and model == EXTRACTOR:
            content, usage = chat.extractor_usage(scripts, body)
            self.usage = {"usage": chat.usage_of(usage)}
            return chat.extractor_completion(content, usage)
        script = next((s for name, s in scripts.items() if spoken(name) == model), None)
        if script is None:
            plays = sorted(spoken(name) for name in scripts) + ([EXTRACTOR] if dialect is chat else [])
            raise Mismatch(404, f"unknown model {model!r}; this server plays {plays}")
        if not body.get("stream"):
            raise Mismatch(400, f"the agent's requests stream; this one does not (POST {self.route()} for {model})")
        # every streamed agent request counts, whatever it is answered
        injected = self.server.injection.take(body) if self.server.injection else None
        try:
            turn = play(model, script, dialect.conversation(body))
        except Mismatch:
            if not injected:
                raise
            turn = Play(model, {"name": "fault"}, 0, {}, 0)  # a fault needs no turn
        fail = {} if injected else turn.turn.get("fail", {})
        name = injected or fail.get("fault")
        if name:
            self.fault = {"fault": name, **({"fault_at": self.server.injection.n} if injected else {})}
            if FAULTS[name].status is None:
                return STALL
            if FAULTS[name].status != 200:
                raise failure(name, fail.get("retry_after"))
        text, action = reply_of({} if name else turn.turn)
        call = dialect.tool(action) if action else None
        usage = Usage(*dialect.usage_texts(body), [text, json.dumps(call[1], sort_keys=True) if call else None])
        # a cut stream never delivers its usage
        self.usage = {} if name else {"usage": dialect.usage_of(usage)}
        return dialect.render(model, turn, text, call, usage)

    def answer(self, request, result):
        """Send RESULT (a Mismatch, a list of stream events, or a JSON body)
        and log it beside REQUEST."""
        anthropic = self.route().startswith(("/v1/messages", "/api/"))
        headers = {"Content-Type": "application/json"}
        if result is STALL:
            self.server.log({"method": self.command, "path": self.path, **request, "status": None, **self.fault})
            return self.stall()
        if isinstance(result, Mismatch):
            # Anthropic's clients retry a 409: a conversation the script does
            # not cover is a 400 there, so it fails at once.
            if anthropic and result.status == 409:
                result.status = 400
            status = result.status
            payload = json.dumps(error_body("anthropic" if anthropic else "openai", result)).encode()
            headers.update(result.headers)
        elif isinstance(result, list):
            status, headers = 200, {"Content-Type": "text/event-stream"}
            if DIALECTS[self.route()][0].NAMED_EVENTS:
                frames = [f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in result]
            else:
                frames = [b"data: " + json.dumps(c).encode() + b"\n\n" for c in result] + [b"data: [DONE]\n\n"]
            payload = b"".join(frames)
        else:
            status, payload = 200, json.dumps(result).encode() if result else b""
        self.server.log({"method": self.command, "path": self.path, **request, "status": status,
                         **({"error": str(result)} if status != 200 else self.usage), **self.fault})
        self.send_response(status)
        for name, value in {**headers, "Content-Length": str(len(payload))}.items():
            self.send_header(name, value)
        self.end_headers()
        if self.fault.get("fault") == "cut":
            # the first half of the events, short of the Content-Length sent
            self.wfile.write(b"".join(frames[:max(1, len(frames) // 2)]))
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        elif self.command != "HEAD":
            self.wfile.write(payload)

    def stall(self):
        """Hold the connection without a byte until the client closes it,
        the server stops or STALL_CAP seconds pass; then close it."""
        self.close_connection = True
        end = time.monotonic() + STALL_CAP
        while not self.server.stopping.is_set() and time.monotonic() < end:
            if select.select([self.connection], [], [], 0.5)[0] and not self.connection.recv(65536):
                break


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, scripts, log_path, injection):
        super().__init__(("127.0.0.1", 0), Handler)
        self.scripts, self.injection, self.stopping = scripts, injection, threading.Event()
        self._log = open(log_path, "a", encoding="utf-8")  # noqa: SIM115 (open for the server's life)
        self._lock = threading.Lock()

    def log(self, entry):
        with self._lock:
            self._log.write(json.dumps(entry, sort_keys=True) + "\n")
            self._log.flush()


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "--check-fault":
            return parse_fault(argv[2])
        fault = argv[5] if len(argv) == 6 and argv[4] == "--fault" else None
        injection = Injection(fault) if fault else None
    except ValueError as exc:
        print(f"scripted-model: {exc}", file=sys.stderr)
        sys.exit(64)
    if len(argv) != (6 if fault else 4):
        sys.exit(USAGE)
    server = Server(load_scripts(argv[1]), argv[3], injection)

    def stop(*_):
        server.stopping.set()  # releases the stalls
        threading.Thread(target=server.shutdown).start()
    signal.signal(signal.SIGTERM, stop)
    url_file = Path(argv[2])
    tmp = url_file.with_name(url_file.name + ".tmp")
    tmp.write_text(f"http://127.0.0.1:{server.server_address[1]}/v1\n")
    tmp.rename(url_file)
    server.serve_forever()
