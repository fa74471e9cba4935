"""David Parlett's Ninety-Nine as the app keeps it: the score sheet in the store."""
