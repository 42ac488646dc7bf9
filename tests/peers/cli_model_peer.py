#!/usr/bin/env python3
"""A test peer playing the model of a command-line host on loopback.

Speaks just enough of the OpenAI Responses API (Codex) and the Anthropic
Messages API (Claude Code), both streamed: the first turn of a session asks
for one shell command, the turn after its result answers a text.  Every
reply reports usage.  The command records what the host's sandbox holds of
PowerContext in /workspace/cli-peer.txt.  With --fail STATUS every model
request is answered with that HTTP status (and Retry-After: 1).  Each request is appended to --log as a JSON line
{method, path, body}.

    cli_model_peer.py --port-file FILE --log FILE [--fail STATUS]
"""
import argparse
import http.server
import itertools
import json

# what the host's sandbox holds of PowerContext: its settings' names, its plugin
COMMAND = ("{ env | cut -d= -f1 | grep '^POWERCONTEXT_' | sort; "
           "ls -d /opt/powercontext /installed-agent/codex-plugin-env 2>/dev/null; "
           "echo cli-peer-ran; } >> /workspace/cli-peer.txt")
ANSWER = "The command ran."


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--fail", type=int, default=0)
    return p.parse_args()


ARGS = parse()
COUNT = itertools.count(1)


class Peer(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def record(self, body):
        with open(ARGS.log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"method": self.command, "path": self.path, "body": body}) + "\n")

    def empty(self, status):
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.record(None)
        self.empty(200)

    def do_GET(self):
        self.record(None)
        # Codex tries a WebSocket first; 426 sends it to HTTP at once
        self.empty(426 if self.path.startswith("/v1/responses") else 404)

    def do_POST(self):
        size = int(self.headers.get("content-length") or 0)
        body = json.loads(self.rfile.read(size) or b"null")
        self.record(body)
        if ARGS.fail:
            text = json.dumps({"type": "error", "error": {"type": "api_error", "message": "peer failure"}})
            data = text.encode()
            self.send_response(ARGS.fail)
            self.send_header("retry-after", "1")
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif self.path.startswith("/v1/responses"):
            self.stream(responses_events(body, next(COUNT)))
        elif self.path.startswith("/v1/messages"):
            self.stream(messages_events(body, next(COUNT)))
        else:
            self.empty(404)

    def stream(self, events):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        for name, data in events:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        self.wfile.flush()
        self.close_connection = True


def responses_events(body, n):
    done = any(i.get("type") == "function_call_output" for i in body.get("input", []) if isinstance(i, dict))
    if done:
        item = {"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                "content": [{"type": "output_text", "text": ANSWER, "annotations": []}]}
    else:
        item = {"type": "function_call", "id": f"fc_{n}", "call_id": f"call_{n}", "name": "exec_command",
                "arguments": json.dumps({"cmd": COMMAND}), "status": "completed"}
    usage = {"input_tokens": 100 * n, "input_tokens_details": {"cached_tokens": 10 * n},
             "output_tokens": n, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 101 * n}
    response = {"id": f"resp_{n}", "object": "response", "status": "completed", "output": [item], "usage": usage}
    return [("response.created", {"type": "response.created", "response": dict(response, output=[])}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed", "response": response})]


def messages_events(body, n):
    done = any(isinstance(m.get("content"), list) and any(b.get("type") == "tool_result" for b in m["content"])
               for m in body.get("messages", []))
    usage = {"input_tokens": 100 * n, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 10 * n,
             "output_tokens": 1}
    if done:
        block, delta, stop = {"type": "text", "text": ""}, {"type": "text_delta", "text": ANSWER}, "end_turn"
    else:
        block = {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {}}
        delta = {"type": "input_json_delta", "partial_json": json.dumps({"command": COMMAND})}
        stop = "tool_use"
    message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": body.get("model"),
               "content": [], "stop_reason": None, "usage": usage}
    return [("message_start", {"type": "message_start", "message": message}),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": n}}),
            ("message_stop", {"type": "message_stop"})]


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Peer)
with open(ARGS.port_file, "w", encoding="utf-8") as f:
    f.write(f"{server.server_address[1]}\n")
server.serve_forever()
