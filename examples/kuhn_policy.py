"""A policy trained in showdown's environment, as a bot: ``showdown match kuhn ./examples/kuhn_policy.py cfr``.

The table (observation -> action index) is the JSON file ``train_kuhn_policy.py`` writes, named by
$KUHN_POLICY (default: kuhn_policy.json beside this file, which ``python examples/train_kuhn_policy.py
--out examples`` writes; without it the bot refuses to start). An observation it has not seen checks or calls.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np

from showdown.env.single import run_policy

TABLE_FILE = Path(os.environ.get("KUHN_POLICY", Path(__file__).with_name("kuhn_policy.json")))


def load_table(path: Path = TABLE_FILE) -> dict[str, int]:
    return {str(k): int(v) for k, v in json.loads(path.read_text()).items()} if path.is_file() else {}


TABLE = load_table()


def observation_key(observation: np.ndarray) -> str:
    """The table's key: the observation's bytes (the same numbers in training and in a match)."""
    return observation.astype(np.float32).tobytes().hex()


def policy(observation: np.ndarray, action_mask: np.ndarray) -> int:
    action = TABLE.get(observation_key(observation), 1)
    return action if action_mask[action] else 1


def main() -> int:
    if not TABLE_FILE.is_file():  # without its table this bot would only check and call, and say nothing
        print(f"kuhn_policy: no policy table at {TABLE_FILE}: train one first with "
              "'python examples/train_kuhn_policy.py --out examples' (it writes examples/kuhn_policy.json), "
              "or name one with $KUHN_POLICY", file=sys.stderr)
        return 2
    return run_policy(policy)


if __name__ == "__main__":
    raise SystemExit(main())
