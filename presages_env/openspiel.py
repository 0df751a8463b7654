"""OpenSpiel for every game: ``pip install presages_env[openspiel]``.

Importing this module registers each game with pyspiel as a Python game, so that
``pyspiel.load_game("presages_env_<game>", {"players": 4, ...options})`` loads it:
``presages_env_president``, ``presages_env_presages``, ``presages_env_aciliande`` and
``presages_env_res_arcana``. The parameters are ``players``, ``seed_bytes`` (the deal's seed
is drawn by that many chance nodes of 256 equiprobable bytes: sampled chance, see
:mod:`presages_env.integrations.openspiel_game`) and each game option by its name.

- :class:`CardGame`, :class:`CardGameState`: the pyspiel game and state.
- :func:`deserialize_game_and_state`: ``pyspiel.deserialize_game_and_state`` for our games,
  Python or compiled, checked strictly (every line as pyspiel writes it; ``ValueError``
  naming the first line that is not) and without unpickling arbitrary code. pyspiel's own
  unpickles a Python game's state and reads a compiled game's lines with ``std::stol``
  (``34abc`` is 34): use it only on strings you wrote.
- :func:`register_native`: also register the compiled games, ``presages_env_<game>_native``
  (same parameters, play and views, several times faster; built on first call, which needs a
  C++ compiler; :class:`NativeUnavailable` where it cannot be built). Their saved states are
  OpenSpiel's own format (the history), which :func:`deserialize_game_and_state` reads.

``import presages_env`` does not import pyspiel; this module does.
"""

from presages_env.integrations.openspiel_game import (
    DEFAULT_SEED_BYTES,
    MAX_SEED_BYTES,
    PREFIX,
    CardGame,
    CardGameState,
    deserialize_game_and_state,
    register,
)
from presages_env.integrations.openspiel_native import SUFFIX as NATIVE_SUFFIX
from presages_env.integrations.openspiel_native import NativeUnavailable
from presages_env.integrations.openspiel_native import register as register_native

__all__ = [
    "DEFAULT_SEED_BYTES",
    "MAX_SEED_BYTES",
    "NATIVE_SUFFIX",
    "PREFIX",
    "CardGame",
    "CardGameState",
    "NativeUnavailable",
    "deserialize_game_and_state",
    "register",
    "register_native",
]
