"""Character encodings named by web pages and servers, as Python codecs."""

from __future__ import annotations

import codecs

#: Labels the web decodes as something wider (WHATWG Encoding): pages labelled Latin-1
#: or ASCII are in practice windows-1252 (curly quotes, the euro sign in 0x80-0x9F).
_WIDER = {"iso8859-1": "cp1252", "ascii": "cp1252"}


def codec_for(label: str) -> str | None:
    """The Python codec for a charset label (`ISO-8859-1`, `utf8`, `Shift_JIS`); None for
    a label Python does not know."""
    try:
        name = codecs.lookup(label.strip().strip("\"'")).name
    except (LookupError, ValueError):
        return None
    return _WIDER.get(name, name)


def decode_text(data: bytes, codec: str) -> tuple[str, str | None]:
    """(text, warning): bytes invalid in `codec` become U+FFFD and are named once."""
    try:
        return data.decode(codec), None
    except UnicodeDecodeError as e:
        if codec == "cp1252":  # five bytes cp1252 leaves undefined: Latin-1 reads them all
            return data.decode("latin-1"), None
        what = "UTF-8" if codec == "utf-8" else codec
        warning = f"invalid {what} (first at byte {e.start}): replaced with U+FFFD"
        return data.decode(codec, errors="replace"), warning
