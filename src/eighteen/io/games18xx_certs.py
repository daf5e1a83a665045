"""18xx.games' certificates: which certificate each holder has, as 18xx.games names them.

Our engine moves certificates by percent: a sale is a corporation and a percent, and a
change of president hands over ordinary certificates worth the president's. 18xx.games
names every certificate it moves and, where its rules leave the choice open, chooses in a
way of its own (measured on the 87 corpus games, whose files name every certificate):

- a sale lists the seller's certificates, ordinary ones first in the order he got them,
  the president's last (worth less than its percent when the seller keeps part of it);
- a sale that hands the presidency on gives the new president the president's
  certificate, and his first ordinary certificates (in the order he got them) go to the
  market; a seller who keeps part of the president's certificate then takes the
  market's first certificates of the corporation back;
- a purchase that makes a new president gives the former one the new president's first
  ordinary certificates;
- every other move (grants, exchanges, closings, treasuries) moves the first certificates
  of the holder, the IPO's by number.

:class:`CertNames` keeps that view beside one of our games: the export names what it
writes from it, and the import checks the names a file gives against it (and takes a
purchase's source, the IPO or the market, from where the named certificate is).
"""

from __future__ import annotations

from collections.abc import Mapping

from eighteen.engine import shares
from eighteen.engine.context import Context
from eighteen.engine.state import IPO, POOL


class CertNames:
    """Who holds each certificate in 18xx.games' view of one of our games (which holders
    have how much of what always agrees with the game: :meth:`sync`)."""

    def __init__(self, g: Context) -> None:
        tables = g.tables
        self.corp_of: dict[str, str] = dict(tables.cert_corps)
        self.percent: dict[str, int] = dict(tables.cert_percents)
        self.index: dict[str, int] = {}
        self.president: dict[str, str] = {}  # corporation -> its president's certificate
        self.owner: dict[str, str] = {}
        self.held: dict[tuple[str, str], list[str]] = {}  # (holder, corp) -> in order got
        for corp, certs in tables.cert_table.items():
            for i, (cert, _) in enumerate(certs):
                self.index[cert] = i
                if i == 0:
                    self.president[corp] = cert
                owner = g.state.certs[cert]
                self.owner[cert] = owner
                self.held.setdefault((owner, corp), []).append(cert)
        self.seen: dict[str, str] = dict(g.state.certs)

    def copy(self) -> CertNames:
        """An independent copy (the tables' parts shared)."""
        out = object.__new__(CertNames)
        out.corp_of, out.percent, out.index = self.corp_of, self.percent, self.index
        out.president = self.president
        out.owner = dict(self.owner)
        out.held = {k: list(v) for k, v in self.held.items()}
        out.seen = dict(self.seen)
        return out

    # -- the view ---------------------------------------------------------------------

    def of(self, holder: str, corp: str) -> list[str]:
        """The holder's certificates of ``corp``, in the order 18xx.games keeps them."""
        return self.held.get((holder, corp), [])

    def where(self, cert: str) -> str:
        """Where the certificate is, in words: ``in the IPO``, ``in the market`` or
        ``<holder>'s``."""
        holder = self.owner[cert]
        if holder == IPO:
            return "in the IPO"
        if holder == POOL:
            return "in the market"
        return f"{holder}'s"

    def percent_of(self, holder: str, corp: str) -> int:
        return sum(self.percent[c] for c in self.of(holder, corp))

    def ordinary(self, holder: str, corp: str) -> list[str]:
        pc = self.president[corp]
        return [c for c in self.of(holder, corp) if c != pc]

    def move(self, cert: str, to: str) -> None:
        corp = self.corp_of[cert]
        self.held[(self.owner[cert], corp)].remove(cert)
        self.owner[cert] = to
        got = self.held.setdefault((to, corp), [])
        got.append(cert)
        if to == IPO:  # (the IPO's by number)
            got.sort(key=self.index.__getitem__)

    def first(self, holder: str, corp: str, percent: int, n: int) -> list[str]:
        """The holder's first ``n`` ordinary certificates of ``percent``."""
        return [c for c in self.ordinary(holder, corp) if self.percent[c] == percent][:n]

    def matching(self, holder: str, corp: str, moved: list[str]) -> list[str]:
        """The holder's certificates that stand for our ``moved`` ones: the president's
        certificate for itself, the holder's first ordinary ones of each percent for the
        rest."""
        pc = self.president[corp]
        out = [pc] if pc in moved and self.owner[pc] == holder else []
        for c in self.ordinary(holder, corp):
            pct = self.percent[c]
            if sum(self.percent[m] == pct for m in moved if m != pc) > sum(
                self.percent[o] == pct for o in out if o != pc
            ):
                out.append(c)
        return out

    # -- 18xx.games' moves ------------------------------------------------------------

    def bundle(self, seller: str, corp: str, percent: int) -> list[str]:
        """The certificates 18xx.games lists for a sale of ``percent`` of ``corp``: the
        seller's ordinary ones, smallest first and in the order he got them, as many as
        make the percent, the president's last when they do not."""
        ordinary = sorted(self.ordinary(seller, corp), key=self.percent.__getitem__)
        out: list[str] = []
        total = 0
        for c in ordinary:
            if total >= percent:
                break
            out.append(c)
            total += self.percent[c]
        pc = self.president[corp]
        if total < percent and self.owner[pc] == seller:
            out.append(pc)
        return out

    def bought(
        self, g: Context, buyer: str, corp: str, certs: list[str], president: str | None
    ) -> None:
        """``buyer`` bought ``certs`` (from the IPO or the market); ``president`` presided
        over ``corp`` before."""
        for c in certs:
            self.move(c, buyer)
        now = g.state.corporations[corp].president
        if president is not None and now is not None and now != president:
            self.hand_over(corp, now, president)

    def sold(
        self, g: Context, seller: str, corp: str, certs: list[str], president: str | None
    ) -> None:
        """``seller`` sold the bundle ``certs`` to the market; ``president`` presided over
        ``corp`` before."""
        pc = self.president[corp]
        for c in certs:
            if c != pc:
                self.move(c, POOL)
        now = g.state.corporations[corp].president
        if pc in certs and now is not None and now != seller:
            # the president's certificate to the new president, his first ones to the
            # market, and what the seller keeps of it back from the market's first
            self.hand_over(corp, now, POOL)
            keep = shares.percent_of(g, corp, seller)
            for c in list(self.of(POOL, corp)):
                if self.percent_of(seller, corp) >= keep:
                    break
                self.move(c, seller)
        elif president is not None and now is not None and now != president:
            self.hand_over(corp, now, president)

    def hand_over(self, corp: str, new: str, to: str) -> None:
        """``new`` becomes president: he gives ``to`` (the former president, or the
        market) his first ordinary certificates worth the president's certificate and
        takes it."""
        pc = self.president[corp]
        need = self.percent[pc]
        for c in list(self.ordinary(new, corp)):
            if need <= 0:
                break
            self.move(c, to)
            need -= self.percent[c]
        self.move(pc, new)

    # -- agreeing with the game -------------------------------------------------------

    def sync(self, certs: Mapping[str, str]) -> list[tuple[str, str, str]]:
        """Make the view hold what the game's certificates ``certs`` hold (by holder,
        corporation and percent), moving the first certificates of each holder with too
        many to the holders with too few, along the game's own moves first.  The moves
        made, (certificate, from, to)."""
        seen = self.seen
        if certs == seen:
            return []
        moved = [(c, seen[c], o) for c, o in certs.items() if seen[c] != o]
        self.seen = dict(certs)
        before = dict(self.owner)
        for corp in sorted({self.corp_of[c] for c, _, _ in moved}):
            self._sync_corp(corp, certs, [m for m in moved if self.corp_of[m[0]] == corp])
        return [(c, before[c], o) for c, o in self.owner.items() if before[c] != o]

    def _sync_corp(
        self, corp: str, certs: Mapping[str, str], moved: list[tuple[str, str, str]]
    ) -> None:
        pc = self.president[corp]
        if self.owner[pc] != certs[pc]:
            self.move(pc, certs[pc])
        want: dict[tuple[str, int], int] = {}
        have: dict[tuple[str, int], int] = {}
        for c in self.percent:
            if self.corp_of[c] != corp or c == pc:
                continue
            key = (certs[c], self.percent[c])
            want[key] = want.get(key, 0) + 1
            key = (self.owner[c], self.percent[c])
            have[key] = have.get(key, 0) + 1
        if want == have:
            return
        ours = [(src, dst, self.percent[c]) for c, src, dst in moved if c != pc]
        self._apply_pairs(corp, ours, want, have)
        # (what the game's own moves left: those counted again once they are made)
        self._apply_pairs(corp, self._pairs(want, have), want, have)

    def _apply_pairs(
        self,
        corp: str,
        pairs: list[tuple[str, str, int]],
        want: dict[tuple[str, int], int],
        have: dict[tuple[str, int], int],
    ) -> None:
        """Move a certificate along each (from, to, percent) of ``pairs`` that still
        takes one from a holder with too many to one with too few."""
        for src, dst, pct in pairs:
            if have.get((src, pct), 0) > want.get((src, pct), 0) and have.get(
                (dst, pct), 0
            ) < want.get((dst, pct), 0):
                for c in self.first(src, corp, pct, 1):
                    self.move(c, dst)
                    have[(src, pct)] -= 1
                    have[(dst, pct)] = have.get((dst, pct), 0) + 1

    @staticmethod
    def _pairs(
        want: dict[tuple[str, int], int], have: dict[tuple[str, int], int]
    ) -> list[tuple[str, str, int]]:
        """Every (holder with too many, holder with too few, percent), once per
        certificate too many."""
        extra = [k for k in sorted(have) for _ in range(have[k] - want.get(k, 0))]
        short = [k for k in sorted(want) for _ in range(want[k] - have.get(k, 0))]
        out = []
        for src, pct in extra:
            for i, (dst, p) in enumerate(short):
                if p == pct:
                    out.append((src, dst, pct))
                    del short[i]
                    break
        return out
