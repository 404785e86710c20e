// The ASA console (issue 18). Plain JavaScript, no build step, no other host.
//
// Sign-in imports the caller's own key file (the JWK that `asa keys new` writes) into WebCrypto as
// a non-extractable Ed25519 key held in memory only. Every API call is signed exactly as
// dev.asa.http.RequestSigner signs it (RFC 9421, label sig1, covering "@method" "@target-uri" and,
// for a body, "content-digest"), so the server answers the console as it answers the CLI: the
// console adds no access of its own. Data from the server is written with textContent only.

const ZERO_HASH = 'sha256:' + '0'.repeat(64);
const encoder = new TextEncoder();

/** The signed-in caller: { key: CryptoKey, keyId, party }, or null. Never stored anywhere. */
let session = null;
let listItems = [];
let nextCursor = null;

// ---- encoding ---------------------------------------------------------------------------------

function base64(bytes) {
  let s = '';
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

function base64Url(bytes) {
  return base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function hex(bytes) {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
}

function base64UrlDecode(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(bytes) {
  const digits = [0];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i] << 8;
      digits[i] = carry % 58;
      carry = Math.floor(carry / 58);
    }
    while (carry > 0) {
      digits.push(carry % 58);
      carry = Math.floor(carry / 58);
    }
  }
  let out = '';
  for (const byte of bytes) {
    if (byte !== 0) break;
    out += '1';
  }
  for (let i = digits.length - 1; i >= 0; i--) out += BASE58[digits[i]];
  return out;
}

/** The did:key of a public key given as base64url (as dev.asa.crypto.DidKey writes it). */
export function didKey(x) {
  const raw = base64UrlDecode(x);
  if (raw.length !== 32) throw new Error('a public key is 32 bytes; this one is ' + raw.length);
  return 'did:key:z' + base58(Uint8Array.of(0xed, 0x01, ...raw));
}

/** RFC 8785 (JCS): JSON.stringify already writes numbers and strings as JCS does; sort members. */
export function canonicalize(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return '[' + value.map(canonicalize).join(',') + ']';
  const keys = Object.keys(value).sort();
  return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonicalize(value[k])).join(',') + '}';
}

async function sha256(text) {
  return 'sha256:' + hex(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

// ---- the key and the signed requests ----------------------------------------------------------

async function importKeyFile(file) {
  let jwk;
  try {
    jwk = JSON.parse(await file.text());
  } catch {
    throw new Error('the file is not JSON: choose the key file that "asa keys new" wrote');
  }
  if (!jwk || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519'
      || typeof jwk.d !== 'string' || typeof jwk.x !== 'string') {
    throw new Error('the file is not an Ed25519 private key (a JWK with kty OKP, crv Ed25519, d and x)');
  }
  const clean = { kty: 'OKP', crv: 'Ed25519', d: jwk.d, x: jwk.x };
  let key;
  let publicKey;
  try {
    key = await crypto.subtle.importKey('jwk', clean, { name: 'Ed25519' }, false, ['sign']);
    publicKey = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
      { name: 'Ed25519' }, false, ['verify']);
  } catch (e) {
    throw new Error('this browser could not import the key (' + e.message + ')');
  }
  // The keyid sent is "x": check it belongs to "d", as KeyFile.read does, before using it.
  const probe = encoder.encode('asa console key check');
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, key, probe);
  if (!(await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, signature, probe))) {
    throw new Error('the key file is damaged: its public key "x" does not match its private key "d"');
  }
  return { key, keyId: jwk.x };
}

/** An error answer of the API, with its problem document. */
class ApiError extends Error {
  constructor(status, problem) {
    super(status + ' ' + (problem.title || '') + (problem.detail ? ': ' + problem.detail : ''));
    this.status = status;
    this.problem = problem;
  }
}

/** One API call, signed as RequestSigner signs it; answers the parsed JSON or throws ApiError. */
async function api(method, pathAndQuery, body) {
  const uri = new URL(pathAndQuery, location.origin).href;
  const bytes = body === undefined ? null : encoder.encode(JSON.stringify(body));
  const nonce = base64Url(crypto.getRandomValues(new Uint8Array(16)));
  const created = Math.floor(Date.now() / 1000);
  const headers = { Accept: 'application/json' };
  let covered = '("@method" "@target-uri")';
  let base = '"@method": ' + method + '\n"@target-uri": ' + uri + '\n';
  if (bytes && bytes.length > 0) {
    const digest = 'sha-256=:' + base64(await crypto.subtle.digest('SHA-256', bytes)) + ':';
    covered = '("@method" "@target-uri" "content-digest")';
    base += '"content-digest": ' + digest + '\n';
    headers['Content-Digest'] = digest;
    headers['Content-Type'] = 'application/json';
  }
  const params = covered + ';created=' + created + ';nonce="' + nonce + '";keyid="'
    + session.keyId + '";alg="ed25519"';
  base += '"@signature-params": ' + params;
  const signature = await crypto.subtle.sign({ name: 'Ed25519' }, session.key, encoder.encode(base));
  headers['Signature-Input'] = 'sig1=' + params;
  headers.Signature = 'sig1=:' + base64(signature) + ':';
  const response = await fetch(uri, {
    method, headers, body: bytes, cache: 'no-store', credentials: 'omit', redirect: 'error',
  });
  let json = null;
  try {
    json = await response.json();
  } catch {
    json = {};
  }
  if (!response.ok) throw new ApiError(response.status, json || {});
  return json;
}

// ---- small DOM helpers (text only, never HTML from data) --------------------------------------

const $ = (id) => document.getElementById(id);

function el(tag, text, className) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

function definitionList(pairs) {
  const dl = el('dl');
  for (const [term, value] of pairs) {
    dl.append(el('dt', term));
    const dd = el('dd');
    if (value instanceof Node) dd.append(value); else dd.textContent = value ?? '—';
    dl.append(dd);
  }
  return dl;
}

function table(headers, rows) {
  const t = el('table');
  const head = t.createTHead().insertRow();
  for (const h of headers) head.append(el('th', h));
  const tbody = t.createTBody();
  for (const row of rows) {
    const tr = tbody.insertRow();
    for (const cell of row) {
      const td = tr.insertCell();
      if (cell instanceof Node) td.append(cell); else td.textContent = cell ?? '—';
    }
  }
  return t;
}

function show(section) {
  for (const id of ['sign-in', 'list', 'agreement']) $(id).hidden = id !== section;
}

// ---- sign-in ----------------------------------------------------------------------------------

async function onKeyChosen() {
  const error = $('sign-in-error');
  error.hidden = true;
  const file = $('key-file').files[0];
  if (!file) return;
  try {
    const { key, keyId } = await importKeyFile(file);
    // As "asa agreements list" does: without an identity, the key's own did:key.
    const party = $('party').value.trim() || didKey(keyId);
    session = { key, keyId, party };
  } catch (e) {
    error.textContent = 'Sign-in failed: ' + e.message;
    error.hidden = false;
  } finally {
    $('key-file').value = ''; // the file's content is not kept by the form either
  }
  if (session) {
    $('who').textContent = session.party + ' · key ' + session.keyId;
    $('who').hidden = false;
    $('sign-out').hidden = false;
    route();
  }
}

function signOut() {
  session = null;
  listItems = [];
  $('who').hidden = true;
  $('sign-out').hidden = true;
  $('agreements').tBodies[0].replaceChildren();
  $('agreement-body').replaceChildren();
  location.hash = '#/';
  route();
}

// ---- the list ---------------------------------------------------------------------------------

async function loadList(more) {
  const status = $('list-status');
  status.classList.remove('error');
  status.textContent = 'Loading…';
  if (!more) {
    listItems = [];
    nextCursor = null;
  }
  try {
    let path = '/agreements?party=' + encodeURIComponent(session.party) + '&limit=50';
    if (more && nextCursor) path += '&cursor=' + encodeURIComponent(nextCursor);
    const page = await api('GET', path);
    listItems = listItems.concat(page.items || []);
    nextCursor = page.next_cursor || null;
    renderList();
  } catch (e) {
    status.textContent = 'The server refused the list: ' + e.message;
    status.classList.add('error');
  }
}

function renderList() {
  const state = $('state-filter').value;
  const search = $('search').value.trim();
  const shown = listItems.filter((a) => (!state || a.state === state)
    && (!search || String(a.agreement_id).includes(search)));
  const tbody = $('agreements').tBodies[0];
  tbody.replaceChildren();
  for (const a of shown) {
    const tr = tbody.insertRow();
    const link = el('a', a.agreement_id, 'mono');
    link.href = '#/agreements/' + encodeURIComponent(a.agreement_id);
    tr.insertCell().append(link);
    tr.insertCell().append(el('span', a.state, 'state'));
    for (const v of [a.service_type, a.client, a.provider, a.created_at]) tr.insertCell().textContent = v ?? '—';
  }
  $('list-status').textContent = shown.length + ' of ' + listItems.length + ' agreement(s) loaded'
    + (nextCursor ? ' (more on the server)' : '');
  $('more').hidden = !nextCursor;
}

// ---- one agreement ----------------------------------------------------------------------------

/** Recomputes each event's hash and link; answers [{ok, why}] per event. */
export async function checkChain(agreementId, events) {
  const out = [];
  let previous = ZERO_HASH;
  for (const e of events) {
    const body = {
      agreement_id: agreementId, seq: e.seq, type: e.type, actor: e.actor, at: e.at,
      payload: e.payload, prev_hash: e.prev_hash,
    };
    const hash = await sha256(canonicalize(body));
    if (e.prev_hash !== previous) out.push({ ok: false, why: 'prev_hash is not the previous event\'s hash' });
    else if (hash !== e.hash) out.push({ ok: false, why: 'hash does not match the content (recomputed ' + hash + ')' });
    else out.push({ ok: true, why: 'hash recomputed' });
    previous = e.hash;
  }
  return out;
}

function actorText(actor) {
  if (actor === null || actor === undefined) return '—';
  if (typeof actor !== 'object') return String(actor);
  return actor.role ? actor.role + (actor.key ? ' ' + actor.key : '') : canonicalize(actor);
}

async function showAgreement(id) {
  const error = $('agreement-error');
  const body = $('agreement-body');
  error.hidden = true;
  body.replaceChildren();
  $('agreement-title').textContent = 'Agreement ' + id;
  const path = '/agreements/' + encodeURIComponent(id);
  let envelope;
  let events;
  try {
    [envelope, events] = await Promise.all([api('GET', path), api('GET', path + '/events')]);
  } catch (e) {
    // The API's refusal, shown as it is; nothing of the agreement is shown.
    error.textContent = 'The server refused: ' + e.message;
    error.hidden = false;
    return;
  }
  if (location.hash !== '#/agreements/' + encodeURIComponent(id)) return; // navigated away
  const doc = envelope.agreement || {};
  const parties = doc.parties || {};
  const payment = (doc.escrow && doc.escrow.payment) || {};
  const party = (p) => (p ? (p.display_name || '') + ' (' + ((p.identity && p.identity.value) || '?') + ')' : '—');

  body.append(definitionList([
    ['State', el('span', envelope.state, 'state')],
    ['Service type', doc.service && doc.service.type],
    ['Amount', payment.amount ? payment.amount + ' ' + (payment.currency || '') : '—'],
    ['Client', party(parties.client)],
    ['Provider', party(parties.provider)],
    ['Evaluator', party(parties.evaluator)],
    ['Agreement hash', el('span', envelope.agreement_hash, 'mono')],
    ['Actions the server allows now', (envelope.allowed_actions || []).join(', ') || 'none'],
  ]));

  const criteria = doc.quality_criteria || {};
  body.append(el('h3', 'Terms'));
  const slo = (s) => (s ? s.operator + ' ' + JSON.stringify(s.value) : '—');
  body.append(table(['Dimension', 'Weight', 'Metric', 'SLO', 'Shadow metric', 'Shadow SLO'],
    (criteria.dimensions || []).map((d) => [d.name, d.weight, d.metric, slo(d.slo),
      d.shadow_metric, d.shadow_metric ? slo(d.shadow_slo) : '—'])));
  body.append(el('p', 'Composite threshold: ' + (criteria.composite_threshold ?? '—')
    + ' (' + (criteria.composite_method || '—') + ')'));

  body.append(el('h3', 'Events'));
  const list = events.events || [];
  const checks = await checkChain(id, list);
  const intact = checks.every((c) => c.ok);
  body.append(el('p', (intact ? 'Hash chain checked in this page: intact, ' : 'Hash chain checked in this page: BROKEN, ')
    + list.length + ' event(s). The server reports chain_valid = ' + events.chain_valid + '.',
  intact ? 'ok chain' : 'error chain'));
  body.append(table(['#', 'Type', 'Actor', 'At', 'Hash', 'Checked'], list.map((e, i) => [
    e.seq, e.type, actorText(e.actor), e.at, el('span', e.hash, 'mono'),
    el('span', checks[i].ok ? '✓ ' + checks[i].why : '✗ ' + checks[i].why, checks[i].ok ? 'ok' : 'error'),
  ])));

  body.append(el('h3', 'Escrow'));
  const escrowBox = el('div');
  body.append(escrowBox);
  try {
    const escrow = await api('GET', path + '/escrow');
    escrowBox.append(definitionList(Object.entries(escrow)
      .filter(([, v]) => v === null || typeof v !== 'object')
      .map(([k, v]) => [k, v === null ? '—' : String(v)])));
    if (Array.isArray(escrow.transfers) && escrow.transfers.length) {
      escrowBox.append(el('h4', 'Transfers'));
      escrowBox.append(table(['Transfer'], escrow.transfers.map((t) => [el('span', canonicalize(t), 'mono')])));
    }
  } catch (e) {
    escrowBox.append(el('p', 'No escrow to show: ' + e.message));
  }
}

// ---- routing ----------------------------------------------------------------------------------

function route() {
  if (!session) {
    show('sign-in');
    return;
  }
  const match = /^#\/agreements\/([^/]+)$/.exec(location.hash);
  if (match) {
    show('agreement');
    showAgreement(decodeURIComponent(match[1]));
  } else {
    show('list');
    loadList(false);
  }
}

$('key-file').addEventListener('change', onKeyChosen);
$('sign-in-form').addEventListener('submit', (e) => e.preventDefault());
$('sign-out').addEventListener('click', signOut);
$('state-filter').addEventListener('change', renderList);
$('search').addEventListener('input', renderList);
$('more').addEventListener('click', () => loadList(true));
window.addEventListener('hashchange', route);
route();
