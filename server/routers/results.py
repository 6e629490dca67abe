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

from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Header, HTTPException, Path, Query, Request, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict

from dipclock.powers import POWERS, PowerLetter
from server.actions import Refused
from server.auth import (
    TD,
    Session,
    TDWrite,
    current_session,
    require_td_csrf,
    require_td_write,
    same_secret,
)
from server.context import Hub, HubDep, heavy_read
from server.responses import render
from server.resultsdesk import (
    Board,
    RoundSheets,
    SheetView,
    StandingsView,
    best_countries_csv,
    board_of,
    game_scores,
    players_of,
    results_csv,
    round_sheets,
    sheet_secret,
    sheet_view,
    standings_csv,
    standings_view,
    teams_csv,
    top_board_csv,
)
from server.routers.pages import STATIC
from server.sheets import KEY_HEADER, Sheet, SheetIn, describe, problem, sheet_key

router = APIRouter(tags=["results"])
RoundPath = Annotated[int, Path(ge=1, le=99)]
TablePath = Annotated[int, Path(ge=1, le=999)]
RoundQuery = Annotated[int | None, Query(ge=1, le=99)]
_NO_STORE = {"Cache-Control": "no-store"}
#: the key from the table's QR code; absent: the TD's session must answer for the request
SheetKey = Annotated[str | None, Header(alias=KEY_HEADER)]


class ConfirmIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    power: PowerLetter


class FinalIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    final: bool = True


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
    if key is not None and not same_secret(key, sheet_key(sheet_secret(hub.store), round_no,
                                                          table)):
        raise HTTPException(403, "this link is not this table's sheet: scan the table's QR code")


def _board(hub: Hub, round_no: int) -> Board:
    board = board_of(hub.store, round_no)
    if board is None:
        raise Refused(404, f"no round {round_no} is set up")
    return board


@router.get("/sheet/{round_no}/{table}", include_in_schema=False)
def sheet_page(round_no: RoundPath, table: TablePath) -> FileResponse:
    return FileResponse(STATIC / "sheet.html", headers=_NO_STORE)


@router.get("/standings", include_in_schema=False)
def standings_page() -> FileResponse:
    return FileResponse(STATIC / "standings.html", headers=_NO_STORE)


def _view(hub: Hub, round_no: int, table: int) -> SheetView:
    board = _board(hub, round_no)
    seated = players_of(hub.store, round_no).get(table, {})
    return sheet_view(board, table, hub.store.sheet(round_no, table), seated)


@router.get("/api/sheets/{round_no}/{table}", response_model=SheetView)
def get_sheet(round_no: RoundPath, table: TablePath, request: Request, hub: HubDep,
              key: SheetKey = None) -> SheetView:
    """A board's sheet, its flags and scores, for its page or the TD."""
    _check_key(hub, round_no, table, key)
    _by_td(request, hub, key, write=False)
    return _view(hub, round_no, table)


@router.put("/api/sheets/{round_no}/{table}", response_model=SheetView)
def put_sheet(round_no: RoundPath, table: TablePath, body: SheetIn, request: Request,
              hub: HubDep, key: SheetKey = None) -> SheetView:
    """Enter or correct the sheet. A change clears the players' confirmations (they
    confirmed what it said before); the same sheet sent again keeps them."""
    _check_key(hub, round_no, table, key)
    td = _by_td(request, hub, key, write=True)
    _board(hub, round_no)
    before = hub.store.sheet(round_no, table)
    if before is not None and before.td and not td:
        raise Refused(409, "the TD has confirmed this sheet: ask the TD to change it")
    if before is not None and before.body == body:
        return _view(hub, round_no, table)  # sent again: nothing changes, nothing is cleared
    # a change: the players confirmed what it said before, and the TD confirms it anew
    sheet = Sheet(round_no, table, body, frozenset(), td=False, by_td=td,
                  at=_now(hub).isoformat())
    who = "the TD" if td else "players"
    hub.store.keep_sheet(sheet, _now(hub), f"round {round_no} table {table} sheet by {who}: "
                         f"{describe(body)}")
    return _view(hub, round_no, table)


@router.post("/api/sheets/{round_no}/{table}/confirm", response_model=SheetView)
def confirm(round_no: RoundPath, table: TablePath, body: ConfirmIn, request: Request,
            hub: HubDep, key: SheetKey = None) -> SheetView:
    """A player confirms the sheet for their power, as they would sign it."""
    _check_key(hub, round_no, table, key)
    _by_td(request, hub, key, write=True)
    board = _board(hub, round_no)
    sheet = hub.store.sheet(round_no, table)
    if sheet is None:
        raise Refused(409, "nothing to confirm yet: enter the centres first")
    _scorable(board, sheet)
    if body.power in sheet.confirmed:
        return _view(hub, round_no, table)
    kept = Sheet(sheet.round, sheet.table, sheet.body, sheet.confirmed | {body.power},
                 sheet.td, sheet.by_td, sheet.at)
    hub.store.keep_sheet(kept, _now(hub), f"round {round_no} table {table} sheet confirmed "
                         f"for {POWERS[body.power]}")
    return _view(hub, round_no, table)


@router.post("/api/td/sheets/{round_no}/{table}/final", response_model=SheetView)
def set_final(round_no: RoundPath, table: TablePath, body: FinalIn, _: TDWrite,
              hub: HubDep) -> SheetView:
    """The TD confirms the sheet (its scores count from now on), or takes that back."""
    board = _board(hub, round_no)
    sheet = hub.store.sheet(round_no, table)
    if sheet is None:
        raise Refused(409, f"table {table} has no sheet yet")
    if body.final:
        _scorable(board, sheet)
    kept = Sheet(sheet.round, sheet.table, sheet.body, sheet.confirmed, body.final,
                 sheet.by_td, sheet.at)
    what = "confirmed by the TD" if body.final else "reopened by the TD"
    hub.store.keep_sheet(kept, _now(hub), f"round {round_no} table {table} sheet {what}")
    return _view(hub, round_no, table)

def _scorable(board: Board, sheet: Sheet) -> None:
    """A sheet the core cannot score cannot be confirmed: why is the answer."""
    refused = problem(board.profile, sheet.body)
    if refused is not None:
        raise Refused(409, refused)


@router.get("/api/td/results", response_model=RoundSheets)
async def round_results(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """Every board's sheet of a round (the current one by default), for the Results card."""
    def work() -> Response:
        number = round or _current_number(hub)
        return render(RoundSheets, RoundSheets(round=number,
                                               sheets=round_sheets(hub.store, _board(hub, number))))
    return await heavy_read(hub, work)


@router.get("/api/td/standings", response_model=StandingsView)
async def get_standings(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """The standings after a round (the current one by default), from confirmed sheets."""
    return await heavy_read(hub, lambda: render(
        StandingsView, standings_view(hub.store, round or _current_number(hub))))


def _csv(text: str, name: str) -> Response:
    return Response(text, media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/results.csv", response_class=Response)
async def get_results_csv(_: TD, hub: HubDep) -> Response:
    """Every confirmed game's scores, every round."""
    return await heavy_read(hub, lambda: _csv(results_csv(game_scores(hub.store)),
                                              "results.csv"))


async def _view_csv(hub: Hub, round: int | None, table: Callable[[StandingsView], str],
                    name: str) -> Response:
    """One of the standings' tables as a CSV file, made as a heavy read."""
    return await heavy_read(hub, lambda: _csv(
        table(standings_view(hub.store, round or _current_number(hub))), name))


@router.get("/api/standings.csv", response_class=Response)
async def get_standings_csv(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """The standings after a round (the current one by default)."""
    return await _view_csv(hub, round, standings_csv, "standings.csv")


@router.get("/api/best-countries.csv", response_class=Response)
async def get_best_countries_csv(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """Each power's best result after a round (the current one by default)."""
    return await _view_csv(hub, round, best_countries_csv, "best-countries.csv")


@router.get("/api/top-board.csv", response_class=Response)
async def get_top_board_csv(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """The top board's seeding as it stands after a round (the current one by default)."""
    return await _view_csv(hub, round, top_board_csv, "top-board.csv")


@router.get("/api/teams.csv", response_class=Response)
async def get_teams_csv(_: TD, hub: HubDep, round: RoundQuery = None) -> Response:
    """The team table after a round (the current one by default)."""
    return await _view_csv(hub, round, teams_csv, "teams.csv")


def _current_number(hub: Hub) -> int:
    rnd = hub.store.current_round()
    if rnd is None:
        raise Refused(409, "set up the event and the round first")
    return rnd.number


def _now(hub: Hub) -> datetime:
    return hub.clock.moment()
