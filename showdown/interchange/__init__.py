"""Other tools' formats: PHH hand histories in and out, and the OpenSpiel bridge (the ``openspiel`` extra).

``export_phh``/``import_phh`` stream whole logs to and from PHH files (the per-hand conversion is
``showdown.protocol.phh``); ``showdown.interchange.openspiel`` turns our games into OpenSpiel's
``universal_poker`` and tabular policies into agents (it imports ``pyspiel`` only when used).
"""

from __future__ import annotations

from showdown._lazy import lazy_exports

TYPE_CHECKING = False
if TYPE_CHECKING:
    from showdown.interchange.openspiel import OpenSpielAgent, load_policy, openspiel_game, save_policy
    from showdown.interchange.phh_files import ExportResult, ImportResult, export_phh, import_phh

__all__ = ["ExportResult", "ImportResult", "OpenSpielAgent", "export_phh", "import_phh", "load_policy", "openspiel_game", "save_policy"]

__getattr__, __dir__ = lazy_exports(__name__, __file__)
