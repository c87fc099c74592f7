"""The footer of the app's screens: Textual's, rebuilt only when it must show a key it has not built.

Textual's Footer rebuilds itself (a widget a key, each styled and laid out anew) whenever the
screen's bindings may have changed: on every focus change and every ``refresh_bindings``. At
the table nearly every answer moves the focus (from the instructions to the dice field, to the
options), and the keys offered either stay the same or lose and regain one or two: "All done"
while an instruction waits, the letters a text field takes as typed. Here the footer is left as
it is when its keys are the same; hides or shows again the keys it has built when only which of
them are offered, or enabled, changes (at once, in the layout the change of keys comes with);
and is rebuilt only for a key it has not built. On the Reconquista screen at 80x24 the rebuilds
were more than half the CPU time of an answer: 40 answers by keys took 6.1 s of CPU with
Textual's Footer, 2.7 s with none, 2.2-2.6 s with this one.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: A key the screen offers: its key, binding, whether it is enabled, its tooltip
#: (``Screen.active_bindings``).
Offered = tuple[str, Binding, bool, str]
#: What the footer shows: bindings ready, the command palette's key shown, compact, the keys.
Shown = tuple[bool, bool, bool, tuple[Offered, ...]]


class KeysFooter(Footer):
    """A Footer that keeps its keys, hiding the ones not offered, until it must build another."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._built: Shown | None = None  # what the last composition built its keys for
        self._showing: Shown | None = None  # what the keys show now

    def _shown(self) -> Shown:
        """Everything of the screen's bindings the footer's composition reads."""
        palette = self.app.COMMAND_PALETTE_BINDING
        keys = tuple(
            (key, binding, enabled, tooltip)
            for key, (_node, binding, enabled, tooltip) in self.screen.active_bindings.items()
            if binding.show or key == palette
        )
        return (self._bindings_ready, self.show_command_palette, self.compact, keys)

    def compose(self) -> ComposeResult:
        # Noted here, whatever asked for the composition, so what is built is always known. The
        # keys built before and not offered now are built again, hidden: a key offered in turn
        # with another (r while a roll waits, a while an instruction does) would otherwise have
        # the footer built again at every answer, each composition dropping the other.
        shown = self._shown()
        offered = {k[0] for k in shown[3]}
        palette = self.app.COMMAND_PALETTE_BINDING
        kept = tuple(
            k
            for k in (self._built[3] if self._built is not None and self._built[:3] == shown[:3] else ())
            if k[0] not in offered and k[0] != palette and k[1].group is None
        )
        self._built = (*shown[:3], shown[3] + kept)
        self._showing = shown
        yield from super().compose()
        for key, binding, enabled, tooltip in kept:
            hidden = FooterKey(
                key, self.app.get_key_display(binding), binding.description, binding.action,
                disabled=not enabled, tooltip=tooltip,
            ).data_bind(compact=Footer.compact)  # fmt: skip
            hidden.display = False
            yield hidden

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._follow_in_place():
            self.call_after_refresh(self._follow_the_keys)

    def _follow_in_place(self) -> bool:
        """Show the keys offered now with the keys built; False when they must be built again.
        Done at once, not after the next refresh as a rebuild is: the screen's layout for the
        answer (or the focus change) that changed the keys is then the footer's as well."""
        shown = self._shown()
        if shown == self._showing:
            return True
        if self._show_in_place(shown):
            self._showing = shown
            return True
        return False

    async def _follow_the_keys(self) -> None:
        if self.is_attached and not self._follow_in_place():
            await self.recompose()

    def _show_in_place(self, shown: Shown) -> bool:
        """Show ``shown`` with the keys built, as a composition for it would draw them: the
        first key offered of each action, in the order offered, enabled or dimmed. False
        (nothing changed) when that needs a key not built or key groups (a group of one key
        is drawn otherwise), or when anything else the footer reads differs."""
        built = self._built
        if built is None or built[:3] != shown[:3]:
            return False
        palette = self.app.COMMAND_PALETTE_BINDING
        if [k for k in built[3] if k[0] == palette] != [k for k in shown[3] if k[0] == palette]:
            return False
        drawn_as = {key: (binding, tooltip) for key, binding, _on, tooltip in built[3]}
        first: dict[str, tuple[str, bool]] = {}  # action: its first key offered, and enabled
        for key, binding, enabled, tooltip in shown[3]:
            if key == palette and not binding.show:
                continue  # drawn apart, at the right: compared above
            if binding.group is not None or drawn_as.get(key) != (binding, tooltip):
                return False
            first.setdefault(binding.action, (key, enabled))
        offered = dict(first.values())  # key: enabled
        keys = [k for k in self.query_children(FooterKey) if not k.has_class("-command-palette")]
        by_key = {k.key: k for k in keys}
        if not all(key in by_key for key in offered):
            return False  # a key not built
        order = [by_key[key] for key in offered]
        if [k for k in keys if k.key in offered] != order:
            # The keys offered come in another order (a field's own key takes the place of
            # the screen's: ctrl+d while the dice field has the focus): put them in it.
            for before, after in pairwise(order):
                if self.children.index(after) != self.children.index(before) + 1:
                    self.move_child(after, after=before)
        for k in keys:
            # Each change of a key's look is a new layout of the screen: only what changes.
            shown_now = k.key in offered
            if k.display != shown_now:
                k.display = shown_now
            if shown_now and k._disabled == offered[k.key]:
                # What FooterKey(disabled=...) sets: the flag its click reads, the class that dims it.
                k._disabled = not offered[k.key]
                k.set_class(k._disabled, "-disabled")
        return True
