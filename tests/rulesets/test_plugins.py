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


def test_a_registry_load_is_waited_for_by_other_threads_and_not_re_entered() -> None:
    import threading

    from campaign.plugins import LoadOnce

    once = LoadOnce()
    started, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def load() -> None:
        calls.append("load")
        once(load)  # an import inside the load asks again: returns at once
        started.set()
        release.wait(5)
        calls.append("loaded")

    loader = threading.Thread(target=once, args=(load,))
    loader.start()
    assert started.wait(5)
    waiter = threading.Thread(target=lambda: (once(load), calls.append("asked")))
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()  # still waiting: the registry is half filled
    release.set()
    loader.join(5)
    waiter.join(5)
    assert calls == ["load", "loaded", "asked"]
