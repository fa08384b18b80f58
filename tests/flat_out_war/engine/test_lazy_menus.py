"""An activation's menu is made as read (engine/lazy_specs.py, engine/attack_part.py): the
check of a melee or shoot command makes only the spec it names, of an attach, switch or cast
only the group it names, a replay reads no menu whole, and a lookup finds the spec a scan of
the whole menu finds. Read whole, every menu is the one the eager build offered (pinned), and
the autoplayer, which makes only the groups of the kinds it looks for, answers as from the
whole menu."""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from campaign.engine.battle import Battle
from campaign.engine.errors import IllegalCommand
from campaign.engine.dice import TableDice
from campaign.engine.lazy_specs import LazyPart, LazySpecs
from campaign.engine.pending import CommandSpec, Decision
from campaign.force import Force
from campaign.rulesets.flat_out_war.engine.attack_part import AttackPart
from campaign.rulesets.flat_out_war.engine.autoplay import AutoPlayer
from campaign.rulesets.flat_out_war.engine.commands import MELEE_FACTS, SHOOT_FACTS
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, HUMAN, ORCS

from .battle_helpers import SO, V17, Weapon, battle, decision, el, expect_roll, force, initiative
from .corpus import _enlarged, _setup, random_play


def played(seed: int) -> tuple[object, Battle]:
    s = _setup(_enlarged("Horde", ORCS, HUMAN), _enlarged("Host", DEMONS, ALIEN), seed, rounds=30)
    battle = Battle.start(s)
    random_play(battle, seed, limit=900)
    return s, battle


def test_every_lookup_finds_what_a_scan_of_the_whole_menu_finds() -> None:
    s, done = played(41)
    battle = Battle.start(s)  # type: ignore[arg-type]
    matched: Counter[str] = Counter()
    for entry in done.log_dicts()[1:]:
        pending = battle.pending
        assert isinstance(pending, Decision)
        command = battle.types.from_dict(entry["command"])
        if isinstance(pending.legal, LazySpecs):
            found = pending.legal.first_match(command)
            whole = tuple(pending.legal)  # (made whole after the lookup: the same spec objects)
            assert found is next((s for s in whole if s.type == command.type and s.matches(command)), None), entry
            assert pending.legal.claims_broken() == [], entry
            if found is not None and any(isinstance(item, AttackPart) for item in pending.legal.items):
                matched[found.type] += 1
        battle.apply(command)
    assert battle.digest() == done.digest()
    assert matched["melee"] > 5 and matched["shoot"] > 5, matched


def test_split_fire_finds_the_rest_of_the_unit_s_shot_without_reading_the_menu() -> None:
    gunner = el("Gunner", count=2, weapons=(Weapon("Rifle", "ranged", "d8", 24),))
    bt = battle(force("Red", ("Shooters", (gunner,))),
                force("Blue", ("Targets", (el("Elf"),)), ("Others", (el("Orc"),)), ("Thirds", (el("Ent"),))))
    initiative(bt, "red")
    bt.apply({"type": "activate", "unit": "shooters"})
    bt.apply({"type": "shoot", "unit": "shooters", "target": "targets", "facts": {"shooters": ["shooters/gunner"]}})
    bt.roll([1])
    legal = decision(bt).legal
    assert isinstance(legal, LazySpecs)
    (part,) = [item for item in legal.items if isinstance(item, AttackPart)]
    command = bt.types.from_dict({"type": "shoot", "unit": "shooters", "target": "others"})
    found = legal.first_match(command)
    assert found is not None and found.label == "Shooters: the rest shoot at Others"
    assert part._every is None  # the lookup made the one spec, not the part's list
    assert [s.label for s in legal if s.type == "shoot"] == [
        f"Shooters: the rest shoot at {name}" for name in ("Targets", "Others", "Thirds")]
    bt.apply(command)
    expect_roll(bt, 8, 1, "shooting at Others")


def test_a_replay_reads_no_menu_whole() -> None:
    s, done = played(42)
    again = Battle.replay(s, done.log_dicts())  # type: ignore[arg-type]
    assert again.digest() == done.digest()
    parts = [part for _, part in again.rules._attack_parts.values()]
    assert len(parts) > 20
    assert all(part._every is None for part in parts)  # no part was read whole


def test_a_part_is_the_eager_specs_and_keeps_them_after_a_unit_falls() -> None:
    _, battle = played(43)
    rules, state = battle.rules, battle.state
    looked = 0
    for (kind, unit_id, verb), (enemies, part) in rules._attack_parts.items():
        unit = state.unit(unit_id)
        eager = [CommandSpec(kind, {"unit": unit_id, "target": e.id}, MELEE_FACTS if kind == "melee" else SHOOT_FACTS,
                             f"{unit.name}: {verb} {e.name}", odds=True, targets="units") for e in enemies]
        fresh = AttackPart(kind, enemies, [e.id for e in enemies], {}, lambda e: eager[enemies.index(e)])
        assert len(fresh) == len(eager) and [fresh[i] for i in range(len(fresh))] == eager
        assert fresh._every is None  # (a spec at an index is made alone)
        assert list(fresh) == eager and fresh[1:] == eager[1:]
        whole = list(part.specs())
        assert whole == eager
        assert part.values == [e.id for e in enemies]
        # one spec object per pair for the whole battle, whichever part made it
        assert all(spec is rules._attack_specs[(kind, unit_id, verb)][spec.params["target"]] for spec in whole)
        looked += 1
    assert looked > 20


# --- attach, switch and cast groups (LazyPart) ------------------------------------------------
# Sides with every kind of lazy group: an officer (attach, detach), a mage (cast), Activate
# elements (switch, Special Operations only), guns (shoot), boats (Waterborne).
_SPELLS = ("Fast", "Fireball", "Fly", "Ironwill", "Shield", "Slow", "Strengthen", "Summon", "Teleport", "Terrify",
           "Weaken", "Zap")
_GUN = Weapon("Rifle", "ranged", "d8", 24)


def _side(name: str, edition: str) -> Force:
    return force(name, ("Captain", (el("Captain", "d8", attributes=("Command",)),)),
                 ("Coven", (el("Mage", "d8", attributes=("Magic",), spells=_SPELLS), el("Guard", count=2))),
                 ("Spies", (el("Spy", attributes=("Activate: Stealth",), count=2), el("Scout", weapons=(_GUN,)))),
                 ("Shooters", (el("Gunner", count=3, weapons=(_GUN,)),)),
                 ("Mob", (el("Brute", count=4),)), ("Boats", (el("Boat", attributes=("Waterborne",)),)), edition=edition)


def _text(spec: CommandSpec) -> str:
    return repr((spec.type, sorted(spec.params.items()), [f.name for f in spec.facts], spec.label, spec.odds,
                 spec.targets))


def _bot_battle(edition: str, seed: int, step: Callable[[Battle, AutoPlayer], Any] | None = None) -> tuple[Battle, str, Counter[str]]:
    """The autoplayer's battle between two `_side`s, with a hash of every Decision's menu read
    whole (after the bot has answered from its lazy reading) and the kinds offered."""
    b = battle(_side("Red", edition), _side("Blue", edition), edition=edition, rounds=15, auto=seed)
    player = AutoPlayer(seed)
    menus, kinds = hashlib.sha256(), Counter[str]()
    while isinstance(b.pending, Decision):
        command = step(b, player) if step is not None else player.answer(b)
        for spec in tuple(b.pending.legal):
            menus.update(_text(spec).encode())
            kinds[spec.type] += 1
        menus.update(b"|" + b.pending.prompt.encode() + b"\n")
        try:
            b.apply(command)
        except IllegalCommand:  # (as play_out: give up the activation)
            b.apply(b.command(next(s for s in b.legal_commands() if s.type in ("end_activation", "pass", "report", "keep"))))
    return b, menus.hexdigest(), kinds


def _random_battle(edition: str, seed: int) -> tuple[Battle, str, Counter[str]]:
    """A random player's battle between two `_side`s (table dice), hashed as `_bot_battle`'s."""
    b = battle(_side("Red", edition), _side("Blue", edition), edition=edition, rounds=15)
    menus, kinds = hashlib.sha256(), Counter[str]()

    def after(bt: Battle, _: int) -> None:
        if isinstance(bt.pending, Decision):
            for spec in tuple(bt.pending.legal):
                menus.update(_text(spec).encode())
                kinds[spec.type] += 1
            menus.update(b"|" + bt.pending.prompt.encode() + b"\n")

    random_play(b, seed, limit=1500, after=after)
    return b, menus.hexdigest(), kinds


# Every menu of these battles, read whole, as the eager build offered it (before the attach,
# switch and cast specs became lazy groups), and the battles' digests then: a lazy group that
# offered other specs, or in another order, changes a hash; a bot that chose otherwise, a digest.
_EAGER = {
    ("bot", SO, 1): ("60a6a7153ae8d8ab2c1bb1a8b10c5d196792cdcf754d064853e42771f605aedb",
                     "3a99fc1ab3a5387bc044e2dae338efbedd6e1a1949570fca897b1c6d27e373d8"),
    ("bot", SO, 3): ("5b2fff9649e92ac1534e7dc71be7d6ee0a0e63c0ab64014e9c45decc0b3a27cf",
                     "72f1e47a9c1b831f5128ff6a29f094153b5f9791e22cd3f7ac994a99e89b4424"),
    ("bot", V17, 2): ("0ba9c254c3eed0773ffb9b14eb2dd834571f8d83f0d80e91ea99e09246e591d8",
                      "12a8f3b6028401538e2ab7ea33de37de565c2e657569b8128a9eaa5e2584f6b2"),
    ("random", SO, 1): ("7d423e5c2b8f5ba8977082428a4680ffeb17b72a7b62bc76b06b1a149aceccff",
                        "482f555b76aad3bf1349d19f61478b1cf963f5b471f631e4efddbbd09f5d990e"),
    ("random", SO, 3): ("69df539c1ed06608e759a27d41ebe96202cc78a0cfc68fa5a81b6f3d00c5fb37",
                        "46624ee78cd2410df85adcc5b14152d1e823b25cc7810781bdbaaff46c081edd"),
    ("random", V17, 3): ("bcfd5e75077f0960b36b7acb1b0f39119ade024ba965afba499dfd05b188999e",
                         "904e05d7312256cd7840e88f3e465be1bb7864e95be54435cd96bb6e6e9d6ac6"),
}


def test_lazy_groups_offer_the_eager_menus_and_the_bot_the_same_commands() -> None:
    offered: Counter[str] = Counter()
    for (who, edition, seed), (menus, digest) in _EAGER.items():
        b, found, kinds = (_bot_battle if who == "bot" else _random_battle)(edition, seed)
        assert (found, b.digest()) == (menus, digest), (who, edition, seed)
        offered.update(kinds)
    assert all(offered[kind] >= 10 for kind in ("attach", "cast", "melee", "shoot", "move")), offered
    assert offered["switch"] >= 10 and offered["detach"] >= 4, offered


class _Whole:
    """A battle whose pending Decision offers its menu as a plain tuple (read whole)."""

    def __init__(self, b: Battle) -> None:
        self._battle = b
        self.pending = attrs.evolve(decision(b), legal=tuple(decision(b).legal))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._battle, name)


def test_the_bot_reads_only_the_groups_it_needs_and_answers_as_from_the_whole_menu() -> None:
    made: Counter[str] = Counter()

    def step(b: Battle, player: AutoPlayer) -> Any:
        twin = copy.deepcopy(player)  # (the same rng state: the same picks)
        command = player.answer(b)  # from the lazy menu, by its groups
        legal = decision(b).legal
        for item in legal.items if isinstance(legal, LazySpecs) else ():
            if isinstance(item, LazyPart):
                made[f"{'/'.join(sorted(item.types or ()))} {'made' if item._specs is not None else 'left'}"] += 1
        assert twin.answer(_Whole(b)) == command  # as the whole menu, read as a tuple, gives it
        return b.command(command.type, **{k: v for k, v in command.to_dict().items() if k != "type"})

    for edition, seed in ((SO, 1), (SO, 3)):
        _bot_battle(edition, seed, step)
    # the attach groups are never made; a mage's switch/cast group is (the bot looks for spells)
    assert made["attach left"] >= 10 and made["attach made"] == 0, made
    assert made["cast/switch made"] >= 10, made


def test_a_replay_makes_only_the_group_its_command_names(monkeypatch: pytest.MonkeyPatch) -> None:
    checked: Counter[str] = Counter()
    check = Battle._check

    def watched(self: Battle, decision: Decision, command: Any) -> None:
        check(self, decision, command)
        legal = decision.legal
        for item in legal.items if isinstance(legal, LazySpecs) else ():
            if isinstance(item, LazyPart):
                named = command.type in (item.types or ()) and getattr(command, "unit", None) == item.params["unit"]
                assert (item._specs is not None) == named, (command, item.types)
                checked[f"{command.type if named else 'other'}"] += 1

    games = [_bot_battle(SO, 1)[0], _random_battle(SO, 1)[0], _random_battle(SO, 3)[0]]
    monkeypatch.setattr(Battle, "_check", watched)
    for done in games:
        again = Battle.replay(done.setup, done.log_dicts(), dice=TableDice() if done.setup.dice == "table" else None)
        assert again.digest() == done.digest()
    assert checked["other"] >= 20 and min(checked["attach"], checked["cast"], checked["switch"]) >= 1, checked
