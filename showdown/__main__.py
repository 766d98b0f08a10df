"""``python -m showdown``: the same command as ``showdown``.

``python -m showdown agent ...`` (how a match starts each built-in agent's process) goes straight
to the agent command without building every other command's parser: a quicker start.
"""

import sys

if sys.argv[1:2] == ["agent"]:
    try:
        from showdown.cli.agent import main as agent_main
    except KeyboardInterrupt:  # Ctrl-C while it loads: as quiet as one later on
        sys.exit(130)
    sys.exit(agent_main(sys.argv[2:]))

from showdown.cli import main

sys.exit(main())
