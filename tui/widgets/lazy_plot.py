"""A chart panel that loads plotext only when it first draws: most screens that hold one
(a campaign before its second battle) never do, and plotext is slow to import."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Container

if TYPE_CHECKING:
    from textual_plotext import PlotextPlot


class LazyPlot(Container):
    """Holds a PlotextPlot (filling the panel) once `plot()` has been called."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id, classes=classes)
        self._plot: PlotextPlot | None = None

    def plot(self) -> PlotextPlot:
        """The plot, mounted on first use (its `plt` can be drawn on at once)."""
        if self._plot is None:
            from textual_plotext import PlotextPlot

            self._plot = PlotextPlot()
            self.mount(self._plot)
        return self._plot
