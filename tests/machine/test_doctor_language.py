"""``dipclock doctor`` speaks the command line's language (issue 38): ``--lang``, else
``LANG``'s; its own lines and the sentences a probe gives (the settings' problem, the hub's
checks) are said in it, ``--json`` stays English for the dashboard."""

from __future__ import annotations

import json

from dipclock.i18n import Words
from kiosk import doctor
from machine.check import fail
from tests.machine.test_doctor import config, healthy

FR, DE = Words("fr"), Words("de")


def test_a_broken_settings_file_is_said_in_french_and_json_stays_english(
        pi, factory, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("LANGUAGE", raising=False)
    path = config(tmp_path, "table = 3\nwarning_minutes = 'soon'\n")
    assert doctor.main(["--config", path, "--lang", "fr"], healthy(pi, factory)) == 1
    out, _ = capsys.readouterr()
    said = FR("Input should be a valid number, unable to parse string as a number")
    assert said in " ".join(out.split())
    assert FR("correct the file named above, then run the doctor again").split()[0] in out
    assert "Input should be" not in out and "nothing fails" not in out  # passes after merge
    assert doctor.main(["--config", path, "--json", "--lang", "fr"],
                       healthy(pi, factory)) == 1
    checks = json.loads(capsys.readouterr().out)["checks"]
    assert checks[0]["detail"].endswith("warning_minutes: Input should be a valid number, "
                                        "unable to parse string as a number")


def test_the_environment_s_language_is_the_doctor_s(pi, factory, tmp_path, capsys,
                                                    monkeypatch):
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    path = config(tmp_path, "table = 3\n")
    doctor.main(["--config", path], healthy(pi, factory))
    out, _ = capsys.readouterr()
    assert out.splitlines()[0].startswith("dipclock doctor ")
    summary = out.splitlines()[-1]
    counts = summary.partition(": ")[0]  # "1 fail, 14 ok": the verdicts as --json has them
    assert summary in (DE("{summary}: nothing fails", summary=counts),
                       DE("{summary}: fix the failures above, then run dipclock doctor "
                          "again", summary=counts))
    assert "nothing fails" not in summary and "fix the" not in summary  # passes after merge


def test_a_check_s_sentence_is_english_in_json_and_said_in_render():
    from dipclock.i18n import said

    check = fail("hub", said("{url} answers", url="https://10.0.0.1:8000"),
                 said("check the network and run the doctor again"))
    assert check.as_json() == {"name": "hub", "verdict": "fail",
                               "detail": "https://10.0.0.1:8000 answers",
                               "fix": "check the network and run the doctor again"}
    text = doctor.render([check], 80, DE)
    assert DE("{url} answers", url="https://10.0.0.1:8000") in text
    assert DE("check the network and run the doctor again") in " ".join(text.split())
    assert "answers" not in text  # passes after merge


def test_the_machine_s_own_checks_are_said_in_the_doctor_s_language(tmp_path):
    """The display, the time, the power and the data folder's checks give sentences."""
    from machine import storage, system

    checks = [system.check_power(lambda: None),
              system.check_time_sync(None, lambda: False),
              storage.check_free(tmp_path, lambda p: 5 * storage.MB)]
    assert checks[2].detail == f"only 5 MB free in {tmp_path}: the outbox cannot store presses"
    text = " ".join(doctor.render(checks, 100, DE).split())
    for english in ("not reported by this machine (not a Raspberry Pi)",
                    "let the Pi reach a time server (NTP), fit a real-time clock, or use a hub"):
        assert DE(english) in text
    assert DE("only {mb} MB free in {where}: the outbox cannot store presses", mb="5",
              where=str(tmp_path)) in text
    assert "not reported" not in text and "MB free" not in text  # passes after merge


def test_the_network_s_check_is_said_in_the_doctor_s_language():
    from machine.network import NetworkState, check_network

    down = check_network(NetworkState("no_device", (), "table-03", None, None))
    assert down.detail == "No network: no cable, and no Wi-Fi on this Pi"  # JSON's
    text = " ".join(doctor.render([down], 100, FR).split())
    assert FR("No network: no cable, and no Wi-Fi on this Pi") in text
    assert "No network" not in text
    up = check_network(NetworkState("connected", ("10.0.0.7",), "table-03", None, "eth0"))
    assert up.detail == "10.0.0.7 on eth0; this machine is table-03 on the network"
    assert up.said(FR)[0] == FR("{addresses} on {device}; this machine is {hostname} on the "
                                "network", addresses="10.0.0.7", device="eth0",
                                hostname="table-03")
