"""A toy game added to the app the way any game is: one package and one registry entry
(tests/screens/test_toy_game.py). Coin toss: toss a coin three times; heads win."""
