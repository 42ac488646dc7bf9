"""PowerContext 1.4.1's own e2e harness, provisioned in a directory.

For tests/reference/generate, which rebuilds the golden fixtures with the
exact versions they were made with (the crosscheck of acceptance output uses
whichever release is under test, through pipelines/pc-powercontext). The
release's evaluator and replay models ship only in its sdist, not in the
wheel. provision(directory) leaves there

  venv/   a venv of this python3 with the pinned release and the versions
          the goldens were made with,
  sdist/  the release's sdist, checked against its sha256 and unpacked,
  stamp   what the two were made from,

and reuses them as long as the stamp is unchanged: a new pin, sdist hash or
interpreter rebuilds them from nothing. Nothing from the sdist is copied into
the repository; it is downloaded into the directory at run time.
"""

import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

POWERCONTEXT = "1.4.1"
# The sdist the goldens were made from: a changed upload must not pass unnoticed.
SDIST_SHA256 = "df7d462020bfc782d3fd60e704dc4176ec642c3d2d267b214eba414b671a18b9"
# The exact versions the committed goldens were made with (see the README).
REQUIREMENTS = [f"powercontext[client]=={POWERCONTEXT}", "pydantic==2.14.4", "PyYAML==6.0.4"]
# A venv belongs to the interpreter that made it, so that is part of the stamp too.
STAMP = {"powercontext": POWERCONTEXT, "sdist_sha256": SDIST_SHA256, "requirements": REQUIREMENTS,
         "python": sys.version, "executable": sys.executable}
STAMP_TEXT = json.dumps(STAMP, indent=1) + "\n"


class ProvisionError(Exception):
    """The venv or the sdist could not be made (no network, PyPI, a changed sdist)."""


def _run(what, *argv):
    print("+", " ".join(str(a) for a in argv), file=sys.stderr)
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True)
    if done.returncode != 0:
        # The last line pip or venv printed is usually the reason.
        lines = (done.stderr or done.stdout).strip().splitlines() or [f"exit status {done.returncode}"]
        raise ProvisionError(f"{what} failed: {lines[-1]}")


def provision(directory):
    """Make (or reuse) the harness in directory; return (venv python, harness source dir)."""
    directory = Path(directory)
    python = directory / "venv" / "bin" / "python"
    source = directory / "sdist" / f"powercontext-{POWERCONTEXT}" / "e2e" / "bub" / "src"
    stamp = directory / "stamp"
    if stamp.is_file() and stamp.read_text() == STAMP_TEXT and python.exists() and source.is_dir():
        return python, source
    # Anything else (an older pin, a half-made directory) is rebuilt from nothing;
    # the stamp is written last, so an interrupted build is never reused.
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    _run("making the venv", sys.executable, "-m", "venv", directory / "venv")
    _run("pip install", python, "-m", "pip", "install", "--quiet", *REQUIREMENTS)
    _run("pip download", python, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", "powercontext",
         "-d", directory / "sdist", f"powercontext=={POWERCONTEXT}")
    archive = directory / "sdist" / f"powercontext-{POWERCONTEXT}.tar.gz"
    if not archive.is_file() or hashlib.sha256(archive.read_bytes()).hexdigest() != SDIST_SHA256:
        raise ProvisionError(f"{archive.name} is not the sdist the goldens were made from")
    with tarfile.open(archive) as tar:
        tar.extractall(directory / "sdist", filter="data")
    stamp.write_text(STAMP_TEXT)
    return python, source


def run_script(python, source, script, *args):
    """Run script in the venv with the harness importable, in a clean environment."""
    env = {"PYTHONPATH": str(source), "PATH": "/usr/bin:/bin"}
    return subprocess.run([str(python), str(script), *map(str, args)], env=env).returncode
