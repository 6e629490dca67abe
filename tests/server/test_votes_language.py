"""A vote's refusals in the reader's language (issue 38): a phone's choice the rules refuse
only at its power's button is kept with its sentence, so the phone that asks what became
of it reads why in its own language; the hub's own refusals of a vote are said so too."""

from __future__ import annotations

import json

from dipclock.i18n import Words, said
from dipclock.votes.proposal import VoteRefused
from server.votedesk import kept_why, why_words
from tests.server.test_results_desk import seated
from tests.server.test_state import snap
from tests.server.test_votes import Table, at_phase, opened

FR = {"Accept-Language": "fr-FR,fr;q=0.9"}
DE = {"Accept-Language": "de-DE"}


def test_a_claim_the_rules_refuse_at_the_button_is_read_in_the_phone_s_language(hub):
    td = hub.sign_in()
    hub.set_up(td, event="wdc2019")  # II.4g: a veto comes before the secret vote
    seated(hub, td)
    at_phase(hub, "S1905")
    t = Table(hub)
    vid = opened(t, proposer="F")
    veto = t.claim(vid, "E", "veto")  # nobody has voted yet: held for England's button
    assert veto.status_code == 200, veto.text
    t.vote(vid, {"A": "yes"})  # the vote has begun
    got = t.press(vid, "E")
    english = "wdc2019 (II.4g): the vote has begun: a veto comes before it"
    assert got["taken"] == [] and got["refused"][0]["reason"] == english  # the clock's log
    url = f"/api/votes/1/1/{vid}/claims/{veto.json()['claim']}"
    assert t.client.get(url, headers=t.key).json() == {"state": "refused", "why": english}
    french = t.client.get(url, headers={**t.key, **FR}).json()
    assert french == {"state": "refused",
                      "why": "wdc2019 (II.4g) : le vote a commencé : un veto se fait avant"}
    assert snap(hub, 1)["vote"]["id"] == vid  # the vote goes on


def test_a_kept_why_is_the_sentence_and_a_hub_line_stays_as_it_was():
    refusal = VoteRefused(said("{tag}: the vote has begun: a veto comes before it",
                               tag="wdc2019 (II.4g)"))
    kept = kept_why(refusal)
    assert json.loads(kept)["text"] == "{tag}: the vote has begun: a veto comes before it"
    assert why_words(kept) == str(refusal)
    assert why_words(kept, Words("de")) == \
        "wdc2019 (II.4g): die Abstimmung hat begonnen: ein Veto kommt vorher"
    assert why_words("this phone chose again") == "this phone chose again"
    assert why_words("{not json") == "{not json"  # a damaged line: as it is


def test_the_hub_s_refusals_of_a_vote_are_in_the_phone_s_language(hub, td):
    """Passes after merge (the catalogue's new strings)."""
    seated(hub, td)
    at_phase(hub, "S1906")
    t = Table(hub)
    vid = opened(t)
    r = t.client.get(f"/api/votes/1/1/{vid}/claims/nosuchclaim", headers={**t.key, **FR})
    assert r.status_code == 404
    assert r.json()["detail"] == "pas de tel choix à cette table : choisissez à nouveau"
    r = hub.client.post(f"/api/td/votes/{vid}/undo", headers={**td, **DE})
    assert r.status_code == 409
    assert r.json()["detail"] == "die Abstimmung läuft: brechen Sie sie stattdessen ab"
    r = hub.client.post("/api/td/votes/9999/cancel", headers={**td, **FR})
    assert r.json()["detail"] == "pas de vote 9999 : rechargez le tableau de bord"
