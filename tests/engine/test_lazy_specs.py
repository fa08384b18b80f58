"""LazySpecs: a menu made as read is, read whole, the list an eager rule makes; a lookup
finds what a scan of that list finds while making only the groups that could hold it."""

from __future__ import annotations

from typing import Any

import attrs

from campaign.engine.lazy_specs import KeyedPart, LazyPart, LazySpecs, first_match
from campaign.engine.pending import CommandSpec


@attrs.define
class Cmd:
    type: str
    model: str = ""
    target: str = ""


def spec(kind: str, **params: Any) -> CommandSpec:
    return CommandSpec(kind, params, label=f"{kind} {params}")


class Made:
    """Counts what the groups make."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def part(self, name: str, specs: list[CommandSpec]) -> Any:
        def make() -> list[CommandSpec]:
            self.parts.append(name)
            return specs
        return make

    def keyed(self, kind: str, model: str) -> Any:
        def make(target: str) -> CommandSpec | None:
            self.parts.append(f"{model}>{target}")
            return None if target == "gone" else spec(kind, model=model, target=target)
        return make


def menu(made: Made) -> LazySpecs:
    """Two models' menus: shots keyed by target, then their own actions, then "done"."""
    def model(m: str) -> LazySpecs:
        return LazySpecs([
            KeyedPart("shoot", "target", ["t1", "gone", "t2"], made.keyed("shoot", m)),
            LazyPart(frozenset({"walk", "aim"}), made.part(f"{m} own", [spec("walk", model=m), spec("aim", model=m)])),
            spec("done", model=m),
        ])
    return LazySpecs([
        spec("share", unit="u"),
        LazyPart(None, lambda: model("a"), {"model": "a"}),
        LazyPart(None, lambda: model("b"), {"model": "b"}),
        spec("end_activation", unit="u"),
    ])


def test_read_whole_it_is_the_eager_list_in_order() -> None:
    made = Made()
    whole = list(menu(made))
    assert [(s.type, s.params.get("model"), s.params.get("target")) for s in whole] == [
        ("share", None, None),
        ("shoot", "a", "t1"), ("shoot", "a", "t2"), ("walk", "a", None), ("aim", "a", None), ("done", "a", None),
        ("shoot", "b", "t1"), ("shoot", "b", "t2"), ("walk", "b", None), ("aim", "b", None), ("done", "b", None),
        ("end_activation", None, None),
    ]
    assert menu(Made()) == whole and len(menu(Made())) == 12 and menu(Made())[3].type == "walk"


def test_a_lookup_makes_only_what_could_hold_the_command() -> None:
    made = Made()
    legal = menu(made)
    found = legal.first_match(Cmd("shoot", model="b", target="t2"))
    assert found is not None and found.params == {"model": "b", "target": "t2"}
    assert made.parts == ["b>t2"]  # not model a's menu, not b's other shots or own actions
    assert legal.first_match(Cmd("done", model="a")) == spec("done", model="a")
    assert made.parts == ["b>t2"]
    assert legal.first_match(Cmd("walk", model="a")) == spec("walk", model="a")
    assert made.parts == ["b>t2", "a own"]
    assert legal.first_match(Cmd("shoot", model="a", target="gone")) is None
    assert legal.first_match(Cmd("run", model="a")) is None


def test_a_lookup_finds_what_a_scan_of_the_whole_list_finds() -> None:
    commands = [Cmd(k, model=m, target=t) for k in ("shoot", "walk", "aim", "done", "run", "share", "end_activation")
                for m in ("a", "b", "c", "") for t in ("t1", "t2", "gone", "")]
    for keep in (None, lambda s: s.type != "walk", lambda s: s.params.get("target") != "t1"):
        whole = tuple(LazySpecs([menu(Made())], keep))
        for command in commands:
            scanned = next((s for s in whole if s.type == command.type and s.matches(command)), None)
            assert LazySpecs([menu(Made())], keep).first_match(command) == scanned, (command, keep)
            assert first_match(whole, command) == scanned


def test_an_outer_filter_passes_over_a_refused_first_match() -> None:
    first, second = CommandSpec("walk", {"model": "a"}, label="first"), CommandSpec("walk", {"model": "a"}, label="second")
    outer = LazySpecs([LazyPart(None, lambda: LazySpecs([first, second]), {"model": "a"})], lambda s: s.label == "second")
    assert outer.first_match(Cmd("walk", model="a")) is second


def test_of_type_and_truth_make_only_what_they_need() -> None:
    made = Made()
    legal = menu(made)
    assert [s.params["model"] for s in legal.of_type("aim")] == ["a", "b"]
    assert made.parts == ["a own", "b own"]
    made = Made()
    assert menu(made) and made.parts == []  # the specs at hand answer first
    made = Made()
    only_shots = LazySpecs([menu(made)], lambda s: s.type == "shoot")
    assert only_shots and made.parts == ["a>t1"]
    assert not LazySpecs([menu(Made())], lambda s: s.type == "run")


def test_a_group_that_breaks_its_statement_is_reported() -> None:
    assert menu(Made()).claims_broken() == []
    wrong = LazySpecs([LazyPart(frozenset({"walk"}), lambda: [spec("run", model="a"), spec("walk", model="b")], {"model": "a"}),
                       KeyedPart("shoot", "target", ["t1"], lambda t: spec("shoot", target="t9"))])
    assert wrong.claims_broken() == ["run in a group of ['walk']", "walk lacks model='a'",
                                     "shoot {'target': 't9'} made for target='t1'"]


def test_a_keyed_lookup_goes_on_past_a_value_whose_spec_does_not_match() -> None:
    """A keyed part may hold a value twice, or make no spec (or one the command does not
    match) for it: the lookup tries each equal value in order, as a scan would."""
    made: list[str] = []

    def make(target: str) -> CommandSpec | None:
        made.append(target)
        if target == "gone":
            return None
        return spec("shoot", model="x" if made.count(target) == 1 else "a", target=target)

    def legal() -> LazySpecs:
        made.clear()
        return LazySpecs([spec("walk", model="a"), KeyedPart("shoot", "target", ["t1", "gone", "t2", "t1", "gone"], make),
                          spec("done", model="a")])

    for command in (Cmd("shoot", model="a", target="t1"), Cmd("shoot", model="x", target="t1"),
                    Cmd("shoot", model="a", target="gone"), Cmd("shoot", model="a", target="t2"), Cmd("done", model="a")):
        whole = tuple(legal())
        scanned = next((s for s in whole if s.type == command.type and s.matches(command)), None)
        assert legal().first_match(command) == scanned, command
    lazy = legal()
    assert lazy.first_match(Cmd("shoot", model="a", target="t1")) == spec("shoot", model="a", target="t1")
    assert made == ["t1", "t1"]  # the first t1's spec (model x) did not match: the second t1's did


def test_runs_by_type_join_to_the_whole_list_s_without_making_it_whole() -> None:
    from itertools import groupby
    from operator import attrgetter

    def joined(runs: Any) -> list[tuple[str, list[CommandSpec]]]:
        out: dict[str, list[CommandSpec]] = {}
        for kind, run in runs:
            specs = list(run)
            if specs:
                out.setdefault(kind, []).extend(specs)
        return list(out.items())

    def legal(keep: Any) -> LazySpecs:
        return LazySpecs([spec("share", unit="u"), KeyedPart("shoot", "target", ["t1", "gone", "t2"], Made().keyed("shoot", "u")),
                          menu(Made()), spec("shoot", model="z", target="t3"), spec("done", model="z")], keep)

    for keep in (None, lambda s: s.type != "walk"):
        lazy = legal(keep)
        by_runs = joined(lazy.runs())
        assert by_runs == joined(groupby(tuple(legal(keep)), attrgetter("type")))
        assert [kind for kind, _ in by_runs] == ["share", "shoot", "walk", "aim", "done", "end_activation"] if keep is None else \
            [kind for kind, _ in by_runs] == ["share", "shoot", "aim", "done", "end_activation"]
        assert (lazy._all is None) == (keep is None)  # (with a filter it is read whole)


def test_runs_may_be_kept_and_read_later_and_a_group_of_one_type_only_when_read() -> None:
    made = Made()
    legal = LazySpecs([spec("move", unit="u"), LazyPart(frozenset({"attach"}), made.part("attach", [spec("attach", target="x"),
                                                                                                  spec("attach", target="y")])),
                       KeyedPart("shoot", "target", ["t1", "gone", "t2"], made.keyed("shoot", "u")),
                       LazyPart(frozenset({"cast", "switch"}), made.part("own", [spec("switch"), spec("cast")])),
                       (spec("done"), spec("end_activation"))])
    runs = list(legal.runs())  # kept, not read
    assert [kind for kind, _ in runs] == ["move", "attach", "shoot", "switch", "cast", "done", "end_activation"]
    assert made.parts == ["own"]  # (a group of two types is split into its runs: made)
    shoot = dict(runs)["shoot"]
    assert [s.params["target"] for s in shoot] == ["t1", "t2"] and "attach" not in made.parts
    assert [s.params["target"] for s in dict(runs)["attach"]] == ["x", "y"]  # read after a later run
    assert [s for _, run in runs for s in run] == list(legal)  # joined: the whole list, in order


def test_by_type_gathers_the_runs_and_makes_no_group_of_one_type() -> None:
    def legal(made: Made, keep: Any = None) -> LazySpecs:
        return LazySpecs([spec("move", unit="u"), LazyPart(frozenset({"attach"}), made.part("attach", [spec("attach")])),
                          KeyedPart("shoot", "target", ["t1", "gone"], made.keyed("shoot", "u")),
                          menu(made), (spec("shoot", model="z", target="t3"), spec("done"))], keep)

    for keep in (None, lambda s: s.type != "walk"):
        made = Made()
        kinds = legal(made, keep).by_type()
        if keep is None:  # (a list with a filter is read whole)
            assert "attach" not in made.parts and "u>t1" not in made.parts
        gathered: dict[str, list[CommandSpec]] = {}
        for kind, run in legal(Made(), keep).runs():
            gathered.setdefault(kind, []).extend(run)
        assert {kind: [s for run in runs for s in run] for kind, runs in kinds.items()} == gathered
        assert list(kinds) == list(gathered)  # (each type where it first comes)


def test_by_type_joins_plain_specs_of_a_type_but_not_across_its_groups() -> None:
    made = Made()
    legal = LazySpecs([spec("shoot", target="a"), spec("move"), spec("shoot", target="b"),
                       KeyedPart("shoot", "target", ["t1", "t2"], made.keyed("shoot", "u")),
                       spec("shoot", target="c"), spec("done"), spec("shoot", target="d")])
    kinds = legal.by_type()
    assert [list(run) for run in kinds["shoot"]][0] == [spec("shoot", target="a"), spec("shoot", target="b")]
    assert len(kinds["shoot"]) == 3 and isinstance(kinds["shoot"][1], KeyedPart)  # (its own run, not made)
    assert [s.params["target"] for run in kinds["shoot"] for s in run] == ["a", "b", "t1", "t2", "c", "d"]
    assert [s for s in legal if s.type == "shoot"] == [s for run in kinds["shoot"] for s in run]
