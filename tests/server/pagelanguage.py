"""What a page in a language is checked by (issue 38): the English left in what a person
reads, and what is cut off or wider than the screen. Shared by the dashboard's, the
cards', the sheet's and the vote page's language tests.

"English" is every word of the catalogues' English strings (the pages' and the hub's) that
the language's own translations never use: "Table" is French too, "Tisch" is not English,
so a word both languages share is never counted, and no list of exceptions is kept by hand.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from scripts.catalogues import LOCALE, read

WORD = re.compile(r"[^\W\d_]{2,}", re.UNICODE)
DOMAINS = ("pages", "dipclock")


def _texts(said: Any) -> list[str]:
    if not said:
        return []
    return [str(s) for s in said] if isinstance(said, tuple | list) else [str(said)]


def _tokens(texts: list[str]) -> set[str]:
    out: set[str] = set()
    for text in texts:
        out.update(w.lower() for w in WORD.findall(re.sub(r"\{[^{}]*\}", " ", text)))
    return out


@cache
def english_words(lang: str) -> frozenset[str]:
    """The English words of every catalogue string that ``lang``'s translations never say."""
    from babel.messages.pofile import read_po

    english: list[str] = []
    for domain in DOMAINS:
        with (LOCALE / f"{domain}.pot").open("rb") as f:
            english += [t for m in read_po(f) if m.id for t in _texts(m.id)]
    own = [t for domain in DOMAINS for m in read(lang, domain) if m.id
           for t in _texts(m.string)]
    return frozenset(_tokens(english) - _tokens(own))


def english_left(text: str, lang: str, ignore: tuple[str, ...] = ()) -> list[str]:
    """The English words in ``text`` (a page's visible text) that ``lang`` does not share;
    ``ignore``: the test's own data (a player's name)."""
    data = _tokens(list(ignore))
    return sorted(_tokens([text]) & english_words(lang) - data)


#: Each element drawn wider than the room it has and not scrollable to (its text cut, or
#: cut off by an ancestor's overflow), or reaching past the screen's right edge; and the
#: page scrolling sideways.
_CUT_OFF = """() => {
  const out = [];
  const W = window.innerWidth;
  if (document.documentElement.scrollWidth > W + 1) {
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${W}`);
  }
  const scrolls = (e) => {
    for (let a = e.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if (o === "auto" || o === "scroll") return true;
    }
    return false;
  };
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}` +
    `${typeof e.className === "string" && e.className ? "." + e.className.split(" ")[0] : ""}`;
  for (const e of document.body.querySelectorAll("*")) {
    if (!e.getClientRects().length) continue;  // not shown
    if (e.closest(".sr-only")) continue;  // for screen readers: clipped to nothing on purpose
    const style = getComputedStyle(e);
    if (style.visibility === "hidden") continue;
    const text = (e.innerText || e.value || "").trim().slice(0, 40);
    const r = e.getBoundingClientRect();
    if (r.right > W + 1 && r.width > 0 && !scrolls(e)) {
      out.push(`${name(e)} ${JSON.stringify(text)} reaches ${Math.round(r.right)} > ${W}`);
      continue;
    }
    const clips = ["hidden", "clip"].includes(style.overflowX)
      || style.textOverflow === "ellipsis";
    const field = ["SELECT", "INPUT", "TEXTAREA"].includes(e.tagName);
    if (clips && !field && e.scrollWidth > e.clientWidth + 1) {
      out.push(`${name(e)} ${JSON.stringify(text)} cut: ${e.scrollWidth} > ${e.clientWidth}`);
    }
  }
  return out;
}"""


def cut_off(page: Any) -> list[str]:
    """What is cut off on ``page`` (a playwright page) as it is drawn now; [] when all fits."""
    return list(page.evaluate(_CUT_OFF))


__all__ = ["cut_off", "english_left", "english_words"]
