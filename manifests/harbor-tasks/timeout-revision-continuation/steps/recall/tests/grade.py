"""Score the recall step's answer file: reward 1 or 0.

usage: python3 grade.py ANSWER_JSON REWARD_TXT

The expected values are here and nowhere else: this file reaches /tests only
for the recall step's verifier, after the agent's session has ended. The
answer must be one JSON object with exactly the keys below, each once (a
repeated key could hide a second, contradicting value; an extra key could
hold a hedge the graded ones do not show). A string value is compared
trimmed of ASCII blanks and in lower case, and must be ASCII (so no
look-alike letter or digit passes); an integer is compared as its decimal
digits, so 18 and "18" are the same answer. Anything else (null, a
boolean, a float, a list) is not an answer. A missing or unreadable file,
or JSON that does not parse, scores 0.
"""

import json
import sys

EXPECTED = {"timeout_seconds": "20", "replaced_timeout_seconds": "45"}
BLANKS = " \t\r\n"


class RepeatedKey(ValueError):
    pass


def one_of_each(pairs):
    answer = {}
    for key, value in pairs:
        if key in answer:
            raise RepeatedKey(key)
        answer[key] = value
    return answer


def as_compared(value):
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.isascii():
        return value.strip(BLANKS).lower()
    return None


def reward(raw):
    try:
        answer = json.loads(raw.decode("utf-8"), object_pairs_hook=one_of_each)
    except (ValueError, RecursionError):
        return 0
    if not isinstance(answer, dict) or set(answer) != set(EXPECTED):
        return 0
    return int(all(as_compared(answer[key]) == value for key, value in EXPECTED.items()))


def main(answer_path, reward_path):
    try:
        with open(answer_path, "rb") as answer_file:
            raw = answer_file.read()
    except OSError:
        raw = b""
    with open(reward_path, "w", encoding="ascii") as reward_file:
        reward_file.write(f"{reward(raw)}\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
