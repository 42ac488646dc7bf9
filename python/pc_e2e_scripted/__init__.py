"""pc_e2e_scripted: the scripted model behind pipelines/scripted-model.

One host-neutral script per workload (script.py) is spoken in three dialects,
one module each: OpenAI chat completions for Bub and the Server's extractor
(chat.py, extractor.py), the OpenAI Responses API for Codex (responses.py) and
the Anthropic Messages API for Claude Code (messages.py). usage.py derives
each reply's token figures from the request, errors.py holds the faults a "fail"
turn or FAULT=KIND@N plays, server.py the routes. docs/scripted-model.md describes
the whole.
"""
