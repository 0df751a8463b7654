"use strict";
// The lobby: pick a game, its players, each seat (a person or an agent) and its options;
// the server checks everything and answers one link per person.
let games = [];
let agents = [];
function $(id) { return document.getElementById(id); }
function el(tag, text) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
}
function chosen() { return games.find((g) => g.name === $("game").value); }
function drawSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  box.replaceChildren();
  for (let p = 0; p < n; p++) {
    const row = el("div");
    row.className = "seat-choice";
    const label = el("label", "P" + (p + 1) + " ");
    const kind = el("select");
    kind.className = "kind";
    kind.setAttribute("aria-label", "seat P" + (p + 1));
    for (const k of ["human", ...agents]) {
      const o = el("option", k === "human" ? "a person" : k);
      o.value = k;
      kind.appendChild(o);
    }
    kind.value = p === 0 ? "human" : "heuristic";
    label.appendChild(kind);
    const name = el("input");
    name.className = "seat-name";
    name.placeholder = "name (optional)";
    name.maxLength = 40;
    name.setAttribute("aria-label", "name of P" + (p + 1));
    row.append(label, name);
    box.appendChild(row);
  }
}
function drawGame() {
  const game = chosen();
  $("players").min = game.min_players;
  $("players").max = game.max_players;
  $("players").value = game.default_players;
  const box = $("options");
  box.replaceChildren();
  for (const [name, value] of Object.entries(game.options)) {
    const label = el("label", name + " ");
    const input = el("input");
    input.dataset.option = name;
    if (typeof value === "boolean") { input.type = "checkbox"; input.checked = value; }
    else { input.value = JSON.stringify(value); }
    label.appendChild(input);
    box.appendChild(label);
  }
  drawSeats();
}
async function create(event) {
  event.preventDefault();
  $("problem").textContent = "";
  const options = {};
  try {
    for (const input of $("options").querySelectorAll("input")) {
      options[input.dataset.option] = input.type === "checkbox" ? input.checked : JSON.parse(input.value);
    }
  } catch (err) { $("problem").textContent = "An option is not valid JSON."; return; }
  const seats = Array.from(document.querySelectorAll("#seats .kind")).map((s) => s.value);
  const names = Array.from(document.querySelectorAll("#seats .seat-name"))
    .map((i) => (i.value.trim() ? i.value.trim() : null));
  const body = { game: $("game").value, players: Number($("players").value), options, seats,
    names, idle_seconds: Number($("idle").value) };
  const response = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" } });
  const answer = await response.json();
  if (!response.ok) { $("problem").textContent = answer.error; return; }
  const list = $("links");
  list.replaceChildren();
  for (const [seat, link] of Object.entries(answer.links)) {
    const item = el("li", "P" + (Number(seat) + 1) + ": ");
    const a = el("a", location.origin + link);
    a.href = link;
    item.appendChild(a);
    list.appendChild(item);
  }
  $("made").hidden = false;
}
async function start() {
  const answer = await (await fetch("/api/games")).json();
  games = answer.games;
  agents = answer.agents;
  for (const g of games) {
    const o = el("option", g.title);
    o.value = g.name;
    $("game").appendChild(o);
  }
  $("game").addEventListener("change", drawGame);
  $("players").addEventListener("change", drawSeats);
  $("create").addEventListener("submit", create);
  drawGame();
}
start();
