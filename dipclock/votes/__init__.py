"""Game-end votes at the table: what each event's text allows, who votes, and the result.

``rules``: an event's ``[votes]`` table; ``proposal``: the moment, the proposed result and
the board; ``ballot``: a vote from proposal to outcome. Pure: no clock, no I/O.
"""
