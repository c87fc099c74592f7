"""Battle of Simancas: the deck (``cards``), the table of one hand and its force totals
(``table``), the match as a prompt procedure (``game``) and the ``companion simancas``
command (``calculators``). Pure: no Textual, no SQL."""
