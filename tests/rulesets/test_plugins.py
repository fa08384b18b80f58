"""Plug-ins found the one way for both registries (campaign/plugins.py): packages under a
folder, and classes named by an entry-point group of installed distributions."""

from __future__ import annotations

from typing import Any

import pytest

import campaign.plugins as plugins
from campaign.engine.scheme import ActivationScheme
from campaign.rulesets import Ruleset
from tests.rulesets.duel import Duel


class _Point:
    def __init__(self, value: Any) -> None:
        self.value = value

    def load(self) -> Any:
        return self.value


def test_entry_points_give_the_subclasses_of_the_base_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    points = {"muster.rulesets": [_Point(plugins), _Point(Duel), _Point(ActivationScheme), _Point(42)]}
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: points.get(group, []))
    assert plugins.entry_point_classes("muster.rulesets", Ruleset) == [Duel]  # a module is loaded, not returned
    assert plugins.entry_point_classes("muster.activation", ActivationScheme) == []


def test_import_packages_imports_only_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    import campaign.rulesets as rulesets

    seen: list[str] = []
    monkeypatch.setattr(plugins.importlib, "import_module", lambda name: seen.append(name))
    plugins.import_packages(rulesets.__path__, "campaign.rulesets.")
    assert "campaign.rulesets.flat_out_war" in seen
    assert "campaign.rulesets.base" not in seen  # a module, not a package
