"""The lab's routes, one :class:`fastapi.APIRouter` per area: the pages, the lobby's tables,
the admin's calls, a study's participant calls and the tables' WebSocket."""
