"""The QR code of an address, drawn in a terminal: a tablet at the table scans it.

``companion serve`` prints it under the tokened address it serves, so a tablet on the same
network opens it without the long token typed by hand. Drawn with half blocks, two rows of the
code a line (segno's compact terminal drawing), light modules as the terminal's text colour on
its dark background, with a quiet zone around it as the standard asks.
"""

from __future__ import annotations

import io

#: The light modules around the code (the standard asks 4; 2 scan on a screen and take less room).
QUIET_ZONE = 2


def qr_lines(text: str) -> list[str]:
    """``text`` (an address) as the lines of a QR code, medium error correction."""
    import segno  # only when an address is printed: not on the way to the app's first paint

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True, border=QUIET_ZONE)
    return [line.rstrip("\n") for line in out.getvalue().splitlines() if line.strip("\n")]
