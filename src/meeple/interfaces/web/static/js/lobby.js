// The lobby: the games, a form to create a match (options, seats, listed, clock), the
// links to hand out after creating one, and the open, live and finished matches.
import { api, ask, copyText, el, outcomeOf, seatLabel, sendLine, titlesOnTap, toast } from "./common.js";
import { forgetSeat, heldSeat, keptSeats, rememberSeat, seatUrl } from "./seats.js";

const $ = (id) => document.getElementById(id);
let catalogue = [];

function chosenGame() {
  return catalogue.find((g) => g.name === $("game").value) || catalogue[0];
}

/** The options input for one game option: a checkbox, a list, or free text; for a data
 * option, the content sets the server's operator installed (a page never names a file). */
function optionInput(option, game) {
  const id = `opt-${option.name}`;
  if (option.data) {
    return el("select", { id, name: option.name, dataset: { kind: "choice" } },
      el("option", { value: "" }, "as shipped"),
      game.content_sets.map((name) => el("option", { value: `set:${name}` }, `${name} (installed here)`)));
  }
  if (typeof option.default === "boolean") {
    return el("input", { type: "checkbox", id, name: option.name, checked: option.default, dataset: { kind: "bool" } });
  }
  const words = String(option.allowed || "").split("|").map((w) => w.trim());
  if (words.length > 1 && words.every((w) => /^[\w.-]+$/.test(w))) {
    return el("select", { id, name: option.name, dataset: { kind: "choice" } },
      words.map((w) => el("option", { value: w, selected: String(option.default) === w }, w)));
  }
  return el("input", {
    id, name: option.name, dataset: { kind: typeof option.default === "number" ? "number" : "text" },
    placeholder: option.default === null ? option.default_words || "default" : String(option.default),
    "aria-label": option.name,
    list: (option.suggested || []).length ? suggestionsId(option) : null,
  });
}

const suggestionsId = (option) => `opt-${option.name}-suggested`;

/** The values an option suggests, each with its words, offered under its typed text (a
 * datalist: "none/none — no items" where the syntax ITEMS/ITEMS is no player's to know). */
function suggestions(option) {
  if (!(option.suggested || []).length) return null;
  return el("datalist", { id: suggestionsId(option) },
    option.suggested.map((s) => el("option", { value: s.value, label: s.label })));
}

/** The options the person changed from the defaults, typed as the server wants them. */
function readOptions(game) {
  const out = {};
  const count = chosenCount(game);
  if (count) Object.assign(out, count.options);
  for (const option of game.options) {
    const input = $(`opt-${option.name}`);
    // Hidden: moot under the others (applicable), so a value picked before is not sent.
    if (!input || input.closest("label").hidden) continue;
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else if (input.value.trim() === "") continue;
    else value = input.value.trim();
    if (input.dataset.kind === "number" || (typeof option.default === "number" && /^-?[\d.]+$/.test(value))) value = Number(value);
    // A whole number typed for an option that takes one ("random | a seat number"): the
    // server checks JSON types strictly, so it goes as the number, not as text.
    else if (/^-?\d+$/.test(value) && (input.dataset.kind === "choice" || /number/.test(option.allowed))) value = Number(value);
    if (value === option.default) continue;
    out[option.name] = value;
  }
  return out;
}

/** Whether an option's value meets one condition of an `applies_when`: the value itself, or
 * `{"not": v}` for any value but v (Erd's drawn games, in a match of more than one game). */
function holds(value, wanted) {
  return wanted !== null && typeof wanted === "object" && "not" in wanted ? value !== wanted.not : value === wanted;
}

/** Shows the variants that matter under the options chosen so far and hides the others
 * (Double Edges' "who starts" in a two-player game; when architecture fires, without the
 * Advanced Rules that have it). */
function applicable(game) {
  const values = Object.fromEntries(game.options.map((o) => [o.name, o.default]));
  Object.assign(values, readOptions(game));
  for (const option of game.options) {
    const input = $(`opt-${option.name}`);
    if (!input) continue;
    const when = Object.entries(option.applies_when || {});
    input.closest("label").hidden = !when.every(([name, wanted]) => holds(values[name], wanted));
  }
}

let asked = 0;
let waiting;

/** What the server says of the variants chosen, before a match is made, as they are chosen
 * (not at Play): why it would refuse them ("board: ..."), or what it would take but a person
 * may not mean (a Mulligan order where no seat holds a Mulligan, a set's decks of different
 * sizes: the notes the Rules panel shows at the table). Asked once typing pauses; an answer
 * to options changed since is dropped. */
function checkOptions() {
  clearTimeout(waiting);
  waiting = setTimeout(async () => {
    const game = chosenGame();
    const options = readOptions(game);
    const box = $("options-said");
    const mine = ++asked;
    const show = (...lines) => { box.replaceChildren(...lines); box.hidden = !lines.length; };
    if (!Object.keys(options).length) return show();
    const query = encodeURIComponent(JSON.stringify(options));
    const reply = await ask(`/api/games/${encodeURIComponent(game.name)}/rules?options=${query}`);
    if (mine !== asked) return;
    if (reply.refused) show(el("p", { class: "options-refused" }, `Play would be refused: ${reply.refused}`));
    else show(...(reply.body.notes || []).map((note) => el("p", { class: "rules-note" }, `Note: ${note}.`)));
  }, 300);
}

/** The quick start's number of players (with the options that seat it), where the game
 * takes one; null where its seats are fixed. */
function chosenCount(game) {
  const picked = Number($("players").value);
  return game.player_choices.find((c) => c.players === picked) || null;
}

/** How many seats the chosen options give (some games take a player count). */
function seatCount(game) {
  const count = chosenCount(game);
  return count ? count.players : game.seats;
}

/** The options the quick start's number of players sets (players, Double Edges): not
 * offered again among the variants. */
function countOptions(game) {
  return new Set(game.player_choices.flatMap((c) => Object.keys(c.options)));
}

/** The quick start's number of players, where the game takes one (Erosion 2 to 5, Edges 2
 * or 4 in Double Edges): the count a player picks first, beside the game, not a variant
 * behind More options. A count already picked is kept from one game to the next where the
 * next allows it. */
function drawPlayers(game) {
  const counts = game.player_choices.map((c) => c.players);
  const old = Number($("players").value) || game.seats;
  $("players-row").hidden = !counts.length;
  $("players").replaceChildren(...counts.map((n) => el("option",
    { value: String(n), selected: n === (counts.includes(old) ? old : game.seats) }, String(n))));
}

/** The quick start's choices: the computer at each level, a friend, anyone. A first visit
 * starts against the easy computer (the hardest was no first game for a newcomer); the
 * browser then keeps the last choice. */
function drawOpponents() {
  const game = chosenGame();
  const old = $("opponent").value || localStorage.getItem("meeple-opponent") || "easy";
  $("opponent").replaceChildren(
    ...game.levels.map((l) => el("option", { value: l.level, selected: old === l.level },
      `the computer (${l.level})`)),
    el("option", { value: "human", selected: old === "human" }, "a friend (I send the link)"),
    el("option", { value: "open", selected: old === "open" }, "anyone from the lobby"),
    el("option", { value: "mixed", hidden: true, selected: old === "mixed" }, "the seats set below"));
}

/** The quick start's choice fills every seat but the creator's; a seat changed by hand
 * shows as "the seats set below". */
function opponentChosen() {
  const value = $("opponent").value;
  if (value === "mixed") return;
  localStorage.setItem("meeple-opponent", value);
  for (const select of [...$("seats").querySelectorAll("select")].slice(1)) select.value = value;
}

function seatsChanged() {
  const others = [...$("seats").querySelectorAll("select")].slice(1).map((s) => s.value);
  const same = others.every((v) => v === others[0]);
  const known = [...$("opponent").options].some((o) => o.value === others[0] && !o.hidden);
  $("opponent").value = same && known ? others[0] : "mixed";
}

function drawSeats() {
  const game = chosenGame();
  const box = $("seats");
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  const picked = $("opponent").value;
  const quick = picked && picked !== "mixed" ? picked : "easy";
  box.replaceChildren(el("legend", {}, "Seats"));
  const agents = game.agents.filter((a) => a !== "human");
  // The names of the seats at the chosen number of players (Erosion's third is Rockies).
  const names = chosenCount(game)?.seat_names || game.seat_names;
  for (let seat = 0; seat < seatCount(game); seat += 1) {
    const preset = old[seat] || (seat === 0 ? "human" : quick);
    box.append(el("label", { class: "row" },
      el("span", { class: `seat-dot seat-${seat}` }),
      `${names[seat] || `Seat ${seat}`}: `,
      el("select", { name: `seat-${seat}`, id: `seat-${seat}` },
        // A person's seat is kept for the link sent to them; an open one is for anyone
        // who joins from the lobby's open list (the server refuses it in a private match).
        el("option", { value: "human", selected: preset === "human" }, seat === 0 ? "a person (me)" : "a person (I send the link)"),
        el("option", { value: "open", selected: preset === "open" }, "anyone from the lobby"),
        // The levels first (easy is a first visit's opponent), then every agent by name.
        game.levels.map((l) => el("option", { value: l.level, selected: preset === l.level },
          `the computer (${l.level})`)),
        agents.map((a) => el("option", { value: a, selected: preset === a }, `agent: ${a}`)))));
  }
}

function drawForm() {
  const game = chosenGame();
  $("game-summary").textContent = game.summary;
  for (const card of document.querySelectorAll(".game-card")) {
    card.classList.toggle("picked", card.dataset.game === game.name);
    card.setAttribute("aria-pressed", String(card.dataset.game === game.name));
  }
  const box = $("options");
  // A data option is offered only where the server has content sets for the game; the
  // engine's own switch every game shares (auto_steps: every single-choice step asked, for
  // a script or a tutorial) is a script's, not a variant a player picks (the API takes it).
  const counted = countOptions(game);
  const offered = game.options.filter((option) => (!option.data || game.content_sets.length)
    && option.name !== "auto_steps" && !counted.has(option.name));
  drawPlayers(game);
  box.replaceChildren(el("legend", {}, "Variants"),
    ...offered.map((option) => {
      const input = optionInput(option, game);
      // A checkbox or a list shows its choices itself; only typed text needs them spelled out.
      const typed = input.tagName === "INPUT" && input.type !== "checkbox";
      return el("label", { class: "option" },
        // The option in a player's words; its API name (what a script sends) on hover.
        el("span", { class: "name", title: option.name }, option.label || option.name.replaceAll("_", " ")),
        input,
        input.tagName === "INPUT" ? suggestions(option) : null,
        el("span", { class: "help" }, option.data ? "a designer's version this server's operator installed, or the game as shipped"
          : typed ? `${option.help} (${option.allowed})` : option.help));
    }));
  $("seats").replaceChildren();
  applicable(game);
  checkOptions();
  drawOpponents();
  drawSeats();
  opponentChosen();
}

async function create(event) {
  event.preventDefault();
  const game = chosenGame();
  const seats = [...$("seats").querySelectorAll("select")].map((s) => s.value);
  const body = { game: game.name, options: readOptions(game), seats, listed: $("listed").checked };
  const clock = $("move_seconds").value.trim();
  if (clock) body.move_seconds = Number(clock);
  const name = localStorage.getItem("meeple-name");
  // The creator's name goes with the match (their seat, the first person's), so that a
  // name the server refuses is said before any match is made; it used to be sent with
  // the join after it, and a refused one left a match made, waiting, its links unseen.
  const mine = seats.indexOf("human");
  if (name && mine >= 0) body.names = seats.map((_, i) => (i === mine ? name : null));
  const button = $("create-button");
  const label = button.textContent;
  button.disabled = true;  // one match per click, however long the server takes
  button.textContent = "creating...";
  // Making a computer player is quick, except the first match of a solved opponent under
  // new rules (Erd's hard level), which solves them first: say so rather than hang silently.
  const computer = seats.some((s) => s !== "human" && s !== "open");
  const slow = computer ? setTimeout(() => toast("still preparing the computer player: an "
    + "opponent that plays the solved game (Erd's hard) solves new rules on its first match, "
    + "about half a minute"), 1500) : undefined;
  try {
    const created = await api("/api/matches", body);
    // The creator's seat (the first with a token) is kept for its link by the server;
    // taking it at once shows the creator's name to whoever joins an open seat.
    // Taking it gives the seat a token of its own (its link then plays it no more).
    const first = created.seats[0];
    const taken = first ? await api(`/api/matches/${encodeURIComponent(created.match)}/join`, { token: first.token }) : null;
    // Kept in this browser: the lobby offers "Resume" for it, and /play/<match> takes it back.
    // With the other people's links, which its game page shows while it waits for them.
    const invites = created.seats.slice(1).map((s) => ({ seat: s.seat, name: s.seat_name, url: new URL(s.join_url, location.href).href }));
    if (taken) rememberSeat(created.match, taken.token, taken.seat, invites, first.token);
    if (taken && created.seats.length === 1) {
      // Nobody else to invite (the other seats are the computer): straight to the table.
      location.href = seatUrl(created.match, taken.token);
      return;
    }
    showCreated(created, taken);
    $("created").scrollIntoView({ block: "nearest" });
    refresh();
  } catch (error) {
    toast(error.message, "error");
  } finally {
    clearTimeout(slow);
    button.disabled = false;
    button.textContent = label;
  }
}

/** The made match's box: the creator's own seat (``taken``, its own token), the others'
 * links to send, and the spectators'. */
function showCreated(created, taken) {
  const box = $("created");
  box.hidden = false;
  box.className = "created";
  const absolute = (url) => new URL(url, location.href).href;
  const [mine, ...others] = created.seats;
  box.replaceChildren(el("h3", {}, "Match created"));
  if (mine && taken) {
    // Seats by the game's names only: "seat 0" counted from 0 is a programmer's number.
    box.append(el("p", {}, el("a", { class: "button primary", id: "play-mine", href: seatUrl(created.match, taken.token) }, `Play ${mine.seat_name} yourself`)));
  }
  for (const seat of others) box.append(sendLine(seat.seat_name, absolute(seat.join_url)));
  if (others.length) {
    // Said before it matters: a link opened once is that browser's seat for good.
    box.append(el("p", { class: "link-note" }, "Each link takes its seat for the first browser that "
      + "opens it, so send it to that person alone; from then on it plays only in their browser."));
  }
  const watch = absolute(created.watch_url);
  box.append(el("div", { class: "link" }, "Spectators: ", el("code", {}, watch),
    el("button", { type: "button", onclick: () => copyText(watch) }, "Copy")));
}

function titleOf(name) {
  const game = catalogue.find((g) => g.name === name);
  return game ? game.title : name;
}

/** A match's options in the lobby form's words ("Board size 2x2", "Pie rule off", a switch
 * that is on by its label alone: "Double Edges: four players in two teams", which "on"
 * after it read badly), not the notation ("board=2x2"); an option the catalogue does not
 * know keeps its name. */
function optionWords(name, options) {
  const game = catalogue.find((g) => g.name === name);
  return Object.entries(options || {}).map(([key, value]) => {
    const option = game && game.options.find((o) => o.name === key);
    const label = option ? option.label || key.replaceAll("_", " ") : key;
    if (value === true) return label;
    return `${label} ${value === false ? "off" : String(value)}`;
  }).join(" · ");
}

/** How long ago a listed match last changed, by the server's count ("4 min ago"): rows of
 * one game and players otherwise read the same. */
function ago(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 60) return "under a minute ago";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 2 * 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} days ago`;
}


function describe(row) {
  const options = optionWords(row.game, row.options);
  const when = ago(row.idle_seconds);
  // The server's labels: "Computer (hard)", never an agent's raw spec (that is on hover).
  // A seat nobody has taken is open to anyone, or kept for the link its creator sent.
  const open = row.open_seats || [];
  const players = (row.labels || row.players || [])
    .map((p, s) => p || (open.includes(s) ? "open" : "invited")).join(" vs ");
  const specs = (row.players || []).filter((p, i) => p && row.labels && row.labels[i] !== p);
  return el("span", { class: "what", title: specs.length ? specs.join(" vs ") : null },
    el("strong", {}, titleOf(row.game)),
    options ? [el("br"), el("span", { class: "options" }, options)] : null, el("br"), players,
    row.result ? [el("br"), el("span", { class: "outcome" }, outcome(row))] : null,
    when ? [el("br"), el("span", { class: "ago" }, `${row.status === "finished" ? "ended" : "active"} ${when}`)] : null);
}

/** A finished match's outcome in the game page's words ("Blue (Bob) won", "A draw"), and
 * why where it ended outside the rules: a resignation, a person who left and was claimed
 * from, nobody playing on, or the server's limit of moves. */
function outcome(row) {
  const result = row.result;
  // An expired match, or one called off, has no winner, but nobody drew it either.
  if (result.expired) return "Expired: nobody won";
  if (result.aborted) return "Called off: nobody won";
  if (result.move_limit) return "A draw at the server's limit of moves";
  // The row read as a state message's seats are: a computer's label ("Computer (hard)") is
  // never its spec, a person's is their name.
  const msg = {
    result,
    seat_names: row.seat_names || [],
    seats: (row.labels || []).map((label, i) => ({ label, kind: label !== (row.players || [])[i] ? "agent" : "person" })),
  };
  const resigned = (result.resigned || []).map((s) => `${seatLabel(msg, s)} resigned`);
  const left = (result.abandoned || []).map((s) => `${seatLabel(msg, s)} left`);
  return [outcomeOf(msg), ...resigned, ...left].join(": ");
}

async function join(row) {
  try {
    const name = localStorage.getItem("meeple-name");
    const reply = await api(`/api/matches/${encodeURIComponent(row.match)}/join`, name ? { name } : {});
    rememberSeat(row.match, reply.token, reply.seat);
    location.href = seatUrl(row.match, reply.token);
  } catch (error) {
    toast(error.message, "error");
  }
}

function fill(list, rows, action) {
  list.replaceChildren(...(rows.length ? rows.map((row) => el("li", { dataset: { match: row.match } }, describe(row), action(row)))
    : [el("li", { class: "empty" }, "none")]));
}

async function refresh() {
  try {
    const [open, live, finished] = await Promise.all(
      ["open", "live", "finished"].map((s) => api(`/api/matches?status=${s}`)));
    // A match this browser holds a seat in is resumed (its seat's link), never joined
    // again or only watched.
    const resume = (row, held) => el("a", { class: "button primary resume", href: seatUrl(row.match, held.token) },
      row.status === "playing" ? `Resume (move ${row.seq})` : "Resume");
    fill($("open"), open, (row) => {
      const held = heldSeat(row.match);
      return held ? resume(row, held) : el("button", { type: "button", class: "primary join", onclick: () => join(row) }, "Join");
    });
    fill($("live"), live.filter((row) => row.status === "playing"), (row) => {
      const held = heldSeat(row.match);
      return held ? resume(row, held)
        : el("a", { class: "button watch", href: `/play/${encodeURIComponent(row.match)}` }, `Watch (move ${row.seq})`);
    });
    fill($("finished"), finished.slice(0, 20), (row) =>
      el("a", { class: "button replay", href: `/replay?match=${encodeURIComponent(row.match)}` }, "Replay"));
    await refreshMine(resume);
  } catch (error) {
    toast(`the lists could not be loaded: ${error.message}`, "error");
  }
}

/** The newest matches "Your matches" asks the server about. */
const MINE = 10;
/** Kept matches found over (or gone): not asked about again while the lobby is open. */
const done = new Set();

/** "Your matches": the unfinished matches this browser holds a seat in, private ones and
 * those waiting for a friend too, which no other list shows (the seats kept in this
 * browser, js/seats.js, each asked for as GET /api/matches/<id>), each with Resume. */
async function refreshMine(resume) {
  const kept = keptSeats().filter((held) => !done.has(held.match)).slice(0, MINE);
  const answers = await Promise.all(kept.map(async (held) => {
    const reply = await ask(`/api/matches/${encodeURIComponent(held.match)}`);
    if (reply.status === 404) {
      // No such match any more (a server's database started anew): nothing to resume.
      forgetSeat(held.match);
      done.add(held.match);
      return null;
    }
    if (!reply.body || reply.refused) return null; // unavailable now: asked again later
    if (reply.body.status === "finished") done.add(held.match);
    return reply.body.status === "finished" ? null : { held, summary: reply.body };
  }));
  // A summary read as a lobby row: the same words for the same match in every list.
  const rows = answers.filter(Boolean).map(({ held, summary }) => ({
    held,
    match: summary.match,
    game: summary.game,
    options: summary.options,
    status: summary.status,
    seq: summary.seq,
    open_seats: summary.open_seats,
    players: summary.seats.map((s) => (s.joined ? s.name : null)),
    labels: summary.seats.map((s) => s.label),
    seat_names: summary.seats.map((s) => s.seat_name),
  }));
  $("mine-box").hidden = rows.length === 0;
  fill($("mine"), rows, (row) => resume(row, row.held));
}

/** Starts the game's tutorial (its fixed deal against the script) and opens its page. */
async function learn(game, button) {
  button.disabled = true;
  try {
    const created = await api(`/api/tutorials/${encodeURIComponent(game.name)}`, {});
    location.href = created.seats[0].join_url;
  } catch (error) {
    toast(error.message, "error");
    button.disabled = false;
  }
}

async function setUp() {
  catalogue = await api("/api/games");
  // The page scrolls to the form, and the focus goes with it, to the game now chosen (a
  // screen reader says which; Tab goes on to the opponent and Play): left on the card, it
  // would be out of sight, and the player would Tab past every other card to reach Play.
  const choose = (g) => {
    $("game").value = g.name;
    drawForm();
    $("game").focus({ preventScroll: true });
    $("create-panel").scrollIntoView({ behavior: "smooth" });
  };
  // A card is a button for the keyboard too: Tab reaches it, Enter or Space chooses it.
  // Beside each card (not inside it: a button in a button), "Learn to play" for the games
  // with a tutorial: the same few words under every card (a game's whole title would wrap
  // under some cards and not others), the game named in its accessible name.
  $("games").replaceChildren(...catalogue.map((g) => el("div", { class: "game-slot" }, el("div", {
    class: "game-card", dataset: { game: g.name }, tabindex: "0", role: "button",
    "aria-label": `${g.title}: ${g.summary} (${g.players} players)`,
    onclick: () => choose(g),
    onkeydown: (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      choose(g);
    },
  }, el("h3", {}, g.title), el("p", {}, g.summary), el("p", { class: "players" }, `${g.players} players`)),
  // The rules to read before a first game (js/rules.js opens them: the game's defaults).
  el("p", { class: "game-links" }, ...(g.tutorial ? [el("button", {
    type: "button", class: "learn", id: `learn-${g.name}`, "aria-label": `Learn to play ${g.title}`,
    onclick: (event) => learn(g, event.target),
  }, "Learn to play")] : []), el("button", {
    type: "button", class: "learn", id: `rules-${g.name}`, dataset: { rulesGame: g.name },
    "aria-label": `The rules of ${g.title}`,
  }, "Rules")))));
  $("game").replaceChildren(...catalogue.map((g) => el("option", { value: g.name }, g.title)));
  // A tutorial's last link (/?game=edges) comes back with its game chosen.
  // A name typed by hand may be spelt as the code spells it (triangle_clock) or as its
  // title: it finds its game; one that finds none says so, not Edges chosen without a word.
  const asked = new URLSearchParams(location.search).get("game");
  if (asked) {
    const key = (text) => text.toLowerCase().replace(/^the /, "").replace(/[^a-z0-9]+/g, "-");
    const wanted = key(asked);
    const found = catalogue.find((g) => key(g.name) === wanted || key(g.title) === wanted);
    if (found) $("game").value = found.name;
    else toast(`No game "${asked}" here; the games are ${catalogue.map((g) => g.name).join(", ")}.`, "error");
  }
  $("game").addEventListener("change", drawForm);
  $("create").addEventListener("submit", create);
  $("options").addEventListener("change", () => { applicable(chosenGame()); drawSeats(); opponentChosen(); checkOptions(); });
  // As a number is typed (Erd's best of 1 has no drawn games to replay), not when it is left.
  $("options").addEventListener("input", () => { applicable(chosenGame()); checkOptions(); });
  $("opponent").addEventListener("change", opponentChosen);
  $("players").addEventListener("change", () => { applicable(chosenGame()); drawSeats(); opponentChosen(); checkOptions(); });
  $("seats").addEventListener("change", seatsChanged);
  // The name is kept in this browser only and sent when taking a seat.
  $("my-name").value = localStorage.getItem("meeple-name") || "";
  $("my-name").addEventListener("change", () => {
    const name = $("my-name").value.trim();
    if (name) localStorage.setItem("meeple-name", name);
    else localStorage.removeItem("meeple-name");
  });
  drawForm();
  // A tutorial's last link asks for the easy computer (/?game=edges&against=easy), whatever
  // this browser chose before: someone a lesson old plays a first game.
  const against = new URLSearchParams(location.search).get("against");
  if ([...$("opponent").options].some((o) => o.value === against && !o.hidden)) {
    $("opponent").value = against;
    opponentChosen();
  }
  refresh();
  setInterval(refresh, 4000);
}

titlesOnTap();
setUp().catch((error) => toast(error.message, "error"));
