// Hints on the game page (docs/web.md, "Hints"): in a match against the computer, a Hint
// button asks the server (POST /api/matches/<id>/hint) for the move the game's judge
// prefers for this seat now, from this seat's view only. The suggestion is shown as text
// with its why, and marked in the picture where a clickable part of it is the move (its
// data-move) or the move's first step (Edges: the edge, "edge h1,2"; the pie take-over).
import { api, el, toast } from "./common.js";

const matchId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
/** The seat's token, read when wanted: the game page puts the seat's own in the address
 * once the link that brought it is taken (the welcome's). */
const seatToken = () => new URLSearchParams(location.hash.slice(1)).get("token");

let latest = null; // the state message last drawn
let hint = null; // the server's answer for latest.seq, or null
let asking = false;

/** Hints are for a seat of a match with one person in it (every other seat the computer). */
function allowed(m) {
  return !!seatToken() && m.seat !== null && m.status === "playing" && !m.tutorial
    && m.seats.filter((s) => s.kind !== "agent").length === 1;
}

function box() {
  let node = document.getElementById("hint-box");
  if (node) return node;
  node = el("section", { id: "hint-box", class: "hint-box", "aria-label": "hint" },
    el("button", { type: "button", id: "hint", class: "hint-button", onclick: ask }, "Hint"),
    el("p", { id: "hint-text", class: "hint-text", role: "status", "aria-live": "polite" }));
  const side = document.querySelector(".side");
  const seats = document.getElementById("seats");
  if (side) side.insertBefore(node, seats ? seats.nextSibling : side.firstChild);
  return node;
}

async function ask() {
  if (!latest || asking) return;
  const m = latest;
  asking = true;
  showHint(m);
  try {
    const answer = await api(`/api/matches/${encodeURIComponent(matchId)}/hint`, { token: seatToken() });
    if (latest && latest.seq === answer.seq) hint = answer;
  } catch (error) {
    toast(error.message, "error");
  } finally {
    asking = false;
    if (latest) showHint(latest);
  }
}

/** Marks the picture's parts that make the suggested move. */
function mark() {
  for (const node of document.querySelectorAll(".hint-mark")) node.classList.remove("hint-mark");
  if (!hint) return;
  const steps = hint.best.split(" ");
  for (const node of document.querySelectorAll("#board .clickable")) {
    const what = node.getAttribute("data-hint") || "";
    const first = steps.some((step) => what === `edge ${step}`)
      || (steps[0] === "pie" && what.startsWith("take over"));
    if (node.getAttribute("data-move") === hint.best || first) node.classList.add("hint-mark");
  }
}

/** Called by the game page after each drawing of a state message. */
export function showHint(m) {
  latest = m;
  const node = box();
  node.hidden = !allowed(m);
  if (node.hidden) return;
  if (hint && hint.seq !== m.seq) hint = null;
  const button = document.getElementById("hint");
  // Not disabled while the server thinks (ask() asks once): a button disabled under the
  // keyboard's focus drops that focus to the page, and the player starts again from the top.
  button.disabled = !m.legal.length;
  button.setAttribute("aria-busy", String(asking));
  button.textContent = asking ? "Thinking…" : "Hint";
  const text = document.getElementById("hint-text");
  text.replaceChildren(...(hint ? [el("strong", {}, `Try ${hint.best}`), `: ${hint.why}`] : []));
  text.hidden = !hint;
  document.body.dataset.hint = hint ? hint.best : "";
  mark();
}
