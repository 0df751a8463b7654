"use strict";
// The lobby: pick a game, its players, each seat (a person, a remote agent or an agent) and
// its options; the server checks everything and answers one link per person or remote agent.
let games = [];
function $(id) { return document.getElementById(id); }
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}
function chosen() { return games.find((g) => g.name === $("game").value); }
function drawSeats() {
  const n = Number($("player-count").value);
  const box = $("seats");
  box.replaceChildren();
  for (let p = 0; p < n; p++) {
    const row = el("div");
    row.className = "seat-choice";
    const label = el("label", "P" + (p + 1) + " ");
    const kind = el("select");
    kind.className = "kind";
    kind.setAttribute("aria-label", "seat P" + (p + 1));
    const agents = chosen().agents[String(n)] || [];
    const words = { human: "a person", remote: "a remote agent" };
    for (const k of ["human", "remote", ...agents]) {
      const o = el("option", words[k] || k);
      o.value = k;
      kind.appendChild(o);
    }
    kind.value = p === 0 || !agents.includes("heuristic") ? "human" : "heuristic";
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
// A value as the lobby shows it: a list as "1, 2, 17", nothing for null.
function shown(value) {
  if (value === null) return "";
  return Array.isArray(value) ? value.join(", ") : String(value);
}
// An option's input, fitting its kind: checkbox, select, number (its bounds at the player
// count) or a list of whole numbers.
function optionInput(option) {
  let input;
  if (option.input === "select") {
    input = el("select");
    for (const choice of option.choices) {
      const o = el("option", String(choice));
      o.value = String(choice);
      input.appendChild(o);
    }
    input.value = String(option.default);
  } else {
    input = el("input");
    if (option.input === "checkbox") { input.type = "checkbox"; input.checked = option.default; }
    else {
      input.type = option.input === "number" ? "number" : "text";
      input.value = shown(option.default);
      if (option.input === "list") input.inputMode = "numeric";
      if (option.optional) input.placeholder = "empty: none";
    }
  }
  input.id = "option-" + option.name;
  input.dataset.option = option.name;
  input.dataset.kind = option.input;
  return input;
}
function drawOptions() {
  const box = $("options");
  box.replaceChildren();
  const options = chosen().options;
  if (!options.length) box.appendChild(el("p", "This game has no options to set.", "empty"));
  for (const option of options) {
    const row = el("div", undefined, "option");
    const label = el("label", option.label + " ");
    label.htmlFor = "option-" + option.name;
    const input = optionInput(option);
    const range = option.input === "checkbox" ? "" : " Range: " + option.range + ".";
    const fallback = option.input === "checkbox" ? (option.default ? "on" : "off")
      : option.default === null ? "none" : shown(option.default);
    const help = el("p", option.description + range + " Default: " + fallback + ".", "help");
    help.id = "help-" + option.name;
    input.setAttribute("aria-describedby", help.id);
    row.append(label, input, help);
    box.appendChild(row);
  }
  boundOptions();
}
// The number options' bounds at the chosen player count.
function boundOptions() {
  const n = $("player-count").value;
  for (const option of chosen().options) {
    if (option.input !== "number") continue;
    const [low, high] = option.bounds[n] || option.bounds[String(chosen().default_players)];
    $("option-" + option.name).min = low;
    $("option-" + option.name).max = high;
  }
}
function drawGame() {
  const game = chosen();
  $("player-count").min = game.min_players;
  $("player-count").max = game.max_players;
  $("player-count").value = game.default_players;
  drawOptions();
  drawSeats();
}
function onPlayers() {
  boundOptions();
  drawSeats();
}
// An option's value as the server takes it (a TypeError naming it if it is not one).
function optionValue(input) {
  const kind = input.dataset.kind;
  if (kind === "checkbox") return input.checked;
  if (kind === "select") {
    const option = chosen().options.find((o) => o.name === input.dataset.option);
    return option.choices.find((c) => String(c) === input.value);
  }
  const text = input.value.trim();
  if (text === "" && kind === "number") return null;
  const numbers = text.split(/[\s,]+/).filter((t) => t).map(Number);
  if (!numbers.length || !numbers.every(Number.isInteger)) {
    throw new TypeError(input.dataset.option);
  }
  return kind === "list" && numbers.length !== 1 ? numbers : numbers[0];
}
async function create(event) {
  event.preventDefault();
  $("problem").textContent = "";
  const options = {};
  for (const input of $("options").querySelectorAll("[data-option]")) {
    try { options[input.dataset.option] = optionValue(input); }
    catch (err) {
      const label = chosen().options.find((o) => o.name === input.dataset.option).label;
      $("problem").textContent = label + ": whole numbers only, separated by commas.";
      return;
    }
  }
  const seats = Array.from(document.querySelectorAll("#seats .kind")).map((s) => s.value);
  const names = Array.from(document.querySelectorAll("#seats .seat-name"))
    .map((i) => (i.value.trim() ? i.value.trim() : null));
  const body = { game: $("game").value, players: Number($("player-count").value), options, seats,
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
  for (const g of games) {
    const o = el("option", g.title);
    o.value = g.name;
    $("game").appendChild(o);
  }
  $("game").value = (games.find((g) => g.default) || games[0]).name;
  $("loading").hidden = true;
  $("create").hidden = false;
  $("game").addEventListener("change", drawGame);
  $("player-count").addEventListener("change", onPlayers);
  $("create").addEventListener("submit", create);
  drawGame();
}
start();
