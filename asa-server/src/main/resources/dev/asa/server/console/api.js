// The console's one door to the API: the caller's key, and every request signed with it exactly as
// dev.asa.http.RequestSigner signs it (RFC 9421, label sig1, covering "@method" "@target-uri" and,
// for a body, "content-digest"). The server answers the console as it answers the CLI: the console
// adds no access of its own.
//
// The key file (the JWK that `asa keys new` writes) is imported into WebCrypto as a non-extractable
// Ed25519 key held in this module's memory only: never stored, never sent. Reloading forgets it.

const ZERO_HASH = 'sha256:' + '0'.repeat(64);
const encoder = new TextEncoder();

/** The signed-in caller: { key: CryptoKey, keyId, party, operator }, or null. */
let session = null;

export function currentSession() {
  return session;
}

export function startSession(key, keyId, party, operator) {
  session = Object.freeze({ key, keyId, party, operator });
}

export function endSession() {
  session = null;
}

// ---- encoding ---------------------------------------------------------------------------------

function base64(bytes) {
  let s = '';
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

export function base64Url(bytes) {
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

/** The digest of a text's UTF-8 bytes as the server writes it (a deliverable's content_hash). */
export function contentDigest(text) {
  return sha256(text);
}

/** The members outside the signed terms, as dev.asa.document.Agreement.UNSIGNED_MEMBERS. */
const UNSIGNED_MEMBERS = ['status', 'signatures', 'metadata'];

/**
 * The agreement_hash of a document, computed here as the server computes it: SHA-256 over the JCS
 * form of the document without status, signatures and metadata.
 */
export async function agreementHash(doc) {
  const terms = { ...doc };
  for (const member of UNSIGNED_MEMBERS) delete terms[member];
  return sha256(canonicalize(terms));
}

/** Recomputes each event's hash and link, as dev.asa.lifecycle.EventChain does: [{ok, why}]. */
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

// ---- the key ----------------------------------------------------------------------------------

/** Reads a key file into a non-extractable signing key; answers { key, keyId } or throws. */
export async function importKeyFile(file) {
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

/**
 * The caller's Ed25519 signature over an agreement_hash (its UTF-8 text), base64url: what
 * POST /agreements/{id}/sign takes, as the SDK makes it.
 */
export async function signAgreementHash(agreementHash) {
  return base64Url(await crypto.subtle.sign({ name: 'Ed25519' }, session.key, encoder.encode(agreementHash)));
}

// ---- signed requests --------------------------------------------------------------------------

/** An error answer of the API, with its problem document. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(status + ' ' + (problem.title || '') + (problem.detail ? ': ' + problem.detail : ''));
    this.status = status;
    this.problem = problem;
  }
}

/** One API call, signed as RequestSigner signs it; answers the parsed JSON or throws ApiError. */
export async function api(method, pathAndQuery, body) {
  if (!session) throw new Error('not signed in');
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
