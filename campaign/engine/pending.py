"""What the engine waits for: a Decision of one side, or dice."""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from campaign.engine.errors import IllegalCommand
from campaign.engine.quick import quick_init
from campaign.engine.shapes import shape_problem

if TYPE_CHECKING:  # commands are checked against specs; neither module needs the other to run
    from campaign.engine.commands import Command


@quick_init
@attrs.define(frozen=True)
class FactSpec:
    """A table fact a command must carry: name, allowed values (empty: any), default.

    `picks` says what a list fact (or a fact naming one id) holds, so a UI can offer a
    picker instead of typed ids:
    one of PICKS (any units, the acting side's enemy units, any elements, the acting side's
    own elements, the acting side's enemies' elements, or the elements
    of the command's `unit` or `target`); empty for anything else. `parts`: the values each
    picked id carries, written `id:part:part` in that order (a burst's dice, gap, cover);
    a UI fills in their defaults for a newly picked id. `ask`: False for a fact the
    command still accepts (battle files recorded earlier may carry it) but that has no
    bearing on this one (a spotter for a rifle): a UI does not ask it."""

    name: str
    choices: tuple[Any, ...] = ()
    default: Any = None
    help: str = ""
    picks: str = ""
    parts: tuple[FactSpec, ...] = ()
    ask: bool = True


PICKS = ("units", "enemy_units", "elements", "unit_elements", "target_elements", "own_elements", "enemy_elements")


@quick_init
@attrs.define(frozen=True)
class CommandSpec:
    """One legal command, or family of commands, in a Decision.

    A command matches when its type is `type` and each of `params` equals the command's
    field of that name; its `facts` must use only the names in `facts`, with values
    among their choices. `label` is the plain text a UI shows for it; `odds` and
    `targets` tell a UI whether to show odds and what to offer as a target; `picks` what
    to offer for a field that lists ids (the attacking models, say: "own_elements");
    `offers` narrows such a field to the ids the rules accept there now (the models able
    to attack in this phase), so a picker or an automatic player need not guess.
    """

    type: str
    params: dict[str, Any] = attrs.field(factory=dict)
    facts: tuple[FactSpec, ...] = ()
    label: str = ""
    odds: bool = False  # the rules give exact odds for it (BattleRules.odds / odds_report)
    targets: str = ""  # what it aims at: "units", "models", "point", or "" (nothing)
    picks: dict[str, str] = attrs.field(factory=dict)  # a list field's name -> what a UI offers for it (one of PICKS)
    offers: dict[str, tuple[str, ...]] = attrs.field(factory=dict)  # a list field's name -> the only ids worth offering

    def matches(self, command: Command) -> bool:
        if getattr(command, "type", None) != self.type:
            return False
        for key, value in self.params.items():  # (the same test as first_matching's, for one spec)
            if getattr(command, key, _MISSING) != value:
                return False
        return True

    def fact(self, name: str) -> FactSpec | None:
        return _facts_by_name(self.facts).get(name)

    def check_facts(self, command: Command) -> None:
        """Refuse a command whose facts use a name this spec lacks, or a value outside its choices."""
        facts = getattr(command, "facts", None)
        if not self.facts or (type(facts) is not dict and not isinstance(facts, Mapping)):
            return
        for name, value in facts.items():
            fact = self.fact(name)
            if fact is None:
                known = ", ".join(f.name for f in self.facts)
                raise IllegalCommand("facts", f"{command.type} takes no fact {name!r} (facts: {known})")
            if fact.choices:
                # by type too: 1 == True in Python, but 1 is not a yes/no answer
                if not any(value == c and type(value) is type(c) for c in fact.choices):
                    allowed = ", ".join(map(str, fact.choices))
                    raise IllegalCommand("facts", f"{name} must be one of {allowed}, not {value!r}")
            else:
                kind = "ids" if isinstance(fact.default, list) else type(fact.default).__name__
                problem = shape_problem(value, kind)
                if problem:
                    raise IllegalCommand("facts", f"{name} must be {problem}, not {value!r}")


_MISSING = object()


def first_matching(legal: Sequence[CommandSpec], command: Command) -> CommandSpec | None:
    """The first of `legal` that `command` matches (CommandSpec.matches: its type, and each
    of the spec's params equal to the command's field of that name), or None. One loop for
    the whole list: every legal spec of every step is looked at."""
    kind = getattr(command, "type", None)
    for spec in legal:
        if spec.type == kind:
            for key, value in spec.params.items():
                if getattr(command, key, _MISSING) != value:
                    break
            else:
                return spec
    return None


_BY_NAME: dict[int, tuple[tuple[FactSpec, ...], dict[str, FactSpec]]] = {}


def _facts_by_name(facts: tuple[FactSpec, ...]) -> dict[str, FactSpec]:
    """Each fact spec by its name (the first of a repeated name), made once per tuple of
    specs: a command's every fact is looked up in them on every step."""
    found = _BY_NAME.get(id(facts))
    if found is None or found[0] is not facts:
        if len(_BY_NAME) >= 256:  # tuples made on the fly: keep the cache bounded
            _BY_NAME.clear()
        named: dict[str, FactSpec] = {}
        for spec in facts:
            named.setdefault(spec.name, spec)
        found = _BY_NAME[id(facts)] = (facts, named)
    return found[1]


@quick_init
@attrs.define(frozen=True)
class Decision:
    """The engine waits for `side` to choose one of `legal`.

    `check`, when given, refines legality beyond the specs (it raises IllegalCommand);
    whoever yields the Decision knows the context it needs. `data` carries extra
    detail for the UI (e.g. a hidden hand of cards shown only to `side`); for a `report`
    answer, `pick_units` / `pick_elements` list the ids worth offering.
    """

    side: str
    prompt: str
    legal: Sequence[CommandSpec]  # a tuple, or a LazySpecs made as it is read (engine/lazy_specs.py)
    check: Callable[[Any], None] | None = attrs.field(default=None, eq=False, repr=False)
    data: dict[str, Any] = attrs.field(factory=dict)

    def kind(self) -> str:
        return "decision"


@quick_init
@attrs.define(frozen=True)
class RollRequest:
    """The engine waits for `count` x d`die` for `purpose` (rolled by `side`, if it matters)."""

    die: int
    count: int
    purpose: str
    side: str = ""

    def __attrs_post_init__(self) -> None:
        if self.die < 2 or self.count < 1:
            raise ValueError(f"a roll needs a die of 2+ sides and 1+ dice, not {self.count} x d{self.die}")

    def kind(self) -> str:
        return "roll"

    def describe(self) -> str:
        return self.purpose or f"{self.count} x d{self.die}"


Pending = Decision | RollRequest

# A resolution generator (a rules hook, a scheme's loop): it yields what it waits for and is
# sent the answer -- the faces rolled for a RollRequest, the Command chosen for a Decision --
# and returns what the hook returns (a turn order, whether a rally passed...).
Resolution = Generator[Pending, Any, Any]
