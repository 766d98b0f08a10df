"""Bot files named on the command line that cannot run: one line before any work, saying why and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from showdown.errors import ConfigError
from showdown.matches.agent_words import agent_from_word


def test_a_folder_is_no_bot(tmp_path: Path) -> None:
    # was taken as a bot and failed once the match was set up: 'could not be started: ...: Permission denied'
    (tmp_path / "mybot").mkdir()
    with pytest.raises(ConfigError, match=r"mybot/? is a folder, not a bot: give the program in it that plays \(e\.g\. .*mybot/bot\.sh\)"):
        agent_from_word(str(tmp_path / "mybot") + "/")


def test_a_script_with_windows_line_ends_is_named_before_the_match(tmp_path: Path) -> None:
    # '#!/bin/sh\r' made the system look for '/bin/sh\r': 'could not be started: bot.sh: No such file or directory'
    bot = tmp_path / "bot.sh"
    bot.write_bytes(b"#!/bin/sh\r\necho VERSION:2.0.0\r\n")
    bot.chmod(0o755)
    with pytest.raises(ConfigError, match=r"its first line '#!/bin/sh' ends with a carriage return .*sed -i 's/\\r\$//' .*bot\.sh"):
        agent_from_word(str(bot))
    bot.write_bytes(b"#!/bin/sh\necho VERSION:2.0.0\r\n")  # carriage returns further on are the bot's business
    assert agent_from_word(str(bot)).command
    py = tmp_path / "bot.py"
    py.write_bytes(b"#!/usr/bin/env python3\r\nprint()\r\n")  # a .py file runs with this Python: its #! line is not read
    assert agent_from_word(str(py)).command
