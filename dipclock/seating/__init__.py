"""Seating a round: who plays at which table with which power (issue 25).

Pure: the players, the earlier rounds and the random seed are arguments. ``past`` reads
what the earlier rounds say (who met whom, who played what, who sat out), ``sitout`` picks
the players a round has no seat for, ``search`` seats the rest, ``powers`` gives out each
table's powers, and ``quality`` counts what a seating repeats.
"""
