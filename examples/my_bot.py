"""A custom bot in ten lines: raise with an ace or a pair, otherwise check or call.

    python examples/my_bot.py --game kuhn HOST PORT       # against any ACPC dealer
    showdown match --config examples/my_bot_match.yaml    # in a match (the game comes from it)
"""
from showdown.agents import CALL, Agent, View, run_bot
from showdown.games.cards import rank_of


class MyBot(Agent):
    def act(self, view: View):
        ranks = [rank_of(card) for card in view.hole + view.board]
        strong = max(ranks) == 12 or len(set(ranks)) < len(ranks)  # 12 is the ace
        return view.raise_to() if strong else CALL  # raise_to(): the minimum legal raise


if __name__ == "__main__":
    raise SystemExit(run_bot(MyBot))
