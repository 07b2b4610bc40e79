"""CSV cells a spreadsheet reads as text. Whatever a student wrote (a name, a file name, an
exercise name from a forged report) reaches the course's CSV files only through
:func:`csv_cell`.

A spreadsheet evaluates a cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return before one). Which character splits a line into cells is the reader's
choice: ``,``, but ``;`` in many European locales, or a tab; and a reader splitting on
another character than the writer's does not honour the writer's quotes either (a quoted
``"a;=2+5"`` read on ``;`` still gives a cell ``=2+5"``). So a formula's first character is
neutralised wherever a cell could start: at the beginning of the text and after any of those
separators (or a line break), with blanks between, by a ``'`` before it, which spreadsheets
show as text (OWASP's advice on CSV injection).
"""

from __future__ import annotations

import re

FORMULA_START = re.compile(r"(^|[,;\t\r\n])([ \t\r]*)(?=[=+\-@])")


def csv_cell(value) -> str:
    """``value`` as text in which no cell a spreadsheet could split off starts a formula."""
    return FORMULA_START.sub(r"\1\2'", str(value))
