"""The results desk's routes: a board's sheet (its players' phones and the TD), the TD's
confirmation, the standings, and their CSV files.

A sheet's page proves it came from the table's QR code with the key in ``X-Sheet-Key``
(``server.sheets``); the TD's session (with its CSRF header for changes) opens every sheet.
Players cannot change a sheet the TD has confirmed: from then on it is the TD's.
A sheet's routes are plain ``def`` (SQLite, in a worker thread); a round's sheets, the
standings and the CSV files are the TD's heavy reads (``server.context.heavy_read``: one at
a time, encoded in the thread), so a full hall's standings never hold up a kiosk's sync.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict

from dipclock.i18n import ENGLISH, Said, Words, said
from dipclock.powers import PowerLetter
from dipclock.sentences import listed
from dipclock.sentences import power as said_power
from dipclock.sentences import powers as said_powers
from server.actions import Refused
from server.auth import (
    TD,
    Base,
    Session,
    TDWrite,
    current_session,
    require_td_csrf,
    require_td_write,
)
from server.bodies import Parsed
from server.context import Hub, HubDep, heavy_read
from server.gate import WRONG_SHEET_KEY
from server.language import PhoneWords
from server.logline import Summary
from server.responses import RoundSheets, SheetView, StandingsView, render
from server.resultsdesk import (
    Board,
    best_countries_csv,
    board_of,
    board_problem,
    game_scores,
    players_of,
    results_csv,
    round_sheets,
    sheet_key_fits,
    sheet_view,
    standings_csv,
    standings_view,
    teams_csv,
    top_board_csv,
)
from server.rounds import venue
from server.routers.pages import NO_STORE, STATIC
from server.sheets import (
    KEY_HEADER,
    Sheet,
    SheetIn,
    describe,
    missing_lines,
)
from server.snapshot import publish
from server.store import SheetChanged

router = APIRouter(tags=["results"])
RoundPath = Annotated[int, Path(ge=1, le=99)]
TablePath = Annotated[int, Path(ge=1, le=999)]
RoundQuery = Annotated[int | None, Query(ge=1, le=99)]
#: the key from the table's QR code; absent: the TD's session must answer for the request
SheetKey = Annotated[str | None, Header(alias=KEY_HEADER)]
#: the phone's own random id (its sheet page keeps it), so the log names which phone did
#: what; anything else in it is ignored, never refused
Device = Annotated[str | None, Header(alias="X-Dipclock-Device")]
DEVICE = re.compile(r"[A-Za-z0-9]{8,64}")
#: the version of the sheet a change was made against (``_seen``)
IfMatch = Annotated[str | None, Header(alias="If-Match")]


class ConfirmIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    power: PowerLetter


class FinalIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    final: bool = True
    #: confirm it though some seated players have not confirmed their lines (the TD was
    #: asked): those lines are recorded as the TD's
    incomplete: bool = False


def _by_td(request: Request, hub: Hub, key: str | None, write: bool) -> bool:
    """True for the TD, False for the table's players; else 401/403."""
    if key is not None:
        return False
    if write:
        require_td_write(hub, require_td_csrf(request, _session(request, hub)))
        return True
    _session(request, hub)
    return True


def _session(request: Request, hub: Hub) -> Session:
    session = current_session(request, hub)
    if session is None:
        raise HTTPException(401, "open this sheet from the table's QR code, or sign in as the TD")
    return session


def _check_key(hub: Hub, round_no: int, table: int, key: str | None) -> None:
    if key is not None and not sheet_key_fits(hub.store, round_no, table, key):
        raise HTTPException(403, WRONG_SHEET_KEY)


def _key_still_good(hub: Hub, round_no: int, key: str | None) -> None:
    """A table's link changes its sheet only during its round: once a later round has
    started, a photo of the QR code (or a phone left on the page) changes nothing, for good
    (``Store.sheet_links_closed``: undoing that round, or moving its start on, does not
    open the link again); the TD still can."""
    if key is None:
        return
    if round_no <= hub.store.sheet_links_closed(_now(hub)):
        raise Refused(403, said("round {number} is over: this link no longer changes its "
                                "sheet; ask the TD", number=round_no))


def _phone(request: Request, device: str | None) -> str:
    """The phone as the log names it: its own id's first characters and its address."""
    address = request.client.host if request.client else "?"
    if device is None or not DEVICE.fullmatch(device):
        return f"a phone at {address}"
    return f"phone {device[:6]} at {address}"


def _board(hub: Hub, round_no: int) -> Board:
    board = board_of(hub.store, round_no)
    if board is None:
        raise Refused(404, said("no round {number} is set up", number=round_no))
    return board


@router.get("/sheet/{round_no}/{table}", include_in_schema=False)
def sheet_page(round_no: RoundPath, table: TablePath) -> FileResponse:
    return FileResponse(STATIC / "sheet.html", headers=NO_STORE)


@router.get("/standings", include_in_schema=False)
def standings_page() -> FileResponse:
    return FileResponse(STATIC / "standings.html", headers=NO_STORE)


def _view(hub: Hub, round_no: int, table: int, words: Words = ENGLISH) -> SheetView:
    board = _board(hub, round_no)
    seated = players_of(hub.store, round_no).get(table, {})
    replaced = [r for _, r in hub.store.replacements(round_no) if r.table == table]
    voted = next((v for v in hub.store.passed_votes(round_no) if v.table == table), None)
    return sheet_view(board, table, hub.store.sheet(round_no, table), seated, replaced, voted,
                      words)


@router.get("/api/sheets/{round_no}/{table}", response_model=SheetView)
def get_sheet(round_no: RoundPath, table: TablePath, request: Request, hub: HubDep,
              words: PhoneWords, key: SheetKey = None) -> SheetView:
    """A board's sheet, its flags and scores, for its page or the TD (its words in the
    phone's language)."""
    _check_key(hub, round_no, table, key)
    _by_td(request, hub, key, write=False)
    return _view(hub, round_no, table, words)


def _seen(if_match: str | None) -> int:
    """The version of the sheet the change was made against, from ``If-Match`` (HTTP's
    own guard against lost updates: the sheet's ``version``, 0 for none yet)."""
    if if_match is None:
        raise HTTPException(428, 'send If-Match: the "version" of the sheet you saw '
                                 "(0 when there was none yet)")
    text = if_match.strip().removeprefix("W/").strip('"')
    if not text.isdigit() or len(text) > 9:
        raise HTTPException(422, "If-Match: the sheet's version, a whole number")
    return int(text)


def _changed(hub: Hub, table: int) -> None:
    """The table's clock shows its sheet: push the change to it."""
    publish(hub, {table})


@router.put("/api/sheets/{round_no}/{table}", response_model=SheetView)
def put_sheet(round_no: RoundPath, table: TablePath, body: Parsed[SheetIn], request: Request,
              hub: HubDep, base: Base, words: PhoneWords, key: SheetKey = None,
              if_match: IfMatch = None, device: Device = None) -> SheetView:
    """Enter or correct the sheet, against the version the phone saw (``If-Match``): one
    seen before any change since (another phone's, a line confirmed, the TD's final) is
    refused with what changed. A change clears every confirmation (they confirmed what it
    said before); the same sheet sent again, even from a screen a step behind (a double
    tap), changes nothing. A sheet the TD has confirmed is changed only once reopened, so
    no save undoes a final unsaid. The log names the phone that made a players' change
    (``X-Dipclock-Device``)."""
    _check_key(hub, round_no, table, key)
    _key_still_good(hub, round_no, key)
    td = _by_td(request, hub, key, write=True)
    version = _seen(if_match)
    board = _board(hub, round_no)
    now = _now(hub)

    def edit(stored: Sheet | None) -> tuple[Sheet, Summary] | None:
        if stored is not None and stored.body == body:
            return None
        if stored is not None and stored.td:
            raise Refused(409, said("the TD has confirmed this sheet: reopen it on the "
                                    "Results card first") if td else
                          said("the TD has confirmed this sheet: ask the TD to change it"))
        # the entries as the log has always listed them (power letters, centres, ending)
        where = {"round": round_no, "table": table, "sheet": describe(body)}
        line = said("round {round} table {table} sheet by the TD: {sheet}", **where) if td \
            else said("round {round} table {table} sheet by players ({phone}): {sheet}",
                      phone=_phone(request, device), **where)
        return (Sheet(round_no, table, body, {}, td=False, by_td=td, at=now.isoformat()), line)

    try:
        _edit(hub, board, table, version, edit, now, base if td else None, words)
    except SheetChanged as exc:
        if exc.sheet is None or exc.sheet.body != body:
            raise
    _changed(hub, table)
    return _view(hub, round_no, table, words)


@router.post("/api/sheets/{round_no}/{table}/confirm", response_model=SheetView)
def confirm(round_no: RoundPath, table: TablePath, body: Parsed[ConfirmIn], request: Request,
            hub: HubDep, base: Base, words: PhoneWords, key: SheetKey = None,
            if_match: IfMatch = None) -> SheetView:
    """The TD confirms one line for its player (recorded as the TD's). A player confirms
    their own line with their power's button on the table's clock, which is that power's
    alone (``server.routers.kiosk``): a phone holding the table's link is anyone's."""
    _check_key(hub, round_no, table, key)
    if key is not None:
        raise HTTPException(403, "confirm your line with your power's button on the table's "
                                 "clock: this phone could be anyone's")
    _by_td(request, hub, key, write=True)
    version = _seen(if_match)
    board = _board(hub, round_no)
    now = _now(hub)

    def edit(stored: Sheet | None) -> tuple[Sheet, Summary] | None:
        if stored is None:
            raise Refused(409, said("nothing to confirm yet: enter the centres first"))
        _scorable(board, stored, words)
        if body.power in stored.confirmations:
            return None
        lines = {**stored.confirmations, body.power: "td"}
        return (replace(stored, confirmations=lines),
                said("round {round} table {table} sheet: {power}'s line confirmed by the TD",
                     round=round_no, table=table, power=said_power(body.power)))

    _edit(hub, board, table, version, edit, now, base, words)
    _changed(hub, table)
    return _view(hub, round_no, table, words)


@router.post("/api/td/sheets/{round_no}/{table}/final", response_model=SheetView)
def set_final(round_no: RoundPath, table: TablePath, body: FinalIn, _: TDWrite,
              hub: HubDep, base: Base, words: PhoneWords,
              if_match: IfMatch = None) -> SheetView:
    """The TD confirms the sheet (its scores count from now on), or takes that back. A
    sheet some of whose players have not confirmed is confirmed only when the TD says so
    (``incomplete``), and the lines left unconfirmed are kept as the TD's."""
    version = _seen(if_match)
    board = _board(hub, round_no)
    players = players_of(hub.store, round_no).get(table, {})
    now = _now(hub)

    def edit(stored: Sheet | None) -> tuple[Sheet, Summary] | None:
        if stored is None:
            raise Refused(409, said("table {table} has no sheet yet", table=table))
        if body.final == stored.td:
            return None
        if not body.final:
            return (replace(stored, td=False, td_without=()),
                    said("round {round} table {table} sheet reopened by the TD",
                         round=round_no, table=table))
        _scorable(board, stored, words)
        missing = missing_lines(stored, list(players))
        if missing and not body.incomplete:
            raise Refused(409, said("{lines} have not confirmed their lines: confirm it "
                                    "anyway as the TD (incomplete)",
                                    lines=_names(missing, players)))
        line = said("round {round} table {table} sheet confirmed by the TD", round=round_no,
                    table=table) if not missing else \
            said("round {round} table {table} sheet confirmed by the TD without {powers}'s "
                 "confirmation", round=round_no, table=table, powers=said_powers(missing))
        return (replace(stored, td=True, td_without=tuple(missing)), line)

    _edit(hub, board, table, version, edit, now, base, words)
    _changed(hub, table)
    return _view(hub, round_no, table, words)


def _edit(hub: Hub, board: Board, table: int, version: int,
          edit: Callable[[Sheet | None], tuple[Sheet, Summary] | None], now: datetime,
          base: int | None, words: Words = ENGLISH) -> None:
    """``Store.edit_sheet`` against ``version``; a refusal for a change since then says
    what it was on the venue's clock (the round's event's zone), in ``words`` (the
    phone's). A ``SheetChanged`` still (its line in the venue's time), for ``put_sheet``'s
    double tap."""
    try:
        hub.store.edit_sheet(board.rnd.number, table, version, edit, now, base=base)
    except SheetChanged as exc:
        exc.message = exc.text(venue(board.profile), words)
        raise


def _names(missing: list[str], players: dict[str, str]) -> Said:
    """"Italy (Bob), Turkey": the lines not confirmed, with their players (the powers in
    the reader's language)."""
    return listed(*(said("{power} ({player})", power=said_power(p), player=players[p])
                    if p in players else said_power(p) for p in missing))


def _scorable(board: Board, sheet: Sheet, words: Words = ENGLISH) -> None:
    """A sheet the core cannot score cannot be confirmed: why is the answer (in ``words``,
    the phone's language)."""
    refused = board_problem(board, sheet.table, sheet.body, words)
    if refused is not None:
        raise Refused(409, refused)


@router.get("/api/td/results", response_model=RoundSheets)
async def round_results(_: TD, hub: HubDep, words: PhoneWords,
                        round: RoundQuery = None) -> Response:
    """Every board's sheet of a round (the current one by default), for the Results card
    (its words in the TD's phone's language)."""
    def work() -> Response:
        base = hub.store.audit_head()  # before the sheets: what the card's actions saw
        number = round or _current_number(hub)
        return render(RoundSheets, RoundSheets(
            round=number, base=base,
            sheets=round_sheets(hub.store, _board(hub, number), words)))
    return await heavy_read(hub, work)


@router.get("/api/td/standings", response_model=StandingsView)
async def get_standings(_: TD, hub: HubDep, words: PhoneWords,
                        round: RoundQuery = None) -> Response:
    """The standings after a round (the current one by default), from confirmed sheets,
    the powers named in the page's language."""
    return await heavy_read(hub, lambda: render(
        StandingsView, standings_view(hub.store, round or _current_number(hub), words)))


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/results.csv", response_class=Response)
async def get_results_csv(_: TD, hub: HubDep) -> Response:
    """Every confirmed game's scores, every round."""
    return await heavy_read(hub, lambda: _csv(results_csv(game_scores(hub.store)),
                                              "results.csv"))


#: ``?mixed=1``: the TD takes a file of standings whose totals mix scoring systems
MixedQuery = Annotated[bool, Query()]


async def _view_csv(hub: Hub, round: int | None, table: Callable[[StandingsView], str],
                    name: str, mixed: bool = False, words: Words = ENGLISH,
                    mixed_of: Callable[[StandingsView], str] = lambda v: v.mixed,
                    empty_because: Callable[[StandingsView], str] = lambda v: "",
                    ) -> Response:
    """One of the standings' tables as a CSV file, made as a heavy read. A table whose
    totals add rounds scored under different systems (``mixed_of``) is refused (409, one
    line saying so) unless the TD asks for it anyway (``mixed``); then every row says so
    in a last ``note`` column (``resultsdesk.table_text``). A table that is empty for a
    reason (``empty_because``) is refused with it, never sent as a bare header: in
    ``words``' language (the file itself stays English)."""
    def work() -> Response:
        number = round or _current_number(hub)
        view = standings_view(hub.store, number)
        if (mixed_of(view) and not mixed) or empty_because(view):
            said_view = standings_view(hub.store, number, words)  # only to say the refusal
            why = mixed_of(said_view)
            if why and not mixed:
                raise Refused(409, words("{file}: {reason}; ask for it anyway with ?mixed=1",
                                         file=name, reason=why))
            raise Refused(409, words("{file}: {reason}", file=name,
                                     reason=empty_because(said_view)))
        return _csv(table(view), name)
    return await heavy_read(hub, work)


@router.get("/api/standings.csv", response_class=Response)
async def get_standings_csv(_: TD, hub: HubDep, words: PhoneWords, round: RoundQuery = None,
                            mixed: MixedQuery = False) -> Response:
    """The standings after a round (the current one by default)."""
    return await _view_csv(hub, round, standings_csv, "standings.csv", mixed, words)


@router.get("/api/best-countries.csv", response_class=Response)
async def get_best_countries_csv(_: TD, hub: HubDep, words: PhoneWords,
                                 round: RoundQuery = None, mixed: MixedQuery = False
                                 ) -> Response:
    """Each power's best result after a round (the current one by default)."""
    return await _view_csv(hub, round, best_countries_csv, "best-countries.csv", mixed,
                           words)


@router.get("/api/top-board.csv", response_class=Response)
async def get_top_board_csv(_: TD, hub: HubDep, words: PhoneWords, round: RoundQuery = None,
                            mixed: MixedQuery = False) -> Response:
    """The top board's seeding as it stands after a round (the current one by default)."""
    return await _view_csv(hub, round, top_board_csv, "top-board.csv", mixed, words)


@router.get("/api/teams.csv", response_class=Response)
async def get_teams_csv(_: TD, hub: HubDep, words: PhoneWords, round: RoundQuery = None,
                        mixed: MixedQuery = False) -> Response:
    """The team table after a round (the current one by default). Its totals add the team
    round's games alone, so standings that mix systems over the rounds do not make it
    mixed; it is judged as the others are, on the games it adds (``teams_mixed``). Teams
    set but not scored (no team prize, the team round not played) are a 409 saying why."""
    return await _view_csv(hub, round, teams_csv, "teams.csv", mixed, words,
                           mixed_of=lambda v: v.teams_mixed,
                           empty_because=lambda v: "" if v.teams else v.team_problem)


def _current_number(hub: Hub) -> int:
    rnd = hub.store.current_round()
    if rnd is None:
        raise Refused(409, said("set up the event and the round first"))
    return rnd.number


def _now(hub: Hub) -> datetime:
    return hub.clock.moment()
