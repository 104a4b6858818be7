// A name for a seat taken without one (docs/web.md, "Your name"): a friend who opens a
// seat's link in a browser that keeps no name goes by the seat's own ("Blue"). The game
// page offers them a box to give one, once (the `name` message, docs/api.md); the name is
// kept in the browser, as the lobby's box keeps it, once the server has taken it.
import { el } from "./common.js";

const KEY = "meeple-name";
/** This tab's "No thanks", per match: the box is not offered again in the tab. */
const DISMISSED = "meeple-name-dismissed";

let asked = null; // the name sent, until a state shows it taken (or the box closes)

/** The person's own seat, where it goes by the seat's name among other people: the box
 * is for it (against the computer alone, nobody reads the name). */
function unnamed(m) {
  if (m.seat === null || m.seat === undefined || m.tutorial || m.status === "finished") return null;
  const seats = m.seats || [];
  const mine = seats.find((s) => s.seat === m.seat);
  const others = seats.some((s) => s.seat !== m.seat && s.kind === "person");
  return others && mine && mine.kind === "person" && mine.joined && mine.name === mine.seat_name
    ? mine : null;
}

function box(send, matchId) {
  let node = document.getElementById("name-box");
  if (node) return node;
  const input = el("input", {
    id: "name-input", type: "text", maxlength: "40", autocomplete: "nickname",
    placeholder: "your name", "aria-labelledby": "name-said",
  });
  const submit = (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    asked = name;
    send({ type: "name", name });
  };
  const dismiss = () => {
    sessionStorage.setItem(DISMISSED, matchId);
    node.hidden = true;
  };
  node = el("form", { id: "name-box", class: "name-box", onsubmit: submit },
    el("p", { id: "name-said", class: "name-said" }),
    el("div", { class: "name-row" }, input,
      el("button", { type: "submit", class: "primary" }, "Use this name"),
      el("button", { type: "button", class: "name-dismiss", onclick: dismiss }, "No thanks")));
  const side = document.querySelector(".side");
  const seats = document.getElementById("seats");
  if (side) side.insertBefore(node, seats ? seats.nextSibling : side.firstChild);
  return node;
}

/** Called by the game page after each drawing of a state message; ``send`` sends a message
 * on the page's socket. */
export function showNameBox(m, send, matchId) {
  const mine = m.seat !== null && m.seat !== undefined
    ? (m.seats || []).find((s) => s.seat === m.seat) : null;
  if (asked && mine && mine.name === asked) {
    localStorage.setItem(KEY, asked); // taken: the next match's hello carries it
    asked = null;
  }
  const seat = unnamed(m);
  const shown = seat && sessionStorage.getItem(DISMISSED) !== matchId;
  const existing = document.getElementById("name-box");
  if (!shown) {
    if (existing) existing.hidden = true;
    return;
  }
  const node = existing || box(send, matchId);
  node.hidden = false;
  document.getElementById("name-said").textContent =
    `The others see you as ${seat.seat_name}. Give them your name:`;
}
