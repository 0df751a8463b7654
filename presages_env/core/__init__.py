"""What every game shares: the protocol, the AEC adapter, the vector env, state I/O."""
