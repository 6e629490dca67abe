"""Game-end votes on a real hub (issue 37): a phone proposes and votes for a power, each word
proved by that power's button on the table's clock; the table's snapshot, its sheet and the
round's record follow the result; the TD proposes, counts by hand, records a veto, cancels
and undoes. Real SQLite on disk (the ``hub`` fixture), the hub's clock jumped, no sleeps."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import count

from dipclock.events import EventProfile
from dipclock.phaseview import view
from dipclock.schedule import PhaseRef, Schedule
from dipclock.timeline import timetable
from tests.server.test_results_desk import key_of, phone, seated
from tests.server.test_state import snap

CHART = dict(A=5, E=4, F=6, G=3, I=6, R=5, T=5)  # every power in, 34 centres
_ids = count(1)


def at_phase(hub, code: str, table: int = 1, into: timedelta = timedelta(minutes=1)) -> None:
    """The hub's time ``into`` the negotiation of movement phase ``code`` at ``table``."""
    got = snap(hub, table)
    profile = EventProfile.model_validate(got["event"])
    phase = timetable(profile, Schedule.model_validate(got["schedule"]), table).phase(
        PhaseRef.parse(code))
    assert phase is not None
    hub.at(phase.opens + into)


def stage(hub, table: int) -> tuple[str, str]:
    """What the table's screen shows now: its stage and a vote's headline."""
    got = snap(hub, table)
    seen = view(EventProfile.model_validate(got["event"]),
                Schedule.model_validate(got["schedule"]), hub.clock.moment(), table)
    return seen.stage, seen.voted


class Table:
    """A table's players' phones (each its own device id) and its clock."""

    def __init__(self, hub, table: int = 1) -> None:
        self.hub, self.n = hub, table
        self.key = key_of(hub, table)
        self.client = phone(hub)

    def headers(self, device: str) -> dict[str, str]:
        return {**self.key, "X-Dipclock-Device": f"phone{device}device"}

    def get(self) -> dict:
        r = self.client.get(f"/api/votes/1/{self.n}", headers=self.key)
        assert r.status_code == 200, r.text
        return r.json()

    def propose(self, form: str, proposer: str, centres: dict | None = None,
                device: str | None = None):
        return self.client.post(f"/api/votes/1/{self.n}", json={
            "form": form, "centres": centres or CHART, "proposer": proposer},
            headers=self.headers(device or proposer))

    def claim(self, vid: int, power: str, choice: str, device: str | None = None):
        return self.client.post(f"/api/votes/1/{self.n}/{vid}/claims",
                                json={"power": power, "choice": choice},
                                headers=self.headers(device or power))

    def state(self, vid: int, token: str) -> dict:
        r = self.client.get(f"/api/votes/1/{self.n}/{vid}/claims/{token}", headers=self.key)
        assert r.status_code == 200, r.text
        return r.json()

    def press(self, vid: int, *powers: str, at: datetime | None = None) -> dict:
        """The powers' buttons pressed on the table's clock, sent as its outbox sends."""
        moment = at or self.hub.clock.moment()
        r = self.hub.client.post(f"/api/tables/{self.n}/votes/presses", json={"presses": [
            {"id": f"vote-press-{next(_ids)}", "vote": vid, "power": p,
             "at": moment.isoformat()} for p in powers]},
            headers=self.hub.kiosk_headers(self.n))
        assert r.status_code == 200, r.text
        return r.json()

    def vote(self, vid: int, choices: dict[str, str]) -> None:
        """Each power's phone chooses, then its button is pressed."""
        for power, choice in choices.items():
            r = self.claim(vid, power, choice)
            assert r.status_code == 200, r.text
            assert self.press(vid, power)["refused"] == []


def opened(t: Table, form: str = "dias", proposer: str = "A") -> int:
    """A phone's proposal, opened by its proposer's button."""
    r = t.propose(form, proposer)
    assert r.status_code == 200, r.text
    vid = r.json()["vote"]["id"]
    assert t.press(vid, proposer)["taken"]
    return vid


def test_a_dias_vote_passes_and_the_clock_the_sheet_and_the_record_follow(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    before = t.get()
    assert before["can_propose"] and before["period"] == "Spring 1906"
    assert before["forms"] == ["dias"] and before["choices"] == ["yes", "no", "abstain"]
    assert before["seated"]["A"] == "A1" and before["vote"] is None
    r = t.propose("dias", "A")
    assert r.status_code == 200, r.text
    got = r.json()
    vid = got["vote"]["id"]
    assert got["press"] == "Press Austria's button on the clock to propose it"
    shown = snap(hub, 1)["vote"]
    assert (shown["state"], shown["voters"], shown["waiting_button"]) == ("open", [], ["A"])
    assert t.state(vid, got["claim"])["state"] == "waiting"
    early = t.claim(vid, "E", "yes")  # no vote before the proposer's button opens it
    assert early.status_code == 409 and early.json()["detail"] == \
        "the proposal waits for Austria's button on the clock: vote once it is open"
    assert t.press(vid, "A")["taken"]
    assert t.state(vid, got["claim"])["state"] == "cast"
    shown = snap(hub, 1)["vote"]
    assert shown["voters"] == list("AEFGIRT") and shown["waiting_button"] == []
    assert shown["words"] == "a draw of all survivors" and shown["period"] == "Spring 1906"
    t.vote(vid, {"A": "yes", "E": "yes", "F": "abstain", "G": "yes", "I": "yes", "R": "yes"})
    shown = snap(hub, 1)["vote"]
    assert shown["state"] == "open" and shown["voted"] == list("AEFGIR")
    assert stage(hub, 1) == ("negotiating", "")
    t.vote(vid, {"T": "yes"})
    got = snap(hub, 1)
    headline = "Draw agreed, Spring 1906: the 1905 centre chart counts"
    assert got["vote"]["state"] == "passed" and got["vote"]["headline"] == headline
    [end] = got["schedule"]["ends"]
    assert end["table"] == 1 and end["headline"] == headline
    assert stage(hub, 1) == ("game_over", headline)
    assert stage(hub, 2)[0] == "negotiating"  # the rest of the hall plays on
    # the sheet starts from the result, and scores it
    sheet = t.client.get("/api/sheets/1/1", headers=t.key).json()
    assert sheet["vote"] == {"headline": headline, "ending": "draw", "year": 1905,
                             "draw": list("AEFGIRT"), "conceded_to": None}
    r = t.client.put("/api/sheets/1/1", json={"centres": CHART, "year": 1906,
                                               "ending": "draw"},
                     headers={**t.key, "If-Match": "0"})
    assert r.status_code == 200, r.text
    assert "a vote ended the game on the 1905 centre chart: the sheet says 1906" in \
        r.json()["flags"]
    r = t.client.put("/api/sheets/1/1", json={"centres": CHART, "year": 1905,
                                               "ending": "draw"},
                     headers={**t.key, "If-Match": str(r.json()["version"])})
    assert r.status_code == 200, r.text
    assert not any("a vote ended" in f for f in r.json()["flags"])
    assert r.json()["blocked"] is False and r.json()["scores"], r.json()["flags"]
    assert r.json()["vote"] is None  # the sheet is entered: it is its own now
    # the record: time, table, form, proposer, outcome, why; who voted, never how
    [row] = hub.client.get("/api/td/votes/record?round=1").json()
    assert (row["table"], row["form"], row["proposer"], row["state"]) == (1, "dias",
                                                                          "Austria", "passed")
    assert "abstentions count as yes" in row["why"] and row["chart_year"] == 1905
    assert "abstain" not in str(row).replace("abstentions", "")
    # no vote after the game is over
    assert t.get()["can_propose"] is False
    assert t.propose("dias", "E").status_code == 409
    # nothing of how anyone voted is left in the store
    store = hub.client.app.state.hub.store
    assert store._all("SELECT * FROM vote_secrets") == []
    assert store._all("SELECT choice FROM vote_claims WHERE choice IS NOT NULL") == []


def test_a_veto_ends_the_vote_at_once_and_the_game_goes_on(hub, td):
    seated(hub, td)
    at_phase(hub, "F1906", table=2)
    t = Table(hub, 2)
    vid = opened(t, proposer="E")
    t.vote(vid, {"A": "yes"})
    r = t.claim(vid, "R", "veto")
    assert r.status_code == 200 and r.json()["press"] == \
        "Press Russia's button on the clock to veto it"
    assert snap(hub, 2)["vote"]["waiting_button"] == ["R"]
    assert t.press(vid, "R")["taken"]
    shown = snap(hub, 2)["vote"]
    assert shown["state"] == "vetoed"
    assert shown["headline"] == "Draw vetoed by Russia: the game goes on"
    assert snap(hub, 2)["schedule"]["ends"] == [] and stage(hub, 2)[0] == "negotiating"
    # wdc2006 rule 16: one vote per proposed result each season; a veto held no vote
    assert t.propose("dias", "F").status_code == 200


def test_wdc2019_s_proposer_does_not_vote_and_counts_as_in_favour(hub):
    td = hub.sign_in()
    hub.set_up(td, event="wdc2019")
    seated(hub, td)
    at_phase(hub, "S1905")
    t = Table(hub)
    vid = opened(t, proposer="F")
    assert snap(hub, 1)["vote"]["voters"] == list("AEGIRT")
    r = t.claim(vid, "F", "yes")
    assert r.status_code == 409
    assert r.json()["detail"] == ("wdc2019 (II.4g): France proposed and counts as in favour: "
                                  "the proposer does not vote")
    t.vote(vid, dict.fromkeys("AEGIRT", "yes"))
    [row] = hub.client.get("/api/td/votes/record").json()
    assert row["state"] == "passed" and "France proposed and counts as in favour" in row["why"]
    assert row["voted"] == ["Austria", "England", "Germany", "Italy", "Russia", "Turkey"]


def test_graduated20_votes_a_concession_before_a_draw_proposed_first(hub):
    td = hub.sign_in()
    hub.set_up(td, event="graduated20")
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    draw = opened(t, "dias", "A")
    concession = opened(t, "concede:F", "E")
    shown = snap(hub, 1)["vote"]
    assert (shown["id"], shown["form"], shown["queued"]) == (concession, "concede:F", 1)
    r = t.claim(draw, "G", "yes")
    assert r.status_code == 409 and r.json()["detail"] == \
        "graduated20 (rule 16): the vote on a concession to France comes first"
    t.vote(concession, {p: "yes" for p in "AEFGIR"})
    t.vote(concession, {"T": "no"})
    shown = snap(hub, 1)["vote"]
    assert (shown["id"], shown["state"], shown["queued"]) == (draw, "open", 0)
    history = t.get()["history"]
    assert [(v["form"], v["state"]) for v in history] == [("concede:F", "failed")]
    assert "figures are not told" in hub.client.get("/api/td/votes/record").json()[1]["why"]


def test_a_concession_passed_first_makes_the_draw_behind_it_fall(hub):
    td = hub.sign_in()
    hub.set_up(td, event="graduated20")
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    draw = opened(t, "dias", "A")
    concession = opened(t, "concede:F", "E")
    t.vote(concession, dict.fromkeys("AEFGIRT", "yes"))
    record = {v["id"]: v for v in hub.client.get("/api/td/votes/record").json()}
    assert record[concession]["state"] == "passed"
    assert record[draw]["state"] == "cancelled"
    assert record[draw]["headline"].startswith("Not voted: Concession to France agreed")
    sheet = t.client.get("/api/sheets/1/1", headers=t.key).json()["vote"]
    assert (sheet["ending"], sheet["conceded_to"], sheet["year"]) == ("concession", "F", 1905)


def test_a_phone_cannot_vote_for_a_power_twice(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    t.vote(vid, {"F": "no"})
    again = t.claim(vid, "F", "yes")
    assert again.status_code == 409 and again.json()["detail"] == \
        "France has voted: one vote each"
    # nor by its button alone: no choice waits for it
    got = t.press(vid, "F")
    assert got["taken"] == [] and got["refused"][0]["reason"] == \
        "no phone's choice waits for France's button"


def test_two_phones_choosing_for_one_power_drop_both(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    first = t.claim(vid, "F", "yes", device="one")
    assert first.status_code == 200
    second = t.claim(vid, "F", "no", device="two")
    assert second.status_code == 409 and second.json()["detail"] == \
        "two phones chose for France: choose again, on one phone"
    assert t.state(vid, first.json()["claim"]) == {
        "state": "conflict", "why": "two phones chose for France: choose again, on one phone"}
    assert snap(hub, 1)["vote"]["waiting_button"] == []
    assert t.press(vid, "F")["refused"]  # neither counts
    # one phone choosing again replaces its own choice, with no conflict
    assert t.claim(vid, "F", "yes", device="one").status_code == 200
    assert t.claim(vid, "F", "no", device="one").status_code == 200
    assert t.press(vid, "F")["taken"]
    assert snap(hub, 1)["vote"]["voted"] == ["A", "F"][1:]


def test_a_claim_lapses_after_three_minutes(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    r = t.claim(vid, "G", "yes")
    token = r.json()["claim"]
    hub.at(hub.clock.moment() + timedelta(minutes=3, seconds=1))
    assert t.state(vid, token)["state"] == "lapsed"
    assert snap(hub, 1)["vote"]["waiting_button"] == []
    got = t.press(vid, "G")
    assert got["taken"] == [] and "more than 3 minutes" in got["refused"][0]["reason"]
    assert snap(hub, 1)["vote"]["voted"] == []
    # a new choice, pressed in time, counts
    assert t.claim(vid, "G", "yes").status_code == 200
    assert t.press(vid, "G")["taken"] and snap(hub, 1)["vote"]["voted"] == ["G"]


def test_a_proposal_whose_button_never_came_lapses(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    r = t.propose("dias", "A")
    vid = r.json()["vote"]["id"]
    hub.at(hub.clock.moment() + timedelta(minutes=4))
    shown = snap(hub, 1)["vote"]
    assert shown["state"] == "cancelled" and "button was not pressed" in shown["headline"]
    assert t.press(vid, "A")["refused"]
    # not held: the same result may be proposed again this season
    assert opened(t, proposer="E") != vid


def test_a_press_with_no_choice_waiting_is_refused(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    got = t.press(1, "I")
    assert got == {"taken": [], "refused": [
        {"id": got["refused"][0]["id"], "reason": "no phone's choice waits for Italy's button"}]}


def test_a_proposal_the_rules_refuse_is_one_409_line(hub, td):
    seated(hub, td)
    at_phase(hub, "S1904")
    t = Table(hub)
    r = t.propose("dias", "A")
    assert r.status_code == 409
    assert r.json()["detail"] == ("wdc2006 (rule 16): no proposal before the 1905 centre "
                                  "chart (from Spring 1906)")
    hub.at(datetime(2024, 5, 4, 8, 0))
    assert "has not started" in t.get()["why_not"]


def td_propose(hub, td, table: int = 3, **body):
    return hub.client.post("/api/td/votes", json={"round": 1, "table": table, "form": "dias",
                                                   "centres": CHART, **body}, headers=td)


def test_the_td_runs_a_vote_by_hand(hub, td):
    at_phase(hub, "S1906", table=3)
    r = td_propose(hub, td, proposer="I")
    assert r.status_code == 200, r.text
    vote = r.json()
    assert vote["state"] == "open" and vote["waiting_button"] == []
    # every voter's word is needed: one line naming who is missing
    r = hub.client.post(f"/api/td/votes/{vote['id']}/count",
                        json={"votes": {"A": "yes"}}, headers=td)
    assert r.status_code == 409 and r.json()["detail"].startswith("no vote from England, ")
    r = hub.client.post(f"/api/td/votes/{vote['id']}/count",
                        json={"votes": dict.fromkeys("AEFGIRT", "yes") | {"T": "no"}},
                        headers=td)
    assert r.status_code == 200, r.text
    assert r.json()["state"] == "failed" and r.json()["headline"] == \
        "Draw not agreed: the game goes on"
    listed = hub.client.get("/api/td/votes?round=1").json()
    [three] = [x for x in listed if x["table"] == 3]
    assert three["vote"]["state"] == "failed" and len(three["history"]) == 1
    # the TD records a veto seen at the table
    r = td_propose(hub, td, form="draw:A,E,F,G,I,R,T")
    assert r.status_code == 409  # the same result was voted on this season
    hub.at(hub.clock.moment() + timedelta(minutes=30))  # a season on
    vid = td_propose(hub, td).json()["id"]
    r = hub.client.post(f"/api/td/votes/{vid}/veto", json={"power": "R"}, headers=td)
    assert r.status_code == 200 and r.json()["state"] == "vetoed"


def test_the_td_cancels_a_vote_under_way(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    t.vote(vid, {"E": "no"})
    store = hub.client.app.state.hub.store
    assert len(store._all("SELECT * FROM vote_secrets")) == 1
    r = hub.client.post(f"/api/td/votes/{vid}/cancel", headers=td)
    assert r.status_code == 200 and r.json()["state"] == "cancelled"
    assert store._all("SELECT * FROM vote_secrets") == []
    assert t.claim(vid, "F", "yes").status_code == 409  # over
    assert hub.client.post(f"/api/td/votes/{vid}/cancel", headers=td).status_code == 409
    assert any("the TD cancelled the vote" in a["summary"]
               for a in hub.client.get("/api/td/state").json()["audit"])


def test_the_td_undoes_a_passed_vote_and_the_game_resumes(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    t.vote(vid, dict.fromkeys("AEFGIRT", "yes"))
    assert stage(hub, 1)[0] == "game_over"
    r = hub.client.post(f"/api/td/votes/{vid}/undo", headers=td)
    assert r.status_code == 200, r.text
    assert r.json()["headline"].startswith("Undone by the TD: Draw agreed")
    assert r.json()["undone"] is True
    [listed] = hub.client.get("/api/td/votes", headers=td).json()[:1]
    assert [h["undone"] for h in listed["history"]] == [True]
    assert listed["choices"] == ["yes", "no", "abstain"]  # wdc2006: abstentions count
    got = snap(hub, 1)
    assert got["schedule"]["ends"] == [] and got["vote"] is None
    assert stage(hub, 1)[0] == "negotiating"
    assert t.client.get("/api/sheets/1/1", headers=t.key).json()["vote"] is None
    [row] = hub.client.get("/api/td/votes/record").json()
    assert row["state"] == "passed" and row["undone_by"] == "the TD"
    assert hub.client.post(f"/api/td/votes/{vid}/undo", headers=td).status_code == 409
    assert t.get()["can_propose"]


def test_a_press_sent_again_gets_the_same_answer_and_counts_once(hub, td):
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    assert t.claim(vid, "G", "yes").status_code == 200
    batch = {"presses": [{"id": "again-1", "vote": vid, "power": "G",
                          "at": hub.clock.moment().isoformat()}]}

    def send() -> dict:
        r = hub.client.post("/api/tables/1/votes/presses", json=batch,
                            headers=hub.kiosk_headers(1))
        assert r.status_code == 200, r.text
        return r.json()

    assert send() == send() == {"taken": ["again-1"], "refused": []}
    store = hub.client.app.state.hub.store
    assert len(store._all("SELECT * FROM vote_secrets")) == 1
    assert snap(hub, 1)["vote"]["voted"] == ["G"]
