"""Adapters to frameworks the library does not depend on (needs their extras).

Nothing below this package imports it. :mod:`presages_env.rllib` is the public name of the
RLlib adapter (``pip install presages_env[rllib]``).
"""
