// The Rules panel of the game and replay pages: a "Rules" button (#rules-button) opens a
// dialog with how to play this match's game, for its own options, as the server renders it
// (GET /api/matches/{id}/rules, or /api/games/{game}/rules?options= for an uploaded record).
// Escape, the close button or a click outside closes it. Self-contained: the pages' own
// modules know nothing of it.
import { api, el } from "./common.js";

const button = document.getElementById("rules-button");
let source = null; // the API path of the rules shown, once known
const loaded = new Map(); // path -> the server's reply

function pathOfPage() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "play" && parts[1]) return `/api/matches/${encodeURIComponent(decodeURIComponent(parts[1]))}/rules`;
  const match = new URLSearchParams(location.search).get("match");
  return match ? `/api/matches/${encodeURIComponent(match)}/rules` : null;
}

const heading = el("h2", { id: "rules-heading" }, "Rules");
const body = el("div", { class: "rules-body", tabindex: "0", "aria-live": "polite" });
const close = el("button", { type: "button", class: "rules-close", "aria-label": "Close the rules" }, "✕");
const dialog = el("dialog", { id: "rules-panel", class: "rules-panel", "aria-labelledby": "rules-heading" },
  el("div", { class: "rules-head" }, heading, close), body);
document.body.append(dialog);

let opener = button; // what the focus goes back to once the panel closes

close.addEventListener("click", () => dialog.close());
// A click on the backdrop lands on the dialog itself, outside its content.
dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close(); });
dialog.addEventListener("close", () => opener && opener.focus());

// The lobby's "Rules" beside each game (data-rules-game): that game's rules as its
// defaults play, to read before a first game.
document.addEventListener("click", (event) => {
  const asked = event.target instanceof Element && event.target.closest("[data-rules-game]");
  if (!asked) return;
  source = `/api/games/${encodeURIComponent(asked.dataset.rulesGame)}/rules`;
  opener = asked;
  dialog.showModal();
  body.focus();
  show();
});

async function show() {
  if (!source) {
    heading.textContent = "Rules";
    body.replaceChildren(el("p", {}, "Choose a record file first: the rules follow its game and options."));
    return;
  }
  let reply = loaded.get(source);
  if (!reply) {
    body.replaceChildren(el("p", {}, "Loading the rules…"));
    try {
      reply = await api(source);
      loaded.set(source, reply);
    } catch (error) {
      body.replaceChildren(el("p", { class: "rules-error" }, `The rules could not be loaded: ${error.message}`));
      return;
    }
  }
  heading.textContent = `Rules: ${reply.title}`;
  // The server renders the Markdown with raw HTML turned off: every text in it is escaped.
  body.innerHTML = reply.html;
  const title = body.querySelector("h1");
  if (title) title.remove(); // the panel's own heading says it
  // An option this match's others make moot, decks of different sizes: played, perhaps not meant.
  body.prepend(...(reply.notes || []).map((note) => el("p", { class: "rules-note" }, `Note: ${note}.`)));
  body.scrollTop = 0;
}

if (button) {
  source = pathOfPage();
  button.addEventListener("click", () => {
    dialog.showModal();
    body.focus();
    show();
  });
  // The replay page may draw an uploaded record: the rules follow the file's game and options.
  const file = document.getElementById("file");
  if (file) {
    file.addEventListener("change", async () => {
      try {
        const record = JSON.parse(await file.files[0].text());
        if (typeof record.game === "string") {
          const options = encodeURIComponent(JSON.stringify(record.options || {}));
          source = `/api/games/${encodeURIComponent(record.game)}/rules?options=${options}`;
        }
      } catch { /* the replay page says what is wrong with the file */ }
    });
  }
}
