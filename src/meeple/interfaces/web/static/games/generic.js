// The drawing for a game that has none of its own (no static/games/<game>.js): the seat's
// view as readable text, and every legal move as a button that sends it. Any registered
// game, a third-party one included, plays in the browser with it (docs/new-game.md).
import { clickable, gameStyle, html } from "../js/draw.js";

/** Draws the view and, when the seat may move, one button per legal move. */
export function draw(root, msg, ui) {
  gameStyle("generic", import.meta.url);
  root.replaceChildren();
  const box = html("div", { class: "generic" }, root);
  html("pre", { class: "generic-view" }, box, viewText(msg.view).join("\n"));
  if (!ui.canMove) return;
  html("p", { class: "generic-hint" }, box, "Your move: choose one.");
  const moves = html("div", { class: "generic-moves" }, box);
  for (const action of msg.legal) {
    const button = html("button", { type: "button", class: "generic-move" }, moves, action.text);
    clickable(button, `play ${action.text}`, { move: action.text, ui });
  }
}

/** A value as text: nothing as "-", yes/no for booleans. */
function scalarText(value) {
  if (value === null || value === undefined) return "-";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

const isScalar = (value) => value === null || typeof value !== "object";

/**
 * A JSON view as indented lines, "name: value" for each field. A list of texts is one per
 * line, so a board's rows read as the board; a list of numbers stays on one line.
 */
export function viewText(value, indent = "") {
  if (isScalar(value)) return [indent + scalarText(value)];
  const lines = [];
  if (Array.isArray(value)) {
    if (value.every((item) => isScalar(item) && typeof item !== "string")) {
      return [indent + (value.length ? value.map(scalarText).join(", ") : "(none)")];
    }
    value.forEach((item, k) => {
      if (isScalar(item)) lines.push(indent + scalarText(item));
      else lines.push(`${indent}${k + 1}.`, ...viewText(item, `${indent}   `));
    });
    return lines;
  }
  for (const [name, item] of Object.entries(value)) {
    const label = name.replaceAll("_", " ");
    if (isScalar(item)) lines.push(`${indent}${label}: ${scalarText(item)}`);
    else lines.push(`${indent}${label}:`, ...viewText(item, `${indent}  `));
  }
  return lines;
}
