"""Textual screens and widgets of Tabletop Companion; styles live in the .tcss files beside them."""
