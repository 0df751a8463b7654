// A card drawn from its face (Game.card_face: value, colour, symbols, name) with DOM calls
// only, for the replay page and the lab's table page (styled by cards.css): a short name with
// no value is its own value ("K"); what else the label says (a state, stored tokens) is a
// line of detail. addText(parent, text) appends text with its symbols drawn as SVG.
function drawCard(face, label, addText) {
  face = face || { name: label, value: null, colour: null, symbols: [] };
  const part = (parent, cls, text) => {
    const e = parent.appendChild(document.createElement("span"));
    e.className = cls;
    if (text) addText(e, text);
    return e;
  };
  const c = document.createElement("span");
  c.className = "card";
  if (face.colour) c.classList.add("c-" + face.colour.replace(/\s+/g, "-"));
  part(c, "band");
  const short = face.value === null && face.name.length <= 3;
  if (short) c.classList.add("short");
  if (short || face.value !== null || face.symbols.length) {
    const corner = part(c, "corner");
    part(corner, "value", short ? face.name : face.value);
    const symbols = part(corner, "symbols");
    face.symbols.forEach(([sym]) => addText(symbols, sym));
  }
  if (!short) part(c, "card-name", face.name);
  const rest = face.value === null ? label.slice(face.name.length).trim() : "";
  if (rest) part(c, "detail", rest);
  return c;
}
