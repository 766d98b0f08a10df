"""The browser view: match and tournament pages, a hand replayer, live watching and a human seat."""
