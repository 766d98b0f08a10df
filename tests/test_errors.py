"""The one "did you mean" every unknown-name error uses (games, agents, settings keys)."""

from __future__ import annotations

import pytest

from showdown.errors import did_you_mean


@pytest.mark.parametrize(
    ("word", "known", "hint"),
    [
        ("equilibrum", ["equilibrium", "rules"], "did you mean 'equilibrium'? "),
        ("Never_Bluff", ["never-bluff", "bluff"], "did you mean 'never-bluff'? "),  # case, - and _ aside
        ("Hands", ["hands", "seed"], "did you mean 'hands'? "),  # a settings key, capitalised
        ("t-response-ms", ["t_response_ms"], "did you mean 't_response_ms'? "),
        ("zzz", ["kuhn", "leduc"], ""),
        (3, ["seed"], ""),  # a YAML key that is not a string
    ],
)
def test_the_nearest_known_spelling_is_named(word: object, known: list[str], hint: str) -> None:
    assert did_you_mean(word, known) == hint
