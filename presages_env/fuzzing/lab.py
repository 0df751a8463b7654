"""The ``lab`` kind: hostile HTTP and WebSocket input against the lab served for real on
loopback (:mod:`.loopback`: uvicorn on 127.0.0.1, SQLite in a temporary folder), the tables
it deals being the fuzzed game's. Each case is one request or one WebSocket conversation,
drawn from a generator seeded by ``seed`` (the same inputs every run):

- ``table``: a table request for the game with one field made hostile (a wrong type, a huge
  or negative number, names with control, bidi or emoji characters, a path as an agent, an
  unknown field), or a body that is not a request (malformed, oversized, deeply nested JSON,
  invalid UTF-8, numbers JSON does not have);
- ``route``: the pages and routes with bad table ids and tokens, paths that climb out of
  the static folder (plain and percent-encoded), long paths, foreign or malformed Hosts;
- ``study``: a study's routes with bad study and participant ids and hostile answers, the
  admin routes without or with a wrong token, hostile study files with the right one;
- ``link``: WebSockets to bad links, and to real seats from a foreign origin;
- ``frames``: a real seat's WebSocket sent hostile frames: binary, oversized, malformed,
  wrong types, huge numbers, actions out of range, moves out of turn, stale and duplicated
  moves, among legal ones that play the game on.

Outcomes are ``accepted`` (2xx, a move acknowledged), ``refused`` (4xx with a reason, a
move refused with one) and ``closed`` (a WebSocket closed with a policy code); anything
else is a failure: a 5xx, a refusal without a reason, a WebSocket closed as an internal
error (1011) or without a close frame, an error the server logs, an answer that names a
server path, a page from outside the static folder, a WebSocket accepted from a foreign
origin or on a bad link, or no answer within ``ANSWER_SECONDS`` (the lobby is also asked
every ``PROBE_EVERY`` cases, so a server that stopped answering is found). The views sent
are not checked for hidden cards here: tests/lab/test_no_leak.py does that.

    python -m presages_env.fuzzing --kinds lab --games president --cases 10000
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import random
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from presages_env.fuzzing import FuzzReport
from presages_env.fuzzing.loopback import (
    ADMIN_TOKEN,
    ANSWER_SECONDS,
    Answer,
    LoopbackLab,
    server_paths,
)
from presages_env.games import get_game

PROBE_EVERY = 50
OPEN_TABLES = 3  # all-human tables whose seats the WebSocket cases play
# No bound of the server may refuse the fuzz's own traffic, or most cases would test only
# it: the fuzz's client, 127.0.0.1, is an allowed host by default, and the rates are lifted.
SETTINGS: dict[str, Any] = {
    "messages_per_second": 1e6,
    "burst": 10**6,
    "max_open_tables": 10**6,
    "tables_per_minute": 1e6,  # the fuzz is one client opening many tables
    "table_burst": 10**6,
    "max_sockets": 10**5,
    "max_sockets_per_seat": 10**4,
    "idle_seconds": 3600,  # no stand-in moves: a conversation's answers are the fuzz's own
}
POLICY_CLOSES = {1000, 1003, 1008, 1009, 1013}  # ends a server gives a socket on purpose
HOSTILE = [None, True, -1, 0, 2**63, 1e308, -1e308, "", "x" * 5000, [], {}, [None] * 500]
HOSTILE += ["🃏", "\u202e", "\x00", "../../etc/passwd", {"a": {"b": {"c": 1}}}]
NAMES = ["Zoë", "王小明", "👩🏽\u200d💻", "e\u0301mile", "", " ", "x" * 41, "a\x00b"]
NAMES += ["\u202eevil", "\x1b[2J", "a\u200bb", "a\u2066b", "\ud800", "<b>x</b>", "a\nb"]
KINDS = ["human", "human", "random", "heuristic", "ppo", "dmc", "search", "HUMAN", "", 3]
KINDS += ["ppo:/etc/passwd", "dmc:../x", "search:99999999", "random:1", None]
NUMBERS = ["1" * 400, "1e999", "-1e999", "NaN", "Infinity", "-0", "1.5", "2" * 20]


class Failure(Exception):
    """A case whose answer broke one of the lab's rules."""


@dataclasses.dataclass
class Context:
    lab: LoopbackLab
    game: str
    rng: random.Random
    paths: list[str]
    tables: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)  # id: tokens
    study: str = "none"
    turns: dict[str, str] = dataclasses.field(default_factory=dict)  # id: the seat to act
    finished: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # id, token

    def pick(self, values: list[Any]) -> Any:
        return values[self.rng.randrange(len(values))]

    def valid_request(self) -> dict[str, Any]:
        game = get_game(self.game)
        n = self.pick([game.min_players, game.default_players, game.max_players])
        return {"game": self.game, "players": n, "seats": ["human"] * n}

    def real_links(self) -> set[tuple[str, str]]:
        return {(t, token) for t, tokens in self.tables.items() for token in tokens.values()}

    def a_seat(self, to_act: bool = False) -> tuple[str, str, str]:
        """A real seat's (table id, seat, token), from an open all-human table; mostly the
        seat to act, if ``to_act`` and a view said which."""
        table_id = self.pick(sorted(self.tables))
        seat = self.pick(sorted(self.tables[table_id]))
        if to_act and table_id in self.turns and self.rng.random() < 0.7:
            seat = self.turns[table_id]
        return table_id, seat, self.tables[table_id][seat]


def judged(answer: Answer, paths: list[str], head: bool = False) -> str:
    """``accepted`` or ``refused``, or ``Failure`` for what no answer may be (an answer to
    HEAD has no body, so no reason)."""
    text = answer.body.decode("utf-8", "replace")
    where = text + "\n".join(answer.headers.values())
    leaked = [path for path in paths if path in where]
    if leaked:
        raise Failure(f"HTTP {answer.status} names the server path {leaked[0]!r}: {text[:200]}")
    if answer.status >= 500:
        raise Failure(f"HTTP {answer.status}: {text[:200]}")
    if answer.status >= 400:
        if not text.strip() and not head:
            raise Failure(f"HTTP {answer.status} without a reason")
        return "refused"
    return "accepted"


def open_table(context: Context) -> None:
    """Deal one more all-human table through the lobby, for the WebSocket cases."""
    answer = context.lab.request(
        "POST", b"/api/tables", json.dumps(context.valid_request()).encode()
    )
    if answer.status != 200:
        raise Failure(f"a valid table request was answered {answer.status}: {answer.body[:200]!r}")
    made = json.loads(answer.body)
    context.tables[made["table"]] = {
        seat: link.rsplit("/", 1)[1] for seat, link in made["links"].items()
    }


def warm_up(context: Context) -> list[str]:
    """Ask once for a seat of every allowed agent (so no case waits on the first import of
    torch); the failures among their answers."""
    from presages_env.lab.agents_pool import ALLOWED_AGENTS

    failures = []
    for kind in sorted(ALLOWED_AGENTS):
        request = context.valid_request()
        request["seats"][-1] = kind
        body = json.dumps(request).encode()
        try:
            judged(context.lab.request("POST", b"/api/tables", body, seconds=300), context.paths)
        except Failure as failure:
            failures.append(f"a {kind} seat: {failure}")
    return failures


def open_study(context: Context) -> None:
    """A study of the game, so the study cases meet a real one too."""
    game = get_game(context.game)
    n = game.default_players
    study = {
        "name": "fuzz",
        "game": context.game,
        "players": n,
        "options": {},
        "conditions": {"random": ["human"] + ["random"] * (n - 1)},
        "games_per_participant": 1,
        "consent": "fuzz",
        "questions": ["?"],
        "seed": 1,
        "idle_seconds": 3600,
    }
    headers = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    answer = context.lab.request("POST", b"/api/admin/studies", json.dumps(study).encode(), headers)
    if answer.status != 200:
        raise Failure(f"a valid study was answered {answer.status}: {answer.body[:200]!r}")
    context.study = json.loads(answer.body)["study"]


def hostile_request(context: Context) -> bytes:
    """A valid request with one field made hostile, or a body that is no request."""
    request: dict[str, Any] = context.valid_request()
    n = request["players"]
    what = context.pick(["field", "names", "seats", "agent", "agent", "option", "extra", "raw"])
    what = context.pick([what, what, what, "number"])
    if what == "agent":  # an allowed agent, which the game may ship or not
        from presages_env.lab.agents_pool import ALLOWED_AGENTS

        request["seats"][context.rng.randrange(1, n)] = context.pick(sorted(ALLOWED_AGENTS))
    elif what == "field":
        request[context.pick(["game", "players", "options", "seats", "names", "idle_seconds"])] = (
            context.pick(HOSTILE)
        )
    elif what == "names":
        request["names"] = [context.pick([*NAMES, None]) for _ in range(n)]
    elif what == "seats":
        request["seats"] = [context.pick(KINDS) for _ in range(context.pick([n, n, n - 1, n + 1]))]
    elif what == "option":
        from presages_env.lab.lobby import games_offered

        offered = next(g["options"] for g in games_offered() if g["name"] == context.game)
        if offered:
            name = context.pick(sorted(option["name"] for option in offered))
            request["options"] = {name: context.pick(HOSTILE)}
    elif what == "extra":
        request[context.pick(["code", "__proto__", "path", "\u202e"])] = context.pick(HOSTILE)
    elif what == "number":
        field = context.pick(["players", "idle_seconds"])
        text = json.dumps(request)[:-1] + f', "{field}": {context.pick(NUMBERS)}}}'
        return text.encode()
    else:
        return context.pick(RAW_BODIES)
    return json.dumps(request).encode("utf-8", "surrogatepass")


RAW_BODIES = [
    b"",
    b"{",
    b"null",
    b"[]",
    b'"text"',
    b"\xff\xfe\x00",
    b'{"game": "\xed\xa0\x80"}',
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 100 + b"1" + b"}" * 100,
    b'{"game": "' + b"x" * 5000 + b'"}',
    b'{"game": "president", "game": "presages"}',
    b"\x00" * 100,
]


def table_case(context: Context) -> str:
    headers = {}
    if context.rng.random() < 0.1:
        headers["content-type"] = context.pick(["text/plain", "application/x-www-form-urlencoded"])
    answer = context.lab.request("POST", b"/api/tables", hostile_request(context), headers)
    return judged(answer, context.paths)


CLIMBS = ["../app.py", "%2e%2e/app.py", "..%2fapp.py", "%2e%2e%2f%2e%2e%2fpyproject.toml"]
CLIMBS += ["..\\app.py", "%252e%252e/app.py", "....//app.py", "/etc/passwd", "%00", "lobby.js"]
IDS = ["", "x", "0" * 33, "..", "%2e%2e", "%E2%80%AE", "%00", "a" * 5000, "%FF", "🃏"]
SOURCE_MARKS = ("from __future__", "[project]", "root:x:0:0")  # a module, pyproject, passwd


def bad_id(context: Context, real: str) -> str:
    """``real``, one character of it changed, or an id no table has."""
    if real and context.rng.random() < 0.3:
        spot = context.rng.randrange(len(real))
        return real[:spot] + context.pick(["x", "%", "/", "."]) + real[spot + 1 :]
    return context.pick([real, *IDS])


def route_case(context: Context) -> str:
    table_id, _, token = context.a_seat()
    if context.finished and context.rng.random() < 0.3:
        table_id, token = context.pick(context.finished)
    target = context.pick(
        [
            f"/t/{bad_id(context, table_id)}/{bad_id(context, token)}",
            f"/replay/{bad_id(context, table_id)}/{bad_id(context, token)}",
            f"/static/{context.pick(CLIMBS)}",
            f"/cards.{context.pick(['css', 'js', 'py', '%2e%2e', ''])}",
            f"/{context.pick(['', 'api/games', 'api/tables', 'study/x'])}",
            "/" + "a" * context.pick([100, 5000, 70000]),
        ]
    )
    method = context.pick(["GET", "GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"])
    headers = {}
    if context.rng.random() < 0.3:
        headers["host"] = context.pick(["evil.example", "", "127.0.0.1:1@evil", "h" * 9000])
    answer = context.lab.request(method, target.encode("utf-8"), b"", headers)
    outcome = judged(answer, context.paths, head=method == "HEAD")
    body = answer.body.decode("utf-8", "replace")
    if answer.status == 200 and any(mark in body for mark in SOURCE_MARKS):
        raise Failure(f"{method} {target[:80]} answered a file from outside the static folder")
    return outcome


def study_case(context: Context) -> str:
    participant = context.pick(["p1", "p" + str(context.rng.randrange(10**6)), "../x", "é"])
    participant = context.pick([participant, "a" * 65, "%00", "%E2%80%AE", ""])
    study = bad_id(context, context.study)
    what = context.pick(["", "/play", "/consent", "/answers", "/answers", "admin", "study"])
    body, headers = b"", {}
    if what == "admin":
        target = context.pick(["/api/admin/tables", "/api/admin/studies"])
        headers["authorization"] = context.pick(["", "Bearer", "Bearer x", f"bearer {ADMIN_TOKEN}"])
        method = "GET" if target.endswith("tables") else "POST"
    elif what == "study":
        target, method = "/api/admin/studies", "POST"
        headers["authorization"] = f"Bearer {ADMIN_TOKEN}"
        body = hostile_study(context)
    else:
        target = f"/api/study/{study}/{participant}{what}"
        method = "GET" if not what else "POST"
        if what == "/answers":
            answers = context.pick([[], ["ok"], [context.pick(HOSTILE)], {"a": 1}, "x" * 5000])
            body = json.dumps(answers).encode()
    return judged(context.lab.request(method, target.encode(), body, headers), context.paths)


def hostile_study(context: Context) -> bytes:
    request = context.valid_request()
    n = request["players"]
    study: dict[str, Any] = {
        "name": context.pick(["s", *NAMES]),
        "game": context.game,
        "players": n,
        "options": {},
        "conditions": {context.pick(["c", *NAMES]): [context.pick(KINDS) for _ in range(n)]},
        "games_per_participant": 1,
        "consent": "ok",
        "questions": ["?"],
        "seed": 1,
        "idle_seconds": 60,
    }
    study[context.pick(sorted(study))] = context.pick(HOSTILE)
    return json.dumps(study).encode()


def link_case(context: Context) -> str:
    """A WebSocket to a bad link, or to a real seat from a foreign origin: refused."""
    from websockets.exceptions import InvalidStatus

    table_id, _, token = context.a_seat()
    origin = None
    if context.rng.random() < 0.5:
        origin = context.pick(["http://evil.example", "null", "http://127.0.0.1:1", "file://"])
    else:
        while (table_id, token) in context.real_links():
            table_id, token = bad_id(context, table_id), bad_id(context, token)
    path = f"/ws/{quote(table_id, safe='%')}/{quote(token, safe='%')}"
    try:
        with context.lab.websocket(path, origin):
            raise Failure(f"a WebSocket to {path[:60]} from origin {origin} was accepted")
    except InvalidStatus as refused:
        answer = Answer(refused.response.status_code, {}, refused.response.body or b"")
        if not 400 <= answer.status < 500:
            raise Failure(f"a WebSocket to {path[:60]} was refused with {answer.status}") from None
        judged(dataclasses.replace(answer, body=answer.body or b"refused"), context.paths)
    return "refused"


RAW_FRAMES = ["{", "", "null", "[]", '"\\ud800"', "\x00", "[" * 250 + "]" * 250, "🃏" * 100]
RAW_FRAMES += ['{"type": "move", "step": NaN, "action": 0, "reaction_ms": null}']
RAW_FRAMES += ['{"type": "move", "step": 0, "action": ' + "9" * 400 + ', "reaction_ms": null}']
MUST_NOT_PLAY = {"duplicate", "stale", "range", "turn"}  # a frame an ack would be a fault for


def a_move(step: Any, action: Any, reaction_ms: Any = 250) -> str:
    return json.dumps({"type": "move", "step": step, "action": action, "reaction_ms": reaction_ms})


def hostile_frame(context: Context, state: dict, last_legal: str | None) -> tuple[str, Any]:
    """A frame for a seat whose last view is ``state``: (what it is, text or bytes)."""
    step, actions = state["step"], [a["action"] for a in state["actions"]]
    what = context.pick(["legal", "legal", "duplicate", "stale", "range", "types", "raw", "big"])
    what = "turn" if what == "legal" and not actions else what
    what = "legal" if what == "duplicate" and last_legal is None else what
    if context.rng.random() < 0.05:
        return "binary", context.pick([b"\x00", b"{}", bytes(5000)])
    any_action = context.pick(actions) if actions else context.rng.randrange(50)
    if what == "legal":
        return what, a_move(step, any_action, context.pick([None, 0, 1234, 24 * 3600 * 1000]))
    if what == "duplicate":
        return what, last_legal
    if what == "turn":
        return what, a_move(step, any_action)
    if what == "stale":
        return what, a_move(context.pick([step - 1, step + 1, step + 10**6]), any_action)
    if what == "range":
        return what, a_move(step, context.pick([-1, 10**6, 2**31, 2**63, 2**64]))
    if what == "types":
        move = json.loads(a_move(step, any_action))
        move[context.pick(sorted(move) + ["extra"])] = context.pick(HOSTILE)
        return what, json.dumps(move)[:4000]
    if what == "big":
        return what, a_move(step, any_action) + " " * context.pick([600, 5000, 70000])
    return "raw", context.pick(RAW_FRAMES)


class Conversation:
    """A real seat's WebSocket: its latest view, and each frame's answer judged."""

    def __init__(self, socket: Any, paths: list[str]) -> None:
        self.socket, self.paths = socket, paths
        self.state: dict = {}
        self.expecting = False  # an answer to a frame, rather than a view

    def view(self) -> None:
        """Read up to the seat's first view (after the hello)."""
        while not self.state:
            if self.answer() != "accepted" and not self.state:
                raise Failure("a real seat's WebSocket was refused or closed before its view")

    def answer(self) -> str:
        """``accepted`` (an ack), ``refused`` (a refusal with a reason) or ``closed``."""
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                text = self.socket.recv(timeout=ANSWER_SECONDS)
            except TimeoutError:
                raise Failure(f"no answer within {ANSWER_SECONDS:.0f} s") from None
            except ConnectionClosed as closed:
                return self._closed(closed)
            if not isinstance(text, str):
                raise Failure("a binary message from the server")
            leaked = [path for path in self.paths if path in text]
            if leaked:
                raise Failure(f"a message names the server path {leaked[0]!r}: {text[:200]}")
            message = json.loads(text)
            if message["type"] == "state":
                self.state = message
                if not self.expecting:
                    return "accepted"
            elif message["type"] == "ack":
                return "accepted"
            elif message["type"] in ("refused", "error"):
                if not message.get("reason"):
                    raise Failure(f"a {message['type']} without a reason")
                return "refused"

    def _closed(self, closed: Any) -> str:
        if closed.rcvd is None:
            raise Failure("the server dropped the connection without a close frame")
        code, reason = closed.rcvd.code, closed.rcvd.reason
        if code not in POLICY_CLOSES:
            raise Failure(f"the server closed the socket with {code} ({reason!r})")
        if any(path in reason for path in self.paths):
            raise Failure(f"a close reason names a server path: {reason!r}")
        return "closed"


def frames_case(context: Context) -> str:
    table_id, _, token = context.a_seat(to_act=True)
    origin = context.pick([None, f"http://{context.lab.host}"])
    with context.lab.websocket(f"/ws/{table_id}/{token}", origin) as socket:
        conversation = Conversation(socket, context.paths)
        conversation.view()
        conversation.expecting = True
        outcome, last_legal = "accepted", None
        for _ in range(context.rng.randint(1, 4)):
            what, frame = hostile_frame(context, conversation.state, last_legal)
            socket.send(frame)
            outcome = conversation.answer()
            if outcome == "accepted" and what in MUST_NOT_PLAY:
                raise Failure(f"a {what} move was played: {frame[:120]}")
            last_legal = frame if what == "legal" and outcome == "accepted" else last_legal
            if outcome == "closed" or conversation.state.get("result"):
                break
    if conversation.state.get("result"):  # the game is over: deal another
        context.finished.append((table_id, token))
        del context.tables[table_id]
        open_table(context)
    elif conversation.state:
        context.turns[table_id] = str(conversation.state["to_act"])
    return outcome


CASE_KINDS: tuple[Callable[[Context], str], ...] = (
    table_case,
    table_case,
    route_case,
    study_case,
    link_case,
    frames_case,
    frames_case,
    frames_case,
)


def probe(context: Context) -> None:
    """The lobby still answers."""
    answer = context.lab.request("GET", b"/api/games")
    if answer.status != 200:
        raise Failure(f"the lobby's games answered {answer.status}")


def fuzz_lab(game_name: str, cases: int, seed: int = 0) -> FuzzReport:
    """``cases`` hostile requests and conversations against the lab on loopback, its tables
    dealt for ``game_name`` (deterministic in ``seed``)."""
    get_game(game_name)  # an unknown name is refused with the list of games
    report = FuzzReport(game_name)
    if (
        importlib.util.find_spec("uvicorn") is None
        or importlib.util.find_spec("websockets") is None
    ):
        report.skipped.append("lab: the lab extra (uvicorn, websockets) is not installed")
        return report
    from websockets.exceptions import WebSocketException

    with LoopbackLab(**SETTINGS) as lab:
        context = Context(lab, game_name, random.Random(seed), server_paths(lab.folder.name))
        report.failures += warm_up(context)
        for _ in range(OPEN_TABLES):
            open_table(context)
        open_study(context)
        for index in range(cases):
            case = context.pick(CASE_KINDS)
            kind = case.__name__.removesuffix("_case")
            logged = len(lab.errors.errors)
            try:
                outcome = case(context)
                if index % PROBE_EVERY == PROBE_EVERY - 1:
                    probe(context)
            except Failure as failure:
                report.failures.append(f"case {index}: {kind}: {failure} ({lab.last_request})")
            except (OSError, ValueError, WebSocketException) as error:  # no answer, or no
                # HTTP or WebSocket one (a timeout is an OSError)
                what = f"{type(error).__name__}: {error}"
                report.failures.append(f"case {index}: {kind}: {what} ({lab.last_request})")
            else:
                report.outcomes[f"{kind} {outcome}"] += 1
            for error in lab.errors.errors[logged:]:
                report.failures.append(f"case {index}: {kind}: the server logged {error}")
            report.cases += 1
    return report
