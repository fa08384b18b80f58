"""Legal specs made only when read: a Decision's menu that a replay looks into for one command.

A rule with large menus (FigWars 3: every model, every weapon, every enemy unit) may offer
a Decision's `legal` as a `LazySpecs`: an ordered list of specs, some of them groups made
on first use (`LazyPart`, `KeyedPart`). Read whole (iterated, indexed, measured) it is the
very list an eager rule would have made, in the same order. `first_match` (the engine's
check of a command) and `of_type` (a screen or a bot after one kind of command) make only
the groups that could hold what they look for, so they find the same spec a scan of the
whole list would.

Each group states what all its specs share: their possible types, params they all carry
(`{"model": id}`), and for a keyed group the one param each of its specs is made for.
A group whose statement is wrong breaks that promise silently, so `claims_broken` checks
every group of a menu read whole (the rules' tests call it over whole battles).

A lazy group reads the battle state when first made: a LazySpecs is read only while its
Decision is pending (after a command is refused by resolution the battle rebuilds its
state, and the new pending Decision is the one to read).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import groupby
from operator import attrgetter
from typing import Any, TypeGuard, overload

from campaign.engine.pending import CommandSpec, first_matching

Keep = Callable[[CommandSpec], bool]
_MISSING = object()
_type = attrgetter("type")


class LazyPart:
    """Specs made by `make()` on first use: every one of a type in `types` (None: any
    type) and carrying `params` (a model's whole menu: `{"model": id}`)."""

    __slots__ = ("types", "params", "_make", "_specs")

    def __init__(self, types: frozenset[str] | None, make: Callable[[], Sequence[CommandSpec]],
                 params: Mapping[str, Any] | None = None) -> None:
        self.types = types
        self.params = params or {}
        self._make = make
        self._specs: Sequence[CommandSpec] | None = None

    def specs(self) -> Sequence[CommandSpec]:
        if self._specs is None:
            self._specs = self._make()
        return self._specs

    def __iter__(self) -> Iterator[CommandSpec]:
        """The specs, made now if not yet (a run of `LazySpecs.runs`)."""
        return iter(self.specs())

    def could_hold(self, command: Any, kind: str) -> bool:
        if self.types is not None and kind not in self.types:
            return False
        for key, value in self.params.items():
            if getattr(command, key, _MISSING) != value:
                return False
        return True


class KeyedPart:
    """One spec of type `type` for each of `values`, made by `make(value)` on first use, with
    `params[key] == value` (a weapon's shots: one per enemy unit, keyed "target"). `make`
    may return None: no spec for that value."""

    __slots__ = ("type", "key", "values", "_make", "_made")

    def __init__(self, type: str, key: str, values: Sequence[Any], make: Callable[[Any], CommandSpec | None]) -> None:
        self.type = type
        self.key = key
        self.values = values
        self._make = make
        self._made: dict[int, CommandSpec | None] = {}

    def spec(self, index: int) -> CommandSpec | None:
        if index not in self._made:
            self._made[index] = self._make(self.values[index])
        return self._made[index]

    def specs(self) -> Iterator[CommandSpec]:
        for i in range(len(self.values)):
            spec = self.spec(i)
            if spec is not None:
                yield spec

    def __iter__(self) -> Iterator[CommandSpec]:
        """The specs, made now if not yet (a run of `LazySpecs.runs`)."""
        return iter(self.specs())


Item = CommandSpec | LazyPart | KeyedPart | Sequence[CommandSpec]


class LazySpecs(Sequence[CommandSpec]):
    """`items` in order (specs, lazy groups, nested sequences), the specs `keep` refuses
    left out. Read whole, it is made once and kept."""

    __slots__ = ("items", "keep", "_all")

    def __init__(self, items: Sequence[Item], keep: Keep | None = None) -> None:
        self.items = items
        self.keep = keep
        self._all: tuple[CommandSpec, ...] | None = None

    # --- read whole -------------------------------------------------------------------
    def _every(self) -> tuple[CommandSpec, ...]:
        if self._all is None:
            self._all = tuple(self._walk(None)) if self.keep is not None else self._joined()
        return self._all

    def _joined(self) -> tuple[CommandSpec, ...]:
        """`_walk(None)` without a `keep`: every item's specs joined in order, group by
        group rather than spec by spec (a bot reads every menu whole). Exact type tests
        first: an isinstance against LazySpecs (an ABC) runs Python code when it fails."""
        out: list[CommandSpec] = []
        for item in self.items:
            kind = type(item)
            if kind is CommandSpec:
                out.append(item)  # type: ignore[arg-type]
            elif kind is tuple or kind is list:
                out.extend(item)  # type: ignore[arg-type]
            elif isinstance(item, (LazyPart, KeyedPart)):  # (plain classes: a quick test)
                specs: Any = item.specs()
                out.extend(specs._iter(None) if is_lazy(specs) else specs)
            elif is_lazy(item):
                out.extend(item._iter(None))
            else:
                out.extend(item)  # type: ignore[arg-type]
        return tuple(out)

    def __iter__(self) -> Iterator[CommandSpec]:
        if self._all is not None:
            return iter(self._all)
        return iter(self._every())

    def __len__(self) -> int:
        return len(self._every())

    @overload
    def __getitem__(self, index: int) -> CommandSpec: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[CommandSpec, ...]: ...

    def __getitem__(self, index: int | slice) -> CommandSpec | tuple[CommandSpec, ...]:
        return self._every()[index]

    def __bool__(self) -> bool:
        return self._holds_any(())

    def _holds_any(self, outer: tuple[Keep, ...]) -> bool:
        """Whether any spec is left after this list's `keep` and the `outer` ones; the specs
        at hand are looked at before any group is made (order does not matter here)."""
        if self._all is not None:
            return any(all(k(s) for k in outer) for s in self._all)
        keeps = (*outer, self.keep) if self.keep is not None else outer

        def kept(specs: Iterable[CommandSpec]) -> bool:
            return any(all(k(s) for k in keeps) for s in specs)

        if kept(item for item in self.items if isinstance(item, CommandSpec)):
            return True
        for item in self.items:
            if isinstance(item, CommandSpec):
                continue
            specs: Any = item.specs() if isinstance(item, (LazyPart, KeyedPart)) else item
            if is_lazy(specs):
                if specs._holds_any(keeps):
                    return True
            elif kept(specs):
                return True
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return self._every() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LazySpecs({list(self)!r})"

    # --- read in part -------------------------------------------------------------------
    def _walk(self, kind: str | None) -> Iterator[CommandSpec]:
        """The specs in order (only those of type `kind`, when given), made as reached."""
        keep = self.keep
        for item in self.items:
            found: Any
            if isinstance(item, CommandSpec):
                found = (item,)
            elif isinstance(item, LazyPart):
                if kind is not None and item.types is not None and kind not in item.types:
                    continue
                specs = item.specs()
                found = specs._iter(kind) if is_lazy(specs) else specs
            elif isinstance(item, KeyedPart):
                if kind is not None and item.type != kind:
                    continue
                found = item.specs()
            elif is_lazy(item):
                found = item._iter(kind)
            else:
                found = item
            for spec in found:
                if (kind is None or spec.type == kind) and (keep is None or keep(spec)):
                    yield spec

    def _iter(self, kind: str | None) -> Iterator[CommandSpec]:
        if self._all is not None:
            return iter(self._all) if kind is None else (s for s in self._all if s.type == kind)
        return self._walk(kind)

    def runs(self) -> Iterator[tuple[str, Iterable[CommandSpec]]]:
        """The specs in order as (type, specs) runs, as `itertools.groupby` by type gives
        them, but a group of one type (a keyed group, a part of one type) comes as one run,
        not made until the run is read: a reader may keep the runs and read only those of
        the types it wants, in any order, while the Decision is pending. A run may be empty
        (a group that makes no spec) or follow one of its own type (a reader by type joins
        them)."""
        if self._all is not None or self.keep is not None:
            for kind, run in groupby(self, _type):
                yield kind, tuple(run)
            return
        for item in self.items:
            if type(item) is CommandSpec:
                yield item.type, (item,)
            elif isinstance(item, KeyedPart):
                yield item.type, item
            elif isinstance(item, LazyPart):
                if item.types is not None and len(item.types) == 1:
                    for kind in item.types:
                        yield kind, item
                else:
                    for kind, run in groupby(item.specs(), _type):
                        yield kind, tuple(run)
            else:
                for kind, run in groupby(item, _type):  # type: ignore[arg-type]
                    yield kind, tuple(run)

    def by_type(self) -> dict[str, list[Iterable[CommandSpec]]]:
        """`runs()` gathered by type, in the order each type first comes ({type: [run,
        ...]}), in one loop: a reader by type (the autoplayer) reads only the runs of the
        types it wants, each a group made when read. Plain specs of a type with no group
        of that type between them come as one run (a list)."""
        out: dict[str, list[Iterable[CommandSpec]]] = {}
        own: dict[str, list[CommandSpec]] = {}  # each type's plain specs since its last group: one run
        if self._all is not None or self.keep is not None:
            for kind, group in groupby(self._every(), _type):  # (made whole: its runs as tuples)
                found = out.get(kind)
                if found is None:
                    out[kind] = [tuple(group)]
                else:
                    found.append(tuple(group))
            return out
        for item in self.items:
            run: Iterable[CommandSpec]
            if type(item) is CommandSpec:  # (a menu of many plain specs, an activation's: one list)
                kind = item.type
                plain = own.get(kind)
                if plain is not None:
                    plain.append(item)
                    continue
                run = own[kind] = [item]
            elif isinstance(item, KeyedPart):
                kind, run = item.type, item
                if kind in own:  # (a plain spec after the group comes after it)
                    del own[kind]
            elif isinstance(item, LazyPart) and item.types is not None and len(item.types) == 1:
                (kind,) = item.types
                run = item
                if kind in own:
                    del own[kind]
            else:  # (rare: a group of many types, a nested list)
                own.clear()  # (a plain spec after this run comes after it)
                for kind, run in LazySpecs([item]).runs():
                    found = out.get(kind)
                    if found is None:
                        out[kind] = [run]
                    else:
                        found.append(run)
                continue
            found = out.get(kind)
            if found is None:
                out[kind] = [run]
            else:
                found.append(run)
        return out

    def of_type(self, kind: str) -> Iterator[CommandSpec]:
        """The specs of type `kind`, in order; groups that hold none are not made."""
        return self._iter(kind)

    def first_match(self, command: Any) -> CommandSpec | None:
        """The first spec that matches `command` (CommandSpec.matches), as a scan of the
        whole list would find it; only the groups that could hold it are made."""
        if self._all is not None:
            return first_match(self._all, command)
        kind = getattr(command, "type", None)
        if not isinstance(kind, str):
            return None
        if self.keep is None:
            return self._first(command, kind)
        return next(self._matches(command, kind), None)

    def _first(self, command: Any, kind: str) -> CommandSpec | None:
        """`_matches`' first for a list with no `keep` of its own (nothing here can refuse
        the first match found): one loop, no generator per group (a replay checks every
        command against its menu)."""
        for item in self.items:
            if isinstance(item, CommandSpec):
                if item.type == kind and item.matches(command):
                    return item
            elif isinstance(item, KeyedPart):
                if item.type != kind:
                    continue
                value = getattr(command, item.key, _MISSING)
                values = item.values
                start = 0
                while True:  # (each value equal to the command's, in order)
                    try:
                        i = values.index(value, start)
                    except ValueError:
                        break
                    spec = item.spec(i)
                    if spec is not None and spec.matches(command):
                        return spec
                    start = i + 1
            else:
                if isinstance(item, LazyPart):
                    types = item.types
                    if (types is not None and kind not in types) or not item.could_hold(command, kind):
                        continue  # (the type first: most commands are of another kind)
                    found = next(_matching(item.specs(), command, kind), None)
                else:
                    found = next(_matching(item, command, kind), None)
                if found is not None:
                    return found
        return None

    def _matches(self, command: Any, kind: str) -> Iterator[CommandSpec]:
        """Every spec that matches `command`, in order (an outer `keep` may refuse the first)."""
        keep = self.keep
        for item in self.items:
            candidates: Any
            if isinstance(item, CommandSpec):
                candidates = (item,) if item.type == kind and item.matches(command) else ()
            elif isinstance(item, LazyPart):
                if not item.could_hold(command, kind):
                    continue
                candidates = _matching(item.specs(), command, kind)
            elif isinstance(item, KeyedPart):
                if item.type != kind:
                    continue
                value = getattr(command, item.key, _MISSING)
                candidates = (item.spec(i) for i, v in enumerate(item.values) if v == value)
                candidates = (s for s in candidates if s is not None and s.matches(command))
            else:
                candidates = _matching(item, command, kind)
            for spec in candidates:
                if keep is None or keep(spec):
                    yield spec

    # --- checking the groups' statements ------------------------------------------------
    def claims_broken(self) -> list[str]:
        """What any made group holds against what it states (types, params, key), for
        tests: an empty list when every statement holds. Reads the menu whole."""
        out: list[str] = []
        for item in self.items:
            if isinstance(item, LazyPart):
                specs = item.specs()
                for spec in specs:
                    if item.types is not None and spec.type not in item.types:
                        out.append(f"{spec.type} in a group of {sorted(item.types)}")
                    for key, value in item.params.items():
                        if spec.params.get(key, _MISSING) != value:
                            out.append(f"{spec.type} lacks {key}={value!r}")
                if isinstance(specs, LazySpecs):
                    out.extend(specs.claims_broken())
            elif isinstance(item, KeyedPart):
                for i, value in enumerate(item.values):
                    made = item.spec(i)
                    if made is not None and (made.type != item.type or made.params.get(item.key, _MISSING) != value):
                        out.append(f"{made.type} {made.params} made for {item.key}={value!r}")
            elif isinstance(item, LazySpecs):
                out.extend(item.claims_broken())
        return out


def _matching(specs: Sequence[CommandSpec], command: Any, kind: str) -> Iterator[CommandSpec]:
    if is_lazy(specs):
        return specs._matches(command, kind) if specs._all is None else _matching(specs._all, command, kind)
    return (spec for spec in specs if spec.type == kind and spec.matches(command))


def is_lazy(value: object) -> TypeGuard[LazySpecs]:
    """isinstance(value, LazySpecs) (subclasses too) without the ABC's check in Python."""
    return LazySpecs in type(value).__mro__


def first_match(legal: Sequence[CommandSpec], command: Any) -> CommandSpec | None:
    """The first of `legal` that matches `command`: the engine's legality check."""
    if type(legal) is not tuple and LazySpecs in type(legal).__mro__:  # (is_lazy inline: every command's check)
        lazy: LazySpecs = legal  # type: ignore[assignment]  # (no cast(): a call)
        return lazy.first_match(command)
    return first_matching(legal, command)
