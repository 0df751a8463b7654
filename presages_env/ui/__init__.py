"""Human-facing tools: terminal play and the HTML replay viewer (``python -m presages_env``)."""
