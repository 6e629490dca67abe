"""Game-end votes under each of the five texts (issue 37): one test per rule, citing it."""

from __future__ import annotations

import pytest

from dipclock.events import BUILTIN, EventProfile, parse_event_toml
from dipclock.eventscoring import score_result, unagreed_end
from dipclock.scoring.result import GameResult
from dipclock.votes.ballot import (
    cast,
    count,
    forms_of,
    outcome,
    propose,
    running_order,
    veto,
)
from dipclock.votes.proposal import Board, Moment, PastVote, Proposal, VoteRefused, parse_form

# A board after Fall 1905: Germany is out; everyone else holds centres.
CHART = {"A": 5, "E": 6, "F": 5, "G": 0, "I": 6, "R": 6, "T": 6}
SURVIVORS = ("A", "E", "F", "I", "R", "T")
AFTER_FALL_1905 = Moment(1905, "fall")
AFTER_SPRING_1906 = Moment(1906, "spring")


def everyone(choice: str = "yes", **others: str) -> dict[str, str]:
    return {p: others.get(p, choice) for p in SURVIVORS}


def vote(event: str, form: str = "dias", moment: Moment = AFTER_FALL_1905,
         chart: dict[str, int] | None = None, proposer: str | None = None,
         history: tuple[PastVote, ...] = (), absent: frozenset[str] = frozenset(),
         previous: dict[str, int] | None = None, **votes: str):
    board = Board(chart or CHART, absent, previous)
    return count(BUILTIN[event], parse_form(form, proposer), moment, board,
                 votes or everyone(), history)


def refused(event: str, **kwargs: object) -> str:
    with pytest.raises(VoteRefused) as caught:
        vote(event, **kwargs)  # type: ignore[arg-type]
    line = str(caught.value)
    assert "\n" not in line
    return line


# --- the moment, the chart, the form -----------------------------------------------------


def test_the_chart_that_counts_is_the_last_adjustments_one():
    """wdc2006 rule 16: "The final s.c. count will be that of the Adjustments season just
    played, or the s.c. count of the previous Adjustments season if The Draw is agreed after
    a Spring season"; wdc2019 II.4g1: "The position considered will be that of the end of
    the previous year"."""
    assert vote("wdc2006", moment=AFTER_FALL_1905).chart_year == 1905
    assert vote("wdc2006", moment=AFTER_SPRING_1906).chart_year == 1905
    assert vote("wdc2019", moment=Moment(1904, "spring"), proposer="A",
                **{p: "yes" for p in "EFIRT"}).chart_year == 1903
    assert AFTER_FALL_1905.period_words == "Spring 1906"
    assert AFTER_SPRING_1906.period_words == "Fall 1906"
    assert Moment.in_period(1906, "fall") == AFTER_SPRING_1906
    with pytest.raises(VoteRefused, match="no vote before the first orders are played"):
        Moment.in_period(1901, "spring")


def test_what_each_event_lets_a_table_propose():
    """wdc2006 rule 16: "only ... a DIAS"; graduated20 rule 16: "a concession to a named
    Great Power, or The Draw"; wdc2003: a concession, or a two-way draw of two leaders."""
    assert forms_of(BUILTIN["wdc2006"]) == ("dias",)
    assert forms_of(BUILTIN["graduated20"]) == ("dias", "concede")
    assert forms_of(BUILTIN["wdc2003"]) == ("dias", "draw", "concede")


def test_wdc2006_no_proposal_before_the_1905_chart():
    """rule 16: "any time after the 1905 centre chart has been entered"."""
    line = refused("wdc2006", moment=Moment(1905, "spring"))
    assert line == "wdc2006 (rule 16): no proposal before the 1905 centre chart (from Spring 1906)"
    assert vote("wdc2006", moment=AFTER_FALL_1905).passes


def test_graduated20_no_proposal_before_the_1905_chart():
    """graduated20 rule 16: "any time after the 1905 centre chart has been entered"."""
    assert "before the 1905 centre chart" in refused("graduated20", moment=Moment(1904, "fall"))
    assert vote("graduated20").passes


def test_wdc2019_votes_from_the_spring_of_1904():
    """II.4g1: "From the spring of 1904, a player may request an end-of-game vote"."""
    votes = everyone("yes", A=None)
    del votes["A"]
    assert "(from Spring 1904)" in refused("wdc2019", moment=Moment(1903, "spring"),
                                           proposer="A", **votes)
    assert vote("wdc2019", moment=Moment(1903, "fall"), proposer="A", **votes).passes


def test_wdc2018_votes_from_1904():
    """Votes: "Starting in 1904, players may propose to end the game"."""
    assert "(from Spring 1904)" in refused("wdc2018", moment=Moment(1903, "spring"))
    assert vote("wdc2018", moment=Moment(1903, "fall")).passes


def test_a_vote_is_held_in_a_negotiation_phase():
    """wdc2019 II.4g1: a vote "can only be done during a negotiation phase (spring or
    fall)": the moment is a Spring or Fall movement just adjudicated, nothing else."""
    with pytest.raises(VoteRefused, match="spring or fall"):
        Moment(1905, "winter")  # type: ignore[arg-type]


def test_no_vote_once_the_game_has_reached_its_last_year():
    """wdc2006 rule 17: "All games will run to Winter 1909 ... end as an automatic Draw at
    the end of that year": after the Fall 1909 adjudication there is no game to vote on."""
    assert vote("wdc2006", moment=Moment(1909, "spring")).chart_year == 1908
    line = refused("wdc2006", moment=Moment(1909, "fall"))
    assert line == "wdc2006's games end with Fall 1909: no vote after it"


def test_wdc2006_proposals_are_only_a_dias():
    """rule 16: "Game-end proposals can only take the form of a DIAS (draw including all
    survivors), as currently specified by the supply centre chart"."""
    assert "a draw includes all survivors" in refused("wdc2006", form="draw:E,I")
    assert "no concessions" in refused("wdc2006", form="concede:E")
    named_all = vote("wdc2006", form="draw:A,E,F,I,R,T")  # every survivor named: a DIAS
    assert named_all.passes and named_all.proposal.key == "dias"


def test_wdc2018_has_no_concessions():
    """Ending the Game: "Solos may not be conceded"."""
    assert "no concessions" in refused("wdc2018", form="concede:E")


def test_a_draw_names_only_powers_in_the_game():
    """wdc2006 rule 16, "Draws may not be proposed which do not reflect the current centre
    count on the supply centre chart": Germany, with no centre, is in no draw."""
    assert refused("wdc2003", form="draw:E,G") == \
        "Germany holds no centre: it cannot be in a draw"


# --- vetoes ------------------------------------------------------------------------------


def test_wdc2006_any_player_may_veto_publicly():
    """rule 16: "Any player may publicly veto the proposal"."""
    result = vote("wdc2006", **everyone("yes", R="veto"))
    assert not result.passes and result.vetoed_by == "R" and result.voters == ()
    assert result.why == "vetoed by Russia (wdc2006 (rule 16)): the game goes on"
    assert result.headline == "Draw vetoed by Russia: the game goes on"


def test_wdc2006_revealing_a_vote_is_a_veto_even_once_voting_began():
    """rule 16: "Any player revealing their vote will be considered to have vetoed the
    draw"."""
    ballot = propose(BUILTIN["wdc2006"], Proposal("dias"), AFTER_FALL_1905, Board(CHART))
    ballot = cast(ballot, "A", "yes")
    assert outcome(veto(ballot, "E")).vetoed_by == "E"  # type: ignore[union-attr]


def test_wdc2018_a_veto_comes_before_the_vote_and_from_a_player_with_centres():
    """Votes: "Prior to the TD's or his designee's arrival to conduct a vote ... any player
    who has supply centers may announce that he vetoes ... Once the TD or his designee
    arrives, the vote must be conducted"."""
    ballot = propose(BUILTIN["wdc2018"], Proposal("dias"), AFTER_FALL_1905, Board(CHART))
    with pytest.raises(VoteRefused, match="only a player with centres may veto: Germany"):
        veto(ballot, "G")
    with pytest.raises(VoteRefused, match="the vote has begun: a veto comes before it"):
        veto(cast(ballot, "A", "yes"), "E")
    assert outcome(veto(ballot, "E")).vetoed_by == "E"  # type: ignore[union-attr]


def test_wdc2019_any_player_may_veto():
    """II.4g2: "A player may choose to veto the end of game vote. In this case, the vote is
    not carried out and the game continues normally"."""
    result = vote("wdc2019", proposer="A", E="yes", F="veto", I="yes", R="yes", T="yes")
    assert not result.passes and result.vetoed_by == "F"


def test_wdc2003_has_no_veto_only_a_unanimous_secret_vote():
    """Tournament System: a game ends if all survivors "vote unanimously", "conducted in
    secret"; no veto is named."""
    assert refused("wdc2003", **everyone("yes", E="veto")) == \
        "wdc2003 (Tournament System): there is no veto: vote no in the secret vote"


# --- who votes, how the votes count ------------------------------------------------------


def test_wdc2006_one_no_fails_it_and_abstentions_count_as_yes():
    """rule 16: "If there is at least one "NO" vote for a proposal, the proposal fails ...
    Abstentions count as "YES"."""
    assert vote("wdc2006", **everyone("abstain")).passes
    assert not vote("wdc2006", **everyone("yes", T="no")).passes


def test_figures_are_never_told():
    """wdc2006 rule 16: "Voting figures will not be revealed"; wdc2019 II.4g4: "The vote
    will be secret"."""
    failed = vote("wdc2006", **everyone("yes", T="no"))
    assert failed.why == ("fails (wdc2006 (rule 16)): not unanimous; the figures are not "
                          "told; abstentions count as yes; the game goes on")
    assert "Turkey" not in failed.why and "1" not in failed.why.replace("16", "")
    assert failed.headline == "Draw not agreed: the game goes on"


def test_an_event_may_tell_the_figures():
    profile = _custom("[votes]\nfigures_shown = true\n")
    result = count(profile, Proposal("dias"), AFTER_FALL_1905, Board(CHART),
                   everyone("yes", T="no", R="no"))
    assert "4 for, 2 against" in result.why


def test_wdc2019_the_proposer_does_not_vote_and_counts_in_favour():
    """II.4g3: "The player who has proposed the end of the game does not vote, because he
    is considered to be favorable for this end of the game"."""
    result = vote("wdc2019", proposer="A", E="yes", F="yes", I="yes", R="yes", T="yes")
    assert result.passes and result.voters == ("E", "F", "I", "R", "T")
    assert "Austria proposed and counts as in favour" in result.why
    assert refused("wdc2019", proposer="A", **everyone()) == (
        "wdc2019 (II.4g): Austria proposed and counts as in favour: the proposer does not "
        "vote")
    assert "name the power that proposes" in refused("wdc2019")


def test_only_players_with_a_centre_vote():
    """wdc2019 II.4g3: "only a player with at least one center may vote"; wdc2003 "all
    players who control at least one supply center"; wdc2018 "All players with at least
    one supply center must vote"."""
    for event in ("wdc2019", "wdc2003", "wdc2018"):
        votes = {**everyone(), "G": "yes"}
        proposer = "A" if event == "wdc2019" else None
        if proposer:
            del votes["A"]
        line = refused(event, proposer=proposer, **votes)
        assert line.endswith("only a player with a centre votes: Germany has none"), line


def test_the_votes_a_voter_may_cast():
    """wdc2018 Votes: "All players with at least one supply center must vote": no
    abstention to choose; elsewhere yes, no or abstain."""
    assert BUILTIN["wdc2018"].votes.choices == ("yes", "no")
    assert BUILTIN["wdc2006"].votes.choices == ("yes", "no", "abstain")
    votes = everyone()
    del votes["T"]
    assert refused("wdc2018", **votes) == (
        "no vote from Turkey: give each voter's yes or no")


def test_wdc2019_unanimity_ends_the_game():
    """II.4g4: "In case of unanimity for the end of the game, the game will stop ...
    If not, the game will continue" (an abstention is not a yes)."""
    votes = {p: "yes" for p in "EFIRT"}
    assert vote("wdc2019", proposer="A", **votes).passes
    assert not vote("wdc2019", proposer="A", **{**votes, "R": "abstain"}).passes


def test_wdc2018_every_player_with_a_centre_must_vote_and_an_abandoned_one_votes_yes():
    """Votes: "All players with at least one supply center must vote. If a player has
    abandoned the game, he is considered to vote for all proposals"."""
    assert refused("wdc2018", **everyone("yes", F="abstain")) == \
        "wdc2018 (Votes): every player with a centre must vote yes or no"
    votes = everyone()
    del votes["T"]
    result = vote("wdc2018", absent=frozenset({"T"}), **votes)
    assert result.passes and "T" in result.voters
    assert "Turkey left the game and votes by the rule" in result.why


def test_wdc2003_an_absent_player_votes_against_a_draw_and_another_s_concession():
    """Unit Control: "an absent player will vote against any draw proposal and against any
    concession to another player"."""
    votes = everyone()
    del votes["T"]
    absent = frozenset({"T"})
    assert not vote("wdc2003", absent=absent, **votes).passes
    assert not vote("wdc2003", form="concede:E", absent=absent, **votes).passes
    assert vote("wdc2003", form="concede:T", absent=absent, **votes).passes


def test_wdc2003_a_concession_is_unanimous_among_every_survivor():
    """Tournament System: "all players who control at least one supply center vote
    unanimously to concede the game to a specific single power"."""
    result = vote("wdc2003", form="concede:E")
    assert result.passes and result.voters == SURVIVORS  # England votes too
    assert result.sheet() == {"ending": "concession", "conceded_to": "E", "year": 1905}
    assert not vote("wdc2003", form="concede:E", **everyone("yes", A="abstain")).passes


def test_wdc2003_two_way_draw_only_for_two_level_leaders_two_years_running():
    """Tournament System: "A two-way draw vote can be called for if for two consecutive
    game-years, both players satisfied victory criteria 2 and 3 ... both owned more supply
    centers than all other powers. In the draw vote, the only balloted players will be the
    two players that would be involved in the draw"."""
    now = {"A": 0, "E": 16, "F": 2, "G": 0, "I": 16, "R": 0, "T": 0}
    before = {"A": 0, "E": 15, "F": 3, "G": 0, "I": 15, "R": 1, "T": 0}
    at_1907 = Moment(1907, "fall")  # 16 wins in 1907, 17 in 1906
    line = refused("wdc2003", form="draw:E,I", moment=at_1907, chart=now, E="yes", I="yes")
    assert "give 1906's centres too" in line
    line = refused("wdc2003", form="draw:E,I", moment=at_1907, chart=now, previous=before,
                   E="yes", I="yes")
    assert "in 1906 England, Italy held 15 and 15" in line and "17+" in line
    at_1909 = Moment(1909, "fall")  # 14 wins in 1909, 15 in 1908: both held it, both grew
    in_1908 = {"A": 0, "E": 15, "F": 4, "G": 0, "I": 15, "R": 0, "T": 0}
    in_1909 = {"A": 0, "E": 16, "F": 2, "G": 0, "I": 16, "R": 0, "T": 0}
    result = vote("wdc2003", form="draw:E,I", moment=at_1909, chart=in_1909,
                  previous=in_1908, E="yes", I="yes")
    assert result.passes and result.voters == ("E", "I")
    assert result.sheet() == {"ending": "draw", "year": 1909, "draw": ["E", "I"]}
    assert "only England, Italy vote" in refused(
        "wdc2003", form="draw:E,I", moment=at_1909, chart=in_1909, previous=in_1908,
        E="yes", I="yes", F="yes")
    stood = {"A": 0, "E": 15, "F": 4, "G": 0, "I": 15, "R": 0, "T": 0}
    assert "England did not grow in 1909" in refused(
        "wdc2003", form="draw:E,I", moment=at_1909, chart=stood, previous=in_1908,
        E="yes", I="yes")


# --- how often ---------------------------------------------------------------------------


def test_wdc2006_one_vote_per_proposed_result_each_season():
    """rule 16: "There may only be one Draw vote per proposed result each season --
    revotes are not allowed"."""
    held = (PastVote(AFTER_FALL_1905, "dias"),)
    assert refused("wdc2006", history=held) == (
        "wdc2006 (rule 16): a draw of all survivors was voted on in Spring 1906: revotes "
        "are not allowed")
    assert vote("wdc2006", moment=AFTER_SPRING_1906, history=held).passes  # the next season
    vetoed = (PastVote(AFTER_FALL_1905, "dias", held=False),)  # vetoed: never voted on
    assert vote("wdc2006", history=vetoed).passes


def test_graduated20_one_vote_per_result_a_concession_is_another_result():
    """graduated20 rule 16: "There may only be one vote per proposed result each season"."""
    held = (PastVote(AFTER_FALL_1905, "dias"),)
    assert vote("graduated20", form="concede:E", history=held).passes
    assert "revotes are not allowed" in refused("graduated20", history=held)


def test_wdc2019_one_request_per_player_per_year():
    """II.4g1: "The same player can only request one vote per year of play"."""
    votes = {p: "yes" for p in "EFIRT"}
    asked = (PastVote(Moment(1905, "fall"), "dias", proposer="A", held=False),)
    # Spring 1906 asked (vetoed); Fall 1906 is the same year of play
    assert refused("wdc2019", moment=AFTER_SPRING_1906, proposer="A", history=asked,
                   **votes) == ("wdc2019 (II.4g): Austria has requested a vote in 1906: one "
                                "request per player per year")
    votes_f = {p: "yes" for p in "AEIRT"}
    assert vote("wdc2019", moment=AFTER_SPRING_1906, proposer="F", history=asked,
                **votes_f).passes
    assert vote("wdc2019", moment=Moment(1906, "fall"), proposer="A", history=asked,
                **votes).passes  # 1907 is another year


def test_wdc2018_one_vote_per_spring_or_fall_phase_and_the_clock_runs():
    """Votes: "Only ONE vote may be held per spring or fall phase ... The clock DOES NOT
    STOP for draw votes"."""
    held = (PastVote(AFTER_FALL_1905, "dias"),)
    assert refused("wdc2018", history=held) == (
        "wdc2018 (Votes): one vote per Spring or Fall phase, and Spring 1906 has had its "
        "vote")
    assert vote("wdc2018", moment=AFTER_SPRING_1906, history=held).passes
    assert BUILTIN["wdc2018"].votes.clock_stops is False


def test_graduated20_concessions_are_voted_first_most_centres_first_then_the_draw():
    """graduated20 rule 16: "the concession proposals will be voted on first (starting with
    the power with the most centres if there is more than one, tie-broken by alphabetical
    order of power name), then The Draw"."""
    rules = BUILTIN["graduated20"].votes
    draw, to_f, to_e, to_t = (parse_form(f) for f in ("dias", "concede:F", "concede:E",
                                                     "concede:T"))
    order = running_order(rules, [draw, to_f, to_t, to_e], CHART)
    assert [p.key for p in order] == ["concede:E", "concede:T", "concede:F", "dias"]
    assert running_order(BUILTIN["wdc2006"].votes, [draw, to_f], CHART) == [draw, to_f]


# --- a ballot at the table ---------------------------------------------------------------


def test_a_ballot_shows_who_has_voted_never_how_and_ends_when_all_have():
    ballot = propose(BUILTIN["wdc2006"], Proposal("dias", proposer="E"), AFTER_FALL_1905,
                     Board(CHART))
    assert ballot.voters == SURVIVORS and ballot.waiting == SURVIVORS
    for power in SURVIVORS[:-1]:
        ballot = cast(ballot, power, "yes")
    assert outcome(ballot) is None and ballot.voted == SURVIVORS[:-1]
    with pytest.raises(VoteRefused, match="Austria has voted: one vote each"):
        cast(ballot, "A", "no")
    done = outcome(cast(ballot, "T", "yes"))
    assert done is not None and done.passes
    assert done.headline == "Draw agreed, Spring 1906: the 1905 centre chart counts"
    with pytest.raises(VoteRefused, match="is over"):
        cast(cast(ballot, "T", "yes"), "T", "yes")


def test_every_earliest_vote_scores_under_its_event():
    """The vote's chart year is one the event's scoring takes for a game ended by vote
    (``ScoringRules.votes_from``): a draw agreed at the first moment allowed scores."""
    for event, profile in BUILTIN.items():
        first = (profile.scoring.votes_from if profile.scoring else None) or 1901
        proposer = "A" if not profile.votes.proposer_votes else None
        votes = everyone()
        if proposer:
            del votes[proposer]
        result = count(profile, Proposal("dias", proposer=proposer), Moment(first, "fall"),
                       Board(CHART), votes)
        assert result.passes and result.chart_year == first, event
        scored = score_result(profile, GameResult(centres=CHART, year=first,
                                                  eliminated={"G": first}))
        assert sum(scored.scores.values()) > 0, event


def test_an_event_file_sets_its_vote_rules_and_a_wrong_key_is_one_line():
    profile = _custom("[votes]\nveto = \"with_centres\"\nabstention = \"refused\"\n"
                      "absent = \"yes\"\nlimit = \"phase\"\nrule = \"rule 9\"\n")
    assert profile.votes.veto == "with_centres" and profile.votes.rule == "rule 9"
    with pytest.raises(ValueError, match="votes.vetoo: unknown key"):
        _custom("[votes]\nvetoo = \"any\"\n")
    with pytest.raises(ValueError, match="absent = 'abstains' needs abstentions"):
        _custom("[votes]\nabstention = \"refused\"\n")


def _custom(extra: str) -> EventProfile:
    text = ("name = \"My Open\"\n[[phase_lengths]]\nspring = 15\nfall = 15\n"
            "[penalty]\nmodel = \"warning\"\n" + extra)
    return parse_event_toml(text, "my-open.toml")


def test_wdc2006_a_game_end_not_agreed_by_a_vote_is_told():
    """wdc2006 and graduated20 rule 16: "Game-ends which have not been agreed using the
    above procedure will be treated as abandoned games, and all the players involved will
    score zero"; elsewhere (wdc2019) nothing is said."""
    early = GameResult(centres=CHART, year=1906, eliminated={"G": 1904})
    for event in ("wdc2006", "graduated20"):
        line = unagreed_end(BUILTIN[event], early, clock_year=1909)
        assert line is not None and "(rule 16) scores a game end not agreed" in str(line)
        assert unagreed_end(BUILTIN[event], early, clock_year=1906) is None  # the clock's end
    assert unagreed_end(BUILTIN["wdc2019"], early, clock_year=1907) is None
    solo = GameResult(centres={"A": 18, "E": 2, "F": 2, "G": 0, "I": 4, "R": 4, "T": 4},
                      year=1906, solo="A", eliminated={"G": 1904})
    assert unagreed_end(BUILTIN["wdc2006"], solo, clock_year=1909) is None
