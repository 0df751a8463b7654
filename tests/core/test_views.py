"""Table views (core/view.py, each game's view.py): a seat's view depends only on what the seat
may see, shows its own hand and hides the others; the referee's view shows every hand;
``render(seat=k)`` draws a seat's view."""

from __future__ import annotations

import json

import numpy as np
import pytest

import presages_env
from presages_env.core.header import HDR_CURRENT, HDR_TERMINAL
from presages_env.core.results import counted
from presages_env.games import get_game

# a match of several manches: Président's seating changes after each
OPTIONS = {"president": {"num_manches": 3}}
CASES = [
    (name, players, OPTIONS.get(name, {}))
    for name in ("president", "presages", "aciliande", "res_arcana")
    for players in (get_game(name).min_players, get_game(name).max_players)
] + [("aciliande", 4, {"teams": True})]
STEPS = {"president": 300, "presages": 160, "aciliande": 120, "res_arcana": 160}


def positions(game, players: int, seed: int, steps: int, options: dict):
    """States of one random game (a new deal when one ends), every few decisions."""
    rng = np.random.default_rng(seed)
    state = game.new_state(players, seed, **options)
    mask = np.zeros(game.num_actions(players), dtype=np.int8)
    rewards = np.zeros(players, dtype=np.float32)
    for i in range(steps):
        if i % 3 == 0 or state[HDR_TERMINAL]:
            yield state.copy()
        if state[HDR_TERMINAL]:
            state = game.new_state(players, seed + 1000 + i, **options)
            continue
        game.kernel.legal_mask(state, mask)
        legal = np.flatnonzero(mask)
        game.kernel.step(state, np.int64(rng.choice(legal)), rewards)
    yield state.copy()


@pytest.mark.parametrize("name,players,options", CASES)
def test_seat_views_see_only_what_the_seat_may_see(name, players, options):
    game = get_game(name)
    for i, state in enumerate(positions(game, players, 7, STEPS[name], options)):
        referee = game.view(state)
        assert referee.seat is None
        assert "referee" in referee.text()
        over = bool(state[HDR_TERMINAL])
        current = -1 if over else int(state[HDR_CURRENT])
        assert referee.to_act == current
        assert len(referee.players) == players
        for p, player in enumerate(referee.players):
            assert player.hand is not None
            assert len(player.hand) == player.hand_size, (p, player)
        for seat in range(players):
            view = game.view(state, seat)
            assert view.seat == seat
            assert len(view.players) == players
            assert view.players[seat].hand is not None
            assert all(pl.hand is None for p, pl in enumerate(view.players) if p != seat)
            # the seat's hand and every hand size agree with the referee's view
            assert view.players[seat].hand == referee.players[seat].hand
            assert sorted(pl.hand_size for pl in view.players) == sorted(
                pl.hand_size for pl in referee.players
            )
            if name == "president":  # the observation names the player to act on its turn only
                assert (view.to_act == seat) == (current == seat)
            else:
                assert view.to_act == current
                assert [pl.hand_size for pl in view.players] == [
                    pl.hand_size for pl in referee.players
                ]
            text = view.text()
            assert f"[P{seat + 1}'s view]" in text
            expected = json.dumps(view.to_json(), sort_keys=True)
            for world_seed in (i, i + 101):
                world = game.sample_world(state, seat, world_seed)
                seen = json.dumps(game.view(world, seat).to_json(), sort_keys=True)
                assert seen == expected, (name, players, seat)


@pytest.mark.parametrize("name,players,options", CASES)
def test_render_with_a_seat_draws_that_seats_view(name, players, options):
    env = presages_env.make(name, num_players=players, render_mode="ansi", **options)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(40):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        state = env.get_state()
        for seat in range(players):
            text = env.render(seat=seat)
            view = env.game.view(state, seat)
            assert text == view.text()
            me = view.players[seat]
            line = next(x for x in text.splitlines() if x[2:].startswith(me.name + ":"))
            assert all(card in line for card in me.hand)
            others = [p for p in view.players if p is not me]
            assert all(counted(p.hand_size, "card") in text for p in others)  # "1 card"
        assert "referee" in env.render()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_render_refuses_a_seat_outside_the_game():
    env = presages_env.make("aciliande", num_players=3, render_mode="ansi")
    env.reset(seed=0)
    for seat in (-1, 3):
        with pytest.raises(ValueError, match="seat"):
            env.render(seat=seat)
    with pytest.raises(TypeError):
        env.render(seat="1")


def test_human_render_of_a_seat_prints(capsys):
    env = presages_env.make("president", num_players=3, render_mode="human")
    env.reset(seed=0)
    assert env.render(seat=1) is None
    assert "[P2's view]" in capsys.readouterr().out  # seat 1, named as every text names it
