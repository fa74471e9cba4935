"""Pure game logic for the games called 99: no I/O, no clocks, no threads, no third-party imports.

- :mod:`rules.board99`: the Game of 99 board game (1963 classic and 5of99 rulesets).
- :mod:`rules.parlett`: David Parlett's trick-taking Ninety-Nine (scoring and trick play).
- :mod:`rules.count99`: the adding card game Ninety Nine (Quentin C and RS Games).
"""
