"""A finished proof's certificate: the answers a check needs, small enough to ship.

A proof's checkpoint (:mod:`.edges_proof`) holds every answer its run found, the leaves'
and those of the positions above them, many of them for moves that failed and were not
needed. The certificate keeps only the positions that confirm the root's answer when the
proof is walked again (:meth:`NullWindowProof.check`): for "holds", the leaves below one
good move of the first player at each of its turns and below every reply of the second
(and the positions on the way, which only guide the walk). Every one of them carries the
same answer, the root's, so the file is the question, the answer and a list of position
ids, as compressed JSON (xz) with a SHA-256 check over all of it.

Read back, nothing in it is believed unchecked: the format, the question (the root
position, threshold, split and engine must be the ones asked), the check, and the size
(decompressed at most ``MAX_TEXT`` bytes, so a hostile file cannot fill the memory); and
``--check`` then re-derives the root's answer from the leaves, searching some again.
"""

from __future__ import annotations

import hashlib
import json
import lzma
from pathlib import Path
from typing import Any

from meeple.core.errors import MeepleError
from meeple.core.files import Unreadable, atomic_write, parse_json
from meeple.games.edges.rules import EdgesState
from meeple.solvers.cache import OtherQuestion
from meeple.solvers.edges_proof import CHECKPOINT_FORMAT, ENGINE, NullWindowProof, ProofCheck

CERTIFICATE_FORMAT = "edges-certificate/1"
MAX_TEXT = 256 * 1024 * 1024
"""The most bytes a certificate may unpack to: far above any real one (the 3x3 proof's would
be about 1 MB: some 39,000 positions at 28 bytes of JSON each, as on 2x3)."""


def _digest(content: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def export(proof: NullWindowProof, state: EdgesState, path: Path) -> ProofCheck:
    """Write the certificate of ``proof`` (finished, on its checkpoint) at ``state``, its
    root, and return the check that confirmed it; a proof that does not confirm is a
    :class:`MeepleError` and writes nothing."""
    report = proof.check(state, keep=True)
    if not report.confirmed:
        raise MeepleError(
            f"the checkpoint's answer does not follow from its leaves (first failing: "
            f"{report.unconfirmed}); no certificate written"
        )
    content = {
        "format": CERTIFICATE_FORMAT,
        "proof": proof.header,
        "claim": report.claim,
        "positions": sorted(report.confirming),
    }
    data = json.dumps({**content, "check": _digest(content)}, separators=(",", ":"))
    atomic_write(path, lzma.compress(data.encode(), preset=9))
    return report


class Certificate:
    """A certificate read back and verified: the answers of its positions (all the root's
    answer), to be walked by :meth:`NullWindowProof.check`. Read only."""

    def __init__(self, path: Path, header: dict[str, object]) -> None:
        self.path = path
        self.header = header
        self.rejected = 0
        self.started_empty = False  # an empty file is refused: it holds no answer
        self.answers: dict[str, bool] = self._read()

    def _read(self) -> dict[str, bool]:
        try:
            packed = self.path.read_bytes()
        except OSError as exc:
            raise MeepleError(f"cannot read the certificate {self.path}: {exc}") from None
        try:
            unpacker = lzma.LZMADecompressor()
            text = unpacker.decompress(packed, max_length=MAX_TEXT)
            if not unpacker.eof:
                raise MeepleError(
                    f"{self.path} is cut short or unpacks to over {MAX_TEXT:,} bytes: not a "
                    "certificate of this meeple"
                )
            data = parse_json(text.decode("utf-8"))
        except (lzma.LZMAError, UnicodeDecodeError, Unreadable):
            raise MeepleError(f"{self.path} is not a proof certificate (xz-packed JSON)") from None
        if not isinstance(data, dict) or data.get("format") != CERTIFICATE_FORMAT:
            raise MeepleError(f"{self.path} is not a proof certificate of this meeple "
                              f"({CERTIFICATE_FORMAT})")  # fmt: skip
        theirs = data.get("proof")
        if theirs != self.header:
            theirs = theirs if isinstance(theirs, dict) else {}
            raise OtherQuestion(self.path, "proof certificate", theirs, self.header)
        check = data.pop("check", None)
        if check != _digest(data):
            raise MeepleError(f"{self.path} fails its check (edited or damaged)")
        claim, positions = data.get("claim"), data.get("positions")
        if type(claim) is not bool or not isinstance(positions, list):
            raise MeepleError(f"{self.path} has no answer or no positions")
        if not all(isinstance(p, str) for p in positions):
            raise MeepleError(f"{self.path} names a position that is not a text id")
        return dict.fromkeys(positions, claim)

    def add(self, position: str, holds: bool) -> None:
        """A certificate is only read: a proof that needs a new answer needs its checkpoint."""
        raise MeepleError(f"{self.path} is a certificate, read only: a proof run needs a "
                          "checkpoint")  # fmt: skip


def read(path: Path, question: str, threshold: int, split: int) -> Certificate:
    """The certificate at ``path``, verified to answer this question (the root position's
    id, the threshold for seat 0 and the split), to pass to :class:`NullWindowProof` as its
    ``store``."""
    header = {"question": question, "threshold": threshold, "split": split}
    return Certificate(path, {"format": CHECKPOINT_FORMAT, "engine": ENGINE, **header})
