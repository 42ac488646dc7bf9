"""`python -m pc_e2e_harbor.registry NAME@VERSION...`: whether Harbor's own registry serves these datasets here.

Harbor's registry client (the one `harbor run` uses when no registry file is given) is asked for each dataset's
spec, within a time limit; exits 1 with the first dataset it cannot serve and why on stdout, before any workload
runs. Harbor reads its registry's address from HARBOR_SUPABASE_URL, as a run does.
"""

import asyncio
import sys

from harbor.registry.client.factory import RegistryClientFactory

TIMEOUT_S = 30


async def serves(names: list[str]) -> str | None:
    client = RegistryClientFactory.create()
    for name in names:
        try:
            metadata = await asyncio.wait_for(client.get_dataset_metadata(name), TIMEOUT_S)
        except TimeoutError:
            return f"{name}: no answer from Harbor's registry within {TIMEOUT_S} s"
        except Exception as error:  # noqa: BLE001 - any failure is the answer, with its reason
            cause = error.__cause__ or error.__context__
            detail = f" ({type(cause).__name__}: {cause})" if cause and str(cause) not in str(error) else ""
            return f"{name}: {type(error).__name__}: {error}{detail}"
        if not metadata.task_ids:
            return f"{name}: Harbor's registry lists no task for it"
    return None


def main(names: list[str]) -> int:
    why = asyncio.run(serves(names))
    if why:
        print(why)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
