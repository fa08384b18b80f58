"""The rules' derived state (kept lists and views, rules.py and play/) answers as a fresh
computation from the state would, at every step of battles that visit rarer rules: officers
attaching and detaching, losses, spells, the card deck putting held results back."""

from __future__ import annotations

from typing import Any

import attrs

from campaign.engine.battle import Battle
from campaign.engine.dice import TableDice
from campaign.rulesets.flat_out_war.engine.attack import Hit
from campaign.rulesets.flat_out_war.engine.recovery import recovery_plan, recovery_plan_afresh
from campaign.rulesets.flat_out_war.samples import ALIEN, DEMONS, EXAMPLES, HUMAN, ORCS

from .battle_helpers import SO, battle as new_battle, el, force, initiative
from .corpus import _enlarged, _setup, random_play


def fresh_activatable(state: Any, side: str) -> list[Any]:
    return [u for u in state.units if u.side == side and not u.eliminated and not u.data.get("attached_to")]


def check_derived(b: Battle, views: bool = True) -> None:
    """Every kept answer equals the one worked out afresh from the state (`views`: the
    combat views too, the slowest to check)."""
    rules, state = b.rules, b.state
    standing, with_alive = rules._living(state)
    assert standing == [u for u in state.units if not u.eliminated]
    assert with_alive == [u for u in state.units if any(e.alive for e in u.elements)]
    assert rules.is_over(state) == (len({u.side for u in standing}) < 2 or bool(state.data.get("strategic_winner")))
    for side in state.side_ids():
        assert rules.activatable(state, side) == fresh_activatable(state, side)
        assert rules._side_standing(state, side) == state.units_of(side)
    for unit in state.units:
        able = [e for e in unit.elements if e.alive and not (e.markers.get("snared") or e.markers.get("down"))]
        assert list(rules._able(state, unit)) == able
        # the unit's kept living elements: its own element objects (not equal copies a
        # restored or replayed state would leave behind), in order
        assert [id(e) for e in unit.living] == [id(e) for e in unit.elements if e.alive], unit.id
        pace = rules._pace(state, unit)
        if pace is not None and able:  # the pace of whichever of them may move
            assert pace == min(m for m in (rules.element_of(state, e).move or 0 for e in able) if m > 0)
        loose = any(rules.combatant(state, e).has("loose cohesion")
                    or (rules.edition == "1.7" and rules.combatant(state, e).kind == "vehicle") for e in unit.alive)
        assert rules._loose(state, unit) == loose
    # combat views: the plain (or faced) element's quick answer is the view its whole key finds
    kept, faced = rules._plain_views, rules._faced_views
    for es_id in {**kept, **faced} if views else ():
        try:
            es = state.element(es_id)
        except KeyError:
            continue
        quick = rules.combatant(state, es)
        rules._plain_views, rules._faced_views = {}, {}
        try:
            assert rules.combatant(state, es) is quick, es_id
        finally:
            rules._plain_views, rules._faced_views = kept, faced
    # every element's view (kept, or made from its template) is the one worked out afresh
    for unit in state.units if views else ():
        for es in unit.elements:
            assert rules.combatant(state, es) == rules.combatant_afresh(state, es), es.id
    # recovery plans kept with the views: each as a hit its key stands for would give afresh
    for view in list(rules._views.values()) if views else ():
        for key, plan in view.memo.items():
            if key[0] == "recovery_plan":
                _, edition, adaptive, penetrator, zap = key
                hit = Hit(attack_die=1 if adaptive else 0, penetrator=penetrator, zap=zap)
                assert plan == recovery_plan_afresh(view, hit, edition), (view.key, key)
    # the owner-turn clocks look only at the elements new_state listed: every element with a
    # clock is one of them
    listed = {(unit_id, i) for places in rules._clock_places.values() for _, unit_id, idx in places for i in idx}
    for unit in state.units:
        for i, es in enumerate(unit.elements):
            if es.alive and (es.data.get("lockout") or es.data.get("reload")):
                assert (unit.id, i) in listed, es.id
    # only a unit created Entrenched can be hidden in its position
    assert {u.id for u in state.units if u.markers.get("entrenched")} <= rules._entrench_units


def play_checked(b: Battle, seed: int, limit: int = 1500) -> int:
    """Random legal play (as the corpus' random player), checking the derived state after
    every step; returns the steps taken."""
    return random_play(b, seed, limit, lambda battle, steps: check_derived(battle, views=steps % 8 == 0))


def test_derived_state_under_initiative_with_1_7_examples() -> None:
    s = _setup(EXAMPLES, EXAMPLES, 300, dice="table")
    b = Battle.start(s, TableDice())
    assert play_checked(b, 300) > 100


def test_derived_state_under_the_card_deck() -> None:
    # the deck holds results back and puts whole unit records back (cards/results.py)
    s = _setup(_enlarged("Horde", ORCS, HUMAN), _enlarged("Host", DEMONS, ALIEN), 201, activation="cards", rounds=2)
    b = Battle.start(s)
    assert play_checked(b, 201) > 100


def test_derived_state_after_undo_and_a_new_state() -> None:
    s = _setup(HUMAN, ALIEN, 7, dice="table")
    b = Battle.start(s, TableDice())
    play_checked(b, 7, limit=120)
    b.undo()
    check_derived(b)
    again = Battle.replay(s, b.log_dicts())  # new_state again on a fresh rules object
    check_derived(again)
    assert again.digest() == b.digest()


def test_activatable_follows_attach_detach_and_elimination() -> None:
    a = force("Red", ("Captain", (el("Captain", "d8", attributes=("Command",)),)), ("Reds", (el("A", count=2),)),
              edition=SO)
    bt = new_battle(a, force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    initiative(bt, "red")
    state, rules = bt.state, bt.rules
    kept = rules.activatable(state, "red")
    assert [u.id for u in kept] == ["captain", "reds"]
    assert rules.activatable(state, "red") is kept  # kept while nothing changes
    bt.apply({"type": "activate", "unit": "captain"})
    bt.apply({"type": "attach", "unit": "captain", "target": "reds"})
    assert [u.id for u in rules.activatable(state, "red")] == ["reds"]
    state.unit("reds").data["officer"] = ""
    state.unit("captain").data["attached_to"] = ""  # detached: it activates again
    assert [u.id for u in rules.activatable(state, "red")] == ["captain", "reds"]
    for es in state.unit("reds").elements:
        es.alive = False
    assert [u.id for u in rules.activatable(state, "red")] == ["captain"]
    assert [u.id for u in rules._side_standing(state, "blue")] == ["blues"]


def test_a_new_state_forgets_the_clock_units_of_the_last() -> None:
    from campaign.force import Weapon

    gun = Weapon("Gun", "ranged", "d8", 12, traits=("Reload: 1",))
    one = new_battle(force("Red", ("Reds", (el("A", weapons=(gun,)),)), edition=SO),
                     force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    rules = one.rules
    assert rules._clock_places  # the gunner's unit carries a Reload clock
    plain = attrs.evolve(one.setup, sides=tuple(
        attrs.evolve(side, force=force(side.name, (f"{side.name}s", (el("P"),)), edition=SO)) for side in one.setup.sides))
    rules.new_state(plain)
    assert rules._clock_places == {} and rules._entrench_units == frozenset()


def test_standing_lists_after_losses_alone_and_after_other_changes() -> None:
    a = force("Red", ("Reds", (el("A", count=2),)), ("Others", (el("O"),)), edition=SO)
    bt = new_battle(a, force("Blue", ("Blues", (el("B", count=2),)), edition=SO), edition=SO)
    initiative(bt, "red")
    state, rules = bt.state, bt.rules
    assert [u.id for u in rules._standing(state)] == ["reds", "others", "blues"]
    bt.apply({"type": "activate", "unit": "reds"})
    bt.apply({"type": "melee", "unit": "reds", "target": "blues", "facts": {}})
    bt.roll([6, 6])  # two hits
    bt.roll([1])  # the first blue is removed (journaled): blues still stand
    assert [u.id for u in rules._standing(state)] == ["reds", "others", "blues"]
    bt.roll([1])  # the second too: blues are eliminated
    assert [u.id for u in rules._standing(state)] == ["reds", "others"]
    # a change the loss journal does not hold: an element taken away by hand, then one put back
    state.unit("others").elements[0].alive = False
    assert [u.id for u in rules._standing(state)] == ["reds"]
    state.unit("blues").elements[1].alive = True
    assert [u.id for u in rules._standing(state)] == ["reds", "blues"]


def test_plain_views_follow_die_hit_points_markers_uses_and_spells() -> None:
    from campaign.engine.state import Effect

    bt = new_battle(force("Red", ("Reds", (el("A", "d8", attributes=("Hit Points 2",)),)), edition=SO),
                    force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    state, rules = bt.state, bt.rules
    es = state.element("reds/a")
    first = rules.combatant(state, es)
    assert rules.combatant(state, es) is first and (first.die, first.hit_points) == (8, 2)
    es.data["hp"] = 1
    assert rules.combatant(state, es).hit_points == 1
    es.data["die"] = 6
    assert rules.combatant(state, es).die == 6
    es.markers["prone"] = True
    assert rules.combatant(state, es).prone
    del es.markers["prone"]
    assert not rules.combatant(state, es).prone
    es.markers["hidden"] = True  # (a marker no view reads: the plain view stands)
    assert rules.combatant(state, es) is rules.combatant(state, es) == rules.combatant_afresh(state, es)
    es.markers["faced"] = True
    faced = rules.combatant(state, es)
    assert faced.faced and faced == rules.combatant_afresh(state, es) and rules.combatant(state, es) is faced
    es.markers["prone"] = True
    assert rules.combatant(state, es) == attrs.evolve(faced, prone=True) == rules.combatant_afresh(state, es)
    del es.markers["prone"]
    assert rules.combatant(state, es) is faced
    es.data["hp"] = 2
    assert rules.combatant(state, es) == attrs.evolve(faced, hit_points=2) == rules.combatant_afresh(state, es)
    es.data["hp"] = 1
    es.markers["faced"] = False
    assert not rules.combatant(state, es).faced
    es.markers.clear()
    assert not rules.combatant(state, es).faced
    es.data["lost_weapons"] = [0]
    assert rules.combatant(state, es).weapons == ()
    es.data["lost_weapons"] = []
    state.effects.append(Effect("fly", "Fly", "reds", 2, clock="player_turn"))
    assert rules.combatant(state, es).has("flying")
    state.effects.clear()
    assert not rules.combatant(state, es).has("flying")
    assert (rules.combatant(state, es).die, rules.combatant(state, es).hit_points) == (6, 1)


def test_melee_declaration_works_each_pair_out_as_alone() -> None:
    """melee_attacks works out the modifiers and the hit once per kind of pair: each spec
    still has what the pair alone gives."""
    from campaign.rulesets.flat_out_war.engine.attack import hit_from
    from campaign.rulesets.flat_out_war.engine.declare import melee_attacks
    from campaign.rulesets.flat_out_war.engine.modifiers import melee_modifiers
    from campaign.rulesets.flat_out_war.engine.situation import Situation

    from .helpers import fighter

    attackers = [fighter("A", attrs=("Aggressive",), key="a1"), fighter("A", attrs=("Aggressive",), key="a2"),
                 fighter("B", attrs=("Charge",), key="b1"), fighter("A", die=8, key="a3"),
                 fighter("C", attrs=("Penetrator",), key="c1"), fighter("A", attrs=("Aggressive",), key="a4")]
    targets = [fighter("T", key="t1"), fighter("T", prone=True, key="t2"), fighter("T", faced=True, key="t3"),
               fighter("T", attrs=("Deny Charge",), key="t4"), fighter("T", key="t5")]
    for edition in (SO, "1.7"):
        for sit in (Situation(charging=True, aspect="flank"), Situation(aspect="rear", ran=True)):
            specs = melee_attacks(attackers, targets, sit, edition)
            assert len(specs) == len(attackers)
            for spec, att in zip(specs, attackers):
                tgt = targets[spec.target_index]
                assert spec.mods == melee_modifiers(att, tgt, sit, edition)
                assert spec.hit == hit_from(att, spec.die, edition, source=f"{att.name} in melee")


def test_ranged_declaration_works_each_pair_out_as_alone() -> None:
    """ranged_attacks works a plain shot's modifiers out once per kind of pair and its hit once
    per kind of shooter and weapon: each spec still has what its own pair gives."""
    from campaign.rulesets.flat_out_war.engine.attack import hit_from
    from campaign.rulesets.flat_out_war.engine.combatant import Arm
    from campaign.rulesets.flat_out_war.engine.declare import ranged_attacks
    from campaign.rulesets.flat_out_war.engine.modifiers import ranged_modifiers
    from campaign.rulesets.flat_out_war.engine.situation import Situation

    from .helpers import fighter

    gun = Arm("Gun", "ranged", 8, range=12, shots=2)
    sharp = Arm("Gun", "ranged", 8, range=12, traits=frozenset({"sharpshooter"}))
    piercing = Arm("Gun", "ranged", 8, range=12, shots=2, traits=frozenset({"penetrator"}))
    lance = Arm("Lance", "ranged", 10, range=12, shots=2, index=1)
    # (round robin: the flak shooter's lance meets the airborne target, then a grounded one;
    # the piercing gun is named and rolled like the plain one)
    attackers = [attrs.evolve(fighter("F", attrs=("Anti-flyer",), key="f1"), weapons=(gun, lance)),
                 attrs.evolve(fighter("A", key="a1"), weapons=(gun,)), attrs.evolve(fighter("A", key="a2"), weapons=(sharp,)),
                 attrs.evolve(fighter("A", key="a3"), weapons=(piercing,))]
    targets = [fighter("T", key="t1"), fighter("T", prone=True, key="t2"), attrs.evolve(fighter("T", key="t3"), airborne=True),
               fighter("T", key="t4"), fighter("T", faced=True, key="t5")]
    for edition in (SO, "1.7"):
        for sit in (Situation(aspect="flank"), Situation(range_band="long", los="partial", moved=True),
                    Situation(aspect="rear")):
            specs = ranged_attacks(attackers, targets, sit, edition)
            assert len(specs) == 9
            for spec in specs:
                att = next(a for a in attackers if a.key == spec.attacker)
                (weapon,) = [w for w in att.weapons if w.index == spec.weapon]
                tgt = targets[spec.target_index]
                assert spec.mods == ranged_modifiers(att, weapon, tgt, sit, edition), spec.label
                assert spec.hit == hit_from(att, weapon.die, edition, weapon=weapon, source=f"{att.name}'s {weapon.name}")


def test_able_elements_when_none_could_be_snared_or_down_and_when_one_could() -> None:
    from campaign.force import Weapon

    plain = new_battle(force("Red", ("Reds", (el("A", count=2),)), edition=SO),
                       force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    assert not plain.rules._may_disable
    net = Weapon("Net", "ranged", "d6", 6, traits=("Ensnare",))
    snaring = new_battle(force("Red", ("Reds", (el("A", count=2),)), edition=SO),
                         force("Blue", ("Blues", (el("B", weapons=(net,)),)), edition=SO), edition=SO)
    rules, state = snaring.rules, snaring.state
    assert rules._may_disable
    reds = state.unit("reds")
    reds.elements[0].markers["snared"] = True
    assert list(rules._able(state, reds)) == [reds.elements[1]]


def test_pace_of_a_crewed_gun_is_its_crew() -> None:
    from campaign.force import Weapon

    gun = el("Gun", move=0, weapons=(Weapon("Cannon", "ranged", "d8", 24),))
    bt = new_battle(force("Red", ("Battery", (gun, el("Crew", count=2, move=5))), ("Reds", (el("A", move=6),))),
                    force("Blue", ("Blues", (el("B"),))))
    rules, state = bt.rules, bt.state
    assert rules._pace(state, state.unit("battery")) is None
    assert rules._pace(state, state.unit("reds")) == 6
    assert rules.move_allowance(state, "battery") == 5
    assert rules.move_allowance(state, "reds") == 6


def test_recovery_plans_kept_with_a_view_follow_each_input_of_the_hit() -> None:
    """Hits that differ in one input each, asked of one view in turn (a key leaving an input
    out answers the plan of the hit before)."""
    from .helpers import fighter

    views = [fighter("T", die=8, attrs=("Adaptive Armor", "Tough")), fighter("P", die=6, attrs=("Frail",))]
    hits = [None, Hit(4), Hit(10), Hit(0), Hit(4, zap=True), Hit(4, penetrator=True), Hit(4, zap=True, penetrator=True)]
    for view in views:
        for edition in (SO, "1.7", SO):
            for hit in hits:
                assert recovery_plan(view, hit, edition) == recovery_plan_afresh(view, hit, edition), (hit, edition)
        assert recovery_plan(view, Hit(4), SO) is recovery_plan(view, Hit(4, source="other"), SO)


def test_recovery_plans_are_shared_by_views_of_the_same_weapons_attributes_and_die() -> None:
    """A view's first plan is the one made for an earlier view with the same weapons and
    attributes (the same objects) and die; any of the three differing gives its own."""
    from .helpers import arm, fighter

    first = fighter("T", die=8, attrs=("Tough",), key="a")
    twin = attrs.evolve(first, key="b", hit_points=2)  # (the same weapons and attributes objects)
    assert recovery_plan(twin, Hit(4), SO) is recovery_plan(first, Hit(4), SO)
    others = [attrs.evolve(first, key="c", die=6), attrs.evolve(first, key="d", attributes=frozenset({"frail"})),
              attrs.evolve(first, key="e", weapons=(arm("gun", "ranged", 10, 12), arm("gun", "ranged", 6, 12, index=1)))]
    for other in others:
        plan = recovery_plan(other, Hit(4), SO)
        assert plan == recovery_plan_afresh(other, Hit(4), SO) != recovery_plan(first, Hit(4), SO)
    assert recovery_plan(others[2], Hit(4), SO).dice == (10, 6)


def test_facts_of_keeps_the_last_commands_facts_while_they_stay_equal() -> None:
    from campaign.rulesets.flat_out_war.engine.commands import MELEE_FACTS, MOVE_FACTS, Melee, Move, fact, facts_of

    move = Move(unit="reds", facts={"distance": 3, "contact": ["blues"]})
    first = facts_of(move, MOVE_FACTS)
    assert facts_of(move, MOVE_FACTS) is first
    assert all(first.get(spec.name) == fact(move, spec.name, MOVE_FACTS) for spec in MOVE_FACTS)
    move.facts["distance"] = 5  # a frozen command's facts dict can still be changed in place
    assert facts_of(move, MOVE_FACTS)["distance"] == 5
    move.facts["run"] = True
    assert facts_of(move, MOVE_FACTS)["run"] is True
    del move.facts["run"]
    assert facts_of(move, MOVE_FACTS)["run"] is False
    twin = Move(unit="reds", facts={"distance": 7})
    assert facts_of(twin, MOVE_FACTS)["distance"] == 7 and facts_of(move, MOVE_FACTS)["distance"] == 5
    melee = Melee(unit="reds", target="blues")
    assert facts_of(melee, MELEE_FACTS) == {spec.name: spec.default for spec in MELEE_FACTS}
    assert facts_of(move, MELEE_FACTS)["aspect"] == "front"  # another list of specs: its defaults


def test_views_made_from_templates_are_the_views_made_afresh() -> None:
    """A view with no uses, losses, links, Lucky or spell is made from the element's view as
    created (`_templates`): each marker, die and Hit Points change gives what
    combatant_from_element gives."""
    from campaign.force import Weapon

    gun = Weapon("Gun", "ranged", "d8", 12, traits=("Multi-shot 2x",))
    bt = new_battle(force("Red", ("Reds", (el("A", "d8", attributes=("Hit Points 2", "Tough"), weapons=(gun,)),)),
                          edition=SO),
                    force("Blue", ("Blues", (el("B"),)), edition=SO), edition=SO)
    state, rules = bt.state, bt.rules
    es = state.element("reds/a")
    assert "reds/a" in rules._templates
    changes: list[tuple[str, str, Any]] = [
        ("markers", "faced", True), ("markers", "prone", True), ("markers", "down", True),
        ("markers", "airborne", True), ("data", "hp", 1), ("data", "die", 6), ("data", "hp", None), ("data", "die", 0)]
    for where, name, value in changes:
        getattr(es, where)[name] = value
        made = rules.combatant(state, es)
        assert made == rules.combatant_afresh(state, es), (where, name)
        assert made.key == "reds/a" and made.weapons == rules.combatant_afresh(state, es).weapons
    es.markers.clear()
    assert not rules.combatant(state, es).faced and rules.combatant(state, es).die == 8
