"""Build a release's MemoryCode tasks with that release's own generator, and check them against its pins.

usage: python -m pc_e2e_memorycode.build GENERATOR DATASET [ROOT]

GENERATOR is the release's e2e/bub/scripts/memorycode_tasks.py, run from the release's own source tree (its
powercontext_e2e on PYTHONPATH, Harbor installed), DATASET the dialogues' directory, already checked by
pipelines/memorycode-tasks, ROOT the directory the tasks' dataset path resolves against (default: the release's
source tree). The generator's own entry point asks git for a checkout's revision, which a data copy
cannot answer, so this calls its parts: its manifests' pins, its write_task and Harbor's Task checksum, for every
dialogue the manifests name. The tasks are written beside the generator's task directory first and take its place
only when every checksum equals its pin: a refused build leaves the earlier tasks as they were.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path


def load_generator(path: Path):
    spec = importlib.util.spec_from_file_location("memorycode_tasks", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"memorycode-tasks: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(generator, dataset: Path, work: Path) -> list[str]:
    """Every pinned task into work; the ones whose checksum differs from their pin, each said in a line."""
    pins = {task.id: task.dataset.checksum for task in generator.load_tasks(generator.REPOSITORY / generator.MANIFESTS)}
    wrong = []
    for task_id, pin in sorted(pins.items()):
        dialogue_id = int(task_id.removeprefix(generator.ID_PREFIX))
        dialogue = generator.load_dialogue(dataset, dialogue_id)
        generator.write_task(work / task_id, dialogue, dialogue_id=dialogue_id)
        checksum = generator.Task(work / task_id).checksum
        if checksum != pin:
            wrong.append(
                f"{task_id}: built from {dataset / f'dialogue_{dialogue_id}.json'}, its checksum {checksum} "
                f"is not the manifest's {pin}"
            )
    return wrong


def main() -> int:
    if len(sys.argv) not in (3, 4):
        print("usage: python -m pc_e2e_memorycode.build GENERATOR DATASET [ROOT]", file=sys.stderr)
        return 64
    generator = load_generator(Path(sys.argv[1]))
    tasks = Path(sys.argv[3] if len(sys.argv) == 4 else generator.REPOSITORY) / generator.TASKS
    work = tasks.with_name(tasks.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    wrong = build(generator, Path(sys.argv[2]), work)
    if wrong:
        shutil.rmtree(work)
        for line in wrong:
            print(f"memorycode-tasks: {line}", file=sys.stderr)
        return 1
    shutil.rmtree(tasks, ignore_errors=True)
    work.rename(tasks)
    print(f"memorycode-tasks: {len(list(tasks.iterdir()))} tasks in {tasks}, every checksum its manifest's pin")
    return 0


if __name__ == "__main__":
    sys.exit(main())
