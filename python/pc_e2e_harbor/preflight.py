"""`python -m pc_e2e_harbor.preflight TYPE`: whether Harbor can start environment TYPE here.

Harbor's own check for that type (its credentials); exits 1 with the reason on stdout, before any workload runs.
"""

import sys

from harbor.environments.factory import EnvironmentFactory
from harbor.models.environment_type import EnvironmentType


def main(name: str) -> int:
    try:
        kind = EnvironmentType(name)
    except ValueError:
        print(f"not one of Harbor's environment types ({', '.join(t.value for t in EnvironmentType)})")
        return 1
    try:
        EnvironmentFactory.run_preflight(kind)
    except SystemExit as missing:
        print(missing.code if isinstance(missing.code, str) else f"Harbor's check for {name} failed")
        return 1
    except Exception as error:  # noqa: BLE001 - any failure is the answer, with its reason
        print(f"{type(error).__name__}: {error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
