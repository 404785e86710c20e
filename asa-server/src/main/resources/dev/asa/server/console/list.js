// The agreements list: the server filters (GET /agreements with state, service type, party, dates
// and amounts), pages with its cursor and counts by state (GET /agreements/counts). A party sees
// what the API lists for its key; the operator, everything.

import { api, currentSession } from './api.js';
import { $, el, idText, nameText, say } from './dom.js';

export const STATES = ['PROPOSED', 'NEGOTIATING', 'ACTIVE', 'DELIVERED', 'VERIFIED', 'DISPUTED',
  'CLOSED', 'REJECTED', 'EXPIRED'];

let items = [];
let nextCursor = null;

/** The query of the filter form, as the API names its parameters; without state for counts. */
function filterQuery(withState) {
  const q = new URLSearchParams();
  const session = currentSession();
  const party = $('f-party').value.trim();
  if (party) q.set('party', party);
  else if (!session.operator) q.set('party', session.party);
  if (withState && $('f-state').value) q.set('state', $('f-state').value);
  const text = (id, name) => {
    const v = $(id).value.trim();
    if (v) q.set(name, v);
  };
  text('f-service-type', 'service_type');
  text('f-min-amount', 'min_amount');
  text('f-max-amount', 'max_amount');
  text('f-currency', 'currency');
  // A date picks the whole day in UTC: from its first instant, up to (not including) the next day.
  if ($('f-from').value) q.set('created_after', $('f-from').value + 'T00:00:00Z');
  if ($('f-to').value) {
    const next = new Date($('f-to').value + 'T00:00:00Z');
    next.setUTCDate(next.getUTCDate() + 1);
    q.set('created_before', next.toISOString().replace('.000Z', 'Z'));
  }
  return q;
}

export function resetList() {
  items = [];
  nextCursor = null;
  $('agreements-rows').replaceChildren();
  $('state-counts').replaceChildren();
}

export async function loadList(more) {
  const status = $('list-status');
  say($('list-error'), null);
  status.textContent = 'Loading…';
  if (!more) {
    items = [];
    nextCursor = null;
  }
  try {
    const q = filterQuery(true);
    q.set('limit', '50');
    if (more && nextCursor) q.set('cursor', nextCursor);
    const page = await api('GET', '/agreements?' + q);
    items = items.concat(page.items || []);
    nextCursor = page.next_cursor || null;
    renderRows();
    if (!more) loadCounts();
  } catch (e) {
    status.textContent = '';
    say($('list-error'), 'The server refused the list: ' + e.message);
  }
}

async function loadCounts() {
  const box = $('state-counts');
  box.replaceChildren();
  try {
    // Never a bare "?": the server checks the signature against the URI without it.
    const query = filterQuery(false).toString();
    const answer = await api('GET', '/agreements/counts' + (query ? '?' + query : ''));
    for (const state of STATES) {
      const n = (answer.counts || {})[state] || 0;
      const b = el('button', state + ' ' + n, 'count');
      b.type = 'button';
      b.setAttribute('aria-pressed', String($('f-state').value === state));
      b.addEventListener('click', () => {
        $('f-state').value = $('f-state').value === state ? '' : state;
        loadList(false);
      });
      box.append(b);
    }
    box.append(el('span', 'total ' + answer.total + (answer.complete ? '' : ' (at least; counting stopped early)'), 'hint'));
  } catch (e) {
    box.append(el('span', 'No counts: ' + e.message, 'error'));
  }
}

/**
 * A party in its cell: the display name the agreement gives it (cut, as text), and beneath it the
 * identity (often a did:key) shortened, whole in its title and behind a copy button.
 */
function partyCell(cell, identity, name, what) {
  if (name && name !== identity) cell.append(nameText(name));
  cell.append(idText(identity, what + '\'s identity'));
}

function renderRows() {
  const tbody = $('agreements-rows');
  tbody.replaceChildren();
  for (const a of items) {
    const tr = tbody.insertRow();
    const link = el('a', a.agreement_id, 'mono');
    link.href = '#/agreements/' + encodeURIComponent(a.agreement_id);
    tr.insertCell().append(link);
    tr.insertCell().append(el('span', a.state, 'state state-' + String(a.state).toLowerCase()));
    const amount = a.amount ? a.amount + ' ' + (a.currency || '') : '—';
    for (const v of [a.service_type, amount]) tr.insertCell().textContent = v ?? '—';
    partyCell(tr.insertCell(), a.client, a.client_display_name, 'the client');
    partyCell(tr.insertCell(), a.provider, a.provider_display_name, 'the provider');
    tr.insertCell().textContent = a.created_at ?? '—';
  }
  $('list-status').textContent = items.length + ' agreement(s) shown'
    + (nextCursor ? '; more on the server' : '');
  $('more').hidden = !nextCursor;
}

/** Wires the list's controls once. */
export function installList(navigate) {
  $('filters').addEventListener('submit', (e) => {
    e.preventDefault();
    loadList(false);
  });
  // A reset clears the fields after this event: list again once it has (unless signed out).
  $('filters').addEventListener('reset', () => setTimeout(() => currentSession() && loadList(false), 0));
  $('more').addEventListener('click', () => loadList(true));
  $('open-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const id = $('open-id').value.trim();
    if (id) navigate('#/agreements/' + encodeURIComponent(id));
  });
}
