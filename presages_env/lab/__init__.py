"""The human–AI table (``python -m presages_env serve``, extra ``lab``): people in browsers
and agents at one table, every accepted move stored in a database before it is
acknowledged (docs/lab.md). Nothing here is imported by the core: only the ``serve`` path
loads it, so the library works without FastAPI, SQLAlchemy or uvicorn."""
