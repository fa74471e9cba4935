"""A fake ``rp2`` module, so code that probes for the RP2040 imports on the unix port."""


def bootsel_button():
    return 0
