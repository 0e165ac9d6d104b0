"""The exceptions of xcover_dlx: one base class, bad input under ``ValueError``.

Each carries what the ``xcover`` command reports for the same input: the message
(Knuth's wording for DLX input), and where it is (line, position and line text for
text; the item for a problem built in Python).
"""

from typing import Optional

__all__ = ["XcoverError", "InputError", "SudokuError", "SearchError", "TooManyLevelsError"]


class XcoverError(Exception):
    """Base class of every exception raised by xcover_dlx.

    Attributes: ``message`` (the message alone), ``line`` (1-based input line),
    ``position`` (Knuth's scan position in the line), ``line_text`` (the line),
    ``item`` (the item concerned) and ``kind`` (a short name of the error); those that
    do not apply are ``None``.
    """

    def __init__(
        self,
        text: str,
        *,
        message: Optional[str] = None,
        line: Optional[int] = None,
        position: Optional[int] = None,
        line_text: Optional[str] = None,
        item: Optional[str] = None,
        kind: Optional[str] = None,
    ) -> None:
        super().__init__(text)
        self.message = text if message is None else message
        self.line = line
        self.position = position
        self.line_text = line_text
        self.item = item
        self.kind = kind


class InputError(XcoverError, ValueError):
    """A problem that cannot be read or built: Knuth's message, with its line or item.

    >>> import xcover_dlx
    >>> try:
    ...     xcover_dlx.Problem.parse("A B\\nA C\\n")
    ... except xcover_dlx.InputError as e:
    ...     print(e.message, e.line)
    Unknown item name 2
    """


class SudokuError(XcoverError, ValueError):
    """A Sudoku puzzle, grid or clue mask that cannot be read, or a scan that cannot be set up."""


class SearchError(XcoverError, RuntimeError):
    """A search the engine could not carry out (a bug if it happens: please report it)."""


class TooManyLevelsError(SearchError):
    """The search went deeper than its levels allow (Knuth's ``Too many levels!``)."""
