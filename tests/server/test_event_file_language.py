"""An event file's problem on the TD's phone in its language (issue 38): the TD sends a
new event from the dashboard; the hub refuses a bad one with its problem said in the
request's ``Accept-Language``, English without one. Passes after the lead merges the
catalogue (HD's table)."""

from __future__ import annotations

#: phase lengths that leave no time but the writing minutes (the event's own rule)
NO_TIME = """name = "Open"
writing_minutes = 5
[[phase_lengths]]
spring = 5
fall = 15
[penalty]
model = "nmr"
"""


def test_a_bad_event_file_is_refused_in_the_td_s_language(hub):
    td = hub.sign_in()
    body = {"toml": NO_TIME, "filename": "open.toml"}
    english = hub.client.put("/api/td/event", json=body, headers=td)
    assert english.status_code == 422
    assert english.json()["detail"] == (
        "open.toml: (top level): writing_minutes must be shorter than every phase (5 min; "
        "from 1901: Spring 5, Fall 15)")
    german = hub.client.put("/api/td/event", json=body,
                            headers={**td, "Accept-Language": "de-DE,de;q=0.9"})
    assert german.status_code == 422
    # "(top level)" in German is helper HE's (``dipclock.errors.describe``)
    assert german.json()["detail"].startswith("open.toml: ")
    assert german.json()["detail"].endswith(
        ": writing_minutes muss kürzer als jede Phase sein (5 Min.; ab 1901: Frühjahr 5, "
        "Herbst 15)")
    french = hub.client.put("/api/td/event", json={"toml": "name = = 1", "filename": "x.toml"},
                            headers={**td, "Accept-Language": "fr"})
    assert french.json()["detail"].startswith("x.toml : TOML non valide : ")
