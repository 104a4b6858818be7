// Helpers the game drawings share: SVG and HTML elements, and the drawing contract's
// clickable elements (class "clickable", a data-hint, data-move when it sends a move).

const SVG_NS = "http://www.w3.org/2000/svg";

/** A count with its noun in the right number: counted(1, "card") is "1 card", counted(3,
 * "card") "3 cards"; plural for a noun not made plural by an s (the server's core.words). */
export function counted(number, noun, plural = null) {
  const n = Number(number ?? 0);
  return `${n.toLocaleString("en")} ${n === 1 ? noun : plural || `${noun}s`}`;
}

/** Text as a sentence, for a screen reader to pause after: a full stop added unless it
 * ends with one (or "!" or "?"). */
export function sentence(text) {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Whether this device points with a finger (a phone, a tablet): nothing hovers, and a
 * press is a tap. */
export const TOUCH = Boolean(globalThis.matchMedia?.("(pointer: coarse)").matches);

/** The word for pressing a part of the page with what this device points with: "tap" on a
 * touch screen, "click" with a mouse; the pages' instructions say it, a phone having no
 * clicks. Capitalised at a sentence's start with `CLICK[0].toUpperCase()`. */
export const CLICK = TOUCH ? "tap" : "click";

/** An SVG element with attributes, appended to parent; text becomes its content. */
export function svg(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** An HTML element with attributes ("class" sets className), appended to parent. */
export function html(tag, attrs = {}, parent = null, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

/** Makes a node clickable: a step of a move (onClick), or a whole move (move: its notation).
 * What a screen reader says of it is the hint, or `label` where the hint is notation that
 * needs more words. */
export function clickable(node, hint, { onClick = null, move = null, ui = null, label = null } = {}) {
  node.classList.add("clickable");
  node.setAttribute("data-hint", hint);
  if (move !== null) node.setAttribute("data-move", move);
  const act = (event) => {
    event.stopPropagation();
    if (move !== null && ui) ui.move(move);
    else if (onClick) onClick(event);
  };
  node.addEventListener("click", act);
  // A real <button> is reachable and pressed by keyboard already; anything else (an SVG
  // shape, a card drawn as a div) is made a button for the keyboard and screen readers.
  if (!(node instanceof HTMLButtonElement)) {
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", label || hint);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        act(event);
      }
    });
  }
  const title = document.createElementNS(SVG_NS, "title");
  title.textContent = hint;
  if (node instanceof SVGElement) node.appendChild(title);
  else node.title = hint;
  return node;
}

/** The line under a hand that says how many of its cards are greyed, and where a click on one
 * (a tap on a touch screen: `CLICK`) says why (:func:`unplayable`); null when none is.
 * `when`: "this turn", "now". */
export function unplayableLine(parent, count, className, when) {
  if (!count) return null;
  return html("div", { class: className, "aria-live": "polite" }, parent,
    `${counted(count, "greyed card")} cannot be played ${when}: ${CLICK} one to see why.`);
}

/** A piece the player holds that no legal move uses now (a card game's card): marked
 * `aria-disabled` for a screen reader, `why` (the rules' words, the state message's
 * `unplayable`) on hover, and a click or a key on it says why in `line`, so that a newcomer
 * is not left clicking at a card that does nothing. The caller greys it with its own
 * class. */
export function unplayable(node, name, why, line) {
  node.setAttribute("aria-disabled", "true");
  if (!why) return;
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.title = `${why}.`;
  const say = () => { line.textContent = `Why not ${name}? ${why}.`; };
  node.addEventListener("click", say);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      say();
    }
  });
}

const styles = new Map(); // name -> a promise settled once its stylesheet loaded or failed

/**
 * Links a game's own stylesheet once (static/games/<name>.css) and returns a promise that
 * settles when it has loaded (or failed to): a picture drawn before its styles arrive is
 * laid out unstyled for a moment (a control far below the window, then moving).
 */
export function gameStyle(name, baseUrl) {
  if (!styles.has(name)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = new URL(`./${name}.css`, baseUrl).href;
    link.dataset.gameStyle = name;
    styles.set(name, new Promise((settle) => {
      link.addEventListener("load", settle);
      link.addEventListener("error", settle);
    }));
    document.head.appendChild(link);
  }
  return styles.get(name);
}

const cardLists = new Map(); // game and options -> Map id -> card, or "fetching"

/**
 * A game's cards for a match's options (GET /api/games/<game>/cards?options=: views name
 * cards by id, and the options choose the cards: an installed content set, Erosion's legend
 * cards) as a Map from id to card, fetched once per page and options. Null until it has
 * arrived; then `ui.redraw()` draws again with it. A failed fetch is tried again on a later
 * call.
 */
export function cardList(game, ui, options = {}) {
  const chosen = JSON.stringify(options || {});
  const key = `${game} ${chosen}`;
  const known = cardLists.get(key);
  if (known instanceof Map) return known;
  if (known === "fetching") return null;
  cardLists.set(key, "fetching");
  const query = chosen === "{}" ? "" : `?options=${encodeURIComponent(chosen)}`;
  fetch(`/api/games/${encodeURIComponent(game)}/cards${query}`)
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(r.statusText))))
    .then((list) => {
      cardLists.set(key, new Map(list.map((c) => [c.id, c])));
      ui.redraw();
    })
    .catch(() => cardLists.delete(key));
  return null;
}

let offered = ""; // the decision last drawn (revealOffer's key)

/** On a phone a game's table is taller than the screen, and a new decision was offered out
 * of sight, unscrolled to (Squad Combat's target at the top after a card played from the
 * page's foot, The Triangle Clock's cards under its table at every choice, Erosion's River
 * rock to transport above its hand). A new decision (`key`: what is asked, and any part of
 * a move chosen; "" when nothing is) none of whose parts is in sight scrolls to its first
 * part; a redraw that asks nothing new, or one the person can see a part of, leaves the page
 * where they scrolled it. `pinned`: a bar the game pins over the page as it scrolls (its
 * own buttons are no part sought, and what lies under it is out of sight). */
export function revealOffer(root, key, pinned = null) {
  if (key === offered) return;
  offered = key;
  const parts = key ? [...root.querySelectorAll(".clickable")].filter((p) => !pinned || !pinned.contains(p)) : [];
  const top = pinned ? pinned.getBoundingClientRect().bottom : 0;
  const inSight = (part) => {
    const r = part.getBoundingClientRect();
    return r.bottom > top && r.top < window.innerHeight;
  };
  if (parts.length && !parts.some(inSight)) parts[0].scrollIntoView({ block: "center", behavior: "instant" });
}
