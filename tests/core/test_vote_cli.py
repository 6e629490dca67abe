"""`dipclock vote`, as a TD types it (issue 37: the command's options and JSON are fixed)."""

import json

from dipclock.launcher.cli import main

CENTRES = "A=5,E=6,F=5,G=0,I=6,R=6,T=6"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_one_object_with_the_documented_keys(capsys):
    code, out, err = run(capsys, "vote", "wdc2019", "--form", "dias", "--year", "1904",
                         "--phase", "spring", "--centres", CENTRES, "--proposer", "A",
                         "--votes", "E=yes,F=yes,I=yes,R=yes,T=yes", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert list(data) == ["event", "form", "passes", "why", "chart_year", "voters"]
    assert data["event"] == "wdc2019" and data["form"] == "dias" and data["passes"] is True
    assert data["chart_year"] == 1903
    assert data["voters"] == ["England", "France", "Italy", "Russia", "Turkey"]
    assert "Austria proposed and counts as in favour" in data["why"]


def test_a_failed_vote_has_no_chart_and_says_why_without_figures(capsys):
    code, out, _ = run(capsys, "vote", "wdc2006", "--form", "dias", "--year", "1905",
                       "--phase", "fall", "--centres", CENTRES, "--votes",
                       "A=yes,E=no,F=abstain,I=yes,R=yes,T=yes", "--json")
    data = json.loads(out)
    assert code == 0 and data["passes"] is False and data["chart_year"] is None
    assert "not unanimous; the figures are not told" in data["why"]


def test_the_text_says_whether_it_passes_why_and_which_chart_counts(capsys):
    code, out, _ = run(capsys, "vote", "graduated20", "--form", "concede:F", "--year", "1906",
                       "--phase", "spring", "--centres", CENTRES, "--votes",
                       "A=yes,E=yes,F=yes,I=yes,R=yes,T=abstain")
    assert code == 0
    assert out.splitlines() == [
        "graduated20: a concession to France, voted in Fall 1906 (after Spring 1906)",
        "  passes: Concession to France agreed, Fall 1906: the 1905 centre chart counts",
        "  why: passes (graduated20 (rule 16)): none against among Austria, England, France, "
        "Italy, Russia, Turkey; abstentions count as yes; the 1905 centre chart counts",
    ]


def test_a_proposal_the_rules_refuse_is_exit_2_and_one_line_naming_the_rule(capsys):
    code, out, err = run(capsys, "vote", "wdc2006", "--form", "dias", "--year", "1905",
                         "--phase", "spring", "--centres", CENTRES, "--votes", "A=yes")
    assert code == 2 and out == ""
    assert err == ("dipclock: error: wdc2006 (rule 16): no proposal before the 1905 centre "
                   "chart (from Spring 1906)\n")


def test_bad_input_is_exit_2_and_one_line(capsys):
    cases = {
        ("--form", "draw"): "form 'draw': dias, draw:POWERS",
        ("--votes", "A=maybe"): "votes: 'A=maybe': say yes, no, abstain, veto or absent",
        ("--votes", "A=yes,Austria=no"): "votes: Austria is given twice",
        ("--centres", "A=5,E=6"): "every power's centres are needed",
        ("--votes", "E=yes,F=yes"): "no vote from Austria, Italy, Russia, Turkey",
    }
    for (option, value), said in cases.items():
        argv = {"--form": "dias", "--year": "1905", "--phase": "fall", "--centres": CENTRES,
                "--votes": "A=yes,E=yes,F=yes,I=yes,R=yes,T=yes"}
        argv[option] = value
        code, _, err = run(capsys, "vote", "wdc2006", *[x for kv in argv.items() for x in kv])
        assert code == 2 and said in err and err.count("\n") == 1, (option, value, err)


def test_an_absent_player_and_the_round_s_last_year(capsys):
    """graduated20's Friday games end with Fall 1909, the weekend's with 1911."""
    base = ["vote", "graduated20", "--form", "dias", "--year", "1910", "--phase", "spring",
            "--centres", CENTRES, "--votes", "A=yes,E=yes,F=yes,I=yes,R=yes,T=absent"]
    code, out, _ = run(capsys, *base, "--round", "2", "--json")
    assert code == 0 and json.loads(out)["passes"] is True
    code, _, err = run(capsys, *base, "--round", "1")
    assert code == 2 and "games end with Fall 1909" in err
