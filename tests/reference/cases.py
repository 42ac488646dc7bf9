"""Rebuild tests/fixtures/reference/ with PowerContext's own evaluator.

Run by tests/reference/generate inside a throwaway venv where the pinned
PowerContext release and its e2e harness (from the release's sdist) import;
never run by CI. Usage: cases.py FIXTURES_DIR

It writes, in FIXTURES_DIR, three line-aligned files:
  replays.jsonl      the 0.0.2-era replays already there, byte for byte,
                     then the cases built below, each validated by the
                     harness's replay model and serialized the way the
                     harness writes replay.json, on one line
  evaluations.jsonl  what the harness's evaluate_observation() returns for
                     each line, serialized the way it writes eval-report.json
  policies.txt       the failure policy each line was evaluated under
and rejected.jsonl: the 0.0.2-era replays the replay model now refuses,
byte for byte, which pc-evaluate must refuse too.
"""

import hashlib
import json
import sys
from pathlib import Path

from pydantic import ValidationError
from powercontext_e2e.catalog import OutcomeEvaluationSpec
from powercontext_e2e.evaluation import evaluate_observation
from powercontext_e2e.models import TaskObservation

POLICIES = ("collect-all", "fail-fast")
CHECKSUM = hashlib.sha256(b"pc-e2e reference task").hexdigest()
OTHER_CHECKSUM = hashlib.sha256(b"pc-e2e another task").hexdigest()
# The 0.0.2-era replays, kept byte for byte: the first lines of
# replays.jsonl, less those in rejected.jsonl.
OLD_CASES = 71
T0, T1 = "2026-07-01T09:00:00Z", "2026-07-01T09:00:05Z"

# Old replays the pinned release refuses to load: their line in the original
# 71-line replays.jsonl -> (workload id, the error the replay model gives).
REJECTED_OLD = {57: ("probes-extra-and-partial", "expected_context fragments must be nonblank")}


# ---- building blocks of a replay, as plain dicts -------------------------


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


def native_artifacts():
    names = [f"steps/{step}/agent/{name}" for step in ("capture", "recall")
             for name in ("acp-events.jsonl", "acp-summary.json", "trajectory.json")]
    return [{"name": n, "sha256": sha(n), "bytes": len(n)} for n in names]


def instructions():
    return [{"step": step, "artifact": f"steps/{step}/agent/acp-summary.json",
             "content": f"{step} the decision", "sha256": sha(f"{step} the decision")}
            for step in ("capture", "recall")]


def source(source_id, name="user_prompt"):
    return {"name": name, "source_id": source_id}


def atomic(artifact_id, text="The project chose OceanBase.", *, family="atomic-memory", revision=1,
           sources=(source("src-1"),), artifacts=(), state="active", state_version=1, merged_into_id=None):
    return {"artifact": {"family": family, "artifact_id": artifact_id, "revision": revision},
            "kind": "project-decision", "text": text, "state": state, "state_version": state_version,
            "merged_into_id": merged_into_id, "sources": list(sources), "artifacts": list(artifacts)}


def legacy(entry_id, text="The project chose OceanBase.", *, sources=(source("src-1"),)):
    return {"entry_id": entry_id, "entry_version_id": f"ver_{entry_id}", "version": 1,
            "kind": "project-decision", "text": text, "state": "active", "source_refs": list(sources)}


def record(event, status, **fields):
    return {"schema": "powercontext.bub-capture-event/v1", "recorded_at": T0,
            "event": event, "status": status, **fields}


def captured(source_id="src-1", event="user_prompt", status="captured"):
    return record(event, status, source_id=source_id)


def spec(probe_id, expected=(), forbidden=()):
    return {"id": probe_id, "query": "Which database did the project choose?",
            "expected_context": list(expected), "forbidden_context": list(forbidden)}


def seen(probe_id, content, status="ready", matched=None):
    return {"id": probe_id, "query": "Which database did the project choose?",
            "prepared_context": {"status": status, "content": content},
            "forbidden_context_matched": matched}


def task(workload_id, evaluation, categories=("acceptance",)):
    return {"schema": "powercontext.e2e-task/v1", "id": workload_id, "categories": list(categories),
            "dataset": {"path": "manifests/harbor-tasks", "task_id": workload_id, "checksum": CHECKSUM},
            "execution": {"type": "bub", "max_steps": 10, "max_tokens": 4096},
            "evaluation": evaluation}


def replay(workload_id, evaluation, **fields):
    doc = {
        "run_id": f"{workload_id}-0123456789ab",
        "environment": {"commit": "fedcba9876543210fedcba9876543210fedcba98", "database": "sqlite",
                        "adapter": "bub", "adapter_version": "bub 0.4.2",
                        "adapter_protocol_version": "bub-acp-server 0.0.2",
                        "started_at": T0, "finished_at": T1},
        "task": task(workload_id, evaluation),
        "status": "completed",
        "harbor": {"job_id": f"{workload_id}-job", "trial_name": f"{workload_id}__abc",
                   "task_checksum": CHECKSUM, "rewards": {"reward": 1.0},
                   "started_at": T0, "finished_at": T1},
        "capture_records": [captured()],
        "native_artifacts": native_artifacts(),
        "resolved_instructions": instructions(),
        "memory_before": {"entries": []},
        "memory_after": {"entries": [atomic("m1")]},
        "probes": [seen("database", "The project chose OceanBase.")],
    }
    doc.update(fields)
    return doc


def memory(workload_id, *, specs=(spec("database", ["OceanBase"]),), expected_memory=(),
           require_checkpoint=False, **thresholds_and_fields):
    """A Memory workload's replay: accepted unless the arguments say otherwise."""
    names = ("capture_coverage", "groundedness", "probe_coverage", "minimum_in_run_contexts")
    thresholds = {k: thresholds_and_fields.pop(k) for k in names if k in thresholds_and_fields}
    evaluation = {"require_checkpoint": require_checkpoint, "expected_memory": list(expected_memory),
                  "probes": list(specs), "thresholds": thresholds}
    return replay(workload_id, evaluation, **thresholds_and_fields)


def outcome(workload_id, collect_all, fail_fast, status, rewards, **harbor):
    """An outcome workload (expected execution per failure policy) after a run."""
    doc = replay(workload_id, {"expected_execution": {"collect-all": collect_all, "fail-fast": fail_fast}},
                 status=status, capture_records=[], memory_after={"entries": []}, probes=[])
    doc["task"]["categories"] = ["failure-policy"]
    doc["harbor"].update(rewards=rewards, **harbor)
    return doc


def with_harbor(doc, **harbor):
    doc["harbor"].update(harbor)
    return doc


# ---- the new cases: (replay, policies), each workload id names its edge --

NFC_CAFE, NFD_CAFE = "caf\u00e9", "cafe\u0301"
CASES = [
    # Atomic Memory entries: grounding by sources only, identity by (family, artifact_id).
    memory("atomic-grounded", capture_coverage=1, groundedness=1),
    memory("atomic-ungrounded", groundedness=0.5,
           memory_after={"entries": [atomic("m1", sources=[source("src-9")])]}),
    memory("atomic-partially-grounded-at-threshold", capture_coverage=0.5, groundedness=0.5,
           capture_records=[captured("src-1"), captured("src-2", "tool_result", "failed")],
           memory_after={"entries": [atomic("m1", sources=[source("src-1"), source("src-2", "tool_result")]),
                                     atomic("m2")]}),
    memory("atomic-grounded-two-thirds-below-0667", groundedness=0.667,
           memory_after={"entries": [atomic("m1"), atomic("m2"), atomic("m3", sources=[source("src-3")])]}),
    memory("atomic-artifacts-never-ground", groundedness=0.001,
           memory_after={"entries": [atomic("m1", sources=[], artifacts=[
               {"family": "source", "artifact_id": "src-1", "revision": 1}])]}),
    memory("atomic-source-ids-empty-and-case", groundedness=0.5,
           capture_records=[captured(""), captured("src-1"), record("user_prompt", "captured")],
           memory_after={"entries": [atomic("m1", sources=[source("")]), atomic("m2", sources=[source("SRC-1")])]}),
    memory("atomic-same-id-new-revision-not-new",
           memory_before={"entries": [atomic("m1", "The project chose MySQL.")]},
           memory_after={"entries": [atomic("m1", revision=2, state_version=2)]}),
    memory("atomic-same-id-other-family-is-new",
           memory_before={"entries": [atomic("m1")]},
           memory_after={"entries": [atomic("m1"), atomic("m1", family="decision-memory")]}),
    memory("atomic-duplicate-entries-after", groundedness=1,
           memory_after={"entries": [atomic("m2"), atomic("m2")]}),
    memory("atomic-and-legacy-mixed", groundedness=0.5,
           memory_after={"entries": [legacy("mem_1"), atomic("mem_1", sources=[source("src-9")])]}),
    memory("atomic-family-memory-matches-legacy-id",
           memory_before={"entries": [legacy("m1")]},
           memory_after={"entries": [atomic("m1", family="memory")]}),
    memory("atomic-memory-before-nonempty", groundedness=1,
           memory_before={"entries": [atomic("m1", sources=[source("src-0")])]},
           memory_after={"entries": [atomic("m1", sources=[source("src-0")]), atomic("m2")]}),
    memory("atomic-merged-and-superseded",
           memory_after={"entries": [atomic("m1", state="merged", state_version=3, merged_into_id="m2"),
                                     atomic("m2", state="superseded", state_version=2)]}),
    # Capture records: checkpoints (cursor flags are recorded, never scored) and in-run contexts.
    memory("checkpoint-cursor-flags", require_checkpoint=True, capture_records=[
        captured(),
        record("checkpoint", "completed", target_position=5, current_cursor=5, previous_cursor=0,
               cursor_advanced=True, remaining_work=False, processed_source_count=1, memory_created=True),
        record("checkpoint", "failed", target_position=5, current_cursor=9, cursor_advanced=True),
        record("checkpoint", "completed", target_position=5, current_cursor=4, remaining_work=True),
        record("checkpoint", "completed", target_position=5, cursor_advanced=False),
        record("checkpoint", "completed", current_cursor=5)]),
    memory("checkpoint-any-status-but-failed", require_checkpoint=True, capture_records=[
        captured(), record("checkpoint", "", target_position=0, current_cursor=0),
        record("checkpoint", "Failed", target_position=1, current_cursor=2)]),
    memory("in-run-contexts-at-minimum", minimum_in_run_contexts=2, capture_records=[
        captured(), record("context", "ready", content_bytes=10), record("context", "ready", content_bytes=0),
        record("context", "ready"), record("context", "empty", content_bytes=5),
        record("context", "ready", content_bytes=1)]),
    memory("capture-coverage-statuses-half", capture_coverage=0.5, capture_records=[
        captured(), captured("src-2", "llm_result", "skipped"), captured("src-3", "tool_result", "failed"),
        captured("src-4", "tool_result"), captured("src-5", "checkpoint"), captured("src-6", "context")]),
    # Recall probes: only probes with expected_context count toward probe coverage.
    memory("probes-positive-and-abstention", specs=[spec("positive", ["OceanBase"]), spec("abstain")],
           probes=[seen("positive", "OceanBase"), seen("abstain", "anything at all")]),
    memory("probes-abstention-only", specs=[spec("abstain-a"), spec("abstain-b")],
           probes=[seen("abstain-a", "The project chose OceanBase.")]),
    memory("probe-missing-from-observation-half", probe_coverage=0.5,
           specs=[spec("present", ["OceanBase"]), spec("missing", ["OceanBase"])],
           probes=[seen("present", "OceanBase")]),
    memory("probes-not-ready-statuses", probe_coverage=0,
           specs=[spec("pending", ["OceanBase"]), spec("capitalized", ["OceanBase"]), spec("ready", ["OceanBase"])],
           probes=[seen("pending", "OceanBase", "pending"), seen("capitalized", "OceanBase", "Ready"),
                   seen("ready", "OceanBase")]),
    memory("probe-coverage-one-third-vs-03335", probe_coverage=0.3335,
           specs=[spec("a", ["OceanBase"]), spec("b", ["MySQL"]), spec("c", ["MySQL"])],
           probes=[seen("a", "OceanBase"), seen("b", "OceanBase"), seen("c", "OceanBase")]),
    # forbidden_context: the recorded flag decides when set, the content when null; ready probes only.
    memory("forbidden-flag-true-abstention", specs=[spec("database", ["OceanBase"]), spec("abstain", forbidden=["MySQL"])],
           probes=[seen("database", "OceanBase"), seen("abstain", "nothing relevant", matched=True)]),
    memory("forbidden-flag-false-content-has-it", specs=[spec("abstain", forbidden=["MySQL"])],
           probes=[seen("abstain", "The project chose MySQL.", matched=False)]),
    memory("forbidden-flag-null-content-decides",
           specs=[spec("hit", forbidden=["MySQL"]), spec("clean", forbidden=["MySQL"])],
           probes=[seen("hit", "we moved off mysql 8"), seen("clean", "The project chose OceanBase.")]),
    memory("forbidden-not-ready-probe", specs=[spec("pending", forbidden=["MySQL"]), spec("empty", forbidden=["MySQL"])],
           probes=[seen("pending", "MySQL", "pending", matched=True), seen("empty", "MySQL", "empty")]),
    memory("forbidden-match-on-positive-probe",
           specs=[spec("database", ["OceanBase"], forbidden=["MySQL"])],
           probes=[seen("database", "OceanBase, not MySQL.")]),
    memory("forbidden-several-probes-in-spec-order",
           specs=[spec("p-b", forbidden=["MySQL"]), spec("p-a", forbidden=["Postgres", "MySQL"]),
                  spec("p-c", forbidden=["MySQL"])],
           probes=[seen("p-a", "POSTGRES"), seen("p-b", "x", matched=True)]),
    memory("forbidden-flag-without-forbidden-spec",
           probes=[seen("database", "OceanBase", matched=True)]),
    memory("forbidden-nfc-fragment-nfd-content", specs=[spec("abstain", forbidden=[NFC_CAFE])],
           probes=[seen("abstain", f"the {NFD_CAFE} table")]),
    # Fragment matching: casefold, then NFC, on both sides.
    memory("probes-nfc-expected-nfd-content", specs=[spec("p", [NFC_CAFE])], probes=[seen("p", f"The {NFD_CAFE}")]),
    memory("probes-nfd-expected-nfc-content", specs=[spec("p", [NFD_CAFE])], probes=[seen("p", f"The {NFC_CAFE}")]),
    memory("probes-nfd-content-hides-base-letter", specs=[spec("p", ["cafe"])], probes=[seen("p", f"The {NFD_CAFE}")]),
    memory("probes-casefold-sharp-s", specs=[spec("a", ["STRASSE"]), spec("b", ["\u00df"]), spec("c", ["FFI"])],
           probes=[seen("a", "Stra\u00dfe"), seen("b", "SS"), seen("c", "\ufb03")]),
    memory("probes-casefold-greek-sigma", specs=[spec("a", ["\u039f\u0394\u039f\u03a3"]), spec("b", ["\u03c3"])],
           probes=[seen("a", "\u03bf\u03b4\u03bf\u03c2"), seen("b", "\u03c2")]),
    memory("probes-casefold-turkish-i", probe_coverage=0.25,
           specs=[spec("a", ["\u0130stanbul"]), spec("b", ["istanbul"]), spec("c", ["\u0131"]), spec("d", ["\u0130"])],
           probes=[seen("a", "istanbul"), seen("b", "\u0130stanbul"), seen("c", "I"), seen("d", "\u0130")]),
    memory("probes-casefold-then-nfc", specs=[spec("a", ["\u212b"]), spec("b", ["\u01f0"]), spec("c", ["j\u030c"])],
           probes=[seen("a", "\u00e5"), seen("b", "J\u030c"), seen("c", "\u01f0")]),
    memory("probes-unicode-whitespace-content", probe_coverage=0,
           specs=[spec("blank", ["OceanBase"]), spec("zwsp", ["\u200b"]), spec("bom", ["\ufeff"])],
           probes=[seen("blank", "\u3000\u2028\u0085\u001c\u00a0"), seen("zwsp", "\u3000\u200b\u3000"),
                   seen("bom", "\ufeff")]),
    # expected_memory: casefold only (no NFC), over every entry after the run.
    memory("expected-memory-nfc-fragment-nfd-text", expected_memory=[NFC_CAFE],
           memory_after={"entries": [atomic("m1", f"The {NFD_CAFE} uses OceanBase.")]}),
    memory("expected-memory-nfd-fragment-nfc-text", expected_memory=[NFD_CAFE],
           memory_after={"entries": [atomic("m1", f"The {NFC_CAFE} uses OceanBase.")]}),
    memory("expected-memory-casefold-sharp-s", expected_memory=["STRASSE", "oceanbase"],
           memory_after={"entries": [atomic("m1", "Stra\u00dfe data lives in OceanBase.")]}),
    memory("expected-memory-atomic-and-legacy-not-new", expected_memory=["oceanbase", "vector"],
           memory_before={"entries": [atomic("m1"), legacy("mem_2", "Vector search is on.")]},
           memory_after={"entries": [atomic("m1"), legacy("mem_2", "Vector search is on.")]}),
    memory("expected-memory-only-before", expected_memory=["MySQL"],
           memory_before={"entries": [atomic("m0", "The project chose MySQL.")]},
           memory_after={"entries": [atomic("m1")]}),
    # Run status and task outcome.
    memory("memory-skipped-either-policy", status="skipped", capture_records=[], probes=[],
           memory_after={"entries": []}),
    with_harbor(memory("memory-skipped-with-evidence", status="skipped", errors=["Harbor stopped the trial"]),
                exception_type="AgentTimeoutError", exception_message="timed out"),
    with_harbor(memory("memory-failed-reward-one", status="failed", errors=["Harbor exited with status 1"]),
                rewards={"reward": 1}),
    with_harbor(memory("memory-failed-exception", status="failed", errors=["agent timed out", "flush: 'x'"]),
                exception_type="AgentTimeoutError", exception_message="timed out after 600 s"),
    with_harbor(memory("memory-rewards-int-sorted"), rewards={"zeta": 1, "reward": 1, "alpha": 1.0}),
    with_harbor(memory("memory-reward-negative-zero"), rewards={"reward": -0.0}),
    # Task provenance: source_task_checksum first, task_checksum when it is null or empty.
    with_harbor(memory("source-checksum-matches-task-differs"),
                source_task_checksum=CHECKSUM, task_checksum=OTHER_CHECKSUM),
    with_harbor(memory("source-checksum-mismatches-task-matches"), source_task_checksum=OTHER_CHECKSUM),
    with_harbor(memory("source-checksum-empty-falls-back"), source_task_checksum=""),
    with_harbor(memory("source-checksum-empty-task-null"), source_task_checksum="", task_checksum=None),
    # Environment fields that a non-Bub host records.
    memory("environment-adapter-settings", environment={
        "commit": "fedcba9876543210fedcba9876543210fedcba98", "database": "oceanbase", "adapter": "codex",
        "adapter_version": "codex 0.9.1", "adapter_protocol_version": "acp 1", "agent_model": "gpt-test",
        "agent_settings": {"reasoning_effort": "high", "sandbox": "workspace-write"},
        "started_at": "2026-07-01T11:00:00+02:00", "finished_at": T1}),
    # Outcome workloads: the expected execution depends on the failure policy.
    outcome("outcome-completed-reward-int", "completed", "completed", "completed", {"reward": 1}),
    outcome("outcome-completed-reward-float", "completed", "completed", "completed", {"reward": 1.0}),
    outcome("outcome-completed-reward-half", "completed", "completed", "completed", {"reward": 0.5}),
    outcome("outcome-completed-reward-missing", "completed", "completed", "completed", {}),
    outcome("outcome-completed-extra-reward", "completed", "completed", "completed", {"style": 0.25, "reward": 1}),
    outcome("outcome-completed-reward-just-below-one", "completed", "completed", "completed",
            {"reward": 0.9999999999999999}),
    outcome("outcome-failed-reward-int-zero", "failed", "failed", "failed", {"reward": 0}),
    outcome("outcome-failed-reward-float-zero", "failed", "failed", "failed", {"reward": 0.0}),
    outcome("outcome-failed-reward-negative-zero", "failed", "failed", "failed", {"reward": -0.0}),
    outcome("outcome-failed-reward-tiny", "failed", "failed", "failed", {"reward": 1e-07}),
    outcome("outcome-failed-reward-one", "failed", "failed", "failed", {"reward": 1}),
    outcome("outcome-failed-with-exception", "failed", "failed", "failed", {},
            exception_type="RewardFileNotFoundError", exception_message="no reward.txt"),
    outcome("outcome-fail-fast-skips-observed-completed", "completed", "skipped", "completed", {"reward": 1}),
    outcome("outcome-fail-fast-skips-observed-skipped", "completed", "skipped", "skipped", {}),
    outcome("outcome-skipped-with-reward", "skipped", "skipped", "skipped", {"reward": 0.5}),
    outcome("outcome-expected-failed-or-completed", "failed", "completed", "completed", {"reward": 1}),
]
BOTH_POLICIES = {"memory-skipped-either-policy"}


# ---- evaluation and output ------------------------------------------------


def policies_of(observation):
    if isinstance(observation.task.evaluation, OutcomeEvaluationSpec):
        return POLICIES
    return POLICIES if observation.task.id in BOTH_POLICIES else ("collect-all",)


def rejection(line):
    """Why the replay model refuses an old replay line, or None."""
    try:
        TaskObservation.model_validate_json(line)
        return None
    except ValidationError as error:
        return str(error)


def old_replays(fixtures):
    """The 71 old replay lines in their original order, on a first run or a rerun."""
    # Lines end with "\n" only: some replays hold U+2028 and other characters
    # that str.splitlines() would also split at.
    lines = (fixtures / "replays.jsonl").read_text(encoding="utf-8").split("\n")
    if not (fixtures / "rejected.jsonl").exists():
        return lines[:OLD_CASES]
    lines = lines[:OLD_CASES - len(REJECTED_OLD)]
    for n, line in zip(sorted(REJECTED_OLD), (fixtures / "rejected.jsonl").read_text(encoding="utf-8").split("\n")):
        lines.insert(n - 1, line)
    return lines


def serialize_new(doc):
    """A new case as the harness writes replay.json, on one line; read back unchanged."""
    line = TaskObservation.model_validate(doc).model_dump_json(by_alias=True)
    assert TaskObservation.model_validate_json(line).model_dump_json(by_alias=True) == line, doc["task"]["id"]
    return line


def main(fixtures):
    lines, rejected = [], []
    for n, line in enumerate(old_replays(fixtures), 1):
        error = rejection(line)
        if n in REJECTED_OLD:
            workload_id, message = REJECTED_OLD[n]
            assert json.loads(line)["task"]["id"] == workload_id and message in (error or ""), (n, error)
            rejected.append(line)
        else:
            assert error is None, (n, error)
            lines.append((line, TaskObservation.model_validate_json(line), ("collect-all",)))
    for doc in CASES:
        line = serialize_new(doc)
        observation = TaskObservation.model_validate_json(line)
        lines.append((line, observation, policies_of(observation)))

    replays, evaluations, policies = [], [], []
    for line, observation, case_policies in lines:
        for policy in case_policies:
            report = evaluate_observation(observation, experiment=f"offline:{observation.task.id}",
                                          failure_policy=policy)
            replays.append(line)
            evaluations.append(report.model_dump_json(by_alias=True))
            policies.append(policy)
    ids = [json.loads(line)["task"]["id"] for line in replays]
    assert len({(i, p) for i, p in zip(ids, policies)}) == len(ids), "a workload id repeats under one policy"

    for name, rows in (("replays.jsonl", replays), ("evaluations.jsonl", evaluations), ("policies.txt", policies),
                       ("rejected.jsonl", rejected)):
        (fixtures / name).write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    old = OLD_CASES - len(rejected)
    print(f"{old} old and {len(replays) - old} new reference cases, {len(rejected)} rejected replays "
          f"written to {fixtures}", file=sys.stderr)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
