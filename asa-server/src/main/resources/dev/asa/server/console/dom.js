// Small DOM helpers. Data from the server is only ever written as text (textContent), never as
// HTML, so nothing in an agreement can become markup or script in the page.

export const $ = (id) => document.getElementById(id);

export function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

function fill(cell, value) {
  if (value instanceof Node) cell.append(value);
  else cell.textContent = value === undefined || value === null || value === '' ? '—' : String(value);
}

export function definitionList(pairs) {
  const dl = el('dl');
  for (const [term, value] of pairs) {
    dl.append(el('dt', term));
    const dd = el('dd');
    fill(dd, value);
    dl.append(dd);
  }
  return dl;
}

/** Identifiers longer than this are shown shortened, whole in their title and on the clipboard. */
const SHORT_ID = 24;

/**
 * A long identifier made short enough to read in a row: a did:key keeps its method and the first
 * characters of its key ("did:key:z6Mk…a1b2"), anything else its first 8 characters; both keep
 * the last 4. Short identifiers are returned as they are.
 */
export function shortId(text) {
  const s = String(text);
  if (s.length <= SHORT_ID) return s;
  const head = s.startsWith('did:key:') ? 'did:key:'.length + 4 : 8;
  return s.slice(0, head) + '…' + s.slice(-4);
}

/** Says, in the page's one polite live region, what a copy button did. */
function announce(message) {
  const region = $('copy-status');
  if (region) region.textContent = message;
}

/**
 * An identifier (a did:key, a key, an identity) as a row can hold it: shortened, with the whole
 * value in its title (a pointer's tooltip) and a button that copies the whole value. A short one
 * is written whole, without a button.
 *
 * @param what how the copy button names it, e.g. "the client's identity"
 */
export function idText(value, what = 'the identifier') {
  if (value === undefined || value === null || value === '') return el('span', '—');
  const full = String(value);
  const short = shortId(full);
  if (short === full) return el('span', full, 'id');
  const wrap = el('span', null, 'id');
  const text = el('span', short, 'mono');
  text.title = full;
  const copy = el('button', 'Copy', 'copy');
  copy.type = 'button';
  copy.setAttribute('aria-label', 'Copy ' + what + ' in full');
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(full);
      announce('Copied ' + what + ' (' + short + ') to the clipboard.');
      copy.textContent = 'Copied';
      setTimeout(() => { copy.textContent = 'Copy'; }, 2000);
    } catch (e) {
      announce('Could not copy ' + what + ': ' + e.message + '. Its whole value is in the title of ' + short + '.');
    }
  });
  wrap.append(text, copy);
  return wrap;
}

/** Display names longer than this are cut in the page; the title holds up to NAME_TITLE of one. */
const NAME_SHOWN = 40;
const NAME_TITLE = 200;

/**
 * Text a party chose, made inert for showing: control and format characters (a NUL, an escape, a
 * bidirectional override, a lone surrogate) become U+FFFD, and text longer than max characters
 * keeps its first ones and ends in "…". Only the first characters are looked at, however long.
 */
export function inertText(text, max) {
  const head = Array.from(String(text).slice(0, 2 * (max + 1))).slice(0, max + 1);
  const clean = head.map((c) => (/^[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]$/u.test(c) ? '\uFFFD' : c));
  return clean.length > max ? clean.slice(0, max - 1).join('') + '…' : clean.join('');
}

/**
 * A party's display name as the page shows it: text (never markup), made inert and cut (see
 * inertText), in a <bdi> so that right-to-left text in it cannot reorder what stands beside it,
 * with the name (up to NAME_TITLE characters) in its title.
 */
export function nameText(name) {
  const shown = el('bdi', inertText(name, NAME_SHOWN), 'name');
  shown.title = inertText(name, NAME_TITLE);
  return shown;
}

/** A table in a horizontally scrolling box (narrow screens), with a caption for screen readers. */
export function table(caption, headers, rows) {
  const t = el('table');
  t.createCaption().textContent = caption;
  const head = t.createTHead().insertRow();
  for (const h of headers) {
    const th = el('th', h);
    th.scope = 'col';
    head.append(th);
  }
  const tbody = t.createTBody();
  for (const row of rows) {
    const tr = tbody.insertRow();
    for (const cell of row) fill(tr.insertCell(), cell);
  }
  const box = el('div', null, 'table-box');
  box.tabIndex = 0; // a scrolling region must be reachable by keyboard
  box.setAttribute('role', 'region');
  box.setAttribute('aria-label', caption);
  box.append(t);
  return box;
}

/** A labelled <meter>, with its value also written out (a meter alone is not read by everyone). */
export function meter(label, value, { min = 0, max = 100, low, high, optimum, text } = {}) {
  const wrap = el('span', null, 'meter');
  const m = el('meter');
  m.min = min;
  m.max = max;
  if (low !== undefined) m.low = low;
  if (high !== undefined) m.high = high;
  if (optimum !== undefined) m.optimum = optimum;
  m.value = Number(value) || 0;
  m.setAttribute('aria-label', label);
  wrap.append(m, el('span', text ?? String(value)));
  return wrap;
}

/** A heading with an id, for sections of a page. */
export function heading(level, text, id) {
  const h = el('h' + level, text);
  if (id) h.id = id;
  return h;
}

/** "3 h 04 min", "42 s", or "overdue by 5 min". */
export function countdown(dueAt, now = Date.now()) {
  let ms = Date.parse(dueAt) - now;
  const overdue = ms < 0;
  ms = Math.abs(ms);
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const text = d > 0 ? d + ' d ' + h + ' h' : h > 0 ? h + ' h ' + String(m).padStart(2, '0') + ' min'
    : m > 0 ? m + ' min ' + String(s % 60).padStart(2, '0') + ' s' : (s % 60) + ' s';
  return overdue ? 'due ' + text + ' ago' : 'in ' + text;
}

/** Writes a refusal (or any message) into an alert region; clears it with null. */
export function say(region, message, kind = 'error') {
  region.textContent = message ?? '';
  region.className = message ? kind : '';
  region.hidden = !message;
}
